"""The SQLite side of a transaction: each statement sent at once, under the one writer.

A write block runs in ``BEGIN IMMEDIATE``, which takes SQLite's write lock before the first
read: nothing else writes until the COMMIT, so the versioned game update (``update_sql``)
matches unless this very block changed the game, and a mismatch raises :class:`WriteConflict`
at once.  The transaction begins with the block's first statement; a block that sent none
commits nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .errors import WriteConflict
from .sql import LIST_COLUMNS, OBJECT_COLUMNS, OP_SQL, Op, Row, op_args, update_sql
from .tx import SharedTx

if TYPE_CHECKING:
    from .sqlite import SqliteStore


class SqliteTx(SharedTx):
    """One transaction on the store's connection, run while the caller holds the store lock."""

    def __init__(self, store: SqliteStore, begin: str) -> None:
        super().__init__()
        self._store = store
        self._begin: str | None = begin

    @property
    def began(self) -> bool:
        return self._begin is None

    async def _start(self) -> None:
        if self._begin is not None:
            begin, self._begin = self._begin, None
            await self._store._execute(begin)

    async def _fetch(self, sql: str, args: Sequence[Any] = (), **how: bool) -> list[Row]:
        await self._start()
        return await self._store._fetchall(sql, args)

    async def _write(self, sql: str, args: Sequence[Any]) -> None:
        await self._start()
        await self._store._execute(sql, args)

    async def _write_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._start()
        await self._store._execute(sql, rows, many=True)

    async def _written(self, sql: str, args: Sequence[Any]) -> list[Row]:
        return await self._fetch(sql, args)

    async def _op(self, op: Op) -> None:
        await self._start()
        if op.kind == "update":
            sql, args = update_sql(op)
            if await self._store._execute(sql, args) != 1:
                raise WriteConflict("the game changed meanwhile: someone else acted first")
        else:
            await self._store._execute(OP_SQL[op.kind], op_args(op), many=op.kind == "moves")

    def _encode(self, column: str, value: Any) -> Any:
        if column in OBJECT_COLUMNS:
            return json.dumps(dict(value), sort_keys=True)
        if column in LIST_COLUMNS:
            return json.dumps(list(value))
        return value

    async def _next_rating_seq(self) -> int:
        # The write lock is held: nobody else can take the same number.
        return await self._count("SELECT COALESCE(MAX(rating_seq), 0) + 1 FROM games", ())
