"""The SQLite store: one aiosqlite writer connection behind an asyncio lock, WAL mode.

Why one connection: every service call is a short read-modify-write, SQLite allows one writer
at a time anyway, and serialising in-process on a lock avoids busy-waiting on SQLite's file
lock (the busy timeout still covers other processes, such as a backup).  Reads share the
connection and the lock; the benchmark in ``bench/service_bench.py`` shows the lock is not the
bottleneck.  Writes run in ``BEGIN IMMEDIATE`` so the write lock is taken before the first
read, and game updates check a version column, so a stale read can never commit.

Cancellation: a statement already handed to aiosqlite's thread runs to the end whatever the
caller does, so every hop is waited for even when its caller is cancelled (the cancellation is
raised once the hop is over).  The lock is therefore never released while a hop, a COMMIT or a
ROLLBACK is still in flight, and no hop can outlive its event loop: aiosqlite's thread dies
when it finishes a hop for a loop that has closed, and every later call, ``close()`` included,
would then wait forever.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .rows import AuditRow, ChallengeRow, EventRow, GameRow, MoveRow, SettingsRow
from .schema import MIGRATIONS, SCHEMA_VERSION

SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")
CLOSE_GRACE_SECONDS = 5.0
"""How long ``close()`` waits beyond the busy timeout for a transaction in progress."""

log = logging.getLogger(__name__)

_GAME_COLUMNS = frozenset(GameRow.__dataclass_fields__) - {"id"}
_JSON_COLUMNS = frozenset({"allowed_channels", "reminders", "default_sizes", "options"})
_OBJECT_COLUMNS = frozenset({"default_sizes", "options"})


class StoreError(Exception):
    """The database is unusable (newer schema than this code, closed store)."""


class WriteConflict(Exception):
    """A versioned update found another version: someone else changed the row first."""


def _encode(column: str, value: Any) -> Any:
    if column in _JSON_COLUMNS:
        if column in _OBJECT_COLUMNS:
            return json.dumps(dict(value), sort_keys=True)
        return json.dumps(list(value))
    if isinstance(value, bool):
        return int(value)
    return value


def _settings(row: sqlite3.Row) -> SettingsRow:
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
    )


def _options(text: str) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((str(k), str(v)) for k, v in json.loads(text).items()))


def _challenge(row: sqlite3.Row) -> ChallengeRow:
    data = dict(row)
    data["reminders"] = tuple(json.loads(data["reminders"]))
    data["options"] = _options(data["options"])
    return ChallengeRow(**data)


def _game(row: sqlite3.Row) -> GameRow:
    data = dict(row)
    data["reminders"] = tuple(json.loads(data["reminders"]))
    data["options"] = _options(data["options"])
    return GameRow(**data)


Statement = tuple[str, Any, str]
"""(sql, parameters, mode): mode "one" = must change exactly one row, "many" = executemany."""


def _run_batch(
    raw: sqlite3.Connection,
    begin: str | None,
    pending: list[Statement],
    final: tuple[str, Sequence[Any], str] | None,
) -> Any:
    """Runs in aiosqlite's thread: an optional BEGIN, the deferred writes, then one statement.

    Doing all of it in one hop to the thread is what makes a move cost two hops (read the
    game; write the move, the row and COMMIT) instead of one per statement.
    """
    if begin is not None:
        raw.execute(begin)
    for sql, params, mode in pending:
        if mode == "many":
            raw.executemany(sql, params)
            continue
        cursor = raw.execute(sql, params)
        if mode == "one" and cursor.rowcount != 1:
            raise WriteConflict(f"expected to change one row: {sql.split(' WHERE')[0]}")
    if final is None:
        return None
    sql, params, mode = final
    cursor = raw.execute(sql, params)
    if mode == "rows":
        return cursor.fetchall()
    if mode == "rowid":
        return cursor.lastrowid
    return cursor.rowcount


def _fetch_all(raw: sqlite3.Connection, sql: str) -> list[Any]:
    return raw.execute(sql).fetchall()


def _copy_into(raw: sqlite3.Connection, target: sqlite3.Connection) -> None:
    raw.backup(target)


def _end(raw: sqlite3.Connection, how: str) -> None:
    """COMMIT or ROLLBACK if a transaction is open (queued behind any statement still running)."""
    if raw.in_transaction:
        raw.execute(how)


async def _in_thread(conn: aiosqlite.Connection, fn: Any, *args: Any) -> Any:
    """Run ``fn(raw_connection, *args)`` on the connection's own thread, in queue order.

    If the caller is cancelled meanwhile, this still waits for the thread to finish ``fn``
    (cancelling cannot stop SQLite mid-statement) and then raises the cancellation.  That is
    what lets ``write()`` release its lock only after its ROLLBACK really ran, however often the
    task is cancelled, and what keeps a loop from closing with a hop still in flight.

    aiosqlite has no public call for this; its job queue ``_tx`` of ``(future, function)``
    pairs, ``_conn`` and ``_running`` have been stable since 0.17 and the dependency is pinned
    below 1.0.  ``_execute`` is not used because it awaits its future directly, so a
    cancellation would cancel the future and nobody could wait for the statement any more.
    """
    if not conn._running or conn._connection is None:
        raise StoreError("the store is closed")
    if not _worker_alive(conn):
        raise StoreError("the database thread has stopped; reopen the store")
    done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    conn._tx.put_nowait((done, lambda: fn(conn._conn, *args)))
    try:
        return await asyncio.shield(done)
    except asyncio.CancelledError:
        await _outlast(conn, done)
        raise


async def _outlast(conn: aiosqlite.Connection, done: asyncio.Future[Any]) -> None:
    """Wait, through any further cancellations, until the thread has finished ``done``."""
    while not done.done() and _worker_alive(conn):
        try:
            await asyncio.wait((done,), timeout=1.0)
        except asyncio.CancelledError:
            continue
    if done.done() and not done.cancelled():
        done.exception()  # the caller was cancelled: nobody else will look at it


def _worker_alive(conn: aiosqlite.Connection) -> bool:
    """Whether aiosqlite's thread still runs (the connection is its own thread before 0.20)."""
    thread: Any = getattr(conn, "_thread", conn)
    return bool(thread.is_alive())


