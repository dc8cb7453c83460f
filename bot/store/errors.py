"""Every error a store raises, whatever its engine.

The service and the front ends catch these and nothing else from ``bot.store``: a driver's own
exceptions (``sqlite3.OperationalError``, ``asyncpg.PostgresError``) never cross the store's
boundary.  Messages are written for whoever runs the bot: they name the database and say what
to do, and they never quote more than about 100 characters of anything read from outside.

Two kinds of errors live here:

* **Refusals** that the service turns into player messages and that leave the database
  unchanged: :class:`WriteConflict` (someone else changed the game first) and
  :class:`ChannelTaken` (a channel already has an active game).
* **Operational** failures an operator must act on: the database is damaged, not a database,
  read-only, locked, full, newer than the code, or the store is closed.
"""

from __future__ import annotations

import re
from pathlib import Path

QUOTE_LIMIT = 100
"""At most this many characters of an outside value are quoted in a message."""


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as text for a message, cut to ``limit`` characters with a marker.

    >>> len(quoted("x" * 150)), quoted("x" * 150).endswith("… (cut)'")
    (109, True)
    >>> quoted("c3")
    "'c3'"
    """
    text = str(value)
    if len(text) > limit:
        text = text[:limit] + "… (cut)"
    return repr(text)


class StoreError(Exception):
    """Base of every store error; ``str(exc)`` is a sentence an operator can act on."""


class WriteConflict(StoreError):
    """A versioned write found another version: someone else changed the game first.

    The whole transaction is rolled back; the service reports it as ``StaleAction``.
    """


class ChannelTaken(StoreError):
    """A game could not be inserted: its channel already has an active game (the database's
    one-active-game-per-channel rule).  The transaction is rolled back."""


class StoreClosed(StoreError):
    """The store was closed (or its worker stopped); open it again to go on."""


class DatabaseUnusable(StoreError):
    """The database cannot be opened as it is; nothing was changed.  Subclasses say why."""


class NotADatabase(DatabaseUnusable):
    """The file (or URL) does not hold a database of any kind this store can read."""


class DamagedDatabase(DatabaseUnusable):
    """The database failed its integrity check; restore it from a backup."""


class UnknownSchema(DatabaseUnusable):
    """The schema version is negative, newer than this code, or not one Crosspath writes."""


class ReadOnlyDatabase(DatabaseUnusable):
    """The database (or its folder) cannot be written; the bot needs to write."""


class DatabaseInUse(DatabaseUnusable):
    """Another ``crosspath run`` serves this SQLite database (see :mod:`bot.store.run_lock`)."""


class DatabaseReplaced(StoreError):
    """The SQLite file was deleted or replaced under the running store: every write is refused,
    since it would go to a file nobody will open again."""


class DatabaseBusy(StoreError):
    """Another process held the database's write lock for longer than the busy timeout."""


class DiskFull(StoreError):
    """The disk (or quota) holding the database is full; the write was rolled back."""


class DatabaseFailure(StoreError):
    """Any other failure of the database engine, with its own words attached."""


class StoreNotEmpty(StoreError):
    """A copy was asked into a store that already holds rows; nothing was written."""


class BackupNotSupported(StoreError):
    """This engine has no built-in backup (PostgreSQL: use ``pg_dump``)."""


def shown(target: str | Path) -> str:
    """A database for a message (targets come from the outside): a URL without its password
    and cut after ~100 characters, a path cut before them (its end names the file).

    >>> shown("postgresql://bot:secret@db.local/crosspath")
    'postgresql://bot:***@db.local/crosspath'
    """
    text = re.sub(r"^(postgres(?:ql)?://[^:/@]*:)[^@]*@", r"\1***@", str(target), flags=re.I)
    if len(text) <= QUOTE_LIMIT:
        return text
    return text[:QUOTE_LIMIT] + "…" if "://" in text else "…" + text[1 - QUOTE_LIMIT :]
