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
    CreatorRoleRow,
    EntrantRow,
    EventRow,
    GameRow,
    GameVersion,
    MoveRow,
    NewChallenge,
    NewGame,
    NoticeRow,
    PairingRow,
    RatedResult,
    RatingHistoryRow,
    RatingRow,
    ResultRow,
    RoundRow,
    SettingsRow,
    ShardFilter,
    StoreContents,
    TournamentRow,
    VacationRow,
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
TOURNAMENT_FIELDS = tuple(TournamentRow.__dataclass_fields__)
ENTRANT_FIELDS = tuple(EntrantRow.__dataclass_fields__)
PAIRING_FIELDS = tuple(PairingRow.__dataclass_fields__)
VACATION_FIELDS = tuple(VacationRow.__dataclass_fields__)
NOTICE_FIELDS = tuple(NoticeRow.__dataclass_fields__)
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
TOURNAMENTS = select(TOURNAMENT_FIELDS, "tournaments")
ENTRANTS = select(ENTRANT_FIELDS, "tournament_entrants")
PAIRINGS = select(PAIRING_FIELDS, "tournament_pairings")
PAIRING_ORDER = "ORDER BY round, division, tbl, game_no"
VACATIONS = select(VACATION_FIELDS, "vacations")
UPSERT_VACATION = (
    f"{insert('vacations', VACATION_FIELDS)} ON CONFLICT (user_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in VACATION_FIELDS[1:])
)
NOTICES = select(NOTICE_FIELDS, "notice_prefs")
UPSERT_NOTICE = (
    f"{insert('notice_prefs', NOTICE_FIELDS)} ON CONFLICT (user_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in NOTICE_FIELDS[1:])
)
DAY_US = 86_400_000_000
WAITING = "status = 'active' AND to_move_id"
"""Games waiting on a player (the ``games_waiting_on`` index), oldest turn first."""
WAITING_ORDER = "ORDER BY turn_started_at, id"
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
SERVED_TOURNAMENT = (
    "public = ? AND NOT EXISTS (SELECT 1 FROM guild_settings AS s"
    " WHERE s.guild_id = tournaments.guild_id AND s.web_listing = ?)"
)
"""The tournaments the web may show, as :data:`SERVED` (same arguments)."""
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


def tournament_row(row: Row) -> TournamentRow:
    values = {name: row[name] for name in TOURNAMENT_FIELDS}
    values["reminders"] = tuple(_decoded(values["reminders"]))
    values["rated"] = bool(values["rated"])
    values["public"] = bool(values["public"])
    return TournamentRow(**values)


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


def notice_row(row: Row) -> NoticeRow:
    values = {name: row[name] for name in NOTICE_FIELDS}
    values["dm_closed"] = bool(values["dm_closed"])
    return NoticeRow(**values)


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


IN_CHUNK = 10_000
"""The most ids one ``IN (…)`` list carries: PostgreSQL takes at most 32,767 bind arguments in a
statement, and a large tournament's games or a league's players pass that."""


