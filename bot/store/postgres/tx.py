"""The PostgreSQL transaction: the store interface's typed reads and writes as SQL.

Concurrency: how racing writes, from this process or another, fail cleanly.

* **Game commands are optimistic.**  A ``write()`` block whose first statement reads a game
  (every player action, moderation, a due clock action) does not begin a transaction: the
  read runs on its own, the block's game writes (the versioned update, the moves, the event,
  the audit row) are collected, and at the end of the block they are sent as ONE statement
  (a data-modifying ``WITH``) that updates the game only ``WHERE id = $1 AND version = $2``
  and inserts the rest only if that update matched ("version" here also covers the columns
  that writes keeping the version change: reminders sent, takeback request, turn start, so
  two processes cannot both send one reminder).  One statement is atomic, so either all
  of it is stored or, when another command changed the game since the read, nothing is and
  the block raises ``WriteConflict`` (``StaleAction`` for players).  A move therefore costs
  two round trips to the server, as on SQLite (two hops).  If such a block reads again after
  writing, or makes a write whose result it needs, the transaction begins at that point and
  the collected writes are replayed in it, each checked the same way.
* **Other blocks lock.**  A block that starts with anything else (a challenge, settings)
  begins a READ COMMITTED transaction at once, and its reads of a game, a challenge or a
  server's settings take the row lock (``SELECT … FOR UPDATE``): a second command on the same
  challenge waits a moment, then sees the first one's result and refuses for the real reason
  (for example "no longer open"), exactly as on SQLite where ``BEGIN IMMEDIATE`` serialises
  everything.  Waiting is bounded by ``lock_timeout`` (``DatabaseBusy`` after it).
* Inserts race on unique keys, not on locks: a second active game in a channel violates the
  partial unique index ``games_one_active_per_channel`` (``ChannelTaken``) and a move for a
  ply already stored violates ``moves_pkey`` (``WriteConflict``); a deadlock or serialization
  failure is a ``WriteConflict`` too.  Each rolls the whole block back.
* SERIALIZABLE with a bounded retry was rejected: the body of a write block is the service's
  own code (it has already told its engine cache about the move), so the store cannot replay
  it; versioned writes give the same safety without retries, and clock actions carry the
  version they were computed for, so a due action is applied at most once however many
  processes look at it.
* ``read()`` transactions are ``REPEATABLE READ READ ONLY``: one consistent snapshot, no locks.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

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
    RatedResult,
    RatingHistoryRow,
    RatingRow,
    ResultRow,
    SettingsRow,
    ShardFilter,
    StoreContents,
)
from .errors import translate

T = TypeVar("T")

_GAME_FIELDS = tuple(GameRow.__dataclass_fields__)
_CHALLENGE_FIELDS = tuple(ChallengeRow.__dataclass_fields__)
_GAME_COLUMNS = ", ".join(_GAME_FIELDS)
_CHALLENGE_COLUMNS = ", ".join(_CHALLENGE_FIELDS)


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
        ratings_enabled=bool(record["ratings_enabled"]),
    )


RATING_COLUMNS = tuple(RatingRow.__dataclass_fields__)
HISTORY_COLUMNS = tuple(RatingHistoryRow.__dataclass_fields__)
_RATING_SELECT = f"SELECT {', '.join(RATING_COLUMNS)} FROM ratings"
_HISTORY_SELECT = f"SELECT {', '.join(HISTORY_COLUMNS)} FROM rating_history"
_UPSERT_RATING = (
    f"INSERT INTO ratings ({', '.join(RATING_COLUMNS)})"
    f" VALUES ({', '.join(f'${i + 1}' for i in range(len(RATING_COLUMNS)))})"
    " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
    + ", ".join(f"{c} = EXCLUDED.{c}" for c in RATING_COLUMNS[3:])
)
_INSERT_HISTORY = (
    f"INSERT INTO rating_history ({', '.join(HISTORY_COLUMNS)})"
    f" VALUES ({', '.join(f'${i + 1}' for i in range(len(HISTORY_COLUMNS)))})"
)


def values_of(row: Any, columns: Sequence[str]) -> tuple[Any, ...]:
    return tuple(getattr(row, c) for c in columns)


def _shard_clause(shards: ShardFilter | None, first: int) -> tuple[str, tuple[Any, ...]]:
    """`` AND <the row's server is on one of these shards>`` with parameters numbered from
    ``first`` (or nothing)."""
    if shards is None:
        return "", ()
    clause = f" AND ((guild_id >> 22) % ${first}) = ANY(${first + 1}::bigint[])"
    return clause, (shards.count, list(shards.ids))


class PgTx:
    """One ``read()`` or ``write()`` block on one pooled connection (see the module notes).

    A write block is in one of three states: ``new`` (nothing sent yet), ``optimistic`` (it
    began by reading a game: statements run on their own and game writes are collected for
    one statement at the end) or ``tx`` (a transaction is open; reads lock their rows).
    """

    def __init__(
        self,
        conn: asyncpg.Connection,
        where: str,
        *,
        write: bool,
        games: GameLocks | None = None,
    ) -> None:
        self._conn = conn
        self._where = where
        self._write = write
        self._games = games
        self._held: int | None = None
        self._state = "new" if write else "tx"
        self._transaction: Any = None
        self._pending: list[_Op] = []

    # ----- plumbing -----------------------------------------------------------------------
    @property
    def _lock(self) -> str:
        return " FOR UPDATE" if self._write and self._state == "tx" else ""

    async def _begin(self) -> None:
        """Open the transaction now and replay the writes collected so far inside it."""
        if self._state == "tx":
            return
        self._state = "tx"
        self._transaction = self._conn.transaction()
        try:
            await self._transaction.start()
        except Exception as exc:
            raise translate(exc, self._where) from exc
        pending, self._pending = self._pending, []
        for op in pending:
            await self._apply(op)

    async def _reading(self, *, game: bool) -> None:
        """Before a read: a write block that starts with a game read stays optimistic; any
        other first read, or a read after collected writes, begins the transaction."""
        if not self._write or self._state == "tx":
            return
        if self._state == "new" and game:
            self._state = "optimistic"
        elif self._state == "new" or self._pending:
            await self._begin()

    async def _defer(self, op: _Op) -> None:
        if self._state == "tx":
            await self._apply(op)
        else:
            self._state = "optimistic"
            self._pending.append(op)

    def _release(self) -> None:
        """Give back this process's lock on the game (at the very end of the block)."""
        if self._held is not None and self._games is not None:
            self._games.release(self._held)
        self._held = None

    async def _finish(self) -> None:
        """End a write block normally: send the collected writes, or commit."""
        if self._state == "tx":
            await _settle(self._commit())
        elif self._pending:
            statement = _one_statement(self._pending)
            if statement is None:
                await self._begin()
                await _settle(self._commit())
            else:
                # Not shielded like COMMIT: a cancelled statement is cancelled on the server by
                # asyncpg, and either way it stored all of the block or none of it.
                sql, args = statement
                found = await self._fetchrow(sql, *args)
                if found is None or found[0] != 1:
                    raise WriteConflict("the game changed before this command could be saved")
        self._pending = []

    async def _commit(self) -> None:
        try:
            await self._transaction.commit()
        except Exception as exc:
            raise translate(exc, self._where) from exc

    async def _abort(self) -> None:
        """End a write block on an error: drop the collected writes, roll back if begun."""
        self._pending = []
        if self._transaction is not None and self._state == "tx":
            # A dead connection needs no rollback: the server has rolled back already.
            with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                await _settle(self._transaction.rollback())

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

    async def _apply(self, op: _Op) -> None:
        """Run one collected write inside the open transaction."""
        if op.kind == "update":
            sql, args = _update_sql(op, 1)
            found = await self._fetchrow(f"{sql} RETURNING id", *args)
            if found is None:
                raise WriteConflict("the game changed before this command could be saved")
        elif op.kind == "moves":
            await self._execute(
                "INSERT INTO moves (game_id, ply, move, user_id, played_at)"
                " SELECT $1, x.ply, x.move, x.user_id, x.played_at FROM"
                " unnest($2::integer[], $3::text[], $4::bigint[], $5::bigint[])"
                " AS x (ply, move, user_id, played_at)",
                op.game_id,
                *op.args,
            )
        elif op.kind == "delete":
            await self._execute(
                "DELETE FROM moves WHERE game_id = $1 AND ply >= $2", op.game_id, *op.args
            )
        elif op.kind == "event":
            await self._execute(
                "INSERT INTO game_events (game_id, at, kind, user_id, detail)"
                " VALUES ($1, $2, $3, $4, $5)",
                op.game_id,
                *op.args,
            )
        else:
            await self._execute(
                "INSERT INTO audit_log (guild_id, actor_id, action, game_id, target_id, detail,"
                " at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                *op.args,
            )

    async def _versioned(self, row: GameRow, values: dict[str, Any]) -> GameRow:
        """Update the game at ``row``'s version (collected, or run now inside a transaction);
        returns the row as it will be once stored."""
        stamp = (row.version, row.reminders_sent, row.takeback_by, row.turn_started_at)
        await self._defer(_Op("update", row.id, stamp, values))
        return replace(row, **values)

    # ----- settings -----------------------------------------------------------------------
    async def settings(self, guild_id: int) -> SettingsRow | None:
        await self._reading(game=False)
        found = await self._fetchrow(
            f"SELECT * FROM guild_settings WHERE guild_id = $1{self._lock}", guild_id
        )
        return None if found is None else settings_row(found)

    async def save_settings(self, row: SettingsRow) -> None:
        await self._begin()
        await self._execute(
            "INSERT INTO guild_settings (guild_id, allowed_channels, use_threads, per_move,"
            " reminders, default_sizes, challenge_expiry, updated_at, ratings_enabled)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
            " ON CONFLICT (guild_id) DO UPDATE SET allowed_channels = EXCLUDED.allowed_channels,"
            " use_threads = EXCLUDED.use_threads, per_move = EXCLUDED.per_move,"
            " reminders = EXCLUDED.reminders, default_sizes = EXCLUDED.default_sizes,"
            " challenge_expiry = EXCLUDED.challenge_expiry, updated_at = EXCLUDED.updated_at,"
            " ratings_enabled = EXCLUDED.ratings_enabled",
            row.guild_id,
            list(row.allowed_channels),
            row.use_threads,
            row.per_move,
            list(row.reminders),
            dict(row.default_sizes),
            row.challenge_expiry,
            row.updated_at,
            row.ratings_enabled,
        )

    # ----- challenges ---------------------------------------------------------------------
    async def insert_challenge(self, new: NewChallenge) -> ChallengeRow:
        await self._begin()
        found = await self._fetchrow(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, game,"
            " size, first, per_move, reminders, created_at, expires_at, options, rated)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
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
            new.rated,
        )
        assert found is not None
        return challenge_row(found)

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        await self._reading(game=False)
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
        await self._begin()
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
        await self._reading(game=False)
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

    async def expiring_challenges(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[ChallengeRow]:
        await self._reading(game=False)
        held, held_args = _shard_clause(shards, 3)
        rows = await self._fetch(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges"
            f" WHERE status = 'open' AND expires_at <= $1{held} ORDER BY expires_at, id LIMIT $2",
            now,
            limit,
            *held_args,
        )
        return [challenge_row(r) for r in rows]

    # ----- games: reads -------------------------------------------------------------------
    async def game(self, game_id: int) -> GameRow | None:
        return await self._game_row(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = $1{{lock}}", game_id
        )

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        return await self._game_row(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = $1 AND status = 'active'"
            "{lock}",
            channel_id,
        )

    async def _game_row(self, sql: str, key: int) -> GameRow | None:
        """Read one game; in an optimistic write block, also take this process's lock on it.

        The service keeps one live engine per game and plays the move on it before writing;
        two of its commands on one game must therefore not overlap in this process (they
        could not on SQLite, whose store serialises writes).  The lock is only in memory, is
        held until the block ends, and costs nothing when uncontended; a command that had to
        wait reads the game again, since it has probably changed.
        """
        await self._reading(game=True)
        while True:
            found = await self._fetchrow(sql.format(lock=self._lock), key)
            row = None if found is None else game_row(found)
            if row is None or self._state != "optimistic" or self._games is None:
                return row
            if self._held is not None and self._held != row.id:
                await self._begin()  # a second game in one block: lock rows in the database
                return await self._game_row(sql, key)
            if self._held == row.id or await self._games.hold(row.id):
                self._held = row.id
                return row
            self._held = row.id  # waited for another command: read it again

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        await self._reading(game=True)
        found = await self._fetchrow(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        return None if found is None else game_row(found)

    async def games_for_player(
        self, guild_id: int, user_id: int, active_only: bool, limit: int
    ) -> list[GameRow]:
        await self._reading(game=False)
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
        await self._reading(game=False)
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

    async def find_games(
        self,
        *,
        guild_id: int | None = None,
        player_id: int | None = None,
        to_move_id: int | None = None,
        active_only: bool = False,
        after: tuple[int, int] | None = None,
        limit: int,
        shards: ShardFilter | None = None,
    ) -> list[GameRow]:
        await self._reading(game=False)
        where: list[str] = []
        args: list[Any] = []

        def arg(value: Any) -> str:
            args.append(value)
            return f"${len(args)}"

        if guild_id is not None:
            where.append(f"guild_id = {arg(guild_id)}")
        if player_id is not None:
            slot = arg(player_id)
            where.append(f"(first_id = {slot} OR second_id = {slot})")
        if to_move_id is not None:
            where.append(f"to_move_id = {arg(to_move_id)} AND status = 'active'")
        if active_only:
            where.append("status = 'active'")
        if after is not None:
            where.append(f"(updated_at, id) < ({arg(after[0])}, {arg(after[1])})")
        if shards is not None:
            held, held_args = _shard_clause(shards, len(args) + 1)
            where.append(held.removeprefix(" AND "))
            args += held_args
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games{clause}"
            f" ORDER BY updated_at DESC, id DESC LIMIT {arg(limit)}",
            *args,
        )
        return [game_row(r) for r in rows]

    async def due_games(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[GameRow]:
        await self._reading(game=False)
        held, held_args = _shard_clause(shards, 3)
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active'"
            f" AND (deadline_at <= $1 OR remind_at <= $1){held} ORDER BY id LIMIT $2",
            now,
            limit,
            *held_args,
        )
        return [game_row(r) for r in rows]

    async def next_times(self) -> list[int]:
        await self._reading(game=False)
        found = await self._fetchrow(
            "SELECT (SELECT MIN(deadline_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(remind_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(expires_at) FROM challenges WHERE status = 'open')"
        )
        assert found is not None
        return [int(v) for v in tuple(found) if v is not None]

    async def moves(self, game_id: int) -> list[MoveRow]:
        await self._reading(game=True)
        rows = await self._fetch(
            "SELECT game_id, ply, move, user_id, played_at FROM moves WHERE game_id = $1"
            " ORDER BY ply",
            game_id,
        )
        return [MoveRow(*r) for r in rows]

    async def events(self, game_id: int) -> list[EventRow]:
        await self._reading(game=True)
        rows = await self._fetch(
            "SELECT id, game_id, at, kind, user_id, detail FROM game_events WHERE game_id = $1"
            " ORDER BY id",
            game_id,
        )
        return [EventRow(*r) for r in rows]

    # ----- games: writes ------------------------------------------------------------------
    async def insert_game(self, new: NewGame) -> GameRow:
        await self._begin()
        found = await self._fetchrow(
            "INSERT INTO games (guild_id, channel_id, game, size, first_id, second_id, status,"
            " version, record, to_move, per_move, reminders, turn_started_at, deadline_at,"
            " remind_at, reminders_sent, challenge_id, created_at, updated_at, options,"
            " to_move_id, rated) VALUES ($1, $2, $3, $4, $5, $6, 'active', 0, $7, $8, $9, $10,"
            f" $11, $12, $13, $14, $15, $16, $16, $17, $18, $19) RETURNING {_GAME_COLUMNS}",
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
            new.to_move_id,
            new.rated,
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
        to_move_id: int | None,
        at: int,
        clock: ClockRow | None = None,
        result: ResultRow | None = None,
    ) -> GameRow:
        values: dict[str, Any] = {
            "version": row.version + 1,
            "record": record,
            "to_move": to_move,
            "to_move_id": to_move_id,
            "updated_at": at,
            **_NO_TAKEBACK,
        }
        if clock is not None:
            values.update(_clock(clock))
        if result is not None:
            values.update(_result(result, at))
        changed = await self._versioned(row, values)
        await self._defer(
            _Op(
                "moves",
                row.id,
                (
                    [m.ply for m in moves],
                    [m.move for m in moves],
                    [m.user_id for m in moves],
                    [m.played_at for m in moves],
                ),
            )
        )
        return changed

    async def finish_game(self, row: GameRow, result: ResultRow, *, at: int) -> GameRow:
        values = {
            "version": row.version + 1,
            "to_move": None,
            "to_move_id": None,
            "updated_at": at,
            **_NO_TAKEBACK,
            **_result(result, at),
        }
        return await self._versioned(row, values)

    async def take_back(
        self,
        row: GameRow,
        from_ply: int,
        *,
        record: str,
        to_move: str | None,
        to_move_id: int | None,
        clock: ClockRow,
        at: int,
    ) -> GameRow:
        values = {
            "version": row.version + 1,
            "record": record,
            "to_move": to_move,
            "to_move_id": to_move_id,
            "updated_at": at,
            **_NO_TAKEBACK,
            **_clock(clock),
        }
        changed = await self._versioned(row, values)
        await self._defer(_Op("delete", row.id, (from_ply,)))
        return changed

    async def request_takeback(self, row: GameRow, user_id: int, at: int) -> GameRow:
        values = {"takeback_by": user_id, "takeback_at": at, "takeback_version": row.version}
        return await self._versioned(row, values)

    async def clear_takeback(self, row: GameRow) -> GameRow:
        return await self._versioned(row, dict(_NO_TAKEBACK))

    async def restart_clock(self, row: GameRow, clock: ClockRow) -> GameRow:
        return await self._versioned(row, _clock(clock))

    async def mark_reminder_sent(self, row: GameRow, remind_at: int | None) -> GameRow:
        values = {"reminders_sent": row.reminders_sent + 1, "remind_at": remind_at}
        return await self._versioned(row, values)

    async def save_cached_state(
        self, row: GameRow, record: str, to_move: str | None, to_move_id: int | None
    ) -> GameRow:
        values = {"record": record, "to_move": to_move, "to_move_id": to_move_id}
        return await self._versioned(row, values)

    async def add_event(
        self, game_id: int, at: int, kind: str, user_id: int | None, detail: str = ""
    ) -> None:
        await self._defer(_Op("event", game_id, (at, kind, user_id, detail)))

    # ----- turn claims --------------------------------------------------------------------
    async def claim_turn(
        self, game_id: int, version: int, claimant: str, now: int, until: int
    ) -> bool:
        # One UPDATE: under READ COMMITTED a racing claim waits for this row's lock, then
        # re-checks the condition against the committed claim and matches nothing.
        await self._begin()
        found = await self._fetchrow(
            "UPDATE games SET claimed_by = $3, claimed_version = $2, claimed_until = $5"
            " WHERE id = $1 AND status = 'active' AND version = $2 AND (claimed_by IS NULL"
            " OR claimed_by = $3 OR claimed_version <> $2 OR claimed_until <= $4) RETURNING id",
            game_id,
            version,
            claimant,
            now,
            until,
        )
        return found is not None

    async def release_turn(self, game_id: int, claimant: str) -> None:
        await self._begin()
        await self._execute(
            "UPDATE games SET claimed_by = NULL, claimed_version = NULL, claimed_until = NULL"
            " WHERE id = $1 AND claimed_by = $2",
            game_id,
            claimant,
        )

    # ----- whole store ----------------------------------------------------------------------
    async def export_all(self) -> StoreContents:
        """Every row of every table in key order (call inside ``read()``: one snapshot)."""
        settings = await self._fetch("SELECT * FROM guild_settings ORDER BY guild_id")
        challenges = await self._fetch(f"SELECT {_CHALLENGE_COLUMNS} FROM challenges ORDER BY id")
        games = await self._fetch(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id")
        moves = await self._fetch(
            "SELECT game_id, ply, move, user_id, played_at FROM moves ORDER BY game_id, ply"
        )
        events = await self._fetch(
            "SELECT id, game_id, at, kind, user_id, detail FROM game_events ORDER BY id"
        )
        audit = await self._fetch(
            "SELECT id, guild_id, actor_id, action, game_id, target_id, detail, at"
            " FROM audit_log ORDER BY id"
        )
        return StoreContents(
            settings=tuple(settings_row(r) for r in settings),
            challenges=tuple(challenge_row(r) for r in challenges),
            games=tuple(game_row(r) for r in games),
            moves=tuple(MoveRow(*r) for r in moves),
            events=tuple(EventRow(*r) for r in events),
            audit=tuple(AuditRow(*r) for r in audit),
            ratings=tuple(
                RatingRow(*r)
                for r in await self._fetch(f"{_RATING_SELECT} ORDER BY guild_id, game, user_id")
            ),
            rating_history=tuple(
                RatingHistoryRow(*r)
                for r in await self._fetch(f"{_HISTORY_SELECT} ORDER BY game_id, user_id")
            ),
        )

    # ----- ratings ------------------------------------------------------------------------
    async def lock_ratings(
        self,
        guild_id: int,
        game: str,
        user_ids: Sequence[int],
        *,
        initial: tuple[float, float],
        at: int,
    ) -> list[RatingRow]:
        """Insert a row (initial values, no games) for players who have none, then lock
        every player's row with ``SELECT … FOR UPDATE`` in user-id order.  A second game
        finishing for one of these players (in any process) waits here until this block
        commits, then reads the row as committed: no update is lost, and the fixed order
        means two such games never deadlock on each other's rows."""
        await self._begin()
        ids = sorted(set(user_ids))
        await self._execute(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, updated_at)"
            " SELECT $1, $2, u, $4, $5, $6 FROM unnest($3::bigint[]) AS u ORDER BY u"
            " ON CONFLICT (guild_id, game, user_id) DO NOTHING",
            guild_id,
            game,
            ids,
            initial[0],
            initial[1],
            at,
        )
        rows = await self._fetch(
            f"{_RATING_SELECT} WHERE guild_id = $1 AND game = $2 AND user_id = ANY($3::bigint[])"
            " ORDER BY user_id FOR UPDATE",
            guild_id,
            game,
            ids,
        )
        return [RatingRow(*r) for r in rows if r["games"] > 0]

    async def next_rating_seq(self) -> int:
        await self._begin()
        found = await self._fetchrow("SELECT nextval('games_rating_seq')")
        assert found is not None
        return int(found[0])

    async def save_ratings(self, rows: Sequence[RatingRow]) -> None:
        await self._begin()
        try:
            await self._conn.executemany(
                _UPSERT_RATING, [values_of(r, RATING_COLUMNS) for r in rows]
            )
        except Exception as exc:
            raise translate(exc, self._where) from exc

    async def add_rating_history(self, rows: Sequence[RatingHistoryRow]) -> None:
        await self._begin()
        try:
            await self._conn.executemany(
                _INSERT_HISTORY, [values_of(h, HISTORY_COLUMNS) for h in rows]
            )
        except Exception as exc:
            raise translate(exc, self._where) from exc

    async def leaderboard(
        self, guild_id: int, game: str, limit: int, offset: int
    ) -> list[RatingRow]:
        await self._reading(game=False)
        rows = await self._fetch(
            f"{_RATING_SELECT} WHERE guild_id = $1 AND game = $2 AND games > 0"
            " ORDER BY mu DESC, games DESC, user_id LIMIT $3 OFFSET $4",
            guild_id,
            game,
            limit,
            offset,
        )
        return [RatingRow(*r) for r in rows]

    async def rank_of(self, row: RatingRow) -> int:
        await self._reading(game=False)
        found = await self._fetchrow(
            "SELECT COUNT(*) + 1 FROM ratings WHERE guild_id = $1 AND game = $2 AND games > 0"
            " AND (mu > $3 OR (mu = $3 AND (games > $4 OR (games = $4 AND user_id < $5))))",
            row.guild_id,
            row.game,
            row.mu,
            row.games,
            row.user_id,
        )
        assert found is not None
        return int(found[0])

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        await self._reading(game=False)
        rows = await self._fetch(
            f"{_RATING_SELECT} WHERE guild_id = $1 AND user_id = $2 AND games > 0"
            " ORDER BY mu DESC, game",
            guild_id,
            user_id,
        )
        return [RatingRow(*r) for r in rows]

    async def rating_history(
        self, guild_id: int, user_id: int, game: str, limit: int
    ) -> list[RatingHistoryRow]:
        await self._reading(game=False)
        rows = await self._fetch(
            f"SELECT * FROM ({_HISTORY_SELECT} WHERE guild_id = $1 AND user_id = $2"
            " AND game = $3 ORDER BY seq DESC LIMIT $4) AS last ORDER BY seq",
            guild_id,
            user_id,
            game,
            limit,
        )
        return [RatingHistoryRow(*r) for r in rows]

    async def rating_changes(self, user_id: int, game_ids: Sequence[int]) -> list[RatingHistoryRow]:
        await self._reading(game=False)
        rows = await self._fetch(
            f"{_HISTORY_SELECT} WHERE user_id = $1 AND game_id = ANY($2::bigint[])"
            " ORDER BY game_id",
            user_id,
            list(game_ids),
        )
        return [RatingHistoryRow(*r) for r in rows]

    async def rated_games_until(self, guild_id: int, game: str, user_id: int, seq: int) -> int:
        await self._reading(game=False)
        found = await self._fetchrow(
            "SELECT COUNT(*) FROM rating_history WHERE guild_id = $1 AND user_id = $2"
            " AND game = $3 AND seq <= $4",
            guild_id,
            user_id,
            game,
            seq,
        )
        assert found is not None
        return int(found[0])

    async def finished_games_for_player(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[GameRow]:
        await self._reading(game=False)
        rows = await self._fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id IN (SELECT id FROM ("
            " SELECT id, updated_at FROM games"
            " WHERE guild_id = $1 AND first_id = $2 AND status <> 'active'"
            " UNION ALL SELECT id, updated_at FROM games"
            " WHERE guild_id = $1 AND second_id = $2 AND status <> 'active') AS mine"
            " ORDER BY updated_at DESC, id DESC LIMIT $3) ORDER BY updated_at DESC, id DESC",
            guild_id,
            user_id,
            limit,
        )
        return [game_row(r) for r in rows]

    async def reset_ratings(self, guild_id: int, game: str) -> int:
        await self._begin()
        await self._execute(
            "UPDATE games SET rated = FALSE, unrated_reason = 'reset', rating_seq = NULL"
            " WHERE guild_id = $1 AND game = $2 AND rating_seq IS NOT NULL",
            guild_id,
            game,
        )
        await self._execute(
            "DELETE FROM rating_history WHERE guild_id = $1 AND game = $2", guild_id, game
        )
        found = await self._fetchrow(
            "WITH gone AS (DELETE FROM ratings WHERE guild_id = $1 AND game = $2"
            " RETURNING games) SELECT COUNT(*) FROM gone WHERE games > 0",
            guild_id,
            game,
        )
        assert found is not None
        return int(found[0])

    async def all_ratings(self) -> list[RatingRow]:
        await self._reading(game=False)
        rows = await self._fetch(
            f"{_RATING_SELECT} WHERE games > 0 ORDER BY guild_id, game, user_id"
        )
        return [RatingRow(*r) for r in rows]

    async def rated_results(self) -> list[RatedResult]:
        await self._reading(game=False)
        rows = await self._fetch(
            "SELECT id, guild_id, game, first_id, second_id, winner_id, finished_at, rating_seq"
            " FROM games WHERE rating_seq IS NOT NULL ORDER BY rating_seq"
        )
        return [RatedResult(*r) for r in rows]

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
        await self._defer(
            _Op("audit", game_id, (guild_id, actor_id, action, game_id, target_id, detail, at))
        )

    async def audit(self, guild_id: int, limit: int) -> list[AuditRow]:
        await self._reading(game=False)
        rows = await self._fetch(
            "SELECT id, guild_id, actor_id, action, game_id, target_id, detail, at"
            " FROM audit_log WHERE guild_id = $1 ORDER BY id DESC LIMIT $2",
            guild_id,
            limit,
        )
        return [AuditRow(*r) for r in rows]


_NO_TAKEBACK: dict[str, Any] = {"takeback_by": None, "takeback_at": None, "takeback_version": None}
_NO_CLOCK: dict[str, Any] = {"deadline_at": None, "remind_at": None}


def _clock(clock: ClockRow) -> dict[str, Any]:
    return {
        "turn_started_at": clock.turn_started_at,
        "deadline_at": clock.deadline_at,
        "remind_at": clock.remind_at,
        "reminders_sent": clock.reminders_sent,
    }


def _result(result: ResultRow, at: int) -> dict[str, Any]:
    return {
        "status": result.status,
        "result_reason": result.reason,
        "winner_id": result.winner_id,
        "winner_colour": result.winner_colour,
        "loser_id": result.loser_id,
        "loser_colour": result.loser_colour,
        "result_actor": result.actor_id,
        "finished_at": at,
        "rated": result.rated,
        "unrated_reason": result.unrated_reason,
        "rating_seq": result.rating_seq,
        **_NO_CLOCK,
    }


class GameLocks:
    """In-process locks on games, one per game an optimistic write block is working on."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}

    async def hold(self, game_id: int) -> bool:
        """Take ``game_id``'s lock; True if it was free, False if this had to wait."""
        lock, users = self._locks.setdefault(game_id, (asyncio.Lock(), [0]))
        users[0] += 1
        free = not lock.locked()
        try:
            await lock.acquire()
        except BaseException:
            self._forget(game_id)
            raise
        return free

    def release(self, game_id: int) -> None:
        self._locks[game_id][0].release()
        self._forget(game_id)

    def _forget(self, game_id: int) -> None:
        _, users = self._locks[game_id]
        users[0] -= 1
        if users[0] == 0:
            del self._locks[game_id]

    def __len__(self) -> int:
        return len(self._locks)


@dataclass(frozen=True, slots=True)
class _Op:
    """A collected write: ``update`` (args: the game's version, reminders sent, takeback
    requester and turn start as read; values: the new columns),
    ``moves`` (four parallel lists), ``delete`` (the first ply), ``event`` or ``audit``."""

    kind: str
    game_id: int | None
    args: tuple[Any, ...]
    values: dict[str, Any] | None = None


def _update_sql(op: _Op, first: int) -> tuple[str, list[Any]]:
    """``UPDATE games … WHERE id = $first AND <the game is as read>`` and its arguments.

    "As read" is the version plus what the writes that keep the version change: the reminders
    sent, the pending takeback and the turn's start.  Without them two processes could both
    send the same reminder (or both record a takeback request) against one unchanged version;
    on SQLite the write lock makes the second one see the first, here the update refuses it.
    """
    assert op.values is not None
    columns = list(op.values)
    unknown = set(columns) - set(_GAME_FIELDS)
    assert not unknown, f"unknown game columns {sorted(unknown)}"
    n = first
    assignments = ", ".join(f"{c} = ${n + 5 + i}" for i, c in enumerate(columns))
    sql = (
        f"UPDATE games SET {assignments} WHERE id = ${n} AND version = ${n + 1}"
        f" AND reminders_sent = ${n + 2} AND takeback_by IS NOT DISTINCT FROM ${n + 3}"
        f" AND turn_started_at = ${n + 4}"
    )
    return sql, [op.game_id, *op.args, *op.values.values()]


def _one_statement(ops: Sequence[_Op]) -> tuple[str, list[Any]] | None:
    """The collected writes as one atomic statement, or None when they do not fit one.

    They fit when there is exactly one versioned game update and everything else belongs to
    that game (at most one of each kind, and never both new and deleted moves).  Every insert
    selects from the update's result, so nothing is stored unless the update matched; the
    statement returns how many game rows it updated (1, or 0 for a conflict).
    """
    updates = [op for op in ops if op.kind == "update"]
    kinds = [op.kind for op in ops]
    if (
        len(updates) != 1
        or len(set(kinds)) != len(kinds)
        or ("moves" in kinds and "delete" in kinds)
        or any(op.game_id != updates[0].game_id for op in ops if op.kind != "audit")
    ):
        return None
    sql, args = _update_sql(updates[0], 1)
    parts = [f"g AS ({sql} RETURNING id)"]

    def slots(values: Sequence[Any], casts: Sequence[str]) -> str:
        start = len(args) + 1
        args.extend(values)
        return ", ".join(f"${start + i}::{cast}" for i, cast in enumerate(casts))

    for op in ops:
        if op.kind == "moves":
            given = slots(op.args, ("integer[]", "text[]", "bigint[]", "bigint[]"))
            parts.append(
                "m AS (INSERT INTO moves (game_id, ply, move, user_id, played_at)"
                f" SELECT g.id, x.ply, x.move, x.user_id, x.played_at FROM g, unnest({given})"
                " AS x (ply, move, user_id, played_at))"
            )
        elif op.kind == "delete":
            given = slots(op.args, ("integer",))
            parts.append(
                f"d AS (DELETE FROM moves USING g WHERE moves.game_id = g.id"
                f" AND moves.ply >= {given})"
            )
        elif op.kind == "event":
            given = slots(op.args, ("bigint", "text", "bigint", "text"))
            parts.append(
                "e AS (INSERT INTO game_events (game_id, at, kind, user_id, detail)"
                f" SELECT g.id, {given} FROM g)"
            )
        elif op.kind == "audit":
            given = slots(
                op.args, ("bigint", "bigint", "text", "bigint", "bigint", "text", "bigint")
            )
            parts.append(
                "a AS (INSERT INTO audit_log (guild_id, actor_id, action, game_id, target_id,"
                f" detail, at) SELECT {given} FROM g)"
            )
    return f"WITH {', '.join(parts)} SELECT count(*) FROM g", args


async def _settle(awaitable: Awaitable[T]) -> T:
    """Await a COMMIT or a ROLLBACK to its end even if the caller is cancelled meanwhile (the
    cancellation is raised afterwards), so the outcome is decided before the connection goes
    back to the pool."""
    task = asyncio.ensure_future(awaitable)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        while not task.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait((task,))
        if not task.cancelled():
            task.exception()  # looked at: the caller's cancellation wins
        raise
