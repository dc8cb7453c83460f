"""``crosspath db``: database maintenance from the command line.

``crosspath db backup PATH [--db DB]`` copies the live database with SQLite's online backup
API, so it is safe while the bot is running (WAL readers are never blocked).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from pathlib import Path

from .errors import StoreError
from .sqlite import SqliteStore as Store

DEFAULT_DB = "crosspath.sqlite3"  # same default as bot.config (CROSSPATH_DB)
DB_ENV = "CROSSPATH_DB"


def default_db() -> str:
    """The database the bot uses: $CROSSPATH_DB, else ``crosspath.db`` in the working directory."""
    return os.environ.get(DB_ENV, DEFAULT_DB)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="crosspath db", description="Database maintenance.")
    commands = top.add_subparsers(dest="command", required=True)
    backup = commands.add_parser("backup", help="copy the database with SQLite's online backup")
    backup.add_argument("path", help="where to write the copy")
    backup.add_argument(
        "--db", default=None, help=f"database to copy (default: ${DB_ENV} or {DEFAULT_DB})"
    )
    backup.add_argument("--force", action="store_true", help="overwrite PATH if it exists")
    return top


async def run_backup(source: Path, target: Path) -> int:
    async with Store(source, migrate=False) as store:
        await store.backup(target)
        version = await store.schema_version()
    print(f"backed up {source} to {target} (schema version {version})")
    return 0


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    source = Path(args.db or default_db())
    target = Path(args.path)
    if not source.exists():
        print(f"crosspath db: no database at {source} (use --db PATH)", file=sys.stderr)
        return 1
    if target.exists() and not args.force:
        print(f"crosspath db: {target} already exists (use --force to overwrite)", file=sys.stderr)
        return 1
    if target.resolve() == source.resolve():
        print("crosspath db: the backup path is the database itself", file=sys.stderr)
        return 1
    if target.exists():
        target.unlink()
    try:
        return asyncio.run(run_backup(source, target))
    except (sqlite3.DatabaseError, StoreError) as exc:
        print(f"crosspath db: cannot back up {source}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
