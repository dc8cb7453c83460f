"""Persistence behind one interface: SQLite embedded (the default) or PostgreSQL.

>>> import asyncio, tempfile, pathlib
>>> async def demo(path: pathlib.Path) -> int:
...     async with await open_store(path) as store:
...         return await store.schema_version()
>>> with tempfile.TemporaryDirectory() as folder:
...     asyncio.run(demo(pathlib.Path(folder) / "demo.db")) == SCHEMA_VERSION
True

The service depends on :class:`Store`/:class:`Tx` (typing protocols in ``interface``), the rows
in ``rows`` and the errors in ``errors``; SQL and drivers never leave this package.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import (
    BackupNotSupported,
    ChannelTaken,
    DamagedDatabase,
    DatabaseBusy,
    DatabaseFailure,
    DatabaseInUse,
    DatabaseReplaced,
    DatabaseUnusable,
    DiskFull,
    NotADatabase,
    ReadOnlyDatabase,
    StoreClosed,
    StoreError,
    StoreNotEmpty,
    UnknownSchema,
    WriteConflict,
)
from .interface import Store, Tx
from .rows import (
    AnalysisRow,
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
from .run_lock import one_bot_process
from .schema import MIGRATIONS, SCHEMA_VERSION
from .sqlite import SqliteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database (a URL) rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


async def open_store(target: str | Path, *, migrate: bool = True, **options: Any) -> Store:
    """Open (and by default migrate) the store named by ``target``.

    ``target`` is a ``postgresql://`` (or ``postgres://``) URL, or else a SQLite file path.
    ``migrate=False`` opens for reading and copying only (backups): the schema is left as
    found.  Other keyword options go to the engine (SQLite: ``synchronous``,
    ``busy_timeout_ms``; PostgreSQL: ``min_size``/``max_size``, the pool's size, default
    1 – 10, and ``lock_timeout_ms``).  Raises a :class:`StoreError` subclass when it cannot be
    opened.  The PostgreSQL engine (``bot.store.postgres``) is imported only when asked for,
    so the SQLite default needs no PostgreSQL driver.
    """
    if is_postgres(target):
        try:
            from . import postgres  # type: ignore[attr-defined,unused-ignore]
        except ImportError as exc:
            raise DatabaseUnusable(
                "PostgreSQL support is not available in this installation"
                f" ({str(exc)[:100]}); install Crosspath with its PostgreSQL driver"
            ) from exc
        opened: Store = await postgres.PostgresStore.open(str(target), migrate=migrate, **options)
        return opened
    return await SqliteStore.open(target, migrate=migrate, **options)


__all__ = [
    "MIGRATIONS",
    "POSTGRES_SCHEMES",
    "SCHEMA_VERSION",
    "AnalysisRow",
    "AuditRow",
    "BackupNotSupported",
    "ChallengeRow",
    "ChannelTaken",
    "ClockRow",
    "CreatorRoleRow",
    "DamagedDatabase",
    "DatabaseBusy",
    "DatabaseFailure",
    "DatabaseInUse",
    "DatabaseReplaced",
    "DatabaseUnusable",
    "DiskFull",
    "EntrantRow",
    "EventRow",
    "GameRow",
    "GameVersion",
    "MoveRow",
    "NewChallenge",
    "NewGame",
    "NotADatabase",
    "NoticeRow",
    "PairingRow",
    "RatedResult",
    "RatingHistoryRow",
    "RatingRow",
    "ReadOnlyDatabase",
    "ResultRow",
    "RoundRow",
    "SettingsRow",
    "ShardFilter",
    "SqliteStore",
    "Store",
    "StoreClosed",
    "StoreContents",
    "StoreError",
    "StoreNotEmpty",
    "TournamentRow",
    "Tx",
    "UnknownSchema",
    "VacationRow",
    "WriteConflict",
    "is_postgres",
    "one_bot_process",
    "open_store",
]