class Tx:
    """The SQL of the store, run on the store's connection while the caller holds its lock.

    Obtained from :meth:`Store.write` (``BEGIN IMMEDIATE``) or :meth:`Store.read` (``BEGIN``).
    The transaction begins with the first statement.  Writes whose result nobody needs
    (appending moves, versioned row updates, events) are deferred and sent together with the
    next read or with the COMMIT; a versioned update that finds another version raises
    :class:`WriteConflict` at that point, and the whole transaction rolls back.
    """

    def __init__(self, conn: aiosqlite.Connection, begin: str) -> None:
        self._conn = conn
        self._begin: str | None = begin
        self._pending: list[Statement] = []

    @property
    def began(self) -> bool:
        return self._begin is None

    async def _run(self, sql: str, params: Sequence[Any], mode: str) -> Any:
        begin, self._begin = self._begin, None
        pending, self._pending = self._pending, []
        return await _in_thread(self._conn, _run_batch, begin, pending, (sql, params, mode))

    def _defer(self, sql: str, params: Any, mode: str = "") -> None:
        self._pending.append((sql, params, mode))

    async def _finish(self, how: str) -> None:
        """Send deferred writes and end the transaction, in one hop."""
        if self._begin is not None and not self._pending:
            return  # nothing ever ran
        begin, self._begin = self._begin, None
        pending, self._pending = self._pending, []
        await _in_thread(self._conn, _run_batch, begin, pending, (how, (), "count"))

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._run(sql, params, "rows"))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _insert(self, sql: str, params: Sequence[Any]) -> int:
        rowid = await self._run(sql, params, "rowid")
        assert rowid is not None
        return int(rowid)

    async def _change(self, sql: str, params: Sequence[Any]) -> int:
        return int(await self._run(sql, params, "count"))

    # ----- settings -----------------------------------------------------------------------
    async def settings(self, guild_id: int) -> SettingsRow | None:
        row = await self._one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return None if row is None else _settings(row)

    async def save_settings(self, s: SettingsRow) -> None:
        self._defer(
            "INSERT OR REPLACE INTO guild_settings (guild_id, allowed_channels, use_threads,"
            " per_move, reminders, default_sizes, challenge_expiry, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                s.guild_id,
                _encode("allowed_channels", s.allowed_channels),
                int(s.use_threads),
                s.per_move,
                _encode("reminders", s.reminders),
                _encode("default_sizes", s.default_sizes),
                s.challenge_expiry,
                s.updated_at,
            ),
        )

    # ----- challenges ---------------------------------------------------------------------
    async def insert_challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        game: str,
        size: int,
        first: str,
        per_move: int | None,
        reminders: Sequence[int],
        created_at: int,
        expires_at: int,
        options: Mapping[str, str] | None = None,
    ) -> int:
        return await self._insert(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, game,"
            " size, first, per_move, reminders, created_at, expires_at, options)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                challenger_id,
                opponent_id,
                game,
                size,
                first,
                per_move,
                _encode("reminders", reminders),
                created_at,
                expires_at,
                _encode("options", options or {}),
            ),
        )

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return None if row is None else _challenge(row)

    async def resolve_challenge(
        self,
        challenge_id: int,
        status: str,
        at: int,
        accepted_by: int | None = None,
        game_id: int | None = None,
    ) -> bool:
        """Move an open challenge to ``status``; False if it was no longer open."""
        changed = await self._change(
            "UPDATE challenges SET status = ?, resolved_at = ?, accepted_by = ?, game_id = ?"
            " WHERE id = ? AND status = 'open'",
            (status, at, accepted_by, game_id, challenge_id),
        )
        return changed == 1

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
        return [_challenge(r) for r in rows]

    async def expiring_challenges(self, now: int, limit: int) -> list[ChallengeRow]:
        rows = await self._all(
            "SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ?"
            " ORDER BY expires_at LIMIT ?",
            (now, limit),
        )
        return [_challenge(r) for r in rows]

    # ----- games --------------------------------------------------------------------------
    async def insert_game(self, **values: Any) -> int:
        """Insert a game; raises sqlite3.IntegrityError if the channel already has one active."""
        unknown = set(values) - _GAME_COLUMNS
        if unknown:
            raise ValueError(f"unknown game columns {sorted(unknown)}")
        columns = list(values)
        return await self._insert(
            f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            [_encode(c, values[c]) for c in columns],
        )

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            "SELECT * FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
        )
        return None if row is None else _game(row)

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return None if row is None else _game(row)

    async def update_game(self, game_id: int, expected: int, /, **values: Any) -> None:
        """Update columns of a game only if it is still at version ``expected``; else
        WriteConflict."""
        unknown = set(values) - _GAME_COLUMNS
        if unknown:
            raise ValueError(f"unknown game columns {sorted(unknown)}")
        columns = list(values)
        assignments = ", ".join(f"{c} = ?" for c in columns)
        self._defer(
            f"UPDATE games SET {assignments} WHERE id = ? AND version = ?",
            [*(_encode(c, values[c]) for c in columns), game_id, expected],
            "one",
        )

    async def games_for_player(
        self, guild_id: int, user_id: int, active_only: bool, limit: int
    ) -> list[GameRow]:
        status = "AND status = 'active'" if active_only else ""
        rows = await self._all(
            f"SELECT * FROM games WHERE guild_id = ? AND (first_id = ? OR second_id = ?)"
            f" {status} ORDER BY updated_at DESC, id DESC LIMIT ?",
            (guild_id, user_id, user_id, limit),
        )
        return [_game(r) for r in rows]

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        if guild_id is None:
            rows = await self._all("SELECT * FROM games WHERE status = 'active' ORDER BY id")
        else:
            rows = await self._all(
                "SELECT * FROM games WHERE guild_id = ? AND status = 'active' ORDER BY id",
                (guild_id,),
            )
        return [_game(r) for r in rows]

    async def due_games(self, now: int, limit: int) -> list[GameRow]:
        """Active games whose deadline or next reminder time has come."""
        rows = await self._all(
            "SELECT * FROM games WHERE status = 'active' AND deadline_at <= ?"
            " UNION SELECT * FROM games WHERE status = 'active' AND remind_at <= ?"
            " ORDER BY id LIMIT ?",
            (now, now, limit),
        )
        return [_game(r) for r in rows]

    async def next_times(self) -> list[int]:
        """The earliest pending deadline, reminder and challenge expiry (those that exist)."""
        row = await self._one(
            "SELECT (SELECT MIN(deadline_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(remind_at) FROM games WHERE status = 'active'),"
            " (SELECT MIN(expires_at) FROM challenges WHERE status = 'open')"
        )
        assert row is not None
        return [v for v in tuple(row) if v is not None]

    # ----- moves and events ---------------------------------------------------------------
    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._all(
            "SELECT game_id, ply, move, user_id, played_at FROM moves WHERE game_id = ?"
            " ORDER BY ply",
            (game_id,),
        )
        return [MoveRow(*r) for r in rows]

    async def add_moves(self, game_id: int, moves: Iterable[tuple[int, str, int, int]]) -> None:
        """Append (ply, move, user_id, played_at) rows; a duplicate ply raises IntegrityError."""
        self._defer(
            "INSERT INTO moves (game_id, ply, move, user_id, played_at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, *m) for m in moves],
            "many",
        )

    async def delete_moves_from(self, game_id: int, ply: int) -> int:
        return await self._change(
            "DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply)
        )

    async def add_event(
        self, game_id: int, at: int, kind: str, user_id: int | None, detail: str = ""
    ) -> None:
        self._defer(
            "INSERT INTO game_events (game_id, at, kind, user_id, detail) VALUES (?, ?, ?, ?, ?)",
            (game_id, at, kind, user_id, detail),
        )

    async def events(self, game_id: int) -> list[EventRow]:
        rows = await self._all(
            "SELECT id, game_id, at, kind, user_id, detail FROM game_events WHERE game_id = ?"
            " ORDER BY id",
            (game_id,),
        )
        return [EventRow(*r) for r in rows]

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


