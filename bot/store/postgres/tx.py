"""The PostgreSQL transaction: the store interface's typed reads and writes as SQL.

Concurrency: how racing writes, from this process or another, fail cleanly.

* **Game commands are optimistic.**  A ``write()`` block whose first statement reads a game
  (every player action, moderation, a due clock action) does not begin a transaction: the
  read runs on its own, the block's game writes (the versioned update, the moves, the event,
  the audit row) are collected, and at the end of the block they are sent as ONE statement
  (a data-modifying ``WITH``) that updates the game only ``WHERE id = $1 AND version = $2``
  and inserts the rest only if that update matched ("version" here also covers the columns
  that writes keeping the version change: reminders sent, takeback request, turn start, so
  two processes cannot both send one reminder).  One statement is atomic, so either all
  of it is stored or, when another command changed the game since the read, nothing is and
  the block raises ``WriteConflict`` (``StaleAction`` for players).  A move therefore costs
  two round trips to the server, as on SQLite (two hops).  If such a block reads again after
  writing, or makes a write whose result it needs, the transaction begins at that point and
  the collected writes are replayed in it, each checked the same way.
* **Other blocks lock.**  A block that starts with anything else (a challenge, settings)
  begins a READ COMMITTED transaction at once, and its reads of a game, a challenge or a
  server's settings take the row lock (``SELECT … FOR UPDATE``): a second command on the same
  challenge waits a moment, then sees the first one's result and refuses for the real reason
  (for example "no longer open"), exactly as on SQLite where ``BEGIN IMMEDIATE`` serialises
  everything.  Waiting is bounded by ``lock_timeout`` (``DatabaseBusy`` after it).
* Inserts race on unique keys, not on locks: a second active game in a channel violates the
  partial unique index ``games_one_active_per_channel`` (``ChannelTaken``) and a move for a
  ply already stored violates ``moves_pkey`` (``WriteConflict``); a deadlock or serialization
  failure is a ``WriteConflict`` too.  Each rolls the whole block back.
* SERIALIZABLE with a bounded retry was rejected: the body of a write block is the service's
  own code (it has already told its engine cache about the move), so the store cannot replay
  it; versioned writes give the same safety without retries, and clock actions carry the
  version they were computed for, so a due action is applied at most once however many
  processes look at it.
* ``read()`` transactions are ``REPEATABLE READ READ ONLY``: one consistent snapshot, no locks.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Sequence
from typing import Any

import asyncpg

from ..errors import StoreError, WriteConflict
from ..rows import GameRow
from ..sql import LIST_COLUMNS, OBJECT_COLUMNS, OP_SQL, Op, Row, op_args, update_sql
from ..tx import SharedTx, settle
from .errors import translate, unusable


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """The shared statements' ``?`` placeholders as PostgreSQL's ``$1, $2, …`` (by split and
    join, not a regular expression: a multi-row insert has thirty thousand)."""
    parts = sql.split("?")
    out = [parts[0]]
    for n, part in enumerate(parts[1:], start=1):
        out.append(f"${n}{part}")
    return "".join(out)


class PgTx(SharedTx):
    """One ``read()`` or ``write()`` block on one pooled connection (see the module notes).

    A write block is in one of three states: ``new`` (nothing sent yet), ``optimistic`` (it
    began by reading a game: statements run on their own and game writes are collected for
    one statement at the end) or ``tx`` (a transaction is open; reads lock their rows).
    """

    SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"

    def __init__(
        self,
        conn: asyncpg.Connection,
        where: str,
        *,
        write: bool,
        games: GameLocks | None = None,
    ) -> None:
        super().__init__()
        self._conn = conn
        self._where = where
        self._write_block = write
        self._game_locks = games
        self._held: int | None = None
        self._state = "new"
        self._transaction: Any = None
        self._pending: list[Op] = []

    # ----- plumbing -----------------------------------------------------------------------
    async def _call(self, method: Any, sql: str, *args: Any) -> Any:
        try:
            return await method(numbered(sql), *args)
        except Exception as exc:
            raise self._failed(exc) from exc

    def _failed(self, exc: Exception) -> StoreError:
        """The store error for a failed call; a connection asyncpg cannot use any more is
        closed first, so the pool opens a new one instead of handing it out again."""
        if unusable(exc):
            self._conn.terminate()
        return translate(exc, self._where)

    async def _begin(self, **options: Any) -> None:
        """Open the transaction now and replay the writes collected so far inside it."""
        if self._state == "tx":
            return
        self._state = "tx"
        self._transaction = self._conn.transaction(**options)
        try:
            await self._transaction.start()
        except Exception as exc:
            raise self._failed(exc) from exc
        pending, self._pending = self._pending, []
        for op in pending:
            await self._apply(op)

    async def _reading(self, *, game: bool) -> None:
        """Before a read: a write block that starts with a game read stays optimistic; any
        other first read, or a read after collected writes, begins the transaction."""
        if not self._write_block or self._state == "tx":
            return
        if self._state == "new" and game:
            self._state = "optimistic"
        elif self._state == "new" or self._pending:
            await self._begin()

    def _release(self) -> None:
        """Give back this process's lock on the game (at the very end of the block)."""
        if self._held is not None and self._game_locks is not None:
            self._game_locks.release(self._held)
        self._held = None

    async def _finish(self) -> None:
        """End a write block normally: send the collected writes, or commit."""
        if self._state == "optimistic" and self._pending:
            statement = one_statement(self._pending)
            if statement is None:
                await self._begin()
            else:
                # Not shielded like COMMIT: a cancelled statement is cancelled on the server by
                # asyncpg, and either way it stored all of the block or none of it.
                sql, args = statement
                found = await self._call(self._conn.fetchrow, sql, *args)
                if found is None or found[0] != 1:
                    raise WriteConflict("the game changed before this command could be saved")
        if self._state == "tx":
            try:
                await settle(self._transaction.commit())
            except Exception as exc:
                raise self._failed(exc) from exc
        self._pending = []

    async def _abort(self) -> None:
        """End a write block on an error: drop the collected writes, roll back if begun."""
        self._pending = []
        if self._transaction is not None and self._state == "tx":
            # A dead connection needs no rollback: the server has rolled back already.
            with contextlib.suppress(
                asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError
            ):
                await settle(self._transaction.rollback())

    async def _apply(self, op: Op) -> None:
        """Run one collected write inside the open transaction."""
        if op.kind == "update":
            sql, args = update_sql(op)
            if await self._call(self._conn.fetchrow, f"{sql} RETURNING id", *args) is None:
                raise WriteConflict("the game changed before this command could be saved")
        elif op.kind == "moves":
            await self._call(self._conn.executemany, OP_SQL["moves"], op_args(op))
        else:
            await self._call(self._conn.execute, OP_SQL[op.kind], *op_args(op))

    # ----- the primitives of SharedTx -----------------------------------------------------
    async def _fetch(
        self, sql: str, args: Sequence[Any] = (), *, game: bool = False, lock: bool = False
    ) -> list[Row]:
        await self._reading(game=game)
        locked = " FOR UPDATE" if lock and self._write_block and self._state == "tx" else ""
        return list(await self._call(self._conn.fetch, sql + locked, *args))

    async def _write(self, sql: str, args: Sequence[Any]) -> None:
        await self._begin()
        await self._call(self._conn.execute, sql, *args)

    async def _write_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._begin()
        await self._call(self._conn.executemany, sql, rows)

    async def _written(self, sql: str, args: Sequence[Any]) -> list[Row]:
        await self._begin()
        return list(await self._call(self._conn.fetch, sql, *args))

    async def _op(self, op: Op) -> None:
        if self._state == "tx":
            await self._apply(op)
        else:
            self._state = "optimistic"
            self._pending.append(op)

    def _encode(self, column: str, value: Any) -> Any:
        if column in LIST_COLUMNS:
            return list(value)
        if column in OBJECT_COLUMNS:
            return dict(value)
        return value

    async def _one_game(self, where: str, key: int) -> GameRow | None:
        """Read one game; in an optimistic write block, also take this process's lock on it.

        The service keeps one live engine per game and plays the move on it before writing;
        two of its commands on one game must therefore not overlap in this process (they
        could not on SQLite, whose store serialises writes).  The lock is only in memory, is
        held until the block ends, and costs nothing when uncontended; a command that had to
        wait reads the game again, since it has probably changed.
        """
        while True:
            row = await super()._one_game(where, key)
            if row is None or self._state != "optimistic" or self._game_locks is None:
                return row
            if self._held is not None and self._held != row.id:
                await self._begin()  # a second game in one block: lock rows in the database
                return await super()._one_game(where, key)
            if self._held == row.id or await self._game_locks.hold(row.id):
                self._held = row.id
                return row
            self._held = row.id  # waited for another command: read it again

    async def _seed_ratings(self, seed: tuple[Any, ...]) -> None:
        """Insert a row (initial values, no games) for players who have none, so that every
        player's row can be locked: a second game finishing for one of these players (in any
        process) then waits until this block commits and reads the row as committed."""
        await self._write(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, updated_at)"
            " SELECT ?, ?, u, ?, ?, ? FROM unnest(?::bigint[]) AS u ORDER BY u"
            " ON CONFLICT (guild_id, game, user_id) DO NOTHING",
            (*seed[:-1], list(seed[-1])),
        )

    async def _next_rating_seq(self) -> int:
        await self._begin()
        return await self._count("SELECT nextval('games_rating_seq')", ())

    async def _lock_ratings_table(self) -> None:
        """Games finishing meanwhile wait (at most the lock timeout, then they are refused as
        busy and can be retried)."""
        await self._write("LOCK TABLE ratings IN EXCLUSIVE MODE", ())

    async def _serialise(self, topic: str, key: int) -> None:
        """A transaction-scoped advisory lock on the pair, released at commit or rollback.
        Hashed to one bigint (a Discord id already fills one): a rare collision only makes
        two unrelated blocks wait for each other, never lets two through at once."""
        await self._write(
            "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (f"{topic}:{key}",)
        )

    async def _bulk(self, table: str, fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Ratings by COPY (a rebuild writes hundreds of thousands of rows; they are plain
        numbers and text, so binary COPY needs no codec); other tables row by row."""
        if not table.startswith("rating"):
            await super()._bulk(table, fields, rows)
        elif rows:
            await self._begin()
            try:
                await self._conn.copy_records_to_table(table, records=rows, columns=list(fields))
            except Exception as exc:
                raise self._failed(exc) from exc

    async def _after_import(self) -> None:
        """Each id sequence is moved past the largest id imported."""
        for table in ("challenges", "games", "game_events", "audit_log", "tournaments"):
            await self._write(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM {table}",
                (),
            )
        await self._write(
            "SELECT setval('games_rating_seq', COALESCE(MAX(rating_seq), 1),"
            " MAX(rating_seq) IS NOT NULL) FROM games",
            (),
        )


class GameLocks:
    """In-process locks on games, one per game an optimistic write block is working on."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}

    async def hold(self, game_id: int) -> bool:
        """Take ``game_id``'s lock; True if it was free, False if this had to wait."""
        lock, users = self._locks.setdefault(game_id, (asyncio.Lock(), [0]))
        users[0] += 1
        free = not lock.locked()
        try:
            await lock.acquire()
        except BaseException:
            self._forget(game_id)
            raise
        return free

    def release(self, game_id: int) -> None:
        self._locks[game_id][0].release()
        self._forget(game_id)

    def _forget(self, game_id: int) -> None:
        _, users = self._locks[game_id]
        users[0] -= 1
        if users[0] == 0:
            del self._locks[game_id]

    def __len__(self) -> int:
        return len(self._locks)


CTE = {
    "moves": "m AS (INSERT INTO moves (game_id, ply, move, user_id, played_at)"
    " SELECT g.id, x.ply, x.move, x.user_id, x.played_at FROM g,"
    " unnest(?::integer[], ?::text[], ?::bigint[], ?::bigint[]) AS x (ply, move, user_id,"
    " played_at))",
    "delete": "d AS (DELETE FROM moves USING g WHERE moves.game_id = g.id"
    " AND moves.ply >= ?::integer)",
    "event": "e AS (INSERT INTO game_events (game_id, at, kind, user_id, detail)"
    " SELECT g.id, ?::bigint, ?::text, ?::bigint, ?::text FROM g)",
    "audit": "a AS (INSERT INTO audit_log (guild_id, actor_id, action, game_id, target_id,"
    " detail, at) SELECT ?::bigint, ?::bigint, ?::text, ?::bigint, ?::bigint, ?::text,"
    " ?::bigint FROM g)",
}
"""Each collected write as a part of one ``WITH`` statement, selecting from the update ``g``."""


def one_statement(ops: Sequence[Op]) -> tuple[str, list[Any]] | None:
    """The collected writes as one atomic statement, or None when they do not fit one.

    They fit when there is exactly one versioned game update and everything else belongs to
    that game (at most one of each kind, and never both new and deleted moves).  Every insert
    selects from the update's result, so nothing is stored unless the update matched; the
    statement returns how many game rows it updated (1, or 0 for a conflict).
    """
    updates = [op for op in ops if op.kind == "update"]
    kinds = [op.kind for op in ops]
    if (
        len(updates) != 1
        or len(set(kinds)) != len(kinds)
        or ("moves" in kinds and "delete" in kinds)
        or any(op.game_id != updates[0].game_id for op in ops if op.kind != "audit")
    ):
        return None
    sql, args = update_sql(updates[0])
    parts = [f"g AS ({sql} RETURNING id)"]
    for op in ops:
        if op.kind == "moves":
            args += [
                [getattr(m, f) for m in op.args] for f in ("ply", "move", "user_id", "played_at")
            ]
        elif op.kind != "update":
            args += op_args(op)[0 if op.kind == "audit" else 1 :]
        if op.kind != "update":
            parts.append(CTE[op.kind])
    return f"WITH {', '.join(parts)} SELECT count(*) FROM g", args
