"""The SQL of the SQLite engine: one transaction's typed methods (see ``interface.Tx``).

Writes whose result nobody needs (appending moves, versioned game updates, events, audit rows)
are deferred and sent together with the next read or the COMMIT, in one hop to the store's
thread, so a move costs two hops (read the game; write and commit).  A versioned update that
finds another version raises :class:`WriteConflict` at that point and the whole transaction
rolls back.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from .errors import StoreNotEmpty, WriteConflict
from .rows import (
    DATA_TABLES,
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

Statement = tuple[str, Any, str]
"""(sql, parameters, mode): mode "one" = must change exactly one row, "many" = executemany."""

Call = Callable[..., Awaitable[Any]]
"""``call(fn, *args)`` runs ``fn(connection, *args)`` on the store's thread."""

_GAME_COLUMNS = frozenset(GameRow.__dataclass_fields__) - {"id"}
_OBJECT_COLUMNS = frozenset({"default_sizes", "options"})
_LIST_COLUMNS = frozenset({"allowed_channels", "reminders"})
_NO_TAKEBACK: dict[str, Any] = {"takeback_by": None, "takeback_at": None, "takeback_version": None}
_NO_CLOCK: dict[str, Any] = {"deadline_at": None, "remind_at": None}


def _encode(column: str, value: Any) -> Any:
    if column in _OBJECT_COLUMNS:
        return json.dumps(dict(value), sort_keys=True)
    if column in _LIST_COLUMNS:
        return json.dumps(list(value))
    if isinstance(value, bool):
        return int(value)
    return value


def _options(text: str) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((str(k), str(v)) for k, v in json.loads(text).items()))


def settings_row(row: sqlite3.Row) -> SettingsRow:
    sizes = json.loads(row["default_sizes"])
    return SettingsRow(
        guild_id=row["guild_id"],
        allowed_channels=tuple(json.loads(row["allowed_channels"])),
        use_threads=bool(row["use_threads"]),
        per_move=row["per_move"],
        reminders=tuple(json.loads(row["reminders"])),
        default_sizes=tuple(sorted((str(k), int(v)) for k, v in sizes.items())),
        challenge_expiry=row["challenge_expiry"],
        updated_at=row["updated_at"],
        ratings_enabled=bool(row["ratings_enabled"]),
    )


def challenge_row(row: sqlite3.Row) -> ChallengeRow:
    data = dict(row)
    data["reminders"] = tuple(json.loads(data["reminders"]))
    data["options"] = _options(data["options"])
    data["rated"] = bool(data["rated"])
    return ChallengeRow(**data)


def game_row(row: sqlite3.Row) -> GameRow:
    data = {k: row[k] for k in row.keys() if k in GameRow.__dataclass_fields__}  # noqa: SIM118
    data["reminders"] = tuple(json.loads(data["reminders"]))
    data["options"] = _options(data["options"])
    data["rated"] = bool(data["rated"])
    return GameRow(**data)


_RATING_COLUMNS = tuple(RatingRow.__dataclass_fields__)
_HISTORY_COLUMNS = tuple(RatingHistoryRow.__dataclass_fields__)
_RATING_SELECT = f"SELECT {', '.join(_RATING_COLUMNS)} FROM ratings"
_HISTORY_SELECT = f"SELECT {', '.join(_HISTORY_COLUMNS)} FROM rating_history"
_LEADERBOARD_ORDER = "ORDER BY mu DESC, games DESC, user_id"
_UPSERT_RATING = (
    f"INSERT INTO ratings ({', '.join(_RATING_COLUMNS)})"
    f" VALUES ({', '.join('?' * len(_RATING_COLUMNS))})"
    " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in _RATING_COLUMNS[3:])
)
_INSERT_HISTORY = (
    f"INSERT INTO rating_history ({', '.join(_HISTORY_COLUMNS)})"
    f" VALUES ({', '.join('?' * len(_HISTORY_COLUMNS))})"
)
_RATED_RESULTS = (
    "SELECT id, guild_id, game, first_id, second_id, winner_id, finished_at, rating_seq"
    " FROM games WHERE rating_seq IS NOT NULL ORDER BY rating_seq"
)


