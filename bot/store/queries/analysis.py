"""Stored analyses (issue 48): one row per finished game and final version, first a claim
(exactly one process computes it), then the stored result."""

from __future__ import annotations

from ..rows import ANALYSIS_FIELDS, AnalysisRow
from .base import Queries

_SELECT = f"SELECT {', '.join(ANALYSIS_FIELDS)} FROM analyses"


class AnalysisQueries(Queries):
    """The analysis queries of one transaction (``tx.analysis``)."""

    async def analysis(self, game_id: int, game_version: int) -> AnalysisRow | None:
        """The analysis row (claim or result) of the game at ``game_version``, None if none."""
        found = await self._tx._one(
            f"{_SELECT} WHERE game_id = ? AND game_version = ?", (game_id, game_version)
        )
        return None if found is None else AnalysisRow(*found)

    async def lock_queue(self, guild_id: int) -> None:
        """Take the server's analysis-queue lock until this write block commits, so that the
        :meth:`running` count and the :meth:`claim` after it are one step: two requests for
        different games of one server cannot both see room and both claim (on PostgreSQL,
        READ COMMITTED would let them; SQLite's write lock serialises them anyway)."""
        await self._tx._serialise("analysis-queue", guild_id)

    async def running(self, guild_id: int, requester_id: int, now: int) -> tuple[int, int]:
        """How many analyses are being computed (an unexpired claim at ``now``) for the server
        ``guild_id``, and of those, how many ``requester_id`` asked for: the queue limits
        (in a write block, after :meth:`lock_queue`)."""
        found = await self._tx._one(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN requester_id = ? THEN 1 ELSE 0 END), 0)"
            " FROM analyses WHERE status = 'running' AND guild_id = ? AND claimed_until > ?",
            (requester_id, guild_id, now),
        )
        assert found is not None
        return int(found[0]), int(found[1])

    async def claim(self, row: AnalysisRow, now: int) -> bool:
        # One statement: of several claimants racing (PostgreSQL: waiting on the row's lock,
        # then re-checking the condition against the committed row) exactly one inserts or
        # takes over a lapsed claim; the others match nothing.
        """Claim the computation of ``row``'s analysis (``status`` 'running', ``claimed_by``
        and ``claimed_until`` set) for its claimant; True if this call holds the claim now.

        Succeeds when no row exists for the game and version, or the existing one is a claim
        that lapsed at ``now`` or is the same claimant's (a renewal).  A stored result
        ('done') is never claimed again."""
        fields = ", ".join(ANALYSIS_FIELDS)
        found = await self._tx._returning(
            f"INSERT INTO analyses ({fields}) VALUES ({', '.join('?' * len(ANALYSIS_FIELDS))})"
            " ON CONFLICT (game_id, game_version) DO UPDATE SET"
            " claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until,"
            " requester_id = excluded.requester_id, guild_id = excluded.guild_id,"
            " playouts = excluded.playouts, seed = excluded.seed"
            " WHERE analyses.status = 'running'"
            " AND (analyses.claimed_until <= ? OR analyses.claimed_by = excluded.claimed_by)"
            " RETURNING game_id",
            (*self._tx._row_args(row, ANALYSIS_FIELDS), now),
        )
        return found is not None

    async def renew(self, game_id: int, game_version: int, claimant: str, until: int) -> bool:
        """Extend ``claimant``'s running claim to ``until``; False if it no longer holds it."""
        found = await self._tx._returning(
            "UPDATE analyses SET claimed_until = ? WHERE game_id = ? AND game_version = ?"
            " AND status = 'running' AND claimed_by = ? RETURNING game_id",
            (until, game_id, game_version, claimant),
        )
        return found is not None

    async def store_result(
        self, game_id: int, game_version: int, result: str, playouts: int, seed: int, at: int
    ) -> bool:
        """Store the finished analysis (``status`` 'done', the claim cleared) in one update;
        False when a result is already stored (another claimant finished first: the same
        seeded analysis, so theirs stands)."""
        found = await self._tx._returning(
            "UPDATE analyses SET status = 'done', result = ?, playouts = ?, seed = ?,"
            " finished_at = ?, claimed_by = NULL, claimed_until = NULL"
            " WHERE game_id = ? AND game_version = ? AND status = 'running' RETURNING game_id",
            (result, playouts, seed, at, game_id, game_version),
        )
        return found is not None

    async def release(self, game_id: int, game_version: int, claimant: str) -> None:
        """Drop ``claimant``'s running claim (the computation failed): a retry starts afresh."""
        await self._tx._write(
            "DELETE FROM analyses WHERE game_id = ? AND game_version = ?"
            " AND status = 'running' AND claimed_by = ?",
            (game_id, game_version, claimant),
        )
