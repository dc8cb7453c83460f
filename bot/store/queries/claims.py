"""Turn claims: which process plays a computer's or a due turn, so that exactly one does."""

from __future__ import annotations

from .base import Queries


class ClaimQueries(Queries):
    """The claims queries of one transaction (``tx.claims``)."""

    async def claim_turn(
        self, game_id: int, version: int, claimant: str, now: int, until: int
    ) -> bool:
        # One UPDATE: a racing claim (PostgreSQL: waiting for this row's lock) re-checks the
        # condition against the committed claim and matches nothing.
        """Claim the turn of the active game ``game_id`` at ``version`` for ``claimant`` (a
        process token) until ``until``; True if this call holds the claim now.

        One conditional update, so of several processes (or tasks) claiming at once exactly
        one wins: it succeeds only if the game is still active at ``version`` and nobody else
        holds an unexpired claim for that version.  A claim lapses by itself when the game's
        version changes (the claimed move was played) or at ``until`` (its process died);
        claiming again with the same ``claimant`` renews it.  Not versioned otherwise: the
        game row's version and clock are left as they are."""
        found = await self._tx._returning(
            "UPDATE games SET claimed_by = ?, claimed_version = ?, claimed_until = ?"
            " WHERE id = ? AND status = 'active' AND version = ? AND (claimed_by IS NULL"
            " OR claimed_by = ? OR claimed_version <> ? OR claimed_until <= ?) RETURNING id",
            (claimant, version, until, game_id, version, claimant, version, now),
        )
        return found is not None

    async def release_turn(self, game_id: int, claimant: str) -> None:
        """Drop ``claimant``'s claim on the game, if it still holds one (nothing otherwise)."""
        await self._tx._write(
            "UPDATE games SET claimed_by = NULL, claimed_version = NULL, claimed_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            (game_id, claimant),
        )
