"""The PostgreSQL store: an asyncpg connection pool, migrated under an advisory lock.

Use it for several bot processes over one database (see docs/operations.md); the embedded
SQLite store stays the default for one process.  ``PostgresStore.open(url)`` accepts what
libpq accepts, for example ``postgresql://user:pass@host:5432/crosspath`` or, over a Unix
socket, ``postgresql://crosspath@/crosspath?host=/run/postgresql``.  How concurrent writes
stay correct is explained in :mod:`bot.store.postgres.tx`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg

from ..errors import BackupNotSupported, StoreClosed, StoreError, UnknownSchema, quoted, shown
from ..interface import Store, Tx
from ..schema import SCHEMA_VERSION, check_version, migrations
from ..tx import SharedStore
from .errors import translate, translate_connect
from .tx import GameLocks, PgTx

log = logging.getLogger(__name__)

MIGRATIONS = migrations("postgresql")

MIGRATION_LOCK = 0x63726F7373  # "cross": the advisory lock key migrations run under
CONNECT_TIMEOUT = 10.0
LOCK_TIMEOUT_MS = 5000
"""How long a write waits for another transaction's row lock before ``DatabaseBusy``
(the counterpart of SQLite's busy timeout)."""
CLOSE_GRACE_SECONDS = 5.0
SCHEMES = ("postgresql", "postgres")


async def _init_connection(conn: asyncpg.Connection) -> None:
    """Decode JSONB to Python objects (the options and size maps) on every pooled connection."""
    await conn.set_type_codec(
        "jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog", format="text"
    )


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset on release: nothing beyond asyncpg's own rollback of an open transaction.

    asyncpg's default resets every session on release (advisory unlocks, ``CLOSE ALL``,
    ``UNLISTEN *``, ``RESET ALL``): one more round trip per transaction.  The store changes no
    session state (settings are fixed at connect; the migration lock is released in a
    ``finally``), so there is nothing to undo.
    """


class PostgresStore(SharedStore):
    """The store interface over PostgreSQL (see :mod:`bot.store.interface`)."""

    def __init__(
        self,
        url: str,
        *,
        migrate: bool = True,
        min_size: int = 1,
        max_size: int = 10,
        lock_timeout_ms: int = LOCK_TIMEOUT_MS,
    ) -> None:
        self.url = url
        self.migrate = migrate
        self.min_size = min_size
        self.max_size = max_size
        self.lock_timeout_ms = lock_timeout_ms
        self._pool: asyncpg.Pool | None = None
        self._games = GameLocks()
        self._closing: asyncio.Future[None] | None = None

    @property
    def target(self) -> str:
        return shown(self.url)

    @property
    def opened(self) -> bool:
        return self._pool is not None

    async def connect(self) -> None:
        """Open the pool and bring the schema up to date (``migrate=False`` leaves it)."""
        if self.url.split("://", 1)[0].lower() not in SCHEMES:
            raise translate_connect(ValueError("it does not start with postgresql://"), self.target)
        try:
            pool = await asyncpg.create_pool(
                self.url,
                min_size=self.min_size,
                max_size=self.max_size,
                timeout=CONNECT_TIMEOUT,
                init=_init_connection,
                reset=_keep_session,
                server_settings={
                    "lock_timeout": str(self.lock_timeout_ms),
                    "application_name": "crosspath",
                    "TimeZone": "UTC",
                },
            )
        except Exception as exc:
            raise translate_connect(exc, self.target) from exc
        try:
            await migrate(pool, self.target, apply=self.migrate)
        except BaseException:
            pool.terminate()
            raise
        self._pool = pool
        self._closing = None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreClosed(f"the store for {self.target} is closed")
        return self._pool

    async def close(self, timeout: float | None = None) -> None:
        """Wait for transactions in progress (bounded), then close every connection.

        Idempotent and safe to call concurrently; after ``timeout`` seconds (default: the lock
        timeout plus a grace period) the remaining connections are cut, which makes the server
        roll back whatever they had begun.
        """
        if self._closing is not None:
            await asyncio.shield(self._closing)
            return
        pool = self._pool
        if pool is None:
            return
        self._closing = asyncio.get_running_loop().create_future()
        self._pool = None
        limit = self.lock_timeout_ms / 1000 + CLOSE_GRACE_SECONDS if timeout is None else timeout
        try:
            await asyncio.wait_for(pool.close(), limit)
        except TimeoutError:
            log.warning(
                "closing %s under transactions still running after %.1fs", self.target, limit
            )
            pool.terminate()
        finally:
            self._closing.set_result(None)

    def _connection(self) -> Any:
        try:
            return self.pool.acquire(timeout=CONNECT_TIMEOUT)
        except asyncpg.InterfaceError as exc:
            raise StoreClosed(f"the store for {self.target} is closed") from exc

    def write(self) -> AbstractAsyncContextManager[PgTx]:
        """A write block: optimistic for game commands, row-locking otherwise (``tx.py``)."""
        return self._block(write=True)

    def read(self) -> AbstractAsyncContextManager[PgTx]:
        """One consistent snapshot (REPEATABLE READ, read only), no row locks."""
        return self._block(write=False)

    @asynccontextmanager
    async def _block(self, *, write: bool) -> AsyncIterator[PgTx]:
        try:
            async with self._connection() as conn:
                tx = PgTx(conn, self.target, write=write, games=self._games)
                if not write:
                    await tx._begin(isolation="repeatable_read", readonly=True)
                try:
                    yield tx
                    await tx._finish()
                except BaseException:
                    await tx._abort()
                    raise
                finally:
                    tx._release()
        except StoreError:
            raise
        except (
            asyncpg.PostgresError,
            asyncpg.InterfaceError,
            asyncpg.InternalClientError,
            OSError,
        ) as exc:
            raise translate(exc, self.target) from exc

    async def schema_version(self) -> int:
        async with self._connection() as conn:
            return await _current_version(conn)

    async def backup(self, target: str | Path) -> None:
        raise BackupNotSupported(
            "PostgreSQL databases are backed up with pg_dump, for example"
            " `pg_dump --format=custom --file=crosspath.dump DATABASE_URL`"
        )


async def _current_version(conn: asyncpg.Connection) -> int:
    exists = await conn.fetchval("SELECT to_regclass('crosspath_schema') IS NOT NULL")
    if not exists:
        return 0
    value = await conn.fetchval("SELECT version FROM crosspath_schema")
    return int(value or 0)


async def migrate(pool: asyncpg.Pool, where: str, *, apply: bool = True) -> int:
    """Bring the schema up to date under a session advisory lock (``apply=False``: only check
    it); returns the version.

    The lock makes a second process wait until the first has finished; it then finds the
    schema current and applies nothing.  Each migration commits with its version bump.
    """
    try:
        async with pool.acquire() as conn:
            if not apply:
                current = await _current_version(conn)
                check_version(current, f"the database at {where}")
                return current
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                return await _migrate_locked(conn, where)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
    except StoreError:
        raise
    except Exception as exc:
        raise translate_connect(exc, where) from exc


async def _migrate_locked(conn: asyncpg.Connection, where: str) -> int:
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS crosspath_schema ("
        " version INTEGER NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),"
        " one_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one_row))"
    )
    while True:
        current = await _current_version(conn)
        check_version(current, f"the database at {where}")
        if current == SCHEMA_VERSION:
            return current
        async with conn.transaction():
            for statement in MIGRATIONS[current]:
                try:
                    await conn.execute(statement)
                except asyncpg.PostgresError as exc:
                    raise UnknownSchema(
                        f"migration {current + 1} failed on {where}: {quoted(exc)};"
                        f" the database stays at version {current}"
                    ) from exc
            await conn.execute(
                "INSERT INTO crosspath_schema (version) VALUES ($1)"
                " ON CONFLICT (one_row) DO UPDATE SET version = EXCLUDED.version,"
                " applied_at = now()",
                current + 1,
            )
        log.info("migrated %s to schema version %d", where, current + 1)


def _implements_the_interface(store: PostgresStore, tx: PgTx) -> tuple[Store, Tx]:
    """Never called: mypy checks here that this engine matches ``bot.store.interface``."""
    return store, tx
