"""The store's transaction: the primitives an engine supplies, and the per-feature queries
over them (``tx.games``, ``tx.tournaments`` …), written once for both engines.

Each query is one or two statements in the dialect SQLite and PostgreSQL share, with ``?``
placeholders (PostgreSQL's adapter numbers them once per statement text); it lives in the
query class of its feature, in :mod:`bot.store.queries`, and reaches the database only through
the primitives of :class:`SharedTx`.  An engine subclasses :class:`SharedTx` and supplies only
what really differs between the two:

* how a statement reaches the database (``_fetch`` for reads, ``_write``/``_write_many`` for
  writes whose result nobody needs, ``_written`` for writes whose rows are needed now);
* how the game writes of a command are applied (``_op``): on SQLite at once, under the single
  writer's ``BEGIN IMMEDIATE``; on PostgreSQL collected and sent as one optimistic statement,
  or replayed inside a transaction (see :mod:`bot.store.postgres.tx`);
* how lists of ids and string-keyed objects are stored (``_encode``: JSON text on SQLite,
  ``BIGINT[]`` and ``JSONB`` on PostgreSQL; decoding takes either);
* where a rating sequence number comes from and how players' rating rows are locked;
* how many rows are inserted at once and what follows an import (``_bulk``,
  ``_after_import``).

A read that passes ``lock=True`` names rows a write block goes on to change: PostgreSQL reads
them ``FOR UPDATE`` inside a transaction; SQLite's write lock already covers them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import Any, Self, TypeVar

from .queries.analysis import AnalysisQueries
from .queries.bulk import BulkQueries
from .queries.challenges import ChallengeQueries
from .queries.claims import ClaimQueries
from .queries.clocks import ClockQueries
from .queries.games import GameQueries
from .queries.hints import HintQueries
from .queries.moderation import ModerationQueries
from .queries.notices import NoticeQueries
from .queries.puzzles import PuzzleQueries
from .queries.ratings import RatingQueries
from .queries.tournaments import TournamentQueries
from .queries.web import WebQueries
from .rows import (
    ChallengeRow,
    GameRow,
    RatingHistoryRow,
    RatingRow,
    StoreContents,
)
from .sql import (
    CHALLENGES,
    GAMES,
    LIST_COLUMNS,
    OBJECT_COLUMNS,
    RATINGS,
    Op,
    Row,
    challenge_row,
    game_row,
    insert,
    insert_rows,
    row_chunks,
)

T = TypeVar("T")


class SharedTx:
    """One transaction: the queries of each feature as an attribute (``tx.games.game(…)``),
    over the few primitives an engine supplies (module notes).

    The underscored names are for the query classes in :mod:`bot.store.queries` and for the
    engines, not for the service.
    """

    def __init__(self) -> None:
        # Made once per transaction, each a single reference back to it: cheap beside a
        # round trip, and every query of a block shares the block's state.
        self.games = GameQueries(self)
        self.web = WebQueries(self)
        self.challenges = ChallengeQueries(self)
        self.ratings = RatingQueries(self)
        self.claims = ClaimQueries(self)
        self.hints = HintQueries(self)
        self.tournaments = TournamentQueries(self)
        self.clocks = ClockQueries(self)
        self.notices = NoticeQueries(self)
        self.moderation = ModerationQueries(self)
        self.bulk = BulkQueries(self)
        self.analysis = AnalysisQueries(self)
        self.puzzles = PuzzleQueries(self)

    # ----- what an engine supplies ----------------------------------------------------------
    SKIP_LOCKED = ""
    """Appended to a claim's choice of rows: on PostgreSQL, rows another transaction is
    claiming are passed over (not waited for and then found taken), so racing claimers each
    get a batch; SQLite has one writer, so nothing is ever locked by another claimer."""

    async def _fetch(
        self, sql: str, args: Sequence[Any] = (), *, game: bool = False, lock: bool = False
    ) -> list[Row]:
        """Rows of a read.  ``game``: it reads one game's rows (a command's first read);
        ``lock``: a write block will change what it reads."""
        raise NotImplementedError

    async def _write(self, sql: str, args: Sequence[Any]) -> None:
        raise NotImplementedError

    async def _write_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    async def _written(self, sql: str, args: Sequence[Any]) -> list[Row]:
        """The rows a write returns (``RETURNING``), needed now."""
        raise NotImplementedError

    async def _op(self, op: Op) -> None:
        raise NotImplementedError

    def _encode(self, column: str, value: Any) -> Any:
        """A value for ``column`` as the engine stores it (lists and objects differ)."""
        raise NotImplementedError

    async def _seed_ratings(self, seed: tuple[Any, ...]) -> None:
        """Make the players' rating rows lockable, if the engine locks rows: ``seed`` is the
        server, the game, the initial mu and sigma, the time and the sorted user ids."""

    async def _next_rating_seq(self) -> int:
        """The next ``rating_seq`` (larger than every one committed before the players' rows
        were locked): the order a rebuild replays games in (``tx.ratings.next_rating_seq``)."""
        raise NotImplementedError

    # ----- helpers --------------------------------------------------------------------------
    async def _one(self, sql: str, args: Sequence[Any] = (), **how: bool) -> Row | None:
        rows = await self._fetch(sql, args, **how)
        return rows[0] if rows else None

    async def _returning(self, sql: str, args: Sequence[Any]) -> Row | None:
        rows = await self._written(sql, args)
        return rows[0] if rows else None

    async def _count(self, sql: str, args: Sequence[Any]) -> int:
        found = await self._one(sql, args)
        assert found is not None
        return int(found[0])

    async def _games(self, where: str, args: Sequence[Any] = (), **how: bool) -> list[GameRow]:
        return [game_row(r) for r in await self._fetch(f"{GAMES} {where}", args, **how)]

    async def _one_game(self, where: str, key: int) -> GameRow | None:
        """A command's read of its game (PostgreSQL also takes its in-process lock)."""
        found = await self._games(where, (key,), game=True, lock=True)
        return found[0] if found else None

    async def _challenges(self, where: str, args: Sequence[Any], **how: bool) -> list[ChallengeRow]:
        return [challenge_row(r) for r in await self._fetch(f"{CHALLENGES} {where}", args, **how)]

    async def _ratings(self, where: str, args: Sequence[Any]) -> list[RatingRow]:
        return [RatingRow(*r) for r in await self._fetch(f"{RATINGS} {where}", args)]

    async def _history(self, sql: str, args: Sequence[Any]) -> list[RatingHistoryRow]:
        return [RatingHistoryRow(*r) for r in await self._fetch(sql, args)]

    async def _insert_rows(
        self,
        table: str,
        fields: Sequence[str],
        rows: Sequence[Sequence[Any]],
        returning: Sequence[str] = (),
    ) -> list[Row]:
        """Insert ``rows`` (already encoded) with as few multi-row statements as the argument
        limit allows (:func:`row_chunks`): one round trip per thousand-odd rows, not one per
        row.  With ``returning``: those columns of every row inserted, in no promised order
        (neither engine promises ``RETURNING`` in ``VALUES`` order), so the caller keys them."""
        found: list[Row] = []
        for chunk in row_chunks(rows, len(fields)):
            sql = insert_rows(table, fields, len(chunk))
            args = [value for row in chunk for value in row]
            if returning:
                found += await self._written(f"{sql} RETURNING {', '.join(returning)}", args)
            else:
                await self._write(sql, args)
        return found

    def _encoded(self, fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[Sequence[Any]]:
        """``rows`` of ``fields`` as the engine stores them: only the list and object columns
        change, and equal values are encoded once (a round's games share their reminders
        and options), since this runs for every value of tens of thousands of rows."""
        coded = [(i, c) for i, c in enumerate(fields) if c in LIST_COLUMNS or c in OBJECT_COLUMNS]
        if not coded:
            return list(rows)
        seen: dict[tuple[str, Any], Any] = {}
        out: list[Sequence[Any]] = []
        for row in rows:
            values = list(row)
            for i, c in coded:
                key = (c, values[i])
                if key not in seen:
                    seen[key] = self._encode(c, values[i])
                values[i] = seen[key]
            out.append(values)
        return out

    def _row_args(self, row: Any, fields: Sequence[str]) -> list[Any]:
        return [self._encode(c, getattr(row, c)) for c in fields]

    async def _versioned(self, row: GameRow, values: dict[str, Any]) -> GameRow:
        """Update the game at the state ``row`` was read in; the row as it will be stored."""
        stamp = (row.version, row.reminders_sent, row.takeback_by, row.turn_started_at)
        await self._op(Op("update", row.id, stamp, values))
        return replace(row, **values)

    async def _lock_ratings_table(self) -> None:
        """Keep games from finishing while the ratings are replaced (SQLite's write lock does)."""

    async def _serialise(self, topic: str, key: int) -> None:
        """Make write blocks that name the same ``topic`` and ``key`` take turns from here to
        their commit, for a count that decides an insert (a queue's limit): SQLite's write
        lock already serialises every write block."""

    async def _bulk(self, table: str, fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Insert many plain rows (PostgreSQL copies them)."""
        if rows:
            await self._write_many(insert(table, fields), rows)

    async def _after_import(self) -> None:
        """After ``tx.bulk.import_rows``: an engine with id sequences moves them past the
        largest id imported, so later inserts do not collide (SQLite needs nothing)."""


class SharedStore:
    """What both engines' stores do alike: opening, ``async with``, and the whole-store
    operations, each one ``read()`` or ``write()`` block over the shared queries."""

    @classmethod
    async def open(cls, target: Any, **options: Any) -> Self:
        store = cls(target, **options)  # type: ignore[call-arg]
        await store.connect()
        return store

    async def __aenter__(self) -> Self:
        if not self.opened:
            await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def opened(self) -> bool:
        raise NotImplementedError

    async def connect(self) -> None:
        raise NotImplementedError

    async def close(self, timeout: float | None = None) -> None:
        raise NotImplementedError

    def read(self) -> AbstractAsyncContextManager[SharedTx]:
        raise NotImplementedError

    def write(self) -> AbstractAsyncContextManager[SharedTx]:
        raise NotImplementedError

    async def export_all(self) -> StoreContents:
        """Every row with its ids, from one snapshot, in key order."""
        async with self.read() as tx:
            return await tx.bulk.contents()

    async def import_all(self, contents: StoreContents) -> None:
        """Every row with its ids into empty tables, in one transaction."""
        async with self.write() as tx:
            await tx.bulk.import_rows(contents)

    async def replace_ratings(
        self,
        ratings: Sequence[RatingRow],
        history: Sequence[RatingHistoryRow],
        *,
        expect: tuple[int, int | None],
    ) -> None:
        """Replace every rating and history row in one transaction (see ``BulkQueries``)."""
        async with self.write() as tx:
            await tx.bulk.replace_ratings(ratings, history, expect)


async def settle(awaitable: Awaitable[T]) -> T:
    """Await ``awaitable`` to its end even if the caller is cancelled meanwhile (the
    cancellation is raised afterwards).

    A statement already sent runs to its end whatever the caller does; what comes next (a
    ROLLBACK, releasing a lock, a connection going back to the pool) must come after it.
    """
    task = asyncio.ensure_future(awaitable)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await outlast(task)
        raise


async def outlast(task: asyncio.Future[Any]) -> bool:
    """Wait, through any cancellations, until ``task`` is done; whether it ran to its end
    (rather than being cancelled itself).  Its outcome is looked at and dropped: the
    caller's cancellation wins."""
    while not task.done():
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait((task,))
    if task.cancelled():
        return False
    task.exception()
    return True
