"""The store interface every engine implements (SQLite embedded, PostgreSQL for many processes).

The game service speaks only to :class:`Store`, to :data:`Tx` (the one transaction class both
engines share, with its per-feature queries: ``tx.games.game(…)``) and to the rows in
:mod:`bot.store.rows`; SQL, drivers and column names stay inside the store.  An engine is
correct when it passes ``tests/store/test_contract.py`` and the service tests run over it.

Guarantees every engine gives:

* ``write()`` is one transaction that holds the database's write lock for the whole block (no
  other writer, in this process or another, commits in between); it commits when the block
  ends normally and rolls back on any exception, cancellation included.  ``read()`` sees one
  consistent snapshot.
* Game writes are **versioned**: each takes the :class:`~bot.store.rows.GameRow` the caller
  read and changes the game only if it is still at ``row.version`` (and, for the writes that
  change the position or outcome, bumps the version by one).  A mismatch raises
  :class:`~bot.store.errors.WriteConflict` no later than the end of the ``write()`` block, and
  the whole transaction is rolled back.  Each write returns the row as it now is, so the
  caller never re-reads it.
* Writes may be deferred until the next read or the commit (PostgreSQL sends a game command's
  writes as one statement at the end); a caller must not rely on a write's error surfacing at
  the call itself.
* Only :mod:`bot.store.errors` exceptions leave the store; driver errors are translated.
* Times are integer microseconds since the epoch (UTC); ids are 64-bit signed positive ints.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Protocol, Self

from .rows import (
    RatingHistoryRow,
    RatingRow,
    StoreContents,
)
from .tx import SharedTx

Tx = SharedTx
"""One transaction, from :meth:`Store.read` or :meth:`Store.write`: every engine's transaction
is a :class:`~bot.store.tx.SharedTx` (the queries are written once, over a few primitives an
engine supplies).  Its queries are grouped by feature, one object per feature, each a class
in :mod:`bot.store.queries` whose docstrings are the contracts:

* ``tx.games`` (:class:`~bot.store.queries.games.GameQueries`): a game's row, moves and
  events, its versioned writes, a player's lists of games;
* ``tx.clocks`` (``ClockQueries``): due deadlines and reminders, soft time, the next wake-up,
  vacations and paused clocks;
* ``tx.claims`` (``ClaimQueries``): which process plays a turn;
* ``tx.hints`` (``HintQueries``): each player's hint count in a game;
* ``tx.challenges`` (``ChallengeQueries``), ``tx.tournaments`` (``TournamentQueries``:
  tournaments, leagues, entrants, rounds, pairings and their games), ``tx.ratings``
  (``RatingQueries``), ``tx.notices`` (``NoticeQueries``: turn notices and digests);
* ``tx.web`` (``WebQueries``): what the web pages may show;
* ``tx.moderation`` (``ModerationQueries``): a server's settings, audit log, creator roles;
* ``tx.bulk`` (``BulkQueries``): export, import, a ratings rebuild's replacement.
* ``tx.analysis`` (``AnalysisQueries``): stored analyses, their claims and queue counts.
"""


class Store(Protocol):
    """An open database: ``async with await open_store(target) as store`` or ``close()``."""

    @property
    def target(self) -> str:
        """What was opened, for messages: a file path, or a URL without its password."""
        ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(self, *exc: object) -> None: ...

    def read(self) -> AbstractAsyncContextManager[Tx]:
        """A read-only transaction over one consistent snapshot."""
        ...

    def write(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction holding the write lock; committed on success, else rolled back."""
        ...

    async def close(self, timeout: float | None = None) -> None:
        """Let a transaction in progress finish (at most ``timeout`` seconds), then close.
        Idempotent and safe to call concurrently."""
        ...

    async def schema_version(self) -> int:
        """The migration number the database is at."""
        ...

    async def export_all(self) -> StoreContents:
        """Every row of every table with its ids, from one consistent snapshot, each table
        in key order (settings by guild; challenges, games, events, audit by id; moves by
        game and ply)."""
        ...

    async def import_all(self, contents: StoreContents) -> None:
        """Insert every row of ``contents`` with its own ids, in one transaction, into a store
        that holds no rows yet (else :class:`~bot.store.errors.StoreNotEmpty`, nothing
        written).  Engines with id sequences move them past the largest id imported, so
        later inserts do not collide."""
        ...

    async def replace_ratings(
        self,
        ratings: Sequence[RatingRow],
        history: Sequence[RatingHistoryRow],
        *,
        expect: tuple[int, int | None],
    ) -> None:
        """Replace every rating and history row (``crosspath ratings rebuild``), in one
        transaction, if the games that changed ratings are still ``expect`` (their count and
        last ``rating_seq``); else :class:`~bot.store.errors.WriteConflict`, nothing written."""
        ...

    async def backup(self, target: str | Path) -> None:
        """Copy the live database to ``target`` (a new file); engines without a built-in
        backup raise :class:`~bot.store.errors.BackupNotSupported` saying what to use."""
        ...
