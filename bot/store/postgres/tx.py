"""The PostgreSQL transaction: the store interface's typed reads and writes as SQL.

Concurrency (why it is safe for many processes, and why no retry loop):

* Transactions run at READ COMMITTED.  Inside a **write** transaction every read of one game
  or one challenge takes its row lock (``SELECT … FOR UPDATE``).  Two commands on the same game
  therefore run one after the other: the second waits at its first read (a fraction of a
  millisecond, the first one's remaining work), then sees the committed result and refuses for
  the real reason (``NotYourTurn``, a stale ``expected_version``, game over) exactly as on
  SQLite, where ``BEGIN IMMEDIATE`` serialises everything.  Commands on different games never
  wait for each other, so shard processes scale.
* Every game write is still **versioned** (``WHERE id = $1 AND version = $2``) and reports
  ``WriteConflict`` when no row matched: a second line of defence for a row read without its
  lock (lists, ``read()`` snapshots handed to a write).
* Inserts race on unique keys, not on locks: a second active game in a channel violates the
  partial unique index ``games_one_active_per_channel`` (raised as ``ChannelTaken``) and a
  move for a ply already stored violates ``moves_pkey`` (raised as ``WriteConflict``); a
  deadlock or serialization failure is a ``WriteConflict`` too.  Each rolls the whole
  transaction back.
* SERIALIZABLE with a bounded retry was rejected: the body of a write transaction is the
  service's own code (it has already told the engine cache about the move), so the store
  cannot replay it, and the lock gives the same outcome without a retry.  Waiting for a lock is
  bounded by ``lock_timeout`` (``DatabaseBusy`` after it).
* ``read()`` transactions are ``REPEATABLE READ READ ONLY``: one consistent snapshot, no locks.

Each typed write is one statement (moves and the game row go together in one data-modifying
``WITH``), so a move costs three round trips to the server besides BEGIN/COMMIT.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg

from ..errors import WriteConflict
from ..rows import (
    AuditRow,
    ChallengeRow,
    ClockRow,
    EventRow,
    GameRow,
    MoveRow,
    NewChallenge,
    NewGame,
    ResultRow,
    SettingsRow,
)
from .errors import translate

_GAME_FIELDS = tuple(GameRow.__dataclass_fields__)
_CHALLENGE_FIELDS = tuple(ChallengeRow.__dataclass_fields__)
_GAME_COLUMNS = ", ".join(_GAME_FIELDS)
_CHALLENGE_COLUMNS = ", ".join(_CHALLENGE_FIELDS)
_CLEAR_TAKEBACK = "takeback_by = NULL, takeback_at = NULL, takeback_version = NULL"


def _pairs(value: Mapping[str, Any] | None) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((str(k), str(v)) for k, v in (value or {}).items()))


def game_row(record: Mapping[str, Any]) -> GameRow:
    values = {name: record[name] for name in _GAME_FIELDS}
    values["reminders"] = tuple(values["reminders"])
    values["options"] = _pairs(values["options"])
    return GameRow(**values)


def challenge_row(record: Mapping[str, Any]) -> ChallengeRow:
    values = {name: record[name] for name in _CHALLENGE_FIELDS}
    values["reminders"] = tuple(values["reminders"])
    values["options"] = _pairs(values["options"])
    return ChallengeRow(**values)


def settings_row(record: Mapping[str, Any]) -> SettingsRow:
    sizes = record["default_sizes"] or {}
    return SettingsRow(
        guild_id=record["guild_id"],
        allowed_channels=tuple(record["allowed_channels"]),
        use_threads=bool(record["use_threads"]),
        per_move=record["per_move"],
        reminders=tuple(record["reminders"]),
        default_sizes=tuple(sorted((str(k), int(v)) for k, v in sizes.items())),
        challenge_expiry=record["challenge_expiry"],
        updated_at=record["updated_at"],
    )


class PgTx:
    """One transaction on one pooled connection (from ``PostgresStore.read()``/``write()``)."""

    def __init__(self, conn: asyncpg.Connection, where: str, *, write: bool) -> None:
        self._conn = conn
        self._where = where
        self._lock = " FOR UPDATE" if write else ""

    # ----- plumbing -----------------------------------------------------------------------
    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        try:
            return list(await self._conn.fetch(sql, *args))
        except Exception as exc:
            raise translate(exc, self._where) from exc

    async def _fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        try:
            return await self._conn.fetchrow(sql, *args)
        except Exception as exc:
            raise translate(exc, self._where) from exc

    async def _execute(self, sql: str, *args: Any) -> str:
        try:
            return str(await self._conn.execute(sql, *args))
        except Exception as exc:
            raise translate(exc, self._where) from exc

    async def _versioned(self, row: GameRow, assignments: str, *args: Any) -> GameRow:
        """``UPDATE games SET <assignments>`` at ``row``'s version; WriteConflict otherwise.

        ``$1`` is the id and ``$2`` the version; ``args`` fill ``$3`` onwards.
        """
        found = await self._fetchrow(
            f"UPDATE games SET {assignments} WHERE id = $1 AND version = $2"
            f" RETURNING {_GAME_COLUMNS}",
            row.id,
            row.version,
            *args,
        )
        if found is None:
            raise WriteConflict("the game changed before this command could be saved")
        return game_row(found)

    # ----- settings -----------------------------------------------------------------------
    async def settings(self, guild_id: int) -> SettingsRow | None:
        found = await self._fetchrow(
            f"SELECT * FROM guild_settings WHERE guild_id = $1{self._lock}", guild_id
        )
        return None if found is None else settings_row(found)

    async def save_settings(self, row: SettingsRow) -> None:
        await self._execute(
            "INSERT INTO guild_settings (guild_id, allowed_channels, use_threads, per_move,"
            " reminders, default_sizes, challenge_expiry, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            " ON CONFLICT (guild_id) DO UPDATE SET allowed_channels = EXCLUDED.allowed_channels,"
            " use_threads = EXCLUDED.use_threads, per_move = EXCLUDED.per_move,"
            " reminders = EXCLUDED.reminders, default_sizes = EXCLUDED.default_sizes,"
            " challenge_expiry = EXCLUDED.challenge_expiry, updated_at = EXCLUDED.updated_at",
            row.guild_id,
            list(row.allowed_channels),
            row.use_threads,
            row.per_move,
            list(row.reminders),
            dict(row.default_sizes),
            row.challenge_expiry,
            row.updated_at,
        )

    # ----- challenges ---------------------------------------------------------------------
    async def insert_challenge(self, new: NewChallenge) -> ChallengeRow:
        found = await self._fetchrow(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, game,"
            " size, first, per_move, reminders, created_at, expires_at, options)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
            f" RETURNING {_CHALLENGE_COLUMNS}",
            new.guild_id,
            new.channel_id,
            new.challenger_id,
            new.opponent_id,
            new.game,
            new.size,
            new.first,
            new.per_move,
            list(new.reminders),
            new.created_at,
            new.expires_at,
            dict(new.options),
        )
        assert found is not None
        return challenge_row(found)

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        found = await self._fetchrow(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = $1{self._lock}", challenge_id
        )
        return None if found is None else challenge_row(found)

    async def resolve_challenge(
        self,
        challenge_id: int,
        status: str,
        at: int,
        accepted_by: int | None = None,
        game_id: int | None = None,
    ) -> ChallengeRow | None:
        found = await self._fetchrow(
            "UPDATE challenges SET status = $2, resolved_at = $3, accepted_by = $4, game_id = $5"
            f" WHERE id = $1 AND status = 'open' RETURNING {_CHALLENGE_COLUMNS}",
            challenge_id,
            status,
            at,
            accepted_by,
            game_id,
        )
        return None if found is None else challenge_row(found)

    async def open_challenges(
        self, guild_id: int, user_id: int | None = None
    ) -> list[ChallengeRow]:
        if user_id is None:
            rows = await self._fetch(
                f"SELECT {_CHALLENGE_COLUMNS} FROM challenges"
                " WHERE guild_id = $1 AND status = 'open' ORDER BY id",
                guild_id,
            )
        else:
            rows = await self._fetch(
                f"SELECT {_CHALLENGE_COLUMNS} FROM challenges"
                " WHERE guild_id = $1 AND status = 'open'"
                " AND (challenger_id = $2 OR opponent_id = $2) ORDER BY id",
                guild_id,
                user_id,
            )
        return [challenge_row(r) for r in rows]

    async def expiring_challenges(self, now: int, limit: int) -> list[ChallengeRow]:
        rows = await self._fetch(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges"
            " WHERE status = 'open' AND expires_at <= $1 ORDER BY expires_at, id LIMIT $2",
            now,
            limit,
        )
        return [challenge_row(r) for r in rows]

    # ----- games: reads -------------------------------------------------------------------
    async def game(self, game_id: int) -> GameRow | None:
        found = await self._fetchrow(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = $1{self._lock}", game_id
        )
        return None if found is None else game_row(found)

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        found = await self._fetchrow(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = $1 AND status = 'active'"
            f"{self._lock}",
            channel_id,
        )
        return None if found is None else game_row(found)

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        found = await self._fetchrow(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        return None if found is None else game_row(found)

    async def games_for_player(
        self, guild_id: int, user_id: int, active_only: bool, limit: int
    ) -> list[GameRow]:
        status = " AND status = 'active'" if active_only else ""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games"
            f" WHERE guild_id = $1 AND (first_id = $2 OR second_id = $2){status}"
            " ORDER BY updated_at DESC, id DESC LIMIT $3",
            guild_id,
            user_id,
            limit,
        )
        return [game_row(r) for r in rows]

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        if guild_id is None:
            rows = await self._fetch(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' ORDER BY id"
            )
        else:
            rows = await self._fetch(
                f"SELECT {_GAME_COLUMNS} FROM games"
                " WHERE guild_id = $1 AND status = 'active' ORDER BY id",
                guild_id,
            )
        return [game_row(r) for r in rows]

    async def due_games(self, now: int, limit: int) -> list[GameRow]:
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active'"
            " AND (deadline_at <= $1 OR remind_at <= $1) ORDER BY id LIMIT $2",
            now,
            limit,
        )
        return [game_row(r) for r in rows]

    async def next_times(self) -> list[int]:
        found = await self._fetchrow(
            "SELECT (SELECT MIN(deadline_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(remind_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(expires_at) FROM challenges WHERE status = 'open')"
        )
        assert found is not None
        return [int(v) for v in tuple(found) if v is not None]

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._fetch(
            "SELECT game_id, ply, move, user_id, played_at FROM moves WHERE game_id = $1"
            " ORDER BY ply",
            game_id,
        )
        return [MoveRow(*r) for r in rows]

    async def events(self, game_id: int) -> list[EventRow]:
        rows = await self._fetch(
            "SELECT id, game_id, at, kind, user_id, detail FROM game_events WHERE game_id = $1"
            " ORDER BY id",
            game_id,
        )
        return [EventRow(*r) for r in rows]

    # ----- games: writes ------------------------------------------------------------------
    async def insert_game(self, new: NewGame) -> GameRow:
        found = await self._fetchrow(
            "INSERT INTO games (guild_id, channel_id, game, size, first_id, second_id, status,"
            " version, record, to_move, per_move, reminders, turn_started_at, deadline_at,"
            " remind_at, reminders_sent, challenge_id, created_at, updated_at, options)"
            " VALUES ($1, $2, $3, $4, $5, $6, 'active', 0, $7, $8, $9, $10, $11, $12, $13, $14,"
            f" $15, $16, $16, $17) RETURNING {_GAME_COLUMNS}",
            new.guild_id,
            new.channel_id,
            new.game,
            new.size,
            new.first_id,
            new.second_id,
            new.record,
            new.to_move,
            new.per_move,
            list(new.reminders),
            new.clock.turn_started_at,
            new.clock.deadline_at,
            new.clock.remind_at,
            new.clock.reminders_sent,
            new.challenge_id,
            new.created_at,
            dict(new.options),
        )
        assert found is not None
        return game_row(found)

    async def record_moves(
        self,
        row: GameRow,
        moves: Sequence[MoveRow],
        *,
        record: str,
        to_move: str | None,
        at: int,
        clock: ClockRow | None = None,
        result: ResultRow | None = None,
    ) -> GameRow:
        assignments = [
            "version = version + 1",
            "record = $3",
            "to_move = $4",
            "updated_at = $5",
            _CLEAR_TAKEBACK,
        ]
        args: list[Any] = [record, to_move, at]
        if clock is not None:
            assignments.append(_clock_assignments(len(args) + 3))
            args += _clock_args(clock)
        if result is not None:
            assignments.append(_result_assignments(len(args) + 3))
            args += _result_args(result)
            assignments.append("deadline_at = NULL, remind_at = NULL, finished_at = $5")
        n = len(args) + 3
        found = await self._fetchrow(
            f"WITH changed AS (UPDATE games SET {', '.join(assignments)}"
            f" WHERE id = $1 AND version = $2 RETURNING {_GAME_COLUMNS}),"
            " added AS (INSERT INTO moves (game_id, ply, move, user_id, played_at)"
            " SELECT changed.id, m.ply, m.move, m.user_id, m.played_at FROM changed,"
            f" unnest(${n}::integer[], ${n + 1}::text[], ${n + 2}::bigint[], ${n + 3}::bigint[])"
            " AS m (ply, move, user_id, played_at))"
            " SELECT * FROM changed",
            row.id,
            row.version,
            *args,
            [m.ply for m in moves],
            [m.move for m in moves],
            [m.user_id for m in moves],
            [m.played_at for m in moves],
        )
        if found is None:
            raise WriteConflict("the game changed before this move could be saved")
        return game_row(found)

    async def finish_game(self, row: GameRow, result: ResultRow, *, at: int) -> GameRow:
        return await self._versioned(
            row,
            "version = version + 1, to_move = NULL, deadline_at = NULL, remind_at = NULL,"
            f" {_CLEAR_TAKEBACK}, updated_at = $3, finished_at = $3, {_result_assignments(4)}",
            at,
            *_result_args(result),
        )

    async def take_back(
        self,
        row: GameRow,
        from_ply: int,
        *,
        record: str,
        to_move: str | None,
        clock: ClockRow,
        at: int,
    ) -> GameRow:
        changed = await self._versioned(
            row,
            "version = version + 1, record = $3, to_move = $4, updated_at = $5,"
            f" {_CLEAR_TAKEBACK}, {_clock_assignments(6)}",
            record,
            to_move,
            at,
            *_clock_args(clock),
        )
        await self._execute("DELETE FROM moves WHERE game_id = $1 AND ply >= $2", row.id, from_ply)
        return changed

    async def request_takeback(self, row: GameRow, user_id: int, at: int) -> GameRow:
        return await self._versioned(
            row,
            "takeback_by = $3, takeback_at = $4, takeback_version = version",
            user_id,
            at,
        )

    async def clear_takeback(self, row: GameRow) -> GameRow:
        return await self._versioned(row, _CLEAR_TAKEBACK)

    async def restart_clock(self, row: GameRow, clock: ClockRow) -> GameRow:
        return await self._versioned(row, _clock_assignments(3), *_clock_args(clock))

    async def mark_reminder_sent(self, row: GameRow, remind_at: int | None) -> GameRow:
        return await self._versioned(
            row, "reminders_sent = reminders_sent + 1, remind_at = $3", remind_at
        )

    async def save_cached_state(self, row: GameRow, record: str, to_move: str | None) -> GameRow:
        return await self._versioned(row, "record = $3, to_move = $4", record, to_move)

    async def add_event(
        self, game_id: int, at: int, kind: str, user_id: int | None, detail: str = ""
    ) -> None:
        await self._execute(
            "INSERT INTO game_events (game_id, at, kind, user_id, detail)"
            " VALUES ($1, $2, $3, $4, $5)",
            game_id,
            at,
            kind,
            user_id,
            detail,
        )

    # ----- audit --------------------------------------------------------------------------
    async def add_audit(
        self,
        *,
        guild_id: int,
        actor_id: int,
        action: str,
        at: int,
        game_id: int | None = None,
        target_id: int | None = None,
        detail: str = "",
    ) -> None:
        await self._execute(
            "INSERT INTO audit_log (guild_id, actor_id, action, game_id, target_id, detail, at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7)",
            guild_id,
            actor_id,
            action,
            game_id,
            target_id,
            detail,
            at,
        )

    async def audit(self, guild_id: int, limit: int) -> list[AuditRow]:
        rows = await self._fetch(
            "SELECT id, guild_id, actor_id, action, game_id, target_id, detail, at"
            " FROM audit_log WHERE guild_id = $1 ORDER BY id DESC LIMIT $2",
            guild_id,
            limit,
        )
        return [AuditRow(*r) for r in rows]


def _clock_assignments(first: int) -> str:
    return (
        f"turn_started_at = ${first}, deadline_at = ${first + 1}, remind_at = ${first + 2},"
        f" reminders_sent = ${first + 3}"
    )


def _clock_args(clock: ClockRow) -> list[Any]:
    return [clock.turn_started_at, clock.deadline_at, clock.remind_at, clock.reminders_sent]


def _result_assignments(first: int) -> str:
    return (
        f"status = ${first}, result_reason = ${first + 1}, winner_id = ${first + 2},"
        f" winner_colour = ${first + 3}, loser_id = ${first + 4}, loser_colour = ${first + 5},"
        f" result_actor = ${first + 6}"
    )


def _result_args(result: ResultRow) -> list[Any]:
    return [
        result.status,
        result.reason,
        result.winner_id,
        result.winner_colour,
        result.loser_id,
        result.loser_colour,
        result.actor_id,
    ]
