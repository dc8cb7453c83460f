"""The PostgreSQL engine of the store: for several bot processes over one shared database."""

from __future__ import annotations

from .schema import MIGRATIONS, SCHEMA_VERSION
from .store import PostgresStore, is_postgres_url, redact

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "PostgresStore", "is_postgres_url", "redact"]
