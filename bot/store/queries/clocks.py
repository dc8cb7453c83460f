"""Clocks: due deadlines and reminders, soft-time notices, the next wake-up, and vacations that
pause a player's games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

from ..rows import (
    ClockRow,
    GameRow,
    ShardFilter,
    VacationRow,
)
from ..sql import (
    UPSERT_VACATION,
    VACATION_FIELDS,
    VACATIONS,
    Row,
    in_chunks,
    marks,
    shard_clause,
    values_of,
)
from .base import Queries


class ClockQueries(Queries):
    """The clocks queries of one transaction (``tx.clocks``)."""

    async def due_games(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[GameRow]:
        # A UNION of two searches, so each uses its own partial index (deadline, reminder).
        """Active games whose deadline or next reminder is at or before ``now``, by id (of the
        servers in ``shards`` only, if given)."""
        held, held_args = shard_clause(shards)
        return await self._tx._games(
            f"WHERE id IN (SELECT id FROM games WHERE status = 'active' AND deadline_at <= ?{held}"
            f" UNION SELECT id FROM games WHERE status = 'active' AND remind_at <= ?{held})"
            " ORDER BY id LIMIT ?",
            (now, *held_args, now, *held_args, limit),
        )

    async def soft_time_games(
        self,
        now: int,
        default: int,
        shortest: int,
        limit: int,
        shards: ShardFilter | None = None,
    ) -> list[tuple[GameRow, int]]:
        """Untimed active games whose soft time (the server's, ``default`` seconds if it never
        set one) has passed at ``now``, counted from the turn's start or a vacation's end, and
        whose waiting player was not told yet this turn; by id, each with its soft time.
        ``shortest``: the least soft time a server may set, so the search uses its index."""
        held, held_args = shard_clause(shards)
        limit_us = "COALESCE((SELECT s.soft_time FROM guild_settings s"
        limit_us += " WHERE s.guild_id = games.guild_id), ?) * 1000000"
        rows = await self._tx._games(
            f"WHERE id IN (SELECT id FROM games WHERE status = 'active' AND deadline_at IS NULL"
            " AND per_move IS NULL AND bank_start IS NULL AND turn_started_at <= ?"
            " AND (soft_noticed_at IS NULL OR soft_noticed_at <= turn_started_at)"
            f" AND turn_started_at + {limit_us} <= ?"
            f" AND COALESCE(paused_until, 0) + {limit_us} <= ?{held})"
            " ORDER BY id LIMIT ?",
            (now - shortest * 1_000_000, default, now, default, now, *held_args, limit),
        )
        limits = {}
        for guild in {r.guild_id for r in rows}:
            found = await self._tx._one(
                "SELECT soft_time FROM guild_settings WHERE guild_id = ?", (guild,)
            )
            limits[guild] = default if found is None or found[0] is None else int(found[0])
        return [(r, limits[r.guild_id]) for r in rows]

    async def mark_soft_noticed(self, game_id: int, version: int, now: int) -> bool:
        """Record that the game's soft-time notice goes out now, if it did not already this
        turn and no vacation stops the game: true for exactly one caller (a conditional write;
        on PostgreSQL a racing one waits for the row and re-checks against the new value)."""
        found = await self._tx._returning(
            "UPDATE games SET soft_noticed_at = ? WHERE id = ? AND version = ?"
            " AND status = 'active' AND deadline_at IS NULL"
            " AND (soft_noticed_at IS NULL OR soft_noticed_at <= turn_started_at)"
            " AND (paused_until IS NULL OR paused_until <= ?) RETURNING id",
            (now, game_id, version, now),
        )
        return found is not None

    async def next_times(self) -> list[int]:
        """The earliest pending deadline, reminder and challenge expiry (those that exist)."""
        found = await self._tx._one(
            "SELECT (SELECT MIN(deadline_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(remind_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(expires_at) FROM challenges WHERE status = 'open')"
        )
        assert found is not None
        return [int(v) for v in tuple(found) if v is not None]

    async def restart_clock(self, row: GameRow, clock: ClockRow) -> GameRow:
        """Replace the turn's clock (no version bump)."""
        return await self._tx._versioned(row, asdict(clock))

    async def mark_reminder_sent(self, row: GameRow, remind_at: int | None) -> GameRow:
        """Count one more reminder for this turn and set the next one (no version bump)."""
        values = {"reminders_sent": row.reminders_sent + 1, "remind_at": remind_at}
        return await self._tx._versioned(row, values)

    async def shift_clock(
        self, row: GameRow, deadline_at: int | None, remind_at: int | None, paused_until: int | None
    ) -> GameRow:
        """Move the turn's deadline and next reminder and set ``paused_until`` (a vacation
        starts or ends; no version bump, so the board's buttons stay valid)."""
        values = {"deadline_at": deadline_at, "remind_at": remind_at, "paused_until": paused_until}
        return await self._tx._versioned(row, values)

    async def vacation(self, user_id: int) -> VacationRow | None:
        """The player's vacation row (None: they never took one)."""
        found = await self._tx._one(f"{VACATIONS} WHERE user_id = ?", (user_id,), lock=True)
        return None if found is None else VacationRow(*found)

    async def save_vacation(self, row: VacationRow) -> None:
        """Insert or replace the player's vacation row."""
        await self._tx._write(UPSERT_VACATION, values_of(row, VACATION_FIELDS))

    async def running_vacations(self, user_ids: Sequence[int], now: int) -> list[VacationRow]:
        """The vacations of these players that run at ``now`` (started, not yet over)."""
        if not user_ids:
            return []
        rows: list[Row] = []
        for chunk in in_chunks(user_ids):
            rows += await self._tx._fetch(
                f"{VACATIONS} WHERE user_id IN ({marks(chunk)}) AND started_at <= ?"
                " AND ends_at > ? ORDER BY user_id",
                (*chunk, now, now),
            )
        return [VacationRow(*r) for r in rows]

    async def active_games_of(self, user_id: int) -> list[GameRow]:
        """The player's active games in every server, by id (a vacation stops them all)."""
        return await self._tx._games(
            "WHERE id IN (SELECT id FROM games WHERE status = 'active' AND first_id = ?"
            " UNION SELECT id FROM games WHERE status = 'active' AND second_id = ?) ORDER BY id",
            (user_id, user_id),
            lock=True,
        )
