"""One ``crosspath run`` per SQLite database, held with an advisory lock file beside it.

Why: SQLite keeps the data safe with two writers, but two bot processes over one file would
both log in with every shard, both answer each interaction ("already acknowledged" for one of
them), both run every clock and both think for the computer.  Several processes need
PostgreSQL (docs/operations.md).  The lock is ``flock`` on ``<database>.run.lock``: the kernel
drops it when the process ends, however it ends, so a crash never leaves a stale lock behind.
Other commands (``crosspath play``, ``crosspath db backup``) do not take it: SQLite's own
locking serves them beside a running bot.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from .errors import DatabaseInUse, ReadOnlyDatabase, quoted


def lock_path(database: Path) -> Path:
    """The lock file of ``database`` (``game.db`` -> ``game.db.run.lock``)."""
    return database.with_name(database.name + ".run.lock")


@contextlib.contextmanager
def one_bot_process(database: Path) -> Iterator[None]:
    """Hold the database's run lock for the ``with`` block.

    Raises :class:`DatabaseInUse` (naming the other process) if another process holds it, and
    :class:`ReadOnlyDatabase` if the lock file cannot be created.
    """
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise ReadOnlyDatabase(
            f"cannot create the lock file {quoted(str(path))} ({exc.strerror}); give the bot's "
            "user write access to the database's folder"
        ) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            who = f"process {holder}" if holder.isdigit() else "another process"
            raise DatabaseInUse(
                f"another crosspath run ({who}) is serving the database {quoted(str(database))},"
                " and a SQLite database serves one bot process. Stop that one first, or move"
                " to PostgreSQL to run several (see docs/operations.md)."
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # closing the descriptor releases the lock
