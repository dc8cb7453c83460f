"""The PostgreSQL engine of the store: for several bot processes over one shared database.

``bot.store.open_store`` imports this package only for a ``postgresql://`` target, so the
SQLite default never needs the PostgreSQL driver loaded.
"""

from __future__ import annotations

from ..errors import shown as redact
from ..schema import SCHEMA_VERSION
from .store import MIGRATIONS, PostgresStore

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "PostgresStore",
    "redact",
]