def _values(row: Any, columns: Sequence[str]) -> tuple[Any, ...]:
    return tuple(getattr(row, c) for c in columns)


def rated_summary(raw: sqlite3.Connection) -> tuple[int, int | None]:
    """How many games changed ratings, and the last ``rating_seq`` (a rebuild's guard)."""
    found = raw.execute(
        "SELECT COUNT(*), MAX(rating_seq) FROM games WHERE rating_seq IS NOT NULL"
    ).fetchone()
    return int(found[0]), found[1]


def replace_ratings(
    raw: sqlite3.Connection,
    ratings: Sequence[RatingRow],
    history: Sequence[RatingHistoryRow],
    expect: tuple[int, int | None],
) -> None:
    """On the store's thread, in one ``BEGIN IMMEDIATE``: every rating and history row
    replaced, if the rated games are still those the rebuild read (else WriteConflict)."""
    raw.execute("BEGIN IMMEDIATE")
    try:
        if rated_summary(raw) != expect:
            raise WriteConflict("games finished while the ratings were rebuilt; run it again")
        raw.execute("DELETE FROM rating_history")
        raw.execute("DELETE FROM ratings")
        raw.executemany(_UPSERT_RATING, [_values(r, _RATING_COLUMNS) for r in ratings])
        raw.executemany(_INSERT_HISTORY, [_values(h, _HISTORY_COLUMNS) for h in history])
        raw.execute("COMMIT")
    except BaseException:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        raise


def _shard_clause(shards: ShardFilter | None) -> tuple[str, tuple[int, ...]]:
    """`` AND <the row's server is on one of these shards>`` and its parameters (or nothing)."""
    if shards is None:
        return "", ()
    marks = ", ".join("?" * len(shards.ids))
    return f" AND ((guild_id >> 22) % ?) IN ({marks})", (shards.count, *shards.ids)


def run_batch(
    raw: sqlite3.Connection,
    begin: str | None,
    pending: list[Statement],
    final: Statement | None,
) -> Any:
    """On the store's thread: an optional BEGIN, the deferred writes, then one statement."""
    if begin is not None:
        raw.execute(begin)
    for sql, params, mode in pending:
        if mode == "many":
            raw.executemany(sql, params)
            continue
        cursor = raw.execute(sql, params)
        if mode == "one" and cursor.rowcount != 1:
            raise WriteConflict("the game changed meanwhile: someone else acted first")
    if final is None:
        return None
    sql, params, mode = final
    cursor = raw.execute(sql, params)
    if mode == "rows":
        return cursor.fetchall()
    if mode == "rowid":
        return cursor.lastrowid
    return cursor.rowcount


