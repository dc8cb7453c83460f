"""Translating ``sqlite3`` exceptions into store errors an operator can act on.

SQLite's own words ("database is locked", "attempt to write a readonly database") are kept at
the end of each message, but the sentence first says which file and what to do.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .errors import (
    ChannelTaken,
    DamagedDatabase,
    DatabaseBusy,
    DatabaseFailure,
    DatabaseUnusable,
    DiskFull,
    NotADatabase,
    ReadOnlyDatabase,
    StoreError,
    WriteConflict,
)

RESTORE = "restore it from a copy made with `crosspath db backup`"


def shown(path: Path | str) -> str:
    """A path for a message, cut to about 100 characters (paths come from the outside)."""
    text = str(path)
    return text if len(text) <= 100 else "…" + text[-99:]


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
