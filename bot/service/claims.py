"""Turn claims: one process thinks for the computer's turn, however many shard processes look.

A computer move takes seconds of search; two bot processes that both saw the computer to move
(a resumed game, a restart during a reshard) would both think and one would lose the race at
``play_move``.  The process claims the turn in the database first (one conditional update
that only one claimant can win) and thinks only if it won; the claim lapses when the move is
stored (the game's version changes), when it is released, or at its expiry if the process
died.
"""

from __future__ import annotations

from datetime import timedelta

from .checks import check_id, check_version, quote
from .convert import to_us
from .core import Feature
from .errors import InvalidInput

CLAIM_SECONDS = 300.0
"""How long a claim holds unless renewed or released: longer than any search the computer
runs, short enough that a crashed process's turn is taken over within minutes."""

MAX_CLAIMANT = 100
"""The longest process token accepted (it is stored with the game)."""


class TurnClaims(Feature):
    """Claiming and releasing a turn for a process (the computer's seat)."""

    async def claim_turn(
        self, game_id: int, version: int, claimant: str, seconds: float = CLAIM_SECONDS
    ) -> bool:
        """Claim the turn of active game ``game_id`` at ``version`` for ``claimant`` (a token
        naming this process) for ``seconds``; True if it is now ours, False if another
        claimant holds it or the game moved on.  Claiming again renews our own claim."""
        check_id(game_id, "game id")
        if check_version(version) is None:
            raise InvalidInput("The game version to claim must be given.")
        if not isinstance(claimant, str) or not 1 <= len(claimant) <= MAX_CLAIMANT:
            raise InvalidInput(
                "The claimant must be text of 1 to {most} characters, not {claimant}.",
                most=MAX_CLAIMANT,
                claimant=quote(claimant),
            )
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds > 0:
            raise InvalidInput(
                "The claim must last more than 0 seconds, not {seconds}.",
                seconds=quote(seconds),
            )
        now = self._now()
        until = now + timedelta(seconds=seconds)
        async with self.store.write() as tx:
            return await tx.claims.claim_turn(game_id, version, claimant, to_us(now), to_us(until))

    async def release_turn(self, game_id: int, claimant: str) -> None:
        """Give up ``claimant``'s claim on the game (after a failed attempt); a no-op if it
        holds none."""
        check_id(game_id, "game id")
        if not isinstance(claimant, str) or not 1 <= len(claimant) <= MAX_CLAIMANT:
            raise InvalidInput(
                "The claimant must be text of 1 to {most} characters, not {claimant}.",
                most=MAX_CLAIMANT,
                claimant=quote(claimant),
            )
        async with self.store.write() as tx:
            await tx.claims.release_turn(game_id, claimant)
