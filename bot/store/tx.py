"""The store's queries, written once for both engines: every ``Tx`` method as SQL.

Each method here is one or two statements in the dialect SQLite and PostgreSQL share, with
``?`` placeholders (PostgreSQL's adapter numbers them once per statement text).  An engine
subclasses :class:`SharedTx` and supplies only what really differs between the two:

* how a statement reaches the database (``_fetch`` for reads, ``_write``/``_write_many`` for
  writes whose result nobody needs, ``_returning`` for writes whose rows are needed now);
* how the game writes of a command are applied (``_op``): on SQLite at once, under the single
  writer's ``BEGIN IMMEDIATE``; on PostgreSQL collected and sent as one optimistic statement,
  or replayed inside a transaction (see :mod:`bot.store.postgres.tx`);
* how lists of ids and string-keyed objects are stored (``_encode``: JSON text on SQLite,
  ``BIGINT[]`` and ``JSONB`` on PostgreSQL; decoding takes either);
* where a rating sequence number comes from and how players' rating rows are locked.

A read that passes ``lock=True`` names rows a write block goes on to change: PostgreSQL reads
them ``FOR UPDATE`` inside a transaction; SQLite's write lock already covers them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import asdict, dataclass, replace
from typing import Any, Self, TypeVar

from .errors import StoreNotEmpty, WriteConflict
from .rows import (
    DATA_TABLES,
    AuditRow,
    ChallengeRow,
    ClockRow,
    EventRow,
    GameRow,
    GameVersion,
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

T = TypeVar("T")
Row = Any
"""A driver's row: ``sqlite3.Row`` or ``asyncpg.Record`` (both index by name and position)."""

GAME_FIELDS = tuple(GameRow.__dataclass_fields__)
CHALLENGE_FIELDS = tuple(ChallengeRow.__dataclass_fields__)
SETTINGS_FIELDS = tuple(SettingsRow.__dataclass_fields__)
RATING_FIELDS = tuple(RatingRow.__dataclass_fields__)
HISTORY_FIELDS = tuple(RatingHistoryRow.__dataclass_fields__)
MOVE_FIELDS = tuple(MoveRow.__dataclass_fields__)
EVENT_FIELDS = tuple(EventRow.__dataclass_fields__)
AUDIT_FIELDS = tuple(AuditRow.__dataclass_fields__)
NEW_GAME_FIELDS = tuple(f for f in NewGame.__dataclass_fields__ if f != "clock")
LIST_COLUMNS = frozenset({"allowed_channels", "reminders"})
OBJECT_COLUMNS = frozenset({"default_sizes", "options"})


def select(fields: Sequence[str], table: str) -> str:
    return f"SELECT {', '.join(fields)} FROM {table}"


def insert(table: str, fields: Sequence[str]) -> str:
    return f"INSERT INTO {table} ({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})"


GAMES = select(GAME_FIELDS, "games")
CHALLENGES = select(CHALLENGE_FIELDS, "challenges")
SETTINGS = select(SETTINGS_FIELDS, "guild_settings")
RATINGS = select(RATING_FIELDS, "ratings")
HISTORY = select(HISTORY_FIELDS, "rating_history")
MOVES = select(MOVE_FIELDS, "moves")
EVENTS = select(EVENT_FIELDS, "game_events")
AUDIT = select(AUDIT_FIELDS, "audit_log")
UPSERT_RATING = (
    f"{insert('ratings', RATING_FIELDS)} ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in RATING_FIELDS[3:])
)
INSERT_HISTORY = insert("rating_history", HISTORY_FIELDS)
UPSERT_SETTINGS = (
    f"{insert('guild_settings', SETTINGS_FIELDS)} ON CONFLICT (guild_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in SETTINGS_FIELDS[1:])
)
RATED_SUMMARY = "SELECT COUNT(*), MAX(rating_seq) FROM games WHERE rating_seq IS NOT NULL"
"""How many games changed ratings and the last ``rating_seq``: a ratings rebuild's guard."""
NEWEST_FIRST = "ORDER BY updated_at DESC, id DESC"
SERVED = (
    "public = ? AND NOT EXISTS (SELECT 1 FROM guild_settings AS s"
    " WHERE s.guild_id = games.guild_id AND s.web_listing = ?)"
)
"""The games the web may show: public, in a server that did not turn its listing off (its
two arguments are :data:`SERVED_ARGS`)."""
SERVED_ARGS = (True, False)
NO_TAKEBACK: dict[str, Any] = {"takeback_by": None, "takeback_at": None, "takeback_version": None}
NO_CLOCK: dict[str, Any] = {"deadline_at": None, "remind_at": None}


