"""The PostgreSQL engine of the store: for several bot processes over one shared database.

``bot.store.open_store`` imports this package only for a ``postgresql://`` target, so the
SQLite default never needs the PostgreSQL driver loaded.
"""

from __future__ import annotations

from typing import Any

from ..errors import shown as redact
from ..schema import SCHEMA_VERSION
from .store import MIGRATIONS, PostgresStore


async def open_postgres(url: str, *, migrate: bool = True, **options: Any) -> PostgresStore:
    """Open the pool and (unless ``migrate=False``) bring the schema up to date.

    Options: ``min_size``/``max_size`` (pool size, default 1–10) and ``lock_timeout_ms``.
    """
    return await PostgresStore.open(url, migrate=migrate, **options)


__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "PostgresStore",
    "open_postgres",
    "redact",
]
