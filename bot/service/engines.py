"""Live engines for the service: the cache, the replay process and the moves thread.

A game's engine is always rebuildable from its moves table, so the service keeps a bounded
cache of them (:class:`EngineCache`).  A cold engine is replayed in a worker process, never on
the event loop, and never inside a transaction (:func:`warms_engines`); a move that may search
(Naked Diagonal) is played on one thread of its own (:func:`play_off_loop`).
"""

from __future__ import annotations

import ast
import asyncio
import functools
import signal
import sys
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextvars import ContextVar
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from ai.lifetime import spawn_pool
from rules import Game, MoveRecord, new_game

from ..store import GameRow, Tx
from .convert import pie_of

T = TypeVar("T")

ENGINE_CACHE_SIZE = 1024

_DEFER_COLD: ContextVar[bool] = ContextVar("crosspath_defer_cold_engines", default=False)
COLD_RETRIES = 3
"""Attempts that leave the transaction to replay; after them the replay runs inside it."""


class ColdEngines(Exception):
    """Raised inside a transaction by :meth:`EngineCache._engine` when games must be replayed:
    :func:`warms_engines` catches it after the transaction rolled back, replays off the loop
    and outside the store's lock, and runs the method again (its engines now warm)."""

    def __init__(self, games: list[tuple[GameRow, list[str]]]) -> None:
        super().__init__(f"{len(games)} cold engines")
        self.games = games


class Warms(Protocol):
    """What :func:`warms_engines` needs of the object whose method it wraps."""

    async def warm(self, cold: ColdEngines) -> None: ...


S = TypeVar("S", bound=Warms)
P = ParamSpec("P")


def warms_engines(
    method: Callable[Concatenate[S, P], Awaitable[T]],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, T]]:
    """Run a service method so that cold replays happen between attempts, not inside them.

    Why: a replay can take a second, and inside a transaction it would hold the store (on
    SQLite, every other command of the process) for that long.  The method runs with cold
    engines raised; each time, the rolled-back attempt's games are replayed on a thread and
    the method runs again.  The method must change nothing before it reads its engines
    (every service method reads first, then writes in the same transaction).
    """

    async def wrapper(self: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
        for _ in range(COLD_RETRIES):
            token = _DEFER_COLD.set(True)
            try:
                return await method(self, *args, **kwargs)
            except ColdEngines as cold:
                await self.warm(cold)
            finally:
                _DEFER_COLD.reset(token)
        token = _DEFER_COLD.set(False)  # the game keeps changing: replay in place this time
        try:
            return await method(self, *args, **kwargs)
        finally:
            _DEFER_COLD.reset(token)

    functools.update_wrapper(wrapper, method)
    return wrapper


_REPLAY_LOCK = threading.Lock()
_replays: ProcessPoolExecutor | None = None
_REPLAY_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="crosspath-replay")


def ignore_interrupts() -> None:
    """Worker initializer: leave Ctrl-C to the parent.

    A terminal sends SIGINT to the whole process group, so a worker would otherwise die with a
    ``KeyboardInterrupt`` traceback of its own while the parent (bot or console) is already
    shutting down in order; the parent stops its workers itself.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _replay_pool() -> ProcessPoolExecutor:
    """The one worker process cold games are replayed in, started on first use.

    Why a process: a replay of a long Naked Diagonal game allocates enough for Python's full
    garbage collections to run, and a full collection holds the GIL for tens of milliseconds
    (71 ms measured after a restart in ``bench/interaction_latency.py``), stalling the event
    loop whatever thread the replay runs on.  In its own process the replay's garbage, and
    the area solver's warm caches, never touch the bot's heap.  Started like the computer's
    pool (:func:`ai.lifetime.spawn_pool`): never forked from a process that runs threads, and
    ended with the bot however it ends.
    """
    global _replays
    with _REPLAY_LOCK:
        if _replays is None:
            _replays = spawn_pool(1, also=ignore_interrupts)
        return _replays


def stop_replays() -> None:
    """End the replay process and wait for it (blocking: call it off the event loop).

    Why: a worker the process started is joined when the process exits, so a process that
    never stopped it (a ``multiprocessing`` child that used the service) waited for it
    forever.  Replays already submitted finish first; the next cold game starts a new worker.
    """
    global _replays
    with _REPLAY_LOCK:
        pool, _replays = _replays, None
    if pool is not None:
        pool.shutdown(wait=True)


def _is_main_test(test: ast.expr) -> bool:
    """Whether ``test`` is ``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    sides = [test.left, test.comparators[0]]
    names = [side for side in sides if isinstance(side, ast.Name) and side.id == "__name__"]
    mains = [side for side in sides if isinstance(side, ast.Constant) and side.value == "__main__"]
    return isinstance(test.ops[0], ast.Eq) and bool(names) and bool(mains)


