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

from bot.store import is_postgres
from bot.store.copy import copy_store
from bot.store.errors import StoreError, shown
from bot.store.sqlite import SqliteStore as Store

DEFAULT_DB = "crosspath.sqlite3"  # same default as bot.config (CROSSPATH_DATABASE)
DB_ENV = "CROSSPATH_DATABASE"
OLD_DB_ENV = "CROSSPATH_DB"  # the older name, still read


def default_db() -> str:
    """The database the bot uses: $CROSSPATH_DATABASE (or its older name $CROSSPATH_DB), else
    ``crosspath.sqlite3`` in the working directory."""
    chosen = os.environ.get(DB_ENV, "").strip() or os.environ.get(OLD_DB_ENV, "").strip()
    return chosen or DEFAULT_DB


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="crosspath db", description="Database maintenance.")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    backup = commands.add_parser("backup", help="copy the database with SQLite's online backup")
    backup.add_argument("path", help="the file to write the copy to")
    backup.add_argument(
        "--db", default=None, help=f"database to copy (default: ${DB_ENV} or {DEFAULT_DB})"
    )
    backup.add_argument("--force", action="store_true", help="overwrite PATH if it is a file")
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
        print(f"crosspath db: cannot copy {shown(source)}: {exc}", file=sys.stderr)
        return 1
    counts = ", ".join(f"{n} {name}" for name, n in report.counts.items())
    print(
        f"copied {shown(source)} to {shown(target)}: {counts};"
        f" verified: every row matches and all {report.replayed} games replay"
    )
    return 0


def target_problem(source: Path, target: Path, force: bool) -> str | None:
    """Why the backup cannot be written to ``target``, or None if it can."""
    if target.is_dir():
        return (
            f"{target} is a folder; give the file to write, such as "
            f"{target / 'crosspath-backup.sqlite3'}"
        )
    if not target.parent.is_dir():
        return f"cannot write {target}: the folder {target.parent} does not exist"
    if target.exists() and not force:
        return f"{target} already exists (use --force to overwrite)"
    if target.exists() and target.resolve() == source.resolve():
        return "the backup path is the database itself"
    return None


def main(argv: list[str]) -> int:
    top = parser()
    args = top.parse_args(argv)
    if args.command is None:
        top.print_usage(sys.stderr)
        print("crosspath db: say what to do, e.g. crosspath db backup PATH", file=sys.stderr)
        return 2
    if args.command == "copy":
        return run_copy(args.source, args.target)
    if is_postgres(args.db or default_db()):
        print(
            "crosspath db: backup copies SQLite files; back up PostgreSQL with pg_dump,"
            " for example `pg_dump --format=custom --file=crosspath.dump URL`",
            file=sys.stderr,
        )
        return 1
    source = Path(args.db or default_db())
    target = Path(args.path)
    if source.is_dir():
        print(
            f"crosspath db: {source} is a folder, not a database (use --db PATH)", file=sys.stderr
        )
        return 1
    if not source.exists():
        print(f"crosspath db: no database at {source} (use --db PATH)", file=sys.stderr)
        return 1
    problem = target_problem(source, target, args.force)
    if problem is not None:
        print(f"crosspath db: {problem}", file=sys.stderr)
        return 1
    try:
        if target.exists():
            target.unlink()
        return asyncio.run(run_backup(source, target))
    except (sqlite3.DatabaseError, StoreError) as exc:
        print(f"crosspath db: cannot back up {source}: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        raise  # the reader of the report hung up: ``crosspath``'s quiet exit 141
    except OSError as exc:
        print(f"crosspath db: cannot back up to {target}: {exc.strerror or exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
