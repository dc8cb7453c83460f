"""``crosspath db copy SOURCE TARGET``: move a whole database between engines, and prove it.

SQLite → PostgreSQL to move up to several bot processes, PostgreSQL → SQLite for a local copy
(or SQLite → SQLite).  The copy keeps every id, refuses a target that already holds data, and
is verified before it is reported done: the target's rows are read back and compared with the
source's, table by table, and every game is replayed through the rules engine from its moves
to the record and side to move stored with it.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from rules import new_game
from rules.record import parse_header

from . import is_postgres, open_store
from .errors import StoreError, UnknownSchema, shown
from .rows import GameRow, StoreContents
from .schema import SCHEMA_VERSION


class CopyMismatch(StoreError):
    """The copy read back differs from the source, or a game does not replay."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    counts: dict[str, int]
    replayed: int


def _same(source: str | Path, target: str | Path) -> bool:
    if is_postgres(source) or is_postgres(target):
        return str(source) == str(target)
    return Path(source).resolve() == Path(target).resolve()


def replay_problems(games: tuple[GameRow, ...], contents: StoreContents) -> list[str]:
    """Games whose stored moves do not replay to their stored record and side to move."""
    moves: dict[int, list[str]] = defaultdict(list)
    for move in contents.moves:
        moves[move.game_id].append(move.move)
    problems = []
    for row in games:
        try:
            # The pie option is read from the stored record's header: the store knows nothing
            # of the service's options, and the replay must then give that record back.
            game = new_game(row.game, row.size, pie=parse_header(row.record).pie)
            for text in moves[row.id]:
                game.play(text)
        except ValueError as exc:  # rules errors (illegal move, unknown game) included
            problems.append(f"game {row.id} does not replay: {str(exc)[:100]}")
            continue
        if game.record() != row.record:
            problems.append(f"game {row.id}: its moves replay to another record")
        elif row.status == "active" and game.to_move != row.to_move:
            problems.append(f"game {row.id}: the side to move differs from its moves")
    return problems


async def copy_store(source: str | Path, target: str | Path) -> CopyReport:
    """Copy every row of ``source`` into the empty ``target`` and verify the copy.

    Raises a :class:`StoreError` subclass: the source cannot be opened or is not at this
    code's schema, the target already holds data (``StoreNotEmpty``), or the copy does not
    match (:class:`CopyMismatch`).
    """
    if _same(source, target):
        raise StoreError("the source and the target are the same database")
    async with await open_store(source, migrate=False) as src:
        version = await src.schema_version()
        if version != SCHEMA_VERSION:
            raise UnknownSchema(
                f"{shown(source)} has schema version {version}, not this code's"
                f" {SCHEMA_VERSION}: open it once with this version of Crosspath (it upgrades"
                " on open), then copy"
            )
        contents = await src.export_all()
    problems = await asyncio.to_thread(replay_problems, contents.games, contents)
    if problems:
        raise CopyMismatch(
            f"the source does not replay, nothing was copied: {'; '.join(problems[:3])}"
        )
    async with await open_store(target) as dst:
        await dst.import_all(contents)
        copied = await dst.export_all()
    if copied.counts() != contents.counts():
        raise CopyMismatch(f"the copy has {copied.counts()} rows, the source {contents.counts()}")
    if copied != contents:
        differing = [n for n in copied.counts() if getattr(copied, n) != getattr(contents, n)]
        raise CopyMismatch(f"the copy differs from the source in: {', '.join(differing)}")
    problems = await asyncio.to_thread(replay_problems, copied.games, copied)
    if problems:
        raise CopyMismatch("; ".join(problems[:3]))
    return CopyReport(copied.counts(), len(copied.games))
