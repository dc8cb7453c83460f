"""The SQLite engine: one aiosqlite connection (one thread) behind an asyncio lock, WAL mode.

Why one connection: every service call is a short read-modify-write, SQLite allows one writer
at a time anyway, and serialising in-process on a lock avoids busy-waiting on SQLite's file
lock (the busy timeout still covers other processes, such as a backup).  Reads share the
connection and the lock.  Writes run in ``BEGIN IMMEDIATE`` so the write lock is taken before
the first read, and game updates check the version they read, so a stale read can never commit.

Opening checks the file before anything is written to it: a folder, a file that is not a
database, a schema version this code does not know (negative, or newer), a damaged database
(``PRAGMA quick_check``, and the one-active-game index against the games table: see
``ACTIVE_INDEX_CHECK``) and a read-only file are each refused with their own
:class:`~bot.store.errors.StoreError` and the file is left as it was.

A file deleted or replaced while the store runs would go on taking commits (the connection
holds the old inode open), all lost at the next start; so every write transaction first
compares the path's device and inode with those opened (one ``os.stat``) and refuses with
:class:`~bot.store.errors.DatabaseReplaced`, logged once at CRITICAL.  A file copied over the
live one (``cp``, ``shutil.copyfile``) keeps the inode, so the same ``os.stat`` also compares
the file's size and modification time with those seen after this store's last commit (in WAL
mode the main file changes only at a checkpoint, which runs inside a commit).  Another process
committing to the file may checkpoint it legitimately, but it writes the ``-wal`` file first, so
a changed file is refused only when its ``-wal`` file is as this store last left it: a copy over
the database does not touch it.  (Both are ``os.stat`` calls: no round trip to the database
thread is added to a write.)

Cancellation: a statement already handed to aiosqlite's thread runs to its end whatever the
caller does.  So when a caller is cancelled mid-call, the store queues a no-op behind the call
and waits for it, through further cancellations, before the cancellation goes on (``_drain``):
the thread runs calls in order, so the ROLLBACK that follows runs after the cancelled call, and
the lock is never released while a statement, a COMMIT or a ROLLBACK is still in flight.  For
the same reason no call is left pending when an event loop ends (which cancels every task),
which would strand aiosqlite's thread on the closed loop.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .errors import (
    ChannelTaken,
    DamagedDatabase,
    DatabaseBusy,
    DatabaseFailure,
    DatabaseReplaced,
    DatabaseUnusable,
    DiskFull,
    NotADatabase,
    ReadOnlyDatabase,
    StoreClosed,
    StoreError,
    WriteConflict,
    shown,
)
from .schema import SCHEMA_VERSION, check_version, migrations
from .sql import Row
from .sqlite_tx import SqliteTx
from .tx import SharedStore, outlast, settle

T = TypeVar("T")
FileStamp = tuple[int, int, int, int]  # device, inode, size, modification time (ns)
MIGRATIONS = migrations("sqlite")
SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")
CLOSE_GRACE_SECONDS = 5.0
"""How long ``close()`` waits beyond the busy timeout for a transaction in progress."""

log = logging.getLogger(__name__)


RESTORE = "restore it from a copy made with `crosspath db backup`"
ACTIVE_INDEX = "games_one_active_per_channel"
ACTIVE_INDEX_CHECK = (
    f"SELECT (SELECT count(*) FROM games INDEXED BY {ACTIVE_INDEX} WHERE status = 'active'),"
    " (SELECT count(*) FROM games NOT INDEXED WHERE status = 'active'),"
    f" (SELECT count(*) FROM games AS i INDEXED BY {ACTIVE_INDEX} WHERE i.status = 'active'"
    " AND EXISTS (SELECT 1 FROM games AS t NOT INDEXED WHERE t.id = i.id"
    " AND t.channel_id = i.channel_id AND t.status = 'active'))"
)
"""The index entries, the active games, and the entries that match an active game's row: equal
in a sound file.  ``quick_check`` does not compare indexes with their tables, and a file
mixed with another database's pages (a WAL left beside a file moved over it) can pass it
while this index, which carries the one-active-game rule, misses games.  The full
``integrity_check`` does compare them, at many times the cost on a large database."""


def translate(exc: sqlite3.Error, path: Path | str, busy_timeout_ms: int) -> StoreError:
    """The store error for a driver error raised while working on ``path``."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    said = str(exc)[:100]
    where = shown(path)
    if isinstance(exc, sqlite3.IntegrityError):
        if "games.channel_id" in said:
            return ChannelTaken("that channel already has an active game")
        if "moves.game_id" in said:
            return WriteConflict("another command recorded that move first")
        return DatabaseFailure(f"the database {where} refused a write ({said})")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in said:
        return DatabaseBusy(
            f"the database {where} is locked: another process held it for more than"
            f" {busy_timeout_ms / 1000:g}s (a second bot on the same file, or a long backup);"
            f" stop the other process and retry ({said})"
        )
    if name == "SQLITE_FULL" or "disk is full" in said:
        return DiskFull(
            f"the disk holding the database {where} is full; the change was not saved."
            f" Free some space and retry ({said})"
        )
    if name.startswith("SQLITE_READONLY") or "readonly" in said:
        return ReadOnlyDatabase(
            f"the database {where} is read-only; give the bot's user write access to the file"
            f" and its folder, or use another --db ({said})"
        )
    if name == "SQLITE_NOTADB" or "not a database" in said:
        return NotADatabase(
            f"{where} is not a SQLite database; check the --db option or the database"
            f" setting ({said})"
        )
    if name.startswith("SQLITE_CORRUPT") or "malformed" in said:
        return DamagedDatabase(f"the database {where} is damaged; {RESTORE} ({said})")
    if name.startswith("SQLITE_CANTOPEN") or "unable to open" in said:
        return DatabaseUnusable(
            f"cannot open the database {where}: check that its folder exists and is writable"
            f" ({said})"
        )
    return DatabaseFailure(f"the database {where} failed: {said}")