class SqliteTx:
    """One transaction on the store's connection, run while the caller holds the store lock.

    Obtained from ``SqliteStore.write()`` (``BEGIN IMMEDIATE``) or ``read()`` (``BEGIN``);
    the transaction begins with its first statement.
    """

    def __init__(self, call: Call, begin: str) -> None:
        self._call = call
        self._begin: str | None = begin
        self._pending: list[Statement] = []

    @property
    def began(self) -> bool:
        return self._begin is None

    async def _run(self, sql: str, params: Sequence[Any], mode: str) -> Any:
        begin, self._begin = self._begin, None
        pending, self._pending = self._pending, []
        return await self._call(run_batch, begin, pending, (sql, params, mode))

    def _defer(self, sql: str, params: Any, mode: str = "") -> None:
        self._pending.append((sql, params, mode))

    async def finish(self, how: str) -> None:
        """Send deferred writes and end the transaction (COMMIT or ROLLBACK), in one hop."""
        if self._begin is not None and not self._pending:
            return  # nothing ever ran
        begin, self._begin = self._begin, None
        pending, self._pending = self._pending, []
        await self._call(run_batch, begin, pending, (how, (), "count"))

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._run(sql, params, "rows"))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _insert(self, sql: str, params: Sequence[Any]) -> int:
        rowid = await self._run(sql, params, "rowid")
        assert rowid is not None
        return int(rowid)

    # ----- settings -----------------------------------------------------------------------
    async def settings(self, guild_id: int) -> SettingsRow | None:
        row = await self._one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return None if row is None else settings_row(row)

    async def save_settings(self, row: SettingsRow) -> None:
        self._defer(
            "INSERT OR REPLACE INTO guild_settings (guild_id, allowed_channels, use_threads,"
            " per_move, reminders, default_sizes, challenge_expiry, updated_at, ratings_enabled)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.guild_id,
                _encode("allowed_channels", row.allowed_channels),
                int(row.use_threads),
                row.per_move,
                _encode("reminders", row.reminders),
                _encode("default_sizes", row.default_sizes),
                row.challenge_expiry,
                row.updated_at,
                int(row.ratings_enabled),
            ),
        )

    # ----- challenges ---------------------------------------------------------------------
    async def insert_challenge(self, new: NewChallenge) -> ChallengeRow:
        challenge_id = await self._insert(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, game,"
            " size, first, per_move, reminders, created_at, expires_at, options, rated)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                new.guild_id,
                new.channel_id,
                new.challenger_id,
                new.opponent_id,
                new.game,
                new.size,
                new.first,
                new.per_move,
                _encode("reminders", new.reminders),
                new.created_at,
                new.expires_at,
                _encode("options", new.options),
                int(new.rated),
            ),
        )
        return ChallengeRow(
            id=challenge_id,
            guild_id=new.guild_id,
            channel_id=new.channel_id,
            challenger_id=new.challenger_id,
            opponent_id=new.opponent_id,
            game=new.game,
            size=new.size,
            first=new.first,
            per_move=new.per_move,
            reminders=tuple(new.reminders),
            status="open",
            created_at=new.created_at,
            expires_at=new.expires_at,
            resolved_at=None,
            accepted_by=None,
            game_id=None,
            options=tuple(sorted(new.options)),
            rated=new.rated,
        )

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return None if row is None else challenge_row(row)

    async def resolve_challenge(
        self,
        challenge_id: int,
        status: str,
        at: int,
        accepted_by: int | None = None,
        game_id: int | None = None,
    ) -> ChallengeRow | None:
        row = await self._one(
            "UPDATE challenges SET status = ?, resolved_at = ?, accepted_by = ?, game_id = ?"
            " WHERE id = ? AND status = 'open' RETURNING *",
            (status, at, accepted_by, game_id, challenge_id),
        )
        return None if row is None else challenge_row(row)

    async def open_challenges(
        self, guild_id: int, user_id: int | None = None
    ) -> list[ChallengeRow]:
        if user_id is None:
            rows = await self._all(
                "SELECT * FROM challenges WHERE guild_id = ? AND status = 'open' ORDER BY id",
                (guild_id,),
            )
        else:
            rows = await self._all(
                "SELECT * FROM challenges WHERE guild_id = ? AND status = 'open'"
                " AND (challenger_id = ? OR opponent_id = ?) ORDER BY id",
                (guild_id, user_id, user_id),
            )
        return [challenge_row(r) for r in rows]

    async def expiring_challenges(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[ChallengeRow]:
        held, held_params = _shard_clause(shards)
        rows = await self._all(
            f"SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ?{held}"
            " ORDER BY expires_at, id LIMIT ?",
            (now, *held_params, limit),
        )
        return [challenge_row(r) for r in rows]

    # ----- games: reads -------------------------------------------------------------------
    async def _games(self, where: str, params: Sequence[Any]) -> list[GameRow]:
        return [game_row(r) for r in await self._all(f"SELECT * FROM games {where}", params)]

    async def game(self, game_id: int) -> GameRow | None:
        found = await self._games("WHERE id = ?", (game_id,))
        return found[0] if found else None

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        found = await self._games("WHERE channel_id = ? AND status = 'active'", (channel_id,))
        return found[0] if found else None

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        found = await self._games("WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        return found[0] if found else None

    async def games_for_player(
        self, guild_id: int, user_id: int, active_only: bool, limit: int
    ) -> list[GameRow]:
        status = "AND status = 'active'" if active_only else ""
        return await self._games(
            f"WHERE guild_id = ? AND (first_id = ? OR second_id = ?) {status}"
            " ORDER BY updated_at DESC, id DESC LIMIT ?",
            (guild_id, user_id, user_id, limit),
        )

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        if guild_id is None:
            return await self._games("WHERE status = 'active' ORDER BY id", ())
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
        where: list[str] = []
        params: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if player_id is not None:
            where.append("(first_id = ? OR second_id = ?)")
            params += [player_id, player_id]
        if to_move_id is not None:
            where.append("to_move_id = ? AND status = 'active'")
            params.append(to_move_id)
        if active_only:
            where.append("status = 'active'")
        if after is not None:
            where.append("(updated_at < ? OR (updated_at = ? AND id < ?))")
            params += [after[0], after[0], after[1]]
        if shards is not None:
            held, held_params = _shard_clause(shards)
            where.append(held.removeprefix(" AND "))
            params += held_params
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        return await self._games(
            f"{clause} ORDER BY updated_at DESC, id DESC LIMIT ?", [*params, limit]
        )

    async def due_games(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[GameRow]:
        held, held_params = _shard_clause(shards)
        rows = await self._all(
            f"SELECT * FROM games WHERE status = 'active' AND deadline_at <= ?{held}"
            f" UNION SELECT * FROM games WHERE status = 'active' AND remind_at <= ?{held}"
            " ORDER BY id LIMIT ?",
            (now, *held_params, now, *held_params, limit),
        )
        return [game_row(r) for r in rows]

    async def next_times(self) -> list[int]:
        row = await self._one(
            "SELECT (SELECT MIN(deadline_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(remind_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(expires_at) FROM challenges WHERE status = 'open')"
        )
        assert row is not None
        return [v for v in tuple(row) if v is not None]

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._all(
            "SELECT game_id, ply, move, user_id, played_at FROM moves WHERE game_id = ?"
            " ORDER BY ply",
            (game_id,),
        )
        return [MoveRow(*r) for r in rows]

    async def events(self, game_id: int) -> list[EventRow]:
        rows = await self._all(
            "SELECT id, game_id, at, kind, user_id, detail FROM game_events WHERE game_id = ?"
            " ORDER BY id",
            (game_id,),
        )
        return [EventRow(*r) for r in rows]

    # ----- games: writes ------------------------------------------------------------------
    async def insert_game(self, new: NewGame) -> GameRow:
        clock = new.clock
        values: dict[str, Any] = {
            "guild_id": new.guild_id,
            "channel_id": new.channel_id,
            "game": new.game,
            "size": new.size,
            "first_id": new.first_id,
            "second_id": new.second_id,
            "status": "active",
            "version": 0,
            "record": new.record,
            "to_move": new.to_move,
            "to_move_id": new.to_move_id,
            "per_move": new.per_move,
            "reminders": tuple(new.reminders),
            "turn_started_at": clock.turn_started_at,
            "deadline_at": clock.deadline_at,
            "remind_at": clock.remind_at,
            "reminders_sent": clock.reminders_sent,
            "challenge_id": new.challenge_id,
            "created_at": new.created_at,
            "updated_at": new.created_at,
            "options": tuple(sorted(new.options)),
            "rated": new.rated,
        }
        columns = list(values)
        game_id = await self._insert(
            f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            [_encode(c, values[c]) for c in columns],
        )
        return GameRow(
            id=game_id,
            takeback_by=None,
            takeback_at=None,
            takeback_version=None,
            result_reason=None,
            winner_id=None,
            winner_colour=None,
            loser_id=None,
            loser_colour=None,
            result_actor=None,
            finished_at=None,
            **values,
        )

    def _versioned(self, row: GameRow, values: dict[str, Any]) -> GameRow:
        """Defer ``UPDATE games`` at the version read; the row as it will be after commit."""
        unknown = set(values) - _GAME_COLUMNS
        assert not unknown, f"unknown game columns {sorted(unknown)}"
        columns = list(values)
        assignments = ", ".join(f"{c} = ?" for c in columns)
        self._defer(
            f"UPDATE games SET {assignments} WHERE id = ? AND version = ?",
            [*(_encode(c, values[c]) for c in columns), row.id, row.version],
            "one",
        )
        return replace(row, **values)

    @staticmethod
    def _clock(clock: ClockRow) -> dict[str, Any]:
        return {
            "turn_started_at": clock.turn_started_at,
            "deadline_at": clock.deadline_at,
            "remind_at": clock.remind_at,
            "reminders_sent": clock.reminders_sent,
        }

    @staticmethod
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

    def _add_moves(self, game_id: int, moves: Iterable[MoveRow]) -> None:
        self._defer(
            "INSERT INTO moves (game_id, ply, move, user_id, played_at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, m.ply, m.move, m.user_id, m.played_at) for m in moves],
            "many",
        )

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
        self._add_moves(row.id, moves)
        values: dict[str, Any] = {
            "version": row.version + 1,
            "record": record,
            "to_move": to_move,
            "to_move_id": to_move_id,
            "updated_at": at,
            **_NO_TAKEBACK,
        }
        if clock is not None:
            values.update(self._clock(clock))
        if result is not None:
            values.update(self._result(result, at))
        return self._versioned(row, values)

    async def finish_game(self, row: GameRow, result: ResultRow, *, at: int) -> GameRow:
        values = {
            "version": row.version + 1,
            "to_move": None,
            "to_move_id": None,
            "updated_at": at,
            **_NO_TAKEBACK,
            **self._result(result, at),
        }
        return self._versioned(row, values)

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
        self._defer("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (row.id, from_ply))
        values = {
            "version": row.version + 1,
            "record": record,
            "to_move": to_move,
            "to_move_id": to_move_id,
            "updated_at": at,
            **_NO_TAKEBACK,
            **self._clock(clock),
        }
        return self._versioned(row, values)

    async def request_takeback(self, row: GameRow, user_id: int, at: int) -> GameRow:
        values = {"takeback_by": user_id, "takeback_at": at, "takeback_version": row.version}
        return self._versioned(row, values)

    async def clear_takeback(self, row: GameRow) -> GameRow:
        return self._versioned(row, dict(_NO_TAKEBACK))

    async def restart_clock(self, row: GameRow, clock: ClockRow) -> GameRow:
        return self._versioned(row, self._clock(clock))

    async def mark_reminder_sent(self, row: GameRow, remind_at: int | None) -> GameRow:
        values = {"reminders_sent": row.reminders_sent + 1, "remind_at": remind_at}
        return self._versioned(row, values)

    async def save_cached_state(
        self, row: GameRow, record: str, to_move: str | None, to_move_id: int | None
    ) -> GameRow:
        values = {"record": record, "to_move": to_move, "to_move_id": to_move_id}
        return self._versioned(row, values)

    async def add_event(
        self, game_id: int, at: int, kind: str, user_id: int | None, detail: str = ""
    ) -> None:
        self._defer(
            "INSERT INTO game_events (game_id, at, kind, user_id, detail) VALUES (?, ?, ?, ?, ?)",
            (game_id, at, kind, user_id, detail),
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
        # BEGIN IMMEDIATE already holds the database's write lock: nothing else to lock.
        del initial, at
        marks = ", ".join("?" * len(user_ids))
        rows = await self._all(
            f"{_RATING_SELECT} WHERE guild_id = ? AND game = ? AND user_id IN ({marks})"
            " ORDER BY user_id",
            (guild_id, game, *user_ids),
        )
        return [RatingRow(*r) for r in rows]

    async def next_rating_seq(self) -> int:
        row = await self._one("SELECT COALESCE(MAX(rating_seq), 0) + 1 FROM games")
        assert row is not None
        return int(row[0])

    async def save_ratings(self, rows: Sequence[RatingRow]) -> None:
        self._defer(_UPSERT_RATING, [_values(r, _RATING_COLUMNS) for r in rows], "many")

    async def add_rating_history(self, rows: Sequence[RatingHistoryRow]) -> None:
        self._defer(_INSERT_HISTORY, [_values(h, _HISTORY_COLUMNS) for h in rows], "many")

    async def leaderboard(
        self, guild_id: int, game: str, limit: int, offset: int
    ) -> list[RatingRow]:
        rows = await self._all(
            f"{_RATING_SELECT} WHERE guild_id = ? AND game = ? AND games > 0"
            f" {_LEADERBOARD_ORDER} LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset),
        )
        return [RatingRow(*r) for r in rows]

    async def rank_of(self, row: RatingRow) -> int:
        found = await self._one(
            "SELECT COUNT(*) + 1 FROM ratings WHERE guild_id = ? AND game = ? AND games > 0"
            " AND (mu > ? OR (mu = ? AND (games > ? OR (games = ? AND user_id < ?))))",
            (row.guild_id, row.game, row.mu, row.mu, row.games, row.games, row.user_id),
        )
        assert found is not None
        return int(found[0])

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        rows = await self._all(
            f"{_RATING_SELECT} WHERE guild_id = ? AND user_id = ? AND games > 0"
            " ORDER BY mu DESC, game",
            (guild_id, user_id),
        )
        return [RatingRow(*r) for r in rows]

    async def rating_history(
        self, guild_id: int, user_id: int, game: str, limit: int
    ) -> list[RatingHistoryRow]:
        rows = await self._all(
            f"SELECT * FROM ({_HISTORY_SELECT} WHERE guild_id = ? AND user_id = ? AND game = ?"
            " ORDER BY seq DESC LIMIT ?) ORDER BY seq",
            (guild_id, user_id, game, limit),
        )
        return [RatingHistoryRow(*r) for r in rows]

    async def rating_changes(self, user_id: int, game_ids: Sequence[int]) -> list[RatingHistoryRow]:
        if not game_ids:
            return []
        marks = ", ".join("?" * len(game_ids))
        rows = await self._all(
            f"{_HISTORY_SELECT} WHERE user_id = ? AND game_id IN ({marks}) ORDER BY game_id",
            (user_id, *game_ids),
        )
        return [RatingHistoryRow(*r) for r in rows]

    async def rated_games_until(self, guild_id: int, game: str, user_id: int, seq: int) -> int:
        found = await self._one(
            "SELECT COUNT(*) FROM rating_history WHERE guild_id = ? AND user_id = ? AND game = ?"
            " AND seq <= ?",
            (guild_id, user_id, game, seq),
        )
        assert found is not None
        return int(found[0])

    async def finished_games_for_player(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[GameRow]:
        return await self._games(
            "WHERE id IN (SELECT id FROM (SELECT id, updated_at FROM games"
            " WHERE guild_id = ? AND first_id = ? AND status <> 'active'"
            " UNION ALL SELECT id, updated_at FROM games"
            " WHERE guild_id = ? AND second_id = ? AND status <> 'active')"
            " ORDER BY updated_at DESC, id DESC LIMIT ?) ORDER BY updated_at DESC, id DESC",
            (guild_id, user_id, guild_id, user_id, limit),
        )

    async def reset_ratings(self, guild_id: int, game: str) -> int:
        found = await self._one(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND games > 0",
            (guild_id, game),
        )
        assert found is not None
        self._defer(
            "UPDATE games SET rated = 0, unrated_reason = 'reset', rating_seq = NULL"
            " WHERE guild_id = ? AND game = ? AND rating_seq IS NOT NULL",
            (guild_id, game),
        )
        self._defer("DELETE FROM rating_history WHERE guild_id = ? AND game = ?", (guild_id, game))
        self._defer("DELETE FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
        return int(found[0])

    async def all_ratings(self) -> list[RatingRow]:
        rows = await self._all(f"{_RATING_SELECT} WHERE games > 0 ORDER BY guild_id, game, user_id")
        return [RatingRow(*r) for r in rows]

    async def rated_results(self) -> list[RatedResult]:
        return [RatedResult(*r) for r in await self._all(_RATED_RESULTS)]

    # ----- turn claims --------------------------------------------------------------------
    async def claim_turn(
        self, game_id: int, version: int, claimant: str, now: int, until: int
    ) -> bool:
        found = await self._one(
            "UPDATE games SET claimed_by = ?, claimed_version = ?, claimed_until = ?"
            " WHERE id = ? AND status = 'active' AND version = ? AND (claimed_by IS NULL"
            " OR claimed_by = ? OR claimed_version <> ? OR claimed_until <= ?) RETURNING id",
            (claimant, version, until, game_id, version, claimant, version, now),
        )
        return found is not None

    async def release_turn(self, game_id: int, claimant: str) -> None:
        self._defer(
            "UPDATE games SET claimed_by = NULL, claimed_version = NULL, claimed_until = NULL"
            " WHERE id = ? AND claimed_by = ?",
            (game_id, claimant),
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
        self._defer(
            "INSERT INTO audit_log (guild_id, actor_id, action, game_id, target_id, detail, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (guild_id, actor_id, action, game_id, target_id, detail, at),
        )

    async def audit(self, guild_id: int, limit: int) -> list[AuditRow]:
        rows = await self._all(
            "SELECT id, guild_id, actor_id, action, game_id, target_id, detail, at"
            " FROM audit_log WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [AuditRow(*r) for r in rows]


# ----- whole-store copies (``crosspath db copy``) -------------------------------------------


def export_all(raw: sqlite3.Connection) -> StoreContents:
    """On the store's thread: every row, from one read transaction."""
    raw.execute("BEGIN")
    try:
        return StoreContents(
            settings=tuple(
                settings_row(r)
                for r in raw.execute("SELECT * FROM guild_settings ORDER BY guild_id")
            ),
            challenges=tuple(
                challenge_row(r) for r in raw.execute("SELECT * FROM challenges ORDER BY id")
            ),
            games=tuple(game_row(r) for r in raw.execute("SELECT * FROM games ORDER BY id")),
            moves=tuple(
                MoveRow(*r)
                for r in raw.execute(
                    "SELECT game_id, ply, move, user_id, played_at FROM moves ORDER BY game_id, ply"
                )
            ),
            events=tuple(
                EventRow(*r)
                for r in raw.execute(
                    "SELECT id, game_id, at, kind, user_id, detail FROM game_events ORDER BY id"
                )
            ),
            audit=tuple(
                AuditRow(*r)
                for r in raw.execute(
                    "SELECT id, guild_id, actor_id, action, game_id, target_id, detail, at"
                    " FROM audit_log ORDER BY id"
                )
            ),
            ratings=tuple(
                RatingRow(*r)
                for r in raw.execute(f"{_RATING_SELECT} ORDER BY guild_id, game, user_id")
            ),
            rating_history=tuple(
                RatingHistoryRow(*r)
                for r in raw.execute(f"{_HISTORY_SELECT} ORDER BY game_id, user_id")
            ),
        )
    finally:
        raw.execute("COMMIT")


def _insert_rows(raw: sqlite3.Connection, table: str, rows: Sequence[Any]) -> None:
    if not rows:
        return
    columns = list(type(rows[0]).__dataclass_fields__)
    raw.executemany(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
        [[_encode(c, getattr(row, c)) for c in columns] for row in rows],
    )


def import_all(raw: sqlite3.Connection, contents: StoreContents) -> None:
    """On the store's thread: every row with its ids, into empty tables, in one transaction."""
    raw.execute("BEGIN IMMEDIATE")
    try:
        for table in DATA_TABLES:
            if raw.execute(f"SELECT EXISTS (SELECT 1 FROM {table})").fetchone()[0]:
                raise StoreNotEmpty(
                    f"the target already holds data (its {table} table has rows); copy into a"
                    " new, empty database"
                )
        _insert_rows(raw, "guild_settings", contents.settings)
        _insert_rows(raw, "challenges", contents.challenges)
        _insert_rows(raw, "games", contents.games)
        _insert_rows(raw, "moves", contents.moves)
        _insert_rows(raw, "game_events", contents.events)
        _insert_rows(raw, "audit_log", contents.audit)
        _insert_rows(raw, "ratings", contents.ratings)
        _insert_rows(raw, "rating_history", contents.rating_history)
        raw.execute("COMMIT")
    except BaseException:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        raise