class Store:
    """An open Crosspath database.  ``await Store.open(path)`` or ``async with Store(path)``."""

    def __init__(
        self,
        path: str | Path,
        *,
        synchronous: str = "NORMAL",
        busy_timeout_ms: int = 5000,
        migrate: bool = True,
    ) -> None:
        if synchronous.upper() not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS_MODES)}")
        self.path = Path(path)
        self.synchronous = synchronous.upper()
        self.busy_timeout_ms = busy_timeout_ms
        self.migrate = migrate
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, **options: Any) -> Store:
        store = cls(path, **options)
        await store.connect()
        return store

    async def __aenter__(self) -> Store:
        if self._conn is None:
            await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        """Open the connection, set WAL and the busy timeout, and migrate to the latest schema.

        ``migrate=False`` (maintenance commands such as backup) leaves the schema as found.
        """
        if self.path.parent != Path(""):
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute(f"PRAGMA synchronous = {self.synchronous}")
            await conn.execute("PRAGMA foreign_keys = ON")
            if self.migrate:
                await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn

    async def close(self, timeout: float | None = None) -> None:
        """Let the transaction in progress finish, then close; closing twice is harmless.

        Never waits forever: after ``timeout`` seconds (default: the busy timeout plus
        :data:`CLOSE_GRACE_SECONDS`) the connection is closed under a transaction that is still
        running, which SQLite rolls back, and its owner gets :class:`StoreError`.  A connection
        whose thread has died (see the module notes) is dropped instead of waited for.
        """
        conn = self._conn
        if conn is None:
            return
        limit = self.busy_timeout_ms / 1000 + CLOSE_GRACE_SECONDS if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        locked = False
        try:
            locked = await asyncio.wait_for(self._lock.acquire(), limit)
        except TimeoutError:
            log.warning(
                "closing %s under a transaction still running after %.1fs", self.path, limit
            )
        try:
            if self._conn is not conn:
                return  # another close() got there first
            self._conn = None
            if not _worker_alive(conn):
                log.warning("the database thread for %s had died; dropping it", self.path)
                return
            closing = asyncio.ensure_future(conn.close())
            try:
                await asyncio.wait_for(asyncio.shield(closing), max(0.0, deadline - loop.time()))
            except TimeoutError as exc:
                raise StoreError(
                    f"the database thread for {self.path} did not finish within {limit:.1f}s;"
                    " the store is closed anyway"
                ) from exc
        finally:
            if locked:
                self._lock.release()

    @property
    def connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreError("the store is closed")
        return self._conn

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        """A ``BEGIN IMMEDIATE`` transaction: committed on success, rolled back on any error."""
        async with self._lock:
            conn = self.connection
            tx = Tx(conn, "BEGIN IMMEDIATE")
            try:
                yield tx
                await tx._finish("COMMIT")
            except BaseException:
                # Queued behind any statement still running in the thread (even when the
                # caller was cancelled), so whatever that statement began is undone.
                await _in_thread(conn, _end, "ROLLBACK")
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """Reads from one consistent snapshot (a deferred transaction)."""
        async with self._lock:
            conn = self.connection
            tx = Tx(conn, "BEGIN")
            try:
                yield tx
            finally:
                if tx.began:
                    await _in_thread(conn, _end, "COMMIT")

    async def schema_version(self) -> int:
        async with self.read() as tx:
            row = await tx._one("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def integrity_check(self) -> str:
        async with self._lock:
            rows = await _in_thread(self.connection, _fetch_all, "PRAGMA integrity_check")
        return "; ".join(str(r[0]) for r in rows)

    async def backup(self, target: str | Path) -> None:
        """Copy the live database to ``target`` with SQLite's online backup API."""
        target = Path(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        async with self._lock:
            dest = await aiosqlite.connect(target)
            try:
                await _in_thread(self.connection, _copy_into, dest._conn)
            finally:
                await dest.close()


async def migrate(conn: aiosqlite.Connection) -> int:
    """Bring the schema up to date; each step in its own transaction.  Returns the version."""
    while True:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            rows = list(await conn.execute_fetchall("PRAGMA user_version"))
            current = int(rows[0][0])
            if current > SCHEMA_VERSION:
                raise StoreError(
                    f"the database has schema version {current}, newer than this code's"
                    f" {SCHEMA_VERSION}: upgrade Crosspath"
                )
            if current == SCHEMA_VERSION:
                await conn.execute("COMMIT")
                return current
            for statement in MIGRATIONS[current]:
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {current + 1}")
            await conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise


def settings_row(values: Mapping[str, Any]) -> SettingsRow:
    """Build a SettingsRow from keyword values (used by the service when saving)."""
    return SettingsRow(**values)
