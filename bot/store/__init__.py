"""The SQLite store behind the game service (aiosqlite, WAL, versioned migrations)."""

from __future__ import annotations

from .rows import AuditRow, ChallengeRow, EventRow, GameRow, MoveRow, SettingsRow
from .schema import MIGRATIONS, SCHEMA_VERSION
from .store import Store, StoreError, Tx, WriteConflict, migrate

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "AuditRow",
    "ChallengeRow",
    "EventRow",
    "GameRow",
    "MoveRow",
    "SettingsRow",
    "Store",
    "StoreError",
    "Tx",
    "WriteConflict",
    "migrate",
]
