"""``crosspath db``: database maintenance from the command line.

``crosspath db backup PATH [--db DB]`` copies the live database with SQLite's online backup
API, so it is safe while the bot is running (WAL readers are never blocked).
``crosspath db copy SOURCE TARGET`` copies a whole database into an empty one, between SQLite
files and PostgreSQL URLs, and verifies the copy (``bot.store.copy``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from pathlib import Path

from .copy import copy_store, shown_target
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
    copy = commands.add_parser(
        "copy", help="copy a whole database to an empty one (SQLite file or postgresql:// URL)"
    )
    copy.add_argument("source", help="the database to copy: a SQLite file or a postgresql:// URL")
    copy.add_argument("target", help="an empty (or new) database to copy into, either form")
    return top


async def run_backup(source: Path, target: Path) -> int:
    async with Store(source, migrate=False) as store:
        await store.backup(target)
        version = await store.schema_version()
    print(f"backed up {source} to {target} (schema version {version})")
    return 0


def run_copy(source: str, target: str) -> int:
    """``crosspath db copy``: see :mod:`bot.store.copy`; one line on success or failure."""
    try:
        report = asyncio.run(copy_store(source, target))
    except StoreError as exc:
        print(f"crosspath db: cannot copy {shown_target(source)}: {exc}", file=sys.stderr)
        return 1
    counts = ", ".join(f"{n} {name}" for name, n in report.counts.items())
    print(
        f"copied {shown_target(source)} to {shown_target(target)}: {counts};"
        f" verified: every row matches and all {report.replayed} games replay"
    )
    return 0


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if args.command == "copy":
        return run_copy(args.source, args.target)
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