def in_chunks(ids: Sequence[Any]) -> list[list[Any]]:
    """``ids`` sorted, unique, in lists of at most :data:`IN_CHUNK`; a query ordered by the id
    it lists gives, chunk after chunk, the same rows in the same order as one statement."""
    unique = sorted(set(ids))
    return [unique[i : i + IN_CHUNK] for i in range(0, len(unique), IN_CHUNK)]


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
    SKIP_LOCKED = ""
    """Appended to a claim's choice of rows: on PostgreSQL, rows another transaction is
    claiming are passed over (not waited for and then found taken), so racing claimers each
    get a batch; SQLite has one writer, so nothing is ever locked by another claimer."""

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

    async def challenges_for(
        self,
        guild_id: int,
        user_id: int,
        limit: int,
        *,
        after_id: int | None = None,
        before_id: int | None = None,
    ) -> list[ChallengeRow]:
        """Open challenges in a server that ``user_id`` may answer or withdraw: by them, to
        them, or open to anyone; oldest first, at most ``limit``.  A page: those after
        ``after_id``, or the ``limit`` just before ``before_id`` (still oldest first)."""
        where = (
            "WHERE guild_id = ? AND status = 'open'"
            " AND (challenger_id = ? OR opponent_id = ? OR opponent_id IS NULL)"
        )
        args: list[Any] = [guild_id, user_id, user_id]
        if after_id is not None:
            where += " AND id > ?"
            args.append(after_id)
        if before_id is not None:
            found = await self._challenges(
                f"{where} AND id < ? ORDER BY id DESC LIMIT ?", (*args, before_id, limit)
            )
            return found[::-1]
        return await self._challenges(f"{where} ORDER BY id LIMIT ?", (*args, limit))

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
        rows = await self._games(
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
            found = await self._one(
                "SELECT soft_time FROM guild_settings WHERE guild_id = ?", (guild,)
            )
            limits[guild] = default if found is None or found[0] is None else int(found[0])
        return [(r, limits[r.guild_id]) for r in rows]

    async def mark_soft_noticed(self, game_id: int, version: int, now: int) -> bool:
        """Record that the game's soft-time notice goes out now, if it did not already this
        turn and no vacation stops the game: true for exactly one caller (a conditional write;
        on PostgreSQL a racing one waits for the row and re-checks against the new value)."""
        found = await self._returning(
            "UPDATE games SET soft_noticed_at = ? WHERE id = ? AND version = ?"
            " AND status = 'active' AND deadline_at IS NULL"
            " AND (soft_noticed_at IS NULL OR soft_noticed_at <= turn_started_at)"
            " AND (paused_until IS NULL OR paused_until <= ?) RETURNING id",
            (now, game_id, version, now),
        )
        return found is not None

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
        rows: list[Row] = []
        for chunk in in_chunks(web_tokens):
            rows += await self._fetch(
                f"SELECT web_token, version FROM games WHERE web_token IN ({marks(chunk)})"
                f" AND {SERVED}",
                (*chunk, *SERVED_ARGS),
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
        rows: list[Row] = []
        for chunk in in_chunks(ids):
            rows += await self._fetch(
                f"{RATINGS} WHERE guild_id = ? AND game = ? AND user_id IN ({marks(chunk)})"
                " ORDER BY user_id",
                (guild_id, game, *chunk),
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
        found: list[RatingHistoryRow] = []
        for chunk in in_chunks(game_ids):
            found += await self._history(
                f"{HISTORY} WHERE user_id = ? AND game_id IN ({marks(chunk)}) ORDER BY game_id",
                (user_id, *chunk),
            )
        return found

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
        # The games are found by their history rows: ``game`` names a rating pool, which
        # for a pie-rule game (``minefield+pie``) is not its ``games.game``.
        await self._write(
            "UPDATE games SET rated = ?, unrated_reason = 'reset', rating_seq = NULL"
            " WHERE rating_seq IS NOT NULL AND id IN (SELECT game_id FROM rating_history"
            " WHERE guild_id = ? AND game = ?)",
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
            "SELECT id, guild_id, game, first_id, second_id, winner_id, finished_at, rating_seq,"
            " options FROM games WHERE rating_seq IS NOT NULL ORDER BY rating_seq"
        )
        return [
            RatedResult(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], _pairs(r[8])) for r in rows
        ]

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

    # ----- tournaments ----------------------------------------------------------------------
    async def insert_tournament(self, values: dict[str, Any]) -> TournamentRow:
        """Insert a tournament (every column but ``id``, which the store gives it)."""
        found = await self._returning(
            f"{insert('tournaments', list(values))} RETURNING {', '.join(TOURNAMENT_FIELDS)}",
            [self._encode(c, v) for c, v in values.items()],
        )
        assert found is not None
        return tournament_row(found)

    async def served_tournament(self, web_token: str) -> TournamentRow | None:
        """The tournament with this web token if the web may show it, else None."""
        found = await self._one(
            f"{TOURNAMENTS} WHERE web_token = ? AND {SERVED_TOURNAMENT}",
            (web_token, *SERVED_ARGS),
            lock=False,
        )
        return None if found is None else tournament_row(found)

    async def served_tournaments(self, limit: int) -> list[TournamentRow]:
        """The tournaments the web may show, most recently updated first."""
        rows = await self._fetch(
            f"{TOURNAMENTS} WHERE {SERVED_TOURNAMENT} {NEWEST_FIRST} LIMIT ?",
            (*SERVED_ARGS, limit),
        )
        return [tournament_row(r) for r in rows]

    async def game_tokens(self, game_ids: Sequence[int]) -> dict[int, str]:
        """The web tokens of those of these games that the web may show, by game id."""
        if not game_ids:
            return {}
        rows: list[Row] = []
        for chunk in in_chunks(game_ids):
            rows += await self._fetch(
                f"SELECT id, web_token FROM games WHERE id IN ({marks(chunk)})"
                f" AND web_token IS NOT NULL AND {SERVED}",
                (*chunk, *SERVED_ARGS),
            )
        return {int(r["id"]): str(r["web_token"]) for r in rows}

    async def tournament(self, tournament_id: int, *, lock: bool = True) -> TournamentRow | None:
        """The tournament; in a write block its row stays locked (PostgreSQL: ``FOR UPDATE``)
        to the end, so every change to one tournament is serialised on this row."""
        found = await self._one(f"{TOURNAMENTS} WHERE id = ?", (tournament_id,), lock=lock)
        return None if found is None else tournament_row(found)

    async def update_tournament(self, row: TournamentRow, values: dict[str, Any]) -> TournamentRow:
        """Change the tournament if it is still at ``row.version`` (else WriteConflict), one
        version up; returns the row as now stored."""
        unknown = set(values) - set(TOURNAMENT_FIELDS)
        assert not unknown, f"unknown tournament columns {sorted(unknown)}"
        values = {**values, "version": row.version + 1}
        found = await self._returning(
            f"UPDATE tournaments SET {', '.join(f'{c} = ?' for c in values)}"
            f" WHERE id = ? AND version = ? RETURNING {', '.join(TOURNAMENT_FIELDS)}",
            [*(self._encode(c, v) for c, v in values.items()), row.id, row.version],
        )
        if found is None:
            raise WriteConflict("the tournament changed before this command could be saved")
        return tournament_row(found)

    async def tournaments_in(
        self, guild_id: int, status: str | None, limit: int
    ) -> list[TournamentRow]:
        """A server's tournaments (of one status if given), newest first."""
        where = "guild_id = ?"
        args: list[Any] = [guild_id]
        if status is not None:
            where += " AND status = ?"
            args.append(status)
        rows = await self._fetch(
            f"{TOURNAMENTS} WHERE {where} ORDER BY id DESC LIMIT ?", [*args, limit]
        )
        return [tournament_row(r) for r in rows]

    async def due_tournaments(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[TournamentRow]:
        """Tournaments still registering whose registration deadline is at or before ``now``."""
        held, held_args = shard_clause(shards)
        rows = await self._fetch(
            f"{TOURNAMENTS} WHERE status = 'registration' AND registration_deadline <= ?{held}"
            " ORDER BY registration_deadline, id LIMIT ?",
            (now, *held_args, limit),
        )
        return [tournament_row(r) for r in rows]

    async def claim_podium(self, tournament_id: int, at: int) -> bool:
        """Claim the finished tournament's podium announcement: True for one caller only."""
        found = await self._written(
            "UPDATE tournaments SET podium_claimed_at = ? WHERE id = ? AND status = 'finished'"
            " AND podium_claimed_at IS NULL RETURNING id",
            (at, tournament_id),
        )
        return bool(found)

    async def unannounced_tournaments(
        self, limit: int, shards: ShardFilter | None = None
    ) -> list[TournamentRow]:
        """Finished tournaments whose podium nobody has claimed yet, oldest first."""
        held, held_args = shard_clause(shards)
        rows = await self._fetch(
            f"{TOURNAMENTS} WHERE status = 'finished' AND podium_claimed_at IS NULL{held}"
            " ORDER BY id LIMIT ?",
            (*held_args, limit),
        )
        return [tournament_row(r) for r in rows]

    async def next_tournament_deadline(self) -> int | None:
        found = await self._one(
            "SELECT MIN(registration_deadline) FROM tournaments WHERE status = 'registration'"
        )
        return None if found is None or found[0] is None else int(found[0])

    async def league_season(self, league_id: int, season: int) -> TournamentRow | None:
        """Season ``season`` of the league whose first season is ``league_id``."""
        found = await self._one(
            f"{TOURNAMENTS} WHERE (id = ? OR league_id = ?) AND season = ? ORDER BY id LIMIT 1",
            (league_id, league_id, season),
        )
        return None if found is None else tournament_row(found)

    async def entrants(self, tournament_id: int, division: int | None = None) -> list[EntrantRow]:
        """The tournament's players (of one division, if given) in the order they joined."""
        if division is None:
            rows = await self._fetch(
                f"{ENTRANTS} WHERE tournament_id = ? ORDER BY joined_at, user_id",
                (tournament_id,),
            )
        else:
            rows = await self._fetch(
                f"{ENTRANTS} WHERE tournament_id = ? AND COALESCE(division, 1) = ?"
                " ORDER BY joined_at, user_id",
                (tournament_id, division),
            )
        return [EntrantRow(*r) for r in rows]

    async def save_entrants(self, rows: Sequence[EntrantRow]) -> None:
        """Insert these players, or replace their rows."""
        if rows:
            await self._write_many(
                f"{insert('tournament_entrants', ENTRANT_FIELDS)} ON CONFLICT (tournament_id,"
                " user_id) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in ENTRANT_FIELDS[2:]),
                [values_of(r, ENTRANT_FIELDS) for r in rows],
            )

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        gone = await self._written(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?"
            " RETURNING user_id",
            (tournament_id, user_id),
        )
        return bool(gone)

    async def insert_round(self, row: RoundRow) -> None:
        """Record that a round was created; a second time violates the key (WriteConflict),
        so a round is made once whatever races."""
        await self._write(
            insert("tournament_rounds", ("tournament_id", "round", "created_at")),
            (row.tournament_id, row.round, row.created_at),
        )

    async def insert_pairings(self, rows: Sequence[PairingRow]) -> None:
        if rows:
            await self._write_many(
                insert("tournament_pairings", PAIRING_FIELDS),
                [values_of(r, PAIRING_FIELDS) for r in rows],
            )

    async def pairings(
        self, tournament_id: int, round: int | None = None, division: int | None = None
    ) -> list[PairingRow]:
        """The tournament's pairings (of one round, one division, if given), by round,
        division, table and game."""
        where = "tournament_id = ?"
        args: list[Any] = [tournament_id]
        for column, value in (("round", round), ("division", division)):
            if value is not None:
                where += f" AND {column} = ?"
                args.append(value)
        rows = await self._fetch(f"{PAIRINGS} WHERE {where} {PAIRING_ORDER}", args)
        return [PairingRow(*r) for r in rows]

    async def pairing_of_game(self, game_id: int) -> PairingRow | None:
        found = await self._one(f"{PAIRINGS} WHERE game_id = ?", (game_id,))
        return None if found is None else PairingRow(*found)

    async def update_pairing(self, row: PairingRow, values: dict[str, Any]) -> bool:
        """Set the pairing's game or result; only while it has no result (False otherwise)."""
        found = await self._written(
            f"UPDATE tournament_pairings SET {', '.join(f'{c} = ?' for c in values)}"
            " WHERE tournament_id = ? AND division = ? AND round = ? AND tbl = ? AND game_no = ?"
            " AND outcome IS NULL RETURNING tbl",
            [*values.values(), row.tournament_id, row.division, row.round, row.tbl, row.game_no],
        )
        return bool(found)

    async def tournament_games(self, tournament_id: int, round: int | None = None) -> list[GameRow]:
        """The tournament's games (of one round if given), by id."""
        if round is None:
            return await self._games("WHERE tournament_id = ? ORDER BY id", (tournament_id,))
        return await self._games(
            "WHERE tournament_id = ? AND id IN (SELECT game_id FROM tournament_pairings"
            " WHERE tournament_id = ? AND round = ?) ORDER BY id",
            (tournament_id, tournament_id, round),
        )

    async def games_in_channels_from(
        self, first_channel: int, tournament_id: int | None
    ) -> list[GameRow]:
        """Active tournament games whose channel id is ``first_channel`` or more (of one
        tournament if given), by id."""
        if tournament_id is None:
            return await self._games(
                "WHERE status = 'active' AND tournament_id IS NOT NULL AND channel_id >= ?"
                " ORDER BY id",
                (first_channel,),
            )
        return await self._games(
            "WHERE tournament_id = ? AND status = 'active' AND channel_id >= ? ORDER BY id",
            (tournament_id, first_channel),
        )

    async def move_game(self, row: GameRow, channel_id: int) -> GameRow:
        """Give the game another channel (no version bump; versioned like every game write)."""
        return await self._versioned(row, {"channel_id": channel_id})

    async def current_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> list[RatingRow]:
        """The players' rating rows with rated games in one server and game (no lock)."""
        if not user_ids:
            return []
        found: list[RatingRow] = []
        for chunk in in_chunks(user_ids):
            found += await self._ratings(
                f"WHERE guild_id = ? AND game = ? AND games > 0 AND user_id IN ({marks(chunk)})",
                (guild_id, game, *chunk),
            )
        return found

    async def creator_roles(self, guild_id: int) -> list[int]:
        rows = await self._fetch(
            "SELECT role_id FROM tournament_creator_roles WHERE guild_id = ? ORDER BY role_id",
            (guild_id,),
        )
        return [int(r[0]) for r in rows]

    async def set_creator_roles(self, guild_id: int, role_ids: Sequence[int]) -> None:
        await self._write("DELETE FROM tournament_creator_roles WHERE guild_id = ?", (guild_id,))
        if role_ids:
            await self._write_many(
                insert("tournament_creator_roles", ("guild_id", "role_id")),
                [(guild_id, r) for r in role_ids],
            )

    # ----- vacations and paused clocks -------------------------------------------------------
    async def vacation(self, user_id: int) -> VacationRow | None:
        """The player's vacation row (None: they never took one)."""
        found = await self._one(f"{VACATIONS} WHERE user_id = ?", (user_id,), lock=True)
        return None if found is None else VacationRow(*found)

    async def save_vacation(self, row: VacationRow) -> None:
        """Insert or replace the player's vacation row."""
        await self._write(UPSERT_VACATION, values_of(row, VACATION_FIELDS))

    async def running_vacations(self, user_ids: Sequence[int], now: int) -> list[VacationRow]:
        """The vacations of these players that run at ``now`` (started, not yet over)."""
        if not user_ids:
            return []
        rows: list[Row] = []
        for chunk in in_chunks(user_ids):
            rows += await self._fetch(
                f"{VACATIONS} WHERE user_id IN ({marks(chunk)}) AND started_at <= ?"
                " AND ends_at > ? ORDER BY user_id",
                (*chunk, now, now),
            )
        return [VacationRow(*r) for r in rows]

    async def active_games_of(self, user_id: int) -> list[GameRow]:
        """The player's active games in every server, by id (a vacation stops them all)."""
        return await self._games(
            "WHERE id IN (SELECT id FROM games WHERE status = 'active' AND first_id = ?"
            " UNION SELECT id FROM games WHERE status = 'active' AND second_id = ?) ORDER BY id",
            (user_id, user_id),
            lock=True,
        )

    async def shift_clock(
        self, row: GameRow, deadline_at: int | None, remind_at: int | None, paused_until: int | None
    ) -> GameRow:
        """Move the turn's deadline and next reminder and set ``paused_until`` (a vacation
        starts or ends; no version bump, so the board's buttons stay valid)."""
        values = {"deadline_at": deadline_at, "remind_at": remind_at, "paused_until": paused_until}
        return await self._versioned(row, values)

    async def settings_of(self, guild_ids: Sequence[int]) -> list[SettingsRow]:
        """The settings rows of these servers (those that saved any), by server."""
        if not guild_ids:
            return []
        rows: list[Row] = []
        for chunk in in_chunks(guild_ids):
            rows += await self._fetch(
                f"{SETTINGS} WHERE guild_id IN ({marks(chunk)}) ORDER BY guild_id", tuple(chunk)
            )
        return [settings_row(r) for r in rows]

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

    # ----- turn notices ---------------------------------------------------------------------
    async def notice_pref(self, user_id: int) -> NoticeRow | None:
        """The player's notice preference, None if they never chose one."""
        found = await self._one(f"{NOTICES} WHERE user_id = ?", (user_id,))
        return None if found is None else notice_row(found)

    async def save_notice_pref(self, row: NoticeRow) -> None:
        """Insert or replace the player's notice preference."""
        await self._write(UPSERT_NOTICE, self._row_args(row, NOTICE_FIELDS))

    async def close_dms(self, user_id: int, at: int) -> bool:
        """Record that the player's DMs are closed; True only for the call that changed it
        (so the player is told once)."""
        found = await self._returning(
            "UPDATE notice_prefs SET dm_closed = ?, updated_at = ?"
            " WHERE user_id = ? AND dm_closed = ? RETURNING user_id",
            (True, at, user_id, False),
        )
        return found is not None

    async def claim_digests(self, now: int, limit: int) -> list[NoticeRow]:
        # One statement.  The batch is chosen once (a materialised CTE: a subquery in ``IN``
        # may be re-run per row, and with ``SKIP LOCKED`` each re-run would skip the rows this
        # statement just claimed and pick more, past the limit).  Rows a racing claim holds
        # are skipped (``SKIP_LOCKED``), and the outer ``due`` re-checks any row committed
        # meanwhile, so each row goes to exactly one claimer.
        due = "mode = 'digest' AND dm_closed = ? AND next_digest_at <= ?"
        rows = await self._written(
            f"WITH picked AS MATERIALIZED (SELECT user_id FROM notice_prefs WHERE {due}"
            f" ORDER BY next_digest_at, user_id LIMIT ?{self.SKIP_LOCKED})"
            f" UPDATE notice_prefs SET next_digest_at = next_digest_at + {DAY_US}"
            f" * (1 + (CAST(? AS BIGINT) - next_digest_at) / {DAY_US})"
            f" WHERE user_id IN (SELECT user_id FROM picked) AND {due}"
            f" RETURNING {', '.join(NOTICE_FIELDS)}",
            (False, now, limit, now, False, now),
        )
        return sorted((notice_row(r) for r in rows), key=lambda r: r.user_id)

    async def waiting_games(
        self, user_ids: Sequence[int], guild_id: int | None = None, limit: int | None = None
    ) -> list[GameRow]:
        """Active games where one of ``user_ids`` is to move (in one server, if given), the
        longest-waiting turn first (``turn_started_at``, then id); at most ``limit``."""
        if not user_ids:
            return []
        where = f"WHERE {WAITING} IN ({marks(user_ids)})"
        args: list[Any] = list(user_ids)
        if guild_id is not None:
            where += " AND guild_id = ?"
            args.append(guild_id)
        where += f" {WAITING_ORDER}"
        if limit is not None:
            where += " LIMIT ?"
            args.append(limit)
        return await self._games(where, args)

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
            tournaments=tuple(
                tournament_row(r) for r in await self._fetch(f"{TOURNAMENTS} ORDER BY id")
            ),
            tournament_entrants=tuple(
                EntrantRow(*r)
                for r in await self._fetch(f"{ENTRANTS} ORDER BY tournament_id, user_id")
            ),
            tournament_rounds=tuple(
                RoundRow(*r)
                for r in await self._fetch(
                    "SELECT tournament_id, round, created_at FROM tournament_rounds"
                    " ORDER BY tournament_id, round"
                )
            ),
            tournament_pairings=tuple(
                PairingRow(*r)
                for r in await self._fetch(
                    f"{PAIRINGS} ORDER BY tournament_id, division, round, tbl, game_no"
                )
            ),
            tournament_creator_roles=tuple(
                CreatorRoleRow(*r)
                for r in await self._fetch(
                    "SELECT guild_id, role_id FROM tournament_creator_roles"
                    " ORDER BY guild_id, role_id"
                )
            ),
            vacations=tuple(
                VacationRow(*r) for r in await self._fetch(f"{VACATIONS} ORDER BY user_id")
            ),
            notices=tuple(notice_row(r) for r in await self._fetch(f"{NOTICES} ORDER BY user_id")),
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
