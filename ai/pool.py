"""Thinking off the event loop: searches run in a shared process pool.

The search is CPU-bound pure Python, so a thread would still hold the GIL and freeze the
Discord gateway heartbeat.  Workers receive the game's text record (small, picklable, and
already validated by the rules engine) and send back the move as text.  Workers are started
with ``spawn`` so a pool created from inside a running bot never forks its threads, and they
end with the bot however it ends (:mod:`ai.lifetime`).
"""

from __future__ import annotations

import asyncio
import threading
import zlib
from concurrent.futures import Executor, ProcessPoolExecutor

from rules import Game, parse_record

from .levels import Level, parse_level, placement_budget
from .lifetime import spawn_pool
from .pie import pie_search
from .search import Budget, SearchResult
from .solver import PROOF_LEVEL, losing_side_move, proof_move

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def get_pool(max_workers: int = 1) -> ProcessPoolExecutor:
    """The shared pool, started on first use.  One worker by default: a small bot host rarely
    has cores to spare, and searches queue fairly in submission order."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = spawn_pool(max_workers)  # its workers end with this process
        return _pool


def shutdown(wait: bool = True) -> None:
    """Stop the shared pool (call from the bot's or console's shutdown path); safe to repeat."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=wait, cancel_futures=True)


def move_seed(seed: int | None, record: str) -> int | None:
    """A per-position seed, so one game seed gives different but reproducible moves."""
    if seed is None:
        return None
    return zlib.crc32(f"{seed}|{record}".encode())


def think(
    game: Game,
    level: int | str | Level | None = None,
    seed: int | None = None,
    budget: Budget | None = None,
) -> SearchResult:
    """The full search result for the player to move (used by the sync and async APIs).

    ``budget`` (default: the level's on this board) is for the whole turn: a placement in a
    Clear Path chain gets its share (:func:`ai.levels.placement_budget`).  On a board solved
    in ai/solved/, levels from :data:`ai.solver.PROOF_LEVEL` up play the proof's move when
    they are the proven winner, and the move whose proof is largest when they are the proven
    loser (docs/solved.md).  Where the pie rule's swap is on offer, the search decides it
    (:mod:`ai.pie`)."""
    chosen = parse_level(level)
    if chosen.number >= PROOF_LEVEL:
        move = proof_move(game)
        if move is not None:
            return SearchResult(move, 0, 0.0, 1.0, 1, "solved board")
        move = losing_side_move(game)
        if move is not None:
            return SearchResult(move, 0, 0.0, 0.0, -1, "solved board, losing side")
    turn = budget or chosen.budget_for(game.name, game.size)
    return pie_search(
        game,
        placement_budget(turn, game),
        seed=move_seed(seed, game.record()),
        config=chosen.config,
    )


def think_from_record(
    record: str, level: int | str | None, seed: int | None, budget: Budget | None
) -> SearchResult:
    """Worker entry point: rebuild the game from its record and search."""
    return think(parse_record(record), level, seed, budget)


def _checked_game(record: str) -> Game:
    game = parse_record(record)
    if game.is_over:
        raise ValueError("the game is over: there is no move to choose")
    return game


async def ai_result(
    record: str,
    level: int | str | None = None,
    seed: int | None = None,
    budget: Budget | None = None,
    executor: Executor | None = None,
) -> SearchResult:
    """Search in the pool without blocking the event loop; bad input fails here, at once."""
    _checked_game(record)
    parse_level(level)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(
        executor or get_pool(), think_from_record, record, level, seed, budget
    )


async def ai_move(
    record: str,
    level: int | str | None = None,
    seed: int | None = None,
    budget: Budget | None = None,
    executor: Executor | None = None,
) -> str:
    """The move (as text for ``Game.play``) the AI chooses for the player to move in ``record``.

    Raises :class:`rules.InvalidRecord` for a bad record, ValueError for a finished game or
    an unknown level, before anything is sent to the pool.
    """
    result = await ai_result(record, level, seed, budget, executor)
    return result.move