class SqliteStore(SharedStore):
    """An open SQLite database: ``await SqliteStore.open(path)`` or ``async with``.

    ``migrate=False`` (maintenance such as backup) opens the file for reading only: no
    pragma that writes, no migration, no write check, so it never changes what it copies.
    """

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
        self._file: FileStamp | None = None  # the file as this store last left it
        self._wal: FileStamp | None = None  # and its -wal file
        self._where = os.path.abspath(self.path)  # (a later chdir moves no database)
        self._replaced = False

    @property
    def target(self) -> str:
        return str(self.path)

    @property
    def opened(self) -> bool:
        return self._conn is not None

    def _check_path(self) -> None:
        """Refusals that need no connection (and must not create anything)."""
        path = self.path
        if path.is_dir():
            raise NotADatabase(f"{shown(path)} is a folder, not a database file")
        if path.exists() and self.migrate and not os.access(path, os.W_OK):
            raise ReadOnlyDatabase(
                f"the database {shown(path)} is read-only; give the bot's user write access or"
                " use another --db"
            )
        if not path.exists() and not self.migrate:
            raise DatabaseUnusable(f"there is no database at {shown(path)}")
        parent = path.parent
        if self.migrate and parent != Path("") and not parent.is_dir():
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseUnusable(
                    f"cannot create the folder for the database {shown(path)}:"
                    f" {exc.strerror or exc}"
                ) from exc

    async def connect(self) -> None:
        """Check the file, open it, set WAL, and migrate to the latest schema."""
        self._check_path()
        conn = await self._run(aiosqlite.connect(self.path, isolation_level=None))
        conn.row_factory = sqlite3.Row
        self._conn = conn
        self._file = self._identity()
        try:
            await self._prepare()
            self._stamp()
        except BaseException:
            self._conn = None
            await self._run(conn.close())
            raise

    async def _prepare(self) -> None:
        where = f"the database {shown(self.path)}"
        await self._execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        check_version(await self._user_version(), where)
        problems = [str(r[0]) for r in await self._fetchall("PRAGMA quick_check")]
        if problems != ["ok"]:
            found = "; ".join(problems)[:100]
            raise DamagedDatabase(f"{where} is damaged ({found}); {RESTORE}")
        if await self._user_version() > 0:
            counts = tuple((await self._fetchall(ACTIVE_INDEX_CHECK))[0])
            if len(set(counts)) != 1:
                raise DamagedDatabase(
                    f"{where} is damaged (its index {ACTIVE_INDEX} holds {counts[0]} games,"
                    f" {counts[2]} of them as stored, for {counts[1]} active games); {RESTORE}"
                )
        if not self.migrate:
            return
        # A read-only file opens and reads fine; find out now, not at the first move.
        await self._execute("BEGIN IMMEDIATE")
        try:
            await self._execute(f"PRAGMA user_version = {await self._user_version()}")
        finally:
            await self._execute("ROLLBACK")
        await self._execute("PRAGMA journal_mode = WAL")
        await self._execute(f"PRAGMA synchronous = {self.synchronous}")
        await self._execute("PRAGMA foreign_keys = ON")
        await self._migrate()
        # A SQLite file serves one bot process (``run_lock``), so a computer-turn claim found
        # now was left by one that died: release it rather than stall that turn until it expires.
        released = await self._execute(
            "UPDATE games SET claimed_by = NULL, claimed_version = NULL, claimed_until = NULL"
            " WHERE claimed_by IS NOT NULL"
        )
        if released:
            log.info("released %d computer-turn claims left by a previous process", released)

    async def _migrate(self) -> None:
        """Bring the schema up to date, each step in its own ``BEGIN IMMEDIATE`` transaction."""
        while True:
            await self._execute("BEGIN IMMEDIATE")
            try:
                current = await self._user_version()
                check_version(current, "the database")
                if current == SCHEMA_VERSION:
                    await self._execute("COMMIT")
                    return
                for statement in MIGRATIONS[current]:
                    await self._execute(statement)
                await self._execute(f"PRAGMA user_version = {current + 1}")
                await self._execute("COMMIT")
            except BaseException:
                await self._end("ROLLBACK")
                raise

    async def _user_version(self) -> int:
        return int((await self._fetchall("PRAGMA user_version"))[0][0])

    def _identity(self) -> FileStamp | None:
        return _stat(self._where)

    def _stamp(self) -> None:
        """Remember the file and its ``-wal`` as this store's last commit (and checkpoint)
        left them.  A file gone by then was deleted during the transaction (another task's
        await let the deletion in): keep the old stamp, so the next write refuses."""
        found = self._identity()
        if found is None and self._file is not None:
            return
        self._file = found
        self._wal = _stat(self._where + "-wal")

    def _check_file(self) -> None:
        """Refuse to write when the path no longer names the file opened, or the file was
        written over by something other than SQLite (module notes)."""
        if self._conn is None:
            return  # (a closed store says so at its first statement)
        found = self._identity()
        if found == self._file:
            return
        if (
            found is not None
            and self._file is not None
            and found[:2] == self._file[:2]
            and not self._replaced
            and _stat(self._where + "-wal") != self._wal
        ):
            # Another connection committed (through the -wal) and may have checkpointed.
            self._stamp()
            return
        message = (
            f"the database file {shown(self.path)} was deleted or replaced while the bot was"
            " running, so nothing more is written to it; stop the bot, put the right file back"
            f" (or {RESTORE}) and start it again"
        )
        if not self._replaced:
            self._replaced = True
            log.critical("%s", message)
        raise DatabaseReplaced(message)

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreClosed(f"the store for {shown(self.path)} is closed")
        return self._conn

    async def _run(self, call: Awaitable[T]) -> T:
        """Await one aiosqlite call to its end (see the module notes); errors translated."""
        try:
            return await call
        except asyncio.CancelledError:
            await self._drain()
            raise
        except sqlite3.Error as exc:
            raise translate(exc, self.path, self.busy_timeout_ms) from exc
        except ValueError as exc:  # aiosqlite: the connection was closed under the call
            raise StoreClosed(f"the store for {shown(self.path)} is closed") from exc
        except OverflowError as exc:  # an int beyond 64 bits: the service checks ids first
            raise DatabaseFailure(
                f"the database {shown(self.path)} cannot store a number that large"
            ) from exc

    async def _drain(self) -> None:
        """Wait, through further cancellations, until aiosqlite's thread has finished the calls
        sent so far: a cancelled call may still be running there, and a call queued behind it
        ends after it.  (Once closed, the close queued behind the calls outlasts them.)"""
        while self._conn is not None:
            if await outlast(asyncio.ensure_future(self._conn.execute("SELECT 1"))):
                return

    async def _fetchall(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        return list(await self._run(self._connection().execute_fetchall(sql, args)))

    async def _execute(self, sql: str, args: Sequence[Any] = (), *, many: bool = False) -> int:
        """Run one statement (``many``: once per row of ``args``); the rows it changed."""
        conn = self._connection()
        cursor = await self._run(conn.executemany(sql, args) if many else conn.execute(sql, args))
        return int(cursor.rowcount)

    async def _end(self, how: str) -> None:
        """COMMIT or ROLLBACK if a transaction is open."""
        if self._conn is not None and self._conn.in_transaction:
            await self._execute(how)

    async def close(self, timeout: float | None = None) -> None:
        """Let the transaction in progress finish, then close; closing twice is harmless.

        Never waits forever: after ``timeout`` seconds (default: the busy timeout plus
        :data:`CLOSE_GRACE_SECONDS`) the store is closed anyway and :class:`StoreError` says
        so; the connection closes once its running statement ends, and SQLite rolls back
        whatever was not committed.
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
            stopped = conn.stop()  # after the calls already queued: close, end the thread
            if stopped is None:
                return
            try:
                await asyncio.wait_for(asyncio.shield(stopped), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise StoreError(
                    f"the database thread for {shown(self.path)} did not finish within"
                    f" {limit:.1f}s; the store is closed anyway"
                ) from None
        finally:
            if locked:
                self._lock.release()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[SqliteTx]:
        """A ``BEGIN IMMEDIATE`` transaction: committed on success, rolled back on any error."""
        async with self._lock:
            self._check_file()
            tx = SqliteTx(self, "BEGIN IMMEDIATE")
            try:
                yield tx
                if tx.began:
                    await self._execute("COMMIT")
                    self._stamp()
            except BaseException:
                try:
                    await self._end("ROLLBACK")
                except StoreError:
                    log.warning("could not roll back on %s", self.path, exc_info=True)
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[SqliteTx]:
        """Reads from one consistent snapshot (a deferred transaction)."""
        async with self._lock:
            tx = SqliteTx(self, "BEGIN")
            try:
                yield tx
            finally:
                if tx.began:
                    await self._end("COMMIT")

    async def schema_version(self) -> int:
        async with self._lock:
            return await self._user_version()

    async def integrity_check(self) -> str:
        async with self._lock:
            return "; ".join(str(r[0]) for r in await self._fetchall("PRAGMA integrity_check"))

    async def backup(self, target: str | Path) -> None:
        """Copy the live database to ``target`` with SQLite's online backup API.

        A problem with the target (its folder cannot be made, the disk is full) is reported
        as a store error naming the target, not the live database.
        """
        target = Path(target)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseUnusable(
                f"cannot create the folder for the backup {shown(target)}: {exc.strerror or exc}"
            ) from exc
        async with self._lock:
            conn = self._connection()
            try:
                # The copy runs on this store's thread and writes through the target's
                # connection, hence check_same_thread=False for the target only.
                dest = await settle(aiosqlite.connect(target, check_same_thread=False))
                try:
                    await settle(conn.backup(dest))
                finally:
                    await settle(dest.close())
            except sqlite3.Error as exc:
                raise translate(exc, target, self.busy_timeout_ms) from exc


def _stat(path: str) -> FileStamp | None:
    """A file's device, inode, size and modification time; None if it is not there."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns
