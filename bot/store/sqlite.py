"""The SQLite engine: one connection on a dedicated thread, behind an asyncio lock, WAL mode.

Why one connection: every service call is a short read-modify-write, SQLite allows one writer
at a time anyway, and serialising in-process on a lock avoids busy-waiting on SQLite's file
lock (the busy timeout still covers other processes, such as a backup).  Reads share the
connection and the lock.  Writes run in ``BEGIN IMMEDIATE`` so the write lock is taken before
the first read, and game updates check a version column, so a stale read can never commit.

Opening checks the file before anything is written to it: a folder, a file that is not a
database, a schema version this code does not know (negative, or newer), a damaged database
(``PRAGMA quick_check``) and a read-only file are each refused with their own
:class:`~bot.store.errors.StoreError` and the file is left as it was.

Cancellation: a statement already handed to the thread runs to the end whatever the caller
does, so every hop is waited for even when its caller is cancelled (see ``sqlite_worker``).  The
lock is therefore never released while a hop, a COMMIT or a ROLLBACK is still in flight.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from .errors import (
    DamagedDatabase,
    DatabaseFailure,
    DatabaseUnusable,
    NotADatabase,
    ReadOnlyDatabase,
    StoreClosed,
    StoreError,
    UnknownSchema,
)
from .rows import RatingHistoryRow, RatingRow, StoreContents
from .schema import MIGRATIONS, SCHEMA_VERSION
from .sqlite_errors import RESTORE, shown, translate
from .sqlite_tx import SqliteTx, export_all, import_all, replace_ratings
from .sqlite_worker import Worker

T = TypeVar("T")

SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")
CLOSE_GRACE_SECONDS = 5.0
"""How long ``close()`` waits beyond the busy timeout for a transaction in progress."""

log = logging.getLogger(__name__)


def migrate(raw: sqlite3.Connection) -> int:
    """Bring the schema up to date, each step in its own transaction.  Returns the version.

    Runs on the store's thread (or any plain connection in autocommit mode).
    """
    while True:
        raw.execute("BEGIN IMMEDIATE")
        try:
            current = int(raw.execute("PRAGMA user_version").fetchone()[0])
            check_version(current, "the database")
            if current == SCHEMA_VERSION:
                raw.execute("COMMIT")
                return current
            for statement in MIGRATIONS[current]:
                raw.execute(statement)
            raw.execute(f"PRAGMA user_version = {current + 1}")
            raw.execute("COMMIT")
        except BaseException:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            raise


def check_version(version: int, where: str) -> None:
    """Refuse a schema version this code never writes (negative) or does not know (newer)."""
    if version < 0:
        raise UnknownSchema(
            f"{where} has schema version {version}, which Crosspath never writes: it is not a"
            f" Crosspath database or it was changed by hand. Nothing was changed; {RESTORE}"
        )
    if version > SCHEMA_VERSION:
        raise UnknownSchema(
            f"{where} has schema version {version}, newer than this code's {SCHEMA_VERSION}:"
            " upgrade Crosspath (nothing was changed)"
        )


def _open(path: Path, busy_timeout_ms: int, synchronous: str, writable: bool) -> sqlite3.Connection:
    """Runs on the store's thread: connect, check the file, set the pragmas, migrate."""
    where = f"the database {shown(path)}"
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        raw.row_factory = sqlite3.Row
        raw.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        version = int(raw.execute("PRAGMA user_version").fetchone()[0])
        check_version(version, where)
        problems = [str(r[0]) for r in raw.execute("PRAGMA quick_check").fetchall()]
        if problems != ["ok"]:
            found = "; ".join(problems)[:100]
            raise DamagedDatabase(f"{where} is damaged ({found}); {RESTORE}")
        if writable:
            # A read-only file opens and reads fine; find out now, not at the first move.
            raw.execute("BEGIN IMMEDIATE")
            try:
                raw.execute(
                    f"PRAGMA user_version = {int(raw.execute('PRAGMA user_version').fetchone()[0])}"
                )
            finally:
                raw.execute("ROLLBACK")
            raw.execute("PRAGMA journal_mode = WAL")
            raw.execute(f"PRAGMA synchronous = {synchronous}")
            raw.execute("PRAGMA foreign_keys = ON")
            migrate(raw)
    except BaseException:
        raw.close()
        raise
    return raw


class _TargetError(Exception):
    """A driver error about a backup's target rather than the store's own database."""

    def __init__(self, error: sqlite3.Error) -> None:
        super().__init__(str(error))
        self.error = error


def _end(raw: sqlite3.Connection, how: str) -> None:
    """COMMIT or ROLLBACK if a transaction is open."""
    if raw.in_transaction:
        raw.execute(how)


class SqliteStore:
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
        self._worker: Worker | None = None
        self._raw: sqlite3.Connection | None = None
        self._lock = asyncio.Lock()

    @property
    def target(self) -> str:
        return str(self.path)

    @classmethod
    async def open(cls, path: str | Path, **options: Any) -> SqliteStore:
        store = cls(path, **options)
        await store.connect()
        return store

    async def __aenter__(self) -> SqliteStore:
        if self._worker is None:
            await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

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
        """Check the file, open it on a new thread, set WAL, and migrate to the latest schema."""
        self._check_path()
        worker = Worker(f"crosspath-sqlite:{self.path.name}")
        try:
            self._raw = await self._call_on(
                worker,
                lambda: _open(self.path, self.busy_timeout_ms, self.synchronous, self.migrate),
            )
        except BaseException:
            worker.stop()
            raise
        self._worker = worker

    async def _call_on(self, worker: Worker, fn: Callable[[], T]) -> T:
        try:
            return await worker.run(fn)
        except sqlite3.Error as exc:
            raise translate(exc, self.path, self.busy_timeout_ms) from exc
        except OverflowError as exc:  # an int beyond 64 bits: the service checks ids first
            raise DatabaseFailure(
                f"the database {shown(self.path)} cannot store a number that large"
            ) from exc

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)`` on the store's thread; driver errors translated."""
        worker, raw = self._worker, self._raw
        if worker is None or raw is None:
            raise StoreClosed(f"the store for {shown(self.path)} is closed")
        if not worker.alive:
            raise StoreClosed(
                f"the database thread for {shown(self.path)} has stopped; reopen the store"
            )
        return await self._call_on(worker, lambda: fn(raw, *args))

    async def close(self, timeout: float | None = None) -> None:
        """Let the transaction in progress finish, then close; closing twice is harmless.

        Never waits forever: after ``timeout`` seconds (default: the busy timeout plus
        :data:`CLOSE_GRACE_SECONDS`) the store is closed anyway and :class:`StoreError` says
        so; the thread closes the connection once its running statement ends, and SQLite
        rolls back whatever was not committed.
        """
        worker = self._worker
        if worker is None:
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
            if self._worker is not worker:
                return  # another close() got there first
            raw, self._worker, self._raw = self._raw, None, None
            if not worker.alive:
                log.warning("the database thread for %s had died; dropping it", self.path)
                return
            if raw is not None:
                worker.run_and_forget(raw.close)
            worker.stop()
            if not await worker.join(max(0.0, deadline - loop.time())):
                raise StoreError(
                    f"the database thread for {shown(self.path)} did not finish within"
                    f" {limit:.1f}s; the store is closed anyway"
                )
        finally:
            if locked:
                self._lock.release()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[SqliteTx]:
        """A ``BEGIN IMMEDIATE`` transaction: committed on success, rolled back on any error."""
        async with self._lock:
            tx = SqliteTx(self._call, "BEGIN IMMEDIATE")
            try:
                yield tx
                await tx.finish("COMMIT")
            except BaseException:
                # Queued behind any statement still running in the thread (even when the
                # caller was cancelled), so whatever that statement began is undone.
                try:
                    await self._call(_end, "ROLLBACK")
                except StoreError:
                    log.warning("could not roll back on %s", self.path, exc_info=True)
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[SqliteTx]:
        """Reads from one consistent snapshot (a deferred transaction)."""
        async with self._lock:
            tx = SqliteTx(self._call, "BEGIN")
            try:
                yield tx
            finally:
                if tx.began:
                    await self._call(_end, "COMMIT")

    async def schema_version(self) -> int:
        async with self._lock:
            return int(
                await self._call(lambda raw: raw.execute("PRAGMA user_version").fetchone()[0])
            )

    async def integrity_check(self) -> str:
        async with self._lock:
            rows = await self._call(lambda raw: raw.execute("PRAGMA integrity_check").fetchall())
        return "; ".join(str(r[0]) for r in rows)

    async def export_all(self) -> StoreContents:
        async with self._lock:
            return await self._call(export_all)

    async def import_all(self, contents: StoreContents) -> None:
        async with self._lock:
            await self._call(import_all, contents)

    async def replace_ratings(
        self,
        ratings: Sequence[RatingRow],
        history: Sequence[RatingHistoryRow],
        *,
        expect: tuple[int, int | None],
    ) -> None:
        async with self._lock:
            await self._call(replace_ratings, ratings, history, expect)

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

        def copy(raw: sqlite3.Connection) -> None:
            try:
                dest = sqlite3.connect(target)
            except sqlite3.Error as exc:
                raise _TargetError(exc) from exc
            try:
                raw.backup(dest)
            except sqlite3.Error as exc:
                raise _TargetError(exc) from exc
            finally:
                dest.close()

        async with self._lock:
            try:
                await self._call(copy)
            except _TargetError as exc:
                raise translate(exc.error, target, self.busy_timeout_ms) from exc.error
