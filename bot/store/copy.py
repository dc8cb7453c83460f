"""``crosspath db copy SOURCE TARGET``: a whole database from one engine to another.

SQLite → PostgreSQL moves a growing bot onto a shared server; PostgreSQL → SQLite makes a
local copy.  Any pair works (SQLite → SQLite is a plain copy).

How:

1. Both ends are opened through their stores, which bring TARGET's schema up to date.  SOURCE
   is opened without migrating (a copy never changes it) and must be at this code's schema
   version, and TARGET must hold no rows at all: rows are copied with their ids, so anything
   already there would collide or mix two bots' histories.
2. Table by table, parents first, rows are streamed in batches from one snapshot of SOURCE
   (the bot may keep running on it) and inserted into TARGET in ONE transaction.  Values pass
   through a neutral form (lists, dicts, bools) because the engines store them differently
   (SQLite: JSON text and 0/1; PostgreSQL: ``BIGINT[]``, ``JSONB`` and ``BOOLEAN``).
   PostgreSQL's id sequences are then moved past the copied ids.
3. Before that transaction commits, the copy is verified: every table's row count must match
   SOURCE's, and every game in TARGET is replayed from its moves through the rules engine and
   must reproduce its stored record, side to move and result.  Any failure rolls back, so
   TARGET is left empty.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from rules import IllegalMove, UnknownGame, new_game

from . import open_store
from .errors import StoreError, UnknownSchema, quoted
from .postgres.schema import SCHEMA_VERSION as PG_SCHEMA_VERSION
from .schema import SCHEMA_VERSION

BATCH = 2000

TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "guild_settings",
        (
            "guild_id",
            "allowed_channels",
            "use_threads",
            "per_move",
            "reminders",
            "default_sizes",
            "challenge_expiry",
            "updated_at",
        ),
    ),
    (
        "challenges",
        (
            "id",
            "guild_id",
            "channel_id",
            "challenger_id",
            "opponent_id",
            "game",
            "size",
            "first",
            "per_move",
            "reminders",
            "status",
            "created_at",
            "expires_at",
            "resolved_at",
            "accepted_by",
            "game_id",
            "options",
        ),
    ),
    (
        "games",
        (
            "id",
            "guild_id",
            "channel_id",
            "game",
            "size",
            "first_id",
            "second_id",
            "status",
            "version",
            "record",
            "to_move",
            "per_move",
            "reminders",
            "turn_started_at",
            "deadline_at",
            "remind_at",
            "reminders_sent",
            "takeback_by",
            "takeback_at",
            "takeback_version",
            "result_reason",
            "winner_id",
            "winner_colour",
            "loser_id",
            "loser_colour",
            "result_actor",
            "challenge_id",
            "created_at",
            "updated_at",
            "finished_at",
            "options",
        ),
    ),
    ("moves", ("game_id", "ply", "move", "user_id", "played_at")),
    ("game_events", ("id", "game_id", "at", "kind", "user_id", "detail")),
    ("audit_log", ("id", "guild_id", "actor_id", "action", "game_id", "target_id", "detail", "at")),
)
"""Every data table with its columns, parents before children (schema version 2)."""

ORDER_BY = {"guild_settings": "guild_id", "moves": "game_id, ply"}
LIST_COLUMNS = frozenset({"allowed_channels", "reminders"})
OBJECT_COLUMNS = frozenset({"default_sizes", "options"})
BOOL_COLUMNS = frozenset({"use_threads"})
ID_TABLES = ("challenges", "games", "game_events", "audit_log")

Row = tuple[Any, ...]


class CopyError(StoreError):
    """The copy was refused (TARGET not empty, SOURCE at another schema) or did not verify."""


@dataclass(frozen=True)
class CopyReport:
    counts: dict[str, int]
    """Rows copied per table."""
    games_replayed: int
    source: str
    target: str


class Endpoint(Protocol):
    """One end of a copy: a plain driver connection (not the store: rows keep their ids)."""

    where: str

    async def begin(self, *, read: bool) -> None:
        """A snapshot to read from (SOURCE), or the one transaction that writes (TARGET)."""

    async def counts(self) -> dict[str, int]: ...

    def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[Row]]: ...

    async def moves_of(self, game_id: int) -> list[str]: ...

    async def insert(self, table: str, columns: Sequence[str], rows: list[Row]) -> None: ...

    async def commit(self) -> None: ...

    async def rollback(self) -> None: ...

    async def close(self) -> None: ...


# ----- SQLite ---------------------------------------------------------------------------------
class SqliteEnd:
    """A SQLite file through the standard ``sqlite3`` module on a worker thread (a CLI tool:
    nothing else runs on this event loop)."""

    def __init__(self, path: Path, *, readonly: bool) -> None:
        self.where = str(path)
        uri = f"{path.resolve().as_uri()}?mode={'ro' if readonly else 'rw'}"
        self.conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.conn.execute("PRAGMA busy_timeout = 5000")

    async def _call(self, fn: Callable[[], Any]) -> Any:
        return await asyncio.to_thread(fn)

    async def begin(self, *, read: bool) -> None:
        # A read transaction keeps one WAL snapshot for the whole copy, however the bot writes.
        statement = "BEGIN" if read else "BEGIN IMMEDIATE"
        await self._call(lambda: self.conn.execute(statement))

    async def counts(self) -> dict[str, int]:
        def count() -> dict[str, int]:
            return {
                t: int(self.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0])
                for t, _ in TABLES
            }

        result: dict[str, int] = await self._call(count)
        return result

    async def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[Row]]:
        cursor = self.conn.execute(
            f"SELECT {', '.join(columns)} FROM {table} ORDER BY {ORDER_BY.get(table, 'id')}"
        )
        while True:
            batch = await self._call(lambda: cursor.fetchmany(BATCH))
            if not batch:
                return
            yield [_from_sqlite(columns, row) for row in batch]

    async def moves_of(self, game_id: int) -> list[str]:
        def fetch() -> list[str]:
            rows = self.conn.execute(
                "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
            return [str(r[0]) for r in rows]

        moves: list[str] = await self._call(fetch)
        return moves

    async def insert(self, table: str, columns: Sequence[str], rows: list[Row]) -> None:
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        encoded = [_to_sqlite(columns, row) for row in rows]
        await self._call(lambda: self.conn.executemany(sql, encoded))

    async def commit(self) -> None:
        await self._call(lambda: self.conn.execute("COMMIT"))

    async def rollback(self) -> None:
        await self._call(lambda: self.conn.in_transaction and self.conn.execute("ROLLBACK"))

    async def close(self) -> None:
        await self._call(self.conn.close)


def _from_sqlite(columns: Sequence[str], row: Row) -> Row:
    out = []
    for column, value in zip(columns, row, strict=True):
        if column in LIST_COLUMNS or column in OBJECT_COLUMNS:
            value = json.loads(value)
        elif column in BOOL_COLUMNS:
            value = bool(value)
        out.append(value)
    return tuple(out)


def _to_sqlite(columns: Sequence[str], row: Row) -> Row:
    out = []
    for column, value in zip(columns, row, strict=True):
        if column in OBJECT_COLUMNS:
            value = json.dumps(dict(value), sort_keys=True)
        elif column in LIST_COLUMNS:
            value = json.dumps(list(value))
        elif column in BOOL_COLUMNS:
            value = int(value)
        out.append(value)
    return tuple(out)


# ----- PostgreSQL -----------------------------------------------------------------------------
class PostgresEnd:
    """A PostgreSQL database through one asyncpg connection (JSONB decoded as for the store)."""

    def __init__(self, url: str) -> None:
        from .postgres.store import redact

        self.url = url
        self.where = redact(url)
        self.conn: Any = None
        self.tx: Any = None

    async def open(self) -> PostgresEnd:
        import asyncpg

        from .postgres.errors import translate_connect
        from .postgres.store import _init_connection

        try:
            self.conn = await asyncpg.connect(self.url, timeout=10)
            await _init_connection(self.conn)
        except Exception as exc:
            raise translate_connect(exc, self.where) from exc
        return self

    async def begin(self, *, read: bool) -> None:
        if read:
            self.tx = self.conn.transaction(isolation="repeatable_read", readonly=True)
        else:
            self.tx = self.conn.transaction()
        await self.tx.start()

    async def counts(self) -> dict[str, int]:
        return {t: int(await self.conn.fetchval(f"SELECT count(*) FROM {t}")) for t, _ in TABLES}

    async def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[list[Row]]:
        cursor = await self.conn.cursor(
            f"SELECT {', '.join(columns)} FROM {table} ORDER BY {ORDER_BY.get(table, 'id')}"
        )
        while True:
            batch = await cursor.fetch(BATCH)
            if not batch:
                return
            yield [tuple(r) for r in batch]

    async def moves_of(self, game_id: int) -> list[str]:
        rows = await self.conn.fetch(
            "SELECT move FROM moves WHERE game_id = $1 ORDER BY ply", game_id
        )
        return [str(r[0]) for r in rows]

    async def insert(self, table: str, columns: Sequence[str], rows: list[Row]) -> None:
        sql = (
            f"INSERT INTO {table} ({', '.join(columns)})"
            f" VALUES ({', '.join(f'${i + 1}' for i in range(len(columns)))})"
        )
        await self.conn.executemany(sql, [_to_postgres(columns, row) for row in rows])

    async def commit(self) -> None:
        # Copied rows keep their ids: move each id sequence past the largest one.
        for table in ID_TABLES:
            await self.conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM {table}"
            )
        await self.tx.commit()

    async def rollback(self) -> None:
        if self.tx is not None:
            await self.tx.rollback()

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()


def _to_postgres(columns: Sequence[str], row: Row) -> Row:
    out = []
    for column, value in zip(columns, row, strict=True):
        if column in OBJECT_COLUMNS:
            value = dict(value)
        elif column in LIST_COLUMNS:
            value = list(value)
        out.append(value)
    return tuple(out)


# ----- the copy -------------------------------------------------------------------------------
async def copy_database(
    source: str | Path, target: str | Path, *, say: Callable[[str], None] = print
) -> CopyReport:
    """Copy SOURCE into an empty TARGET and verify it; raises CopyError or another StoreError.

    The verification runs inside TARGET's transaction, so a copy that does not verify is
    rolled back and leaves TARGET as empty as it was.
    """
    from . import is_postgres

    if not is_postgres(source) and not Path(source).is_file():
        raise CopyError(f"there is no database at {quoted(source)}")
    if _same(source, target):
        raise CopyError("SOURCE and TARGET are the same database")
    # Open through the stores: TARGET gets its schema, SOURCE is checked but never changed.
    async with await open_store(source, migrate=False) as store:
        version = await store.schema_version()
        source_name = store.target
    expected = PG_SCHEMA_VERSION if is_postgres(source) else SCHEMA_VERSION
    if version != expected:
        raise UnknownSchema(
            f"{quoted(source_name)} is at schema version {version}, not {expected}: run"
            " Crosspath on it once to bring it up to date, then copy again"
        )
    async with await open_store(target) as store:
        target_name = store.target
    src = await _end(source, readonly=True)
    try:
        dst = await _end(target, readonly=False)
        try:
            await src.begin(read=True)
            await dst.begin(read=False)
            try:
                report = await _copy_and_verify(src, dst, source_name, target_name, say)
            except BaseException:
                await dst.rollback()
                raise
            await dst.commit()
        finally:
            await dst.close()
    finally:
        await src.close()
    return report


def _same(source: str | Path, target: str | Path) -> bool:
    from . import is_postgres

    if is_postgres(source) or is_postgres(target):
        return str(source) == str(target)
    return Path(source).resolve() == Path(target).resolve()


async def _copy_and_verify(
    src: Endpoint, dst: Endpoint, source_name: str, target_name: str, say: Callable[[str], None]
) -> CopyReport:
    before = await dst.counts()
    if any(before.values()):
        held = ", ".join(f"{n} {t}" for t, n in before.items() if n)
        raise CopyError(
            f"{quoted(target_name)} already holds rows ({held}); copy only into an empty database"
        )
    counts: dict[str, int] = {}
    for table, columns in TABLES:
        counts[table] = 0
        async for batch in src.rows(table, columns):
            await dst.insert(table, columns, batch)
            counts[table] += len(batch)
        say(f"copied {counts[table]} rows of {table}")
    expected = await src.counts()
    after = await dst.counts()
    mismatched = [t for t, _ in TABLES if not expected[t] == counts[t] == after[t]]
    if mismatched:
        raise CopyError(
            "the copy does not match: "
            + ", ".join(f"{t} {expected[t]} in SOURCE, {after[t]} in TARGET" for t in mismatched)
        )
    say("replaying every game through the rules engine…")
    replayed, problems = await replay_games(dst)
    if problems:
        shown = "; ".join(problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise CopyError(
            f"{len(problems)} games do not replay, so nothing was copied: {shown}{more}"
        )
    return CopyReport(counts, replayed, source_name, target_name)


async def _end(target: str | Path, *, readonly: bool) -> Any:
    from . import is_postgres

    if is_postgres(target):
        return await PostgresEnd(str(target)).open()
    return SqliteEnd(Path(target), readonly=readonly)


async def replay_games(end: Endpoint) -> tuple[int, list[str]]:
    """Replay every game at ``end`` from its moves; (games replayed, problems found)."""
    problems: list[str] = []
    replayed = 0
    columns = ("id", "game", "size", "status", "record", "to_move", "result_reason")
    games: list[Row] = []
    async for batch in end.rows("games", (*columns, "winner_colour")):
        games.extend(batch)
    for game_id, name, size, status, record, to_move, reason, winner in games:
        played = await end.moves_of(game_id)
        problem = _replay_one(game_id, name, size, played, status, record, to_move, reason, winner)
        if problem is not None:
            problems.append(problem)
        replayed += 1
    return replayed, problems


def _replay_one(
    game_id: int,
    name: str,
    size: int,
    played: list[str],
    status: str,
    record: str,
    to_move: str | None,
    reason: str | None,
    winner: str | None,
) -> str | None:
    """What is wrong with one game, or None when its moves reproduce what is stored."""
    try:
        game = new_game(name, size)
        for move in played:
            game.play(move)
    except (IllegalMove, UnknownGame, ValueError) as exc:
        return f"game {game_id}: {quoted(exc)}"
    if game.record() != record:
        return f"game {game_id}: its moves give {quoted(game.record())}, stored {quoted(record)}"
    if status == "active" and (game.is_over or game.to_move != to_move):
        return f"game {game_id}: active, but its moves leave {game.to_move} to move"
    # Resignations, time and moderation end a game that is not over on the board.
    if reason in ("connection", "draw") and (not game.is_over or game.winner != winner):
        return f"game {game_id}: recorded as {reason}, but its moves do not end that way"
    return None