@functools.cache
def _main_runs_again() -> bool:
    """Whether a spawned worker would run the main script's top-level code again.

    A ``spawn`` worker imports the parent's main script (as ``__mp_main__``) before it takes
    any work, so a script without an ``if __name__ == "__main__"`` guard would run itself a
    second time in the replay worker.  Such a script gets its replays on the replay thread
    instead: slower for a long Naked Diagonal game, never wrong.  A main that cannot be read
    (an interactive session, ``-c``) is not imported by the worker at all.
    """
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    if path is None:
        return False
    try:
        with open(path, encoding="utf-8") as source:
            tree = ast.parse(source.read())
    except (OSError, SyntaxError, ValueError):
        return False
    return not any(isinstance(node, ast.If) and _is_main_test(node.test) for node in tree.body)


async def replay_off_loop(
    name: str, size: int, moves: Sequence[str], pie: bool | None = None
) -> Game:
    """:func:`replay` in the replay process; on the replay thread if that process is lost.

    A main script without a ``__main__`` guard replays on the thread (:func:`_main_runs_again`).
    A worker that dies (killed, out of memory) breaks the pool; the pool is dropped so the
    next replay starts a fresh one, and this replay runs on a thread instead of failing.
    """
    global _replays
    loop = asyncio.get_running_loop()
    if _main_runs_again():
        return await loop.run_in_executor(_REPLAY_THREAD, replay, name, size, moves, pie)
    pool = _replay_pool()
    try:
        return await loop.run_in_executor(pool, replay, name, size, list(moves), pie)
    except BrokenProcessPool:
        with _REPLAY_LOCK:
            if _replays is pool:
                _replays = None
        return await loop.run_in_executor(_REPLAY_THREAD, replay, name, size, moves, pie)


_MOVE_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="crosspath-moves")
"""The thread moves of games with a ``costly_play`` engine are played on.

One thread, so Naked Diagonal's area solver (one per thread, with its memo) stays warm from
move to move, as it would on the event loop.  A move is played on a copy of the cached engine
(see ``ServiceCore._game_action``), so nothing on the loop ever reads it half played.
"""


async def play_off_loop(game: Game, move: str) -> MoveRecord:
    """``game.play(move)`` where it cannot stall the event loop when the engine may search."""
    if not game.costly_play:
        return game.play(move)
    return await asyncio.get_running_loop().run_in_executor(_MOVE_THREAD, game.play, move)


def replay(name: str, size: int, moves: Sequence[str], pie: bool | None = None) -> Game:
    """A fresh engine with ``moves`` played (pure: safe on any thread); ``pie`` as for
    :func:`rules.new_game`."""
    game = new_game(name, size, pie=pie)
    for move in moves:
        game.play(move)
    return game


class EngineCache:
    """The service's live engines by game id, each at the version of the row it was built for,
    the least recently used dropped beyond :data:`ENGINE_CACHE_SIZE`."""

    def __init__(self) -> None:
        self._engines: OrderedDict[int, tuple[int, Game]] = OrderedDict()

    def _cached(self, row: GameRow) -> Game | None:
        cached = self._engines.get(row.id)
        if cached is not None and cached[0] == row.version:
            self._engines.move_to_end(row.id)
            return cached[1]
        return None

    async def _engine(self, tx: Tx, row: GameRow) -> Game:
        """The live engine at ``row``'s version: cached, else replayed from the moves table.

        A replay runs in the replay process: a cold Naked Diagonal 13×13 takes about a second,
        which must never stall the event loop that serves every other command.  Inside a
        method marked :func:`warms_engines` a cold engine is not replayed here but raised as
        :class:`ColdEngines`, so the transaction ends (freeing the store for everyone else)
        before the replay starts.
        """
        game = self._cached(row)
        if game is not None:
            return game
        moves = [stored.move for stored in await tx.games.moves(row.id)]
        if not moves:
            game = new_game(row.game, row.size, pie=pie_of(row.options))
        elif _DEFER_COLD.get():
            raise ColdEngines([(row, moves)])
        else:
            game = await replay_off_loop(row.game, row.size, moves, pie_of(row.options))
        self._remember(row.id, row.version, game)
        return game

    async def _engines_for(self, tx: Tx, rows: Sequence[GameRow]) -> list[Game]:
        """Engines for many rows, with every cold one gathered into one ColdEngines."""
        cold = [row for row in rows if self._cached(row) is None]
        if cold and _DEFER_COLD.get():
            missing = [(row, [m.move for m in await tx.games.moves(row.id)]) for row in cold]
            replays = [(row, moves) for row, moves in missing if moves]
            if replays:
                raise ColdEngines(replays)
        return [await self._engine(tx, row) for row in rows]

    async def warm(self, cold: ColdEngines) -> None:
        """Replay what ``cold`` lists in the replay process, outside any transaction."""
        jobs = [(row.game, row.size, moves, pie_of(row.options)) for row, moves in cold.games]
        games = [await replay_off_loop(*job) for job in jobs]
        for (row, _), game in zip(cold.games, games, strict=True):
            self._remember(row.id, row.version, game)

    def _remember(self, game_id: int, version: int, game: Game) -> None:
        self._engines[game_id] = (version, game)
        self._engines.move_to_end(game_id)
        while len(self._engines) > ENGINE_CACHE_SIZE:
            self._engines.popitem(last=False)

    def forget_engines(self) -> None:
        """Drop cached engines (they are rebuilt from the moves table on next use)."""
        self._engines.clear()