# ----- rows ------------------------------------------------------------------------------------


def _decoded(value: Any) -> Any:
    """A list or object column: JSON text (SQLite) or already decoded (PostgreSQL)."""
    return json.loads(value) if isinstance(value, str) else value


def _pairs(value: Any) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((str(k), str(v)) for k, v in (_decoded(value) or {}).items()))


def _record(row: Row, fields: Sequence[str]) -> dict[str, Any]:
    values = {name: row[name] for name in fields}
    values["reminders"] = tuple(_decoded(values["reminders"]))
    values["options"] = _pairs(values["options"])
    values["rated"] = bool(values["rated"])
    values["public"] = bool(values["public"])
    return values


def game_row(row: Row) -> GameRow:
    return GameRow(**_record(row, GAME_FIELDS))


def challenge_row(row: Row) -> ChallengeRow:
    return ChallengeRow(**_record(row, CHALLENGE_FIELDS))


def settings_row(row: Row) -> SettingsRow:
    values = {name: row[name] for name in SETTINGS_FIELDS}
    for name in ("allowed_channels", "reminders"):
        values[name] = tuple(_decoded(values[name]))
    sizes = (_decoded(values["default_sizes"]) or {}).items()
    values["default_sizes"] = tuple(sorted((str(k), int(v)) for k, v in sizes))
    for flag in ("use_threads", "ratings_enabled", "web_listing"):
        values[flag] = bool(values[flag])
    return SettingsRow(**values)


def values_of(row: Any, fields: Sequence[str]) -> tuple[Any, ...]:
    return tuple(getattr(row, c) for c in fields)


def vars_of(contents: StoreContents) -> list[Sequence[Any]]:
    """The rows of each table, in ``DATA_TABLES`` order."""
    return [getattr(contents, name) for name in StoreContents.__dataclass_fields__]


def shard_clause(shards: ShardFilter | None) -> tuple[str, tuple[int, ...]]:
    """`` AND <the row's server is on one of these shards>`` and its parameters (or nothing)."""
    if shards is None:
        return "", ()
    return f" AND ((guild_id >> 22) % ?) IN ({marks(shards.ids)})", (shards.count, *shards.ids)


def marks(values: Sequence[Any]) -> str:
    return ", ".join("?" * len(values))


# ----- game writes -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Op:
    """A game write: ``update`` (``args``: the game's version, reminders sent, takeback
    requester and turn start as read; ``values``: the new columns), ``moves`` (``args``: the
    :class:`MoveRow` list), ``delete`` (the first ply to delete), ``event`` or ``audit``."""

    kind: str
    game_id: int | None
    args: tuple[Any, ...]
    values: dict[str, Any] | None = None


def update_sql(op: Op) -> tuple[str, list[Any]]:
    """``UPDATE games … WHERE <the game is as read>`` and its arguments.

    "As read" is the version plus what the writes that keep the version change: the reminders
    sent, the pending takeback and the turn's start.  Under SQLite's single writer the version
    alone would do; PostgreSQL's optimistic writes need the rest, or two processes could both
    send one reminder (or record one takeback request) against one unchanged version.
    """
    assert op.values is not None
    unknown = set(op.values) - set(GAME_FIELDS)
    assert not unknown, f"unknown game columns {sorted(unknown)}"
    sql = (
        f"UPDATE games SET {', '.join(f'{c} = ?' for c in op.values)} WHERE id = ?"
        " AND version = ? AND reminders_sent = ? AND takeback_by IS NOT DISTINCT FROM ?"
        " AND turn_started_at = ?"
    )
    return sql, [*op.values.values(), op.game_id, *op.args]


OP_SQL = {
    "moves": insert("moves", MOVE_FIELDS),
    "delete": "DELETE FROM moves WHERE game_id = ? AND ply >= ?",
    "event": insert("game_events", EVENT_FIELDS[1:]),
    "audit": insert("audit_log", AUDIT_FIELDS[1:]),
}
"""The other game writes, each as a statement of its own (the update is ``update_sql``)."""


def op_args(op: Op) -> list[Any]:
    """``OP_SQL[op.kind]``'s arguments (rows of them for ``moves``)."""
    if op.kind == "moves":
        return [values_of(m, MOVE_FIELDS) for m in op.args]
    if op.kind == "audit":
        return list(op.args)
    return [op.game_id, *op.args]


RESULT_COLUMNS = {"reason": "result_reason", "actor_id": "result_actor"}


def result_values(result: ResultRow, at: int) -> dict[str, Any]:
    """The game columns a result sets (``ResultRow`` fields are the columns, but for two)."""
    values = {RESULT_COLUMNS.get(k, k): v for k, v in asdict(result).items()}
    return {**values, "finished_at": at, **NO_CLOCK}


class SharedTx:
    """Every ``Tx`` method, over the few primitives an engine supplies (module notes)."""

    # ----- what an engine supplies ----------------------------------------------------------
    async def _fetch(
        self, sql: str, args: Sequence[Any] = (), *, game: bool = False, lock: bool = False
    ) -> list[Row]:
        """Rows of a read.  ``game``: it reads one game's rows (a command's first read);
        ``lock``: a write block will change what it reads."""
        raise NotImplementedError

    async def _write(self, sql: str, args: Sequence[Any]) -> None:
        raise NotImplementedError

    async def _write_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    async def _written(self, sql: str, args: Sequence[Any]) -> list[Row]:
        """The rows a write returns (``RETURNING``), needed now."""
        raise NotImplementedError

    async def _op(self, op: Op) -> None:
        raise NotImplementedError

    def _encode(self, column: str, value: Any) -> Any:
        """A value for ``column`` as the engine stores it (lists and objects differ)."""
        raise NotImplementedError

    async def _seed_ratings(self, seed: tuple[Any, ...]) -> None:
        """Make the players' rating rows lockable, if the engine locks rows: ``seed`` is the
        server, the game, the initial mu and sigma, the time and the sorted user ids."""

    async def next_rating_seq(self) -> int:
        """The next ``rating_seq`` (larger than every one committed before the players' rows
        were locked): the order a rebuild replays games in."""
        raise NotImplementedError

    # ----- helpers --------------------------------------------------------------------------
    async def _one(self, sql: str, args: Sequence[Any] = (), **how: bool) -> Row | None:
        rows = await self._fetch(sql, args, **how)
        return rows[0] if rows else None

    async def _returning(self, sql: str, args: Sequence[Any]) -> Row | None:
        rows = await self._written(sql, args)
        return rows[0] if rows else None

    async def _count(self, sql: str, args: Sequence[Any]) -> int:
        found = await self._one(sql, args)
        assert found is not None
        return int(found[0])

    async def _games(self, where: str, args: Sequence[Any] = (), **how: bool) -> list[GameRow]:
        return [game_row(r) for r in await self._fetch(f"{GAMES} {where}", args, **how)]

    async def _one_game(self, where: str, key: int) -> GameRow | None:
        """A command's read of its game (PostgreSQL also takes its in-process lock)."""
        found = await self._games(where, (key,), game=True, lock=True)
        return found[0] if found else None

    async def _challenges(self, where: str, args: Sequence[Any], **how: bool) -> list[ChallengeRow]:
        return [challenge_row(r) for r in await self._fetch(f"{CHALLENGES} {where}", args, **how)]

    async def _ratings(self, where: str, args: Sequence[Any]) -> list[RatingRow]:
        return [RatingRow(*r) for r in await self._fetch(f"{RATINGS} {where}", args)]

    async def _history(self, sql: str, args: Sequence[Any]) -> list[RatingHistoryRow]:
        return [RatingHistoryRow(*r) for r in await self._fetch(sql, args)]

    def _row_args(self, row: Any, fields: Sequence[str]) -> list[Any]:
        return [self._encode(c, getattr(row, c)) for c in fields]

    async def _versioned(self, row: GameRow, values: dict[str, Any]) -> GameRow:
        """Update the game at the state ``row`` was read in; the row as it will be stored."""
        stamp = (row.version, row.reminders_sent, row.takeback_by, row.turn_started_at)
        await self._op(Op("update", row.id, stamp, values))
        return replace(row, **values)

    # ----- settings -------------------------------------------------------------------------
    async def settings(self, guild_id: int) -> SettingsRow | None:
        """The server's settings row, None if it never saved any."""
        found = await self._one(f"{SETTINGS} WHERE guild_id = ?", (guild_id,), lock=True)
        return None if found is None else settings_row(found)

    async def save_settings(self, row: SettingsRow) -> None:
        """Insert or replace the server's settings."""
        await self._write(UPSERT_SETTINGS, self._row_args(row, SETTINGS_FIELDS))

    # ----- challenges -----------------------------------------------------------------------
    async def insert_challenge(self, new: NewChallenge) -> ChallengeRow:
        """Insert an open challenge; returns it with its id."""
        fields = tuple(NewChallenge.__dataclass_fields__)
        found = await self._returning(
            f"{insert('challenges', fields)} RETURNING {', '.join(CHALLENGE_FIELDS)}",
            self._row_args(new, fields),
        )
        assert found is not None
        return challenge_row(found)

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        found = await self._challenges("WHERE id = ?", (challenge_id,), lock=True)
        return found[0] if found else None

    async def resolve_challenge(
        self,
        challenge_id: int,
        status: str,
        at: int,
        accepted_by: int | None = None,
        game_id: int | None = None,
    ) -> ChallengeRow | None:
        """Move an OPEN challenge to ``status``; the updated row, or None if it was not open."""
        found = await self._returning(
            "UPDATE challenges SET status = ?, resolved_at = ?, accepted_by = ?, game_id = ?"
            f" WHERE id = ? AND status = 'open' RETURNING {', '.join(CHALLENGE_FIELDS)}",
            (status, at, accepted_by, game_id, challenge_id),
        )
        return None if found is None else challenge_row(found)

    async def record_challenge_message(self, challenge_id: int, message_id: int) -> bool:
        """Store the id of the message the challenge was posted in, once: False (nothing
        changed) if the challenge does not exist or already has one."""
        found = await self._returning(
            "UPDATE challenges SET message_id = ? WHERE id = ? AND message_id IS NULL RETURNING id",
            (message_id, challenge_id),
        )
        return found is not None

    async def open_challenges(
        self, guild_id: int, user_id: int | None = None
    ) -> list[ChallengeRow]:
        """Open challenges in a server (by or to ``user_id`` if given), oldest first."""
        if user_id is None:
            return await self._challenges(
                "WHERE guild_id = ? AND status = 'open' ORDER BY id", (guild_id,)
            )
        return await self._challenges(
            "WHERE guild_id = ? AND status = 'open' AND (challenger_id = ? OR opponent_id = ?)"
            " ORDER BY id",
            (guild_id, user_id, user_id),
        )

    async def expiring_challenges(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[ChallengeRow]:
        """Open challenges whose ``expires_at <= now``, soonest first (of the servers in
        ``shards`` only, if given)."""
        held, held_args = shard_clause(shards)
        return await self._challenges(
            f"WHERE status = 'open' AND expires_at <= ?{held} ORDER BY expires_at, id LIMIT ?",
            (now, *held_args, limit),
        )

    # ----- games: reads ---------------------------------------------------------------------
    async def game(self, game_id: int) -> GameRow | None:
        return await self._one_game("WHERE id = ?", game_id)

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        return await self._one_game("WHERE channel_id = ? AND status = 'active'", channel_id)

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's newest game (highest id), finished or not."""
        found = await self._games(
            "WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,), game=True
        )
        return found[0] if found else None

    async def games_for_player(
        self, guild_id: int, user_id: int, active_only: bool, limit: int
    ) -> list[GameRow]:
        """A player's games in a server, most recently updated first (ties: newest id)."""
        status = " AND status = 'active'" if active_only else ""
        return await self._games(
            f"WHERE guild_id = ? AND (first_id = ? OR second_id = ?){status} {NEWEST_FIRST}"
            " LIMIT ?",
            (guild_id, user_id, user_id, limit),
        )

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        """Active games (of one server, or all), by id."""
        if guild_id is None:
            return await self._games("WHERE status = 'active' ORDER BY id")
        return await self._games(
            "WHERE guild_id = ? AND status = 'active' ORDER BY id", (guild_id,)
        )

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
        """One page of games matching every filter given, most recently updated first
        (``updated_at`` DESC, then ``id`` DESC).  ``player_id``: either seat;
        ``to_move_id``: active games that user is to move in.  ``after`` is the
        ``(updated_at, id)`` of the last game of the previous page (keyset pagination);
        ``shards``: games in servers on those shards only."""
        where: list[str] = []
        args: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            args.append(guild_id)
        if player_id is not None:
            where.append("(first_id = ? OR second_id = ?)")
            args += [player_id, player_id]
        if to_move_id is not None:
            where.append("to_move_id = ? AND status = 'active'")
            args.append(to_move_id)
        if active_only:
            where.append("status = 'active'")
        if after is not None:
            where.append("(updated_at < ? OR (updated_at = ? AND id < ?))")
            args += [after[0], after[0], after[1]]
        if shards is not None:
            held, held_args = shard_clause(shards)
            where.append(held.removeprefix(" AND "))
            args += held_args
        clause = f"WHERE {' AND '.join(where)} " if where else ""
        return await self._games(f"{clause}{NEWEST_FIRST} LIMIT ?", [*args, limit])

    async def due_games(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[GameRow]:
        # A UNION of two searches, so each uses its own partial index (deadline, reminder).
        """Active games whose deadline or next reminder is at or before ``now``, by id (of the
        servers in ``shards`` only, if given)."""
        held, held_args = shard_clause(shards)
        return await self._games(
            f"WHERE id IN (SELECT id FROM games WHERE status = 'active' AND deadline_at <= ?{held}"
            f" UNION SELECT id FROM games WHERE status = 'active' AND remind_at <= ?{held})"
            " ORDER BY id LIMIT ?",
            (now, *held_args, now, *held_args, limit),
        )

    async def next_times(self) -> list[int]:
        """The earliest pending deadline, reminder and challenge expiry (those that exist)."""
        found = await self._one(
            "SELECT (SELECT MIN(deadline_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(remind_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(expires_at) FROM challenges WHERE status = 'open')"
        )
        assert found is not None
        return [int(v) for v in tuple(found) if v is not None]

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The game's moves by ply: the source of truth for its position."""
        rows = await self._fetch(f"{MOVES} WHERE game_id = ? ORDER BY ply", (game_id,), game=True)
        return [MoveRow(*r) for r in rows]

    async def events(self, game_id: int) -> list[EventRow]:
        """The game's events (start, takebacks, endings) in the order they were added."""
        rows = await self._fetch(f"{EVENTS} WHERE game_id = ? ORDER BY id", (game_id,), game=True)
        return [EventRow(*r) for r in rows]

    # ----- games on the web -----------------------------------------------------------------
    async def served_game(self, web_token: str) -> GameRow | None:
        """The game with this web token if the web may show it (:data:`SERVED`), else None:
        a private game and one of a server whose listing is off look like no game at all."""
        found = await self._games(f"WHERE web_token = ? AND {SERVED}", (web_token, *SERVED_ARGS))
        return found[0] if found else None

    async def served_games(self, limit: int) -> list[GameRow]:
        """The games the web may show, most recently updated first."""
        return await self._games(f"WHERE {SERVED} {NEWEST_FIRST} LIMIT ?", (*SERVED_ARGS, limit))

    async def served_versions(self, web_tokens: Sequence[str]) -> list[GameVersion]:
        """The versions of those of these games the web may show, in one query: what a
        server polls for every game its pages watch (a vanished one is simply left out)."""
        if not web_tokens:
            return []
        rows = await self._fetch(
            f"SELECT web_token, version FROM games WHERE web_token IN ({marks(web_tokens)})"
            f" AND {SERVED}",
            (*web_tokens, *SERVED_ARGS),
        )
        return [GameVersion(r[0], int(r[1])) for r in rows]

    # ----- games: writes --------------------------------------------------------------------
    async def insert_game(self, new: NewGame) -> GameRow:
        """Insert an active game at version 0; raises ChannelTaken if its channel has one."""
        values = {f: getattr(new, f) for f in NEW_GAME_FIELDS} | asdict(new.clock)
        values["updated_at"] = new.created_at
        found = await self._returning(
            f"{insert('games', list(values))} RETURNING {', '.join(GAME_FIELDS)}",
            [self._encode(c, v) for c, v in values.items()],
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
        """Append ``moves`` (plies after the stored ones), bump the version, cache ``record``,
        ``to_move`` and ``to_move_id``, clear a pending takeback; restart the clock if
        ``clock`` is given (a new turn); finish the game as ``result`` says if given (clock
        cleared)."""
        values: dict[str, Any] = {
            "version": row.version + 1,
            "record": record,
            "to_move": to_move,
            "to_move_id": to_move_id,
            "updated_at": at,
            **NO_TAKEBACK,
        }
        if clock is not None:
            values.update(asdict(clock))
        if result is not None:
            values.update(result_values(result, at))
        changed = await self._versioned(row, values)
        await self._op(Op("moves", row.id, tuple(moves)))
        return changed

    async def finish_game(self, row: GameRow, result: ResultRow, *, at: int) -> GameRow:
        """End the game without a move (resign, time, moderation): bump the version, clear the
        side and user to move, the clock and any takeback request."""
        values = {"version": row.version + 1, "to_move": None, "to_move_id": None}
        values |= {"updated_at": at, **NO_TAKEBACK, **result_values(result, at)}
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
        """Delete the moves from ``from_ply`` on, bump the version, cache the new ``record``,
        ``to_move`` and ``to_move_id``, restart the clock and clear the takeback request."""
        values = {"version": row.version + 1, "record": record, "to_move": to_move}
        values |= {"to_move_id": to_move_id, "updated_at": at, **NO_TAKEBACK}
        changed = await self._versioned(row, {**values, **asdict(clock)})
        await self._op(Op("delete", row.id, (from_ply,)))
        return changed

    async def request_takeback(self, row: GameRow, user_id: int, at: int) -> GameRow:
        """Record a pending takeback request at the current version (no version bump)."""
        values = {"takeback_by": user_id, "takeback_at": at, "takeback_version": row.version}
        return await self._versioned(row, values)

    async def clear_takeback(self, row: GameRow) -> GameRow:
        """Drop the pending takeback request (declined); no version bump."""
        return await self._versioned(row, dict(NO_TAKEBACK))

    async def restart_clock(self, row: GameRow, clock: ClockRow) -> GameRow:
        """Replace the turn's clock (no version bump)."""
        return await self._versioned(row, asdict(clock))

    async def mark_reminder_sent(self, row: GameRow, remind_at: int | None) -> GameRow:
        """Count one more reminder for this turn and set the next one (no version bump)."""
        values = {"reminders_sent": row.reminders_sent + 1, "remind_at": remind_at}
        return await self._versioned(row, values)

    async def save_cached_state(
        self, row: GameRow, record: str, to_move: str | None, to_move_id: int | None
    ) -> GameRow:
        """Rewrite the cached ``record``/``to_move``/``to_move_id`` (rebuilt from the moves;
        no version bump)."""
        values = {"record": record, "to_move": to_move, "to_move_id": to_move_id}
        return await self._versioned(row, values)

    async def add_event(
        self, game_id: int, at: int, kind: str, user_id: int | None, detail: str = ""
    ) -> None:
        await self._op(Op("event", game_id, (at, kind, user_id, detail)))

    # ----- ratings --------------------------------------------------------------------------
    async def lock_ratings(
        self,
        guild_id: int,
        game: str,
        user_ids: Sequence[int],
        *,
        initial: tuple[float, float],
        at: int,
    ) -> list[RatingRow]:
        """The players' rating rows in one server and game, by user id (a fixed order: two
        games finishing at once never deadlock on each other's rows), locked until the end of
        this write block, so that two games finishing at once for one player apply one after
        the other and neither update is lost.  A player without a row is absent from the
        answer (an engine that locks rows may create one with ``initial`` ``(mu, sigma)`` and
        no games; it counts as absent for every read).  Call it before
        :meth:`next_rating_seq`."""
        ids = sorted(set(user_ids))
        await self._seed_ratings((guild_id, game, *initial, at, ids))
        rows = await self._fetch(
            f"{RATINGS} WHERE guild_id = ? AND game = ? AND user_id IN ({marks(ids)})"
            " ORDER BY user_id",
            (guild_id, game, *ids),
            lock=True,
        )
        return [RatingRow(*r) for r in rows if r["games"] > 0]

    async def save_ratings(self, rows: Sequence[RatingRow]) -> None:
        """Insert or replace these rating rows."""
        await self._write_many(UPSERT_RATING, [values_of(r, RATING_FIELDS) for r in rows])

    async def add_rating_history(self, rows: Sequence[RatingHistoryRow]) -> None:
        await self._write_many(INSERT_HISTORY, [values_of(h, HISTORY_FIELDS) for h in rows])

    async def leaderboard(
        self, guild_id: int, game: str, limit: int, offset: int
    ) -> list[RatingRow]:
        """One page of players with rated games, ``mu`` DESC, ``games`` DESC, ``user_id``."""
        return await self._ratings(
            "WHERE guild_id = ? AND game = ? AND games > 0"
            " ORDER BY mu DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset),
        )

    async def rank_of(self, row: RatingRow) -> int:
        """``row``'s place (from 1) in its leaderboard's order."""
        return 1 + await self._count(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND games > 0"
            " AND (mu > ? OR (mu = ? AND (games > ? OR (games = ? AND user_id < ?))))",
            (row.guild_id, row.game, row.mu, row.mu, row.games, row.games, row.user_id),
        )

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """The player's ratings in every game of a server with rated games, best first."""
        return await self._ratings(
            "WHERE guild_id = ? AND user_id = ? AND games > 0 ORDER BY mu DESC, game",
            (guild_id, user_id),
        )

    async def rating_history(
        self, guild_id: int, user_id: int, game: str, limit: int
    ) -> list[RatingHistoryRow]:
        """The player's last ``limit`` history rows in one game, oldest first."""
        return await self._history(
            f"SELECT * FROM ({HISTORY} WHERE guild_id = ? AND user_id = ? AND game = ?"
            " ORDER BY seq DESC LIMIT ?) AS last ORDER BY seq",
            (guild_id, user_id, game, limit),
        )

    async def rating_changes(self, user_id: int, game_ids: Sequence[int]) -> list[RatingHistoryRow]:
        """The player's history rows for these games (those that changed ratings)."""
        if not game_ids:
            return []
        return await self._history(
            f"{HISTORY} WHERE user_id = ? AND game_id IN ({marks(game_ids)}) ORDER BY game_id",
            (user_id, *game_ids),
        )

    async def rated_games_until(self, guild_id: int, game: str, user_id: int, seq: int) -> int:
        """How many rated games the player had in that server and game once the game with
        ``rating_seq`` ``seq`` was applied (for a past game's provisional mark)."""
        return await self._count(
            "SELECT COUNT(*) FROM rating_history WHERE guild_id = ? AND user_id = ? AND game = ?"
            " AND seq <= ?",
            (guild_id, user_id, game, seq),
        )

    async def finished_games_for_player(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[GameRow]:
        # Two searches, one per seat, so each uses its index; then the newest of both.
        """The player's last finished or aborted games in a server, newest first."""
        mine = (
            "SELECT id, updated_at FROM games WHERE guild_id = ? AND {} = ? AND status <> 'active'"
        )
        return await self._games(
            f"WHERE id IN (SELECT id FROM ({mine.format('first_id')} UNION ALL"
            f" {mine.format('second_id')}) AS mine {NEWEST_FIRST} LIMIT ?) {NEWEST_FIRST}",
            (guild_id, user_id, guild_id, user_id, limit),
        )

    async def reset_ratings(self, guild_id: int, game: str) -> int:
        """Delete a server's ratings and history for one game and mark its rated games
        unrated (``reset``), so a rebuild does not bring them back.  Returns how many
        players had a rating."""
        await self._write(
            "UPDATE games SET rated = ?, unrated_reason = 'reset', rating_seq = NULL"
            " WHERE guild_id = ? AND game = ? AND rating_seq IS NOT NULL",
            (False, guild_id, game),
        )
        await self._write(
            "DELETE FROM rating_history WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        gone = await self._written(
            "DELETE FROM ratings WHERE guild_id = ? AND game = ? RETURNING games", (guild_id, game)
        )
        return sum(1 for r in gone if r[0] > 0)

    async def all_ratings(self) -> list[RatingRow]:
        """Every rating row with rated games, by server, game and user."""
        return await self._ratings("WHERE games > 0 ORDER BY guild_id, game, user_id", ())

    async def rated_results(self) -> list[RatedResult]:
        """Every game that changed ratings, in ``rating_seq`` order (for a rebuild)."""
        rows = await self._fetch(
            "SELECT id, guild_id, game, first_id, second_id, winner_id, finished_at, rating_seq"
            " FROM games WHERE rating_seq IS NOT NULL ORDER BY rating_seq"
        )
        return [RatedResult(*r) for r in rows]

    # ----- turn claims ----------------------------------------------------------------------
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
        found = await self._returning(
            "UPDATE games SET claimed_by = ?, claimed_version = ?, claimed_until = ?"
            " WHERE id = ? AND status = 'active' AND version = ? AND (claimed_by IS NULL"
            " OR claimed_by = ? OR claimed_version <> ? OR claimed_until <= ?) RETURNING id",
            (claimant, version, until, game_id, version, claimant, version, now),
        )
        return found is not None

    async def release_turn(self, game_id: int, claimant: str) -> None:
        """Drop ``claimant``'s claim on the game, if it still holds one (nothing otherwise)."""
        await self._write(
            "UPDATE games SET claimed_by = NULL, claimed_version = NULL, claimed_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            (game_id, claimant),
        )

    # ----- audit ----------------------------------------------------------------------------
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
        row = (guild_id, actor_id, action, game_id, target_id, detail, at)
        await self._op(Op("audit", game_id, row))

    async def audit(self, guild_id: int, limit: int) -> list[AuditRow]:
        """A server's audit entries, newest first."""
        rows = await self._fetch(
            f"{AUDIT} WHERE guild_id = ? ORDER BY id DESC LIMIT ?", (guild_id, limit)
        )
        return [AuditRow(*r) for r in rows]

    # ----- the whole store ------------------------------------------------------------------
    async def contents(self) -> StoreContents:
        """Every row of every table in key order (inside ``read()``: one snapshot)."""
        return StoreContents(
            settings=tuple(
                settings_row(r) for r in await self._fetch(f"{SETTINGS} ORDER BY guild_id")
            ),
            challenges=tuple(await self._challenges("ORDER BY id", ())),
            games=tuple(await self._games("ORDER BY id")),
            moves=tuple(MoveRow(*r) for r in await self._fetch(f"{MOVES} ORDER BY game_id, ply")),
            events=tuple(EventRow(*r) for r in await self._fetch(f"{EVENTS} ORDER BY id")),
            audit=tuple(AuditRow(*r) for r in await self._fetch(f"{AUDIT} ORDER BY id")),
            ratings=tuple(await self._ratings("ORDER BY guild_id, game, user_id", ())),
            rating_history=tuple(await self._history(f"{HISTORY} ORDER BY game_id, user_id", ())),
        )

    async def import_rows(self, contents: StoreContents) -> None:
        """Every row with its ids, into empty tables (inside ``write()``: all or nothing)."""
        for table in DATA_TABLES:
            found = await self._one(f"SELECT EXISTS (SELECT 1 FROM {table})")
            if found is not None and found[0]:
                raise StoreNotEmpty(
                    f"the target already holds data (its {table} table has rows); copy into a"
                    " new, empty database"
                )
        for table, rows in zip(DATA_TABLES, vars_of(contents), strict=True):
            if rows:
                fields = tuple(type(rows[0]).__dataclass_fields__)
                await self._bulk(table, fields, [self._row_args(r, fields) for r in rows])

    async def replace_ratings(
        self,
        ratings: Sequence[RatingRow],
        history: Sequence[RatingHistoryRow],
        expect: tuple[int, int | None],
    ) -> None:
        """Every rating and history row replaced (inside ``write()``), if the rated games are
        still those the rebuild read (else WriteConflict)."""
        await self._lock_ratings_table()
        found = await self._one(RATED_SUMMARY)
        assert found is not None
        if (int(found[0]), found[1]) != expect:
            raise WriteConflict("games finished while the ratings were rebuilt; run it again")
        await self._write("DELETE FROM rating_history", ())
        await self._write("DELETE FROM ratings", ())
        await self._bulk("ratings", RATING_FIELDS, [values_of(r, RATING_FIELDS) for r in ratings])
        await self._bulk(
            "rating_history", HISTORY_FIELDS, [values_of(h, HISTORY_FIELDS) for h in history]
        )

    async def _lock_ratings_table(self) -> None:
        """Keep games from finishing while the ratings are replaced (SQLite's write lock does)."""

    async def _bulk(self, table: str, fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Insert many plain rows (PostgreSQL copies them)."""
        if rows:
            await self._write_many(insert(table, fields), rows)


class SharedStore:
    """What both engines' stores do alike: opening, ``async with``, and the whole-store
    operations, each one ``read()`` or ``write()`` block over the shared queries."""

    @classmethod
    async def open(cls, target: Any, **options: Any) -> Self:
        store = cls(target, **options)  # type: ignore[call-arg]
        await store.connect()
        return store

    async def __aenter__(self) -> Self:
        if not self.opened:
            await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def opened(self) -> bool:
        raise NotImplementedError

    async def connect(self) -> None:
        raise NotImplementedError

    async def close(self, timeout: float | None = None) -> None:
        raise NotImplementedError

    def read(self) -> AbstractAsyncContextManager[SharedTx]:
        raise NotImplementedError

    def write(self) -> AbstractAsyncContextManager[SharedTx]:
        raise NotImplementedError

    async def export_all(self) -> StoreContents:
        """Every row with its ids, from one snapshot, in key order."""
        async with self.read() as tx:
            return await tx.contents()

    async def import_all(self, contents: StoreContents) -> None:
        """Every row with its ids into empty tables, in one transaction."""
        async with self.write() as tx:
            await tx.import_rows(contents)

    async def replace_ratings(
        self,
        ratings: Sequence[RatingRow],
        history: Sequence[RatingHistoryRow],
        *,
        expect: tuple[int, int | None],
    ) -> None:
        """Replace every rating and history row in one transaction (see ``SharedTx``)."""
        async with self.write() as tx:
            await tx.replace_ratings(ratings, history, expect)


async def settle(awaitable: Awaitable[T]) -> T:
    """Await ``awaitable`` to its end even if the caller is cancelled meanwhile (the
    cancellation is raised afterwards).

    A statement already sent runs to its end whatever the caller does; what comes next (a
    ROLLBACK, releasing a lock, a connection going back to the pool) must come after it.
    """
    task = asyncio.ensure_future(awaitable)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await outlast(task)
        raise


async def outlast(task: asyncio.Future[Any]) -> bool:
    """Wait, through any cancellations, until ``task`` is done; whether it ran to its end
    (rather than being cancelled itself).  Its outcome is looked at and dropped: the
    caller's cancellation wins."""
    while not task.done():
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait((task,))
    if task.cancelled():
        return False
    task.exception()
    return True
