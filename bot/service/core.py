"""The service's shared machinery: time, the engine cache, transactions, and the checks
every player action shares.  The concerns (challenges, play, clocks, moderation, queries) are
mixins over :class:`ServiceCore`, put together as ``GameService``."""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import random
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

from rules import Game, MoveRecord, new_game

from ..store import (
    ClockRow,
    GameRow,
    ResultRow,
    Store,
    Tx,
    WriteConflict,
)
from . import convert
from .checks import (
    check_id,
    check_optional_id,
    check_version,
)
from .convert import to_us
from .errors import (
    GameFinished,
    NoGameHere,
    NotAPlayer,
    OutOfTime,
    StaleAction,
)
from .rating_apply import rate_result
from .types import (
    GameEnded,
    ResultReason,
    Seat,
    TimeControl,
)

T = TypeVar("T")

ENGINE_CACHE_SIZE = 1024
_ENDING_WORDS = {
    "connection": "won",
    "draw": "drawn",
    "resign": "resigned",
    "time": "lost on time",
    "abort": "aborted",
    "award": "awarded",
    "forfeit": "forfeited",
}


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class _Timeout:
    """Marker: the player to move had run out of time; the loss was recorded instead."""

    ended: GameEnded


_DEFER_COLD: ContextVar[bool] = ContextVar("crosspath_defer_cold_engines", default=False)
COLD_RETRIES = 3
"""Attempts that leave the transaction to replay; after them the replay runs inside it."""


class ColdEngines(Exception):
    """Raised inside a transaction by :meth:`ServiceCore._engine` when games must be replayed:
    :func:`warms_engines` catches it after the transaction rolled back, replays off the loop
    and outside the store's lock, and runs the method again (its engines now warm)."""

    def __init__(self, games: list[tuple[GameRow, list[str]]]) -> None:
        super().__init__(f"{len(games)} cold engines")
        self.games = games


S = TypeVar("S", bound="ServiceCore")
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


def _replay_pool() -> ProcessPoolExecutor:
    """The one worker process cold games are replayed in, started on first use.

    Why a process: a replay of a long Naked Diagonal game allocates enough for Python's full
    garbage collections to run, and a full collection holds the GIL for tens of milliseconds
    (71 ms measured after a restart in ``bench/interaction_latency.py``), stalling the event
    loop whatever thread the replay runs on.  In its own process the replay's garbage, and
    the area solver's warm caches, never touch the bot's heap.  ``spawn``, like the
    computer's pool, so the pool never forks a process that runs threads.
    """
    global _replays
    with _REPLAY_LOCK:
        if _replays is None:
            _replays = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        return _replays


async def replay_off_loop(name: str, size: int, moves: Sequence[str]) -> Game:
    """:func:`replay` in the replay process; on the replay thread if that process is lost.

    A worker that dies (killed, out of memory) breaks the pool; the pool is dropped so the
    next replay starts a fresh one, and this replay runs on a thread instead of failing.
    """
    global _replays
    loop = asyncio.get_running_loop()
    pool = _replay_pool()
    try:
        return await loop.run_in_executor(pool, replay, name, size, list(moves))
    except BrokenProcessPool:
        with _REPLAY_LOCK:
            if _replays is pool:
                _replays = None
        return await loop.run_in_executor(_REPLAY_THREAD, replay, name, size, moves)


_MOVE_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="crosspath-moves")
"""The thread moves of games with a ``costly_play`` engine are played on.

One thread, so Naked Diagonal's area solver (one per thread, with its memo) stays warm from
move to move, as it would on the event loop.  A move is played on a copy of the cached engine
(see :meth:`ServiceCore._game_action`), so nothing on the loop ever reads it half played.
"""


async def play_off_loop(game: Game, move: str) -> MoveRecord:
    """``game.play(move)`` where it cannot stall the event loop when the engine may search."""
    if not game.costly_play:
        return game.play(move)
    return await asyncio.get_running_loop().run_in_executor(_MOVE_THREAD, game.play, move)


def replay(name: str, size: int, moves: Sequence[str]) -> Game:
    """A fresh engine with ``moves`` played (pure: safe on any thread)."""
    game = new_game(name, size)
    for move in moves:
        game.play(move)
    return game


def clock_row(tc: TimeControl, started: int) -> ClockRow:
    """Deadline and first reminder for a turn that started at ``started`` (microseconds)."""
    deadline = None if tc.per_move is None else started + tc.per_move * 1_000_000
    return ClockRow(started, deadline, next_reminder(tc, started, deadline, 0))


def next_reminder(tc: TimeControl, started: int, deadline: int | None, sent: int) -> int | None:
    """When reminder number ``sent`` is due (None when no further reminder comes first)."""
    for index, after in enumerate(sorted(tc.reminders)):
        if index < sent:
            continue
        at = started + after * 1_000_000
        if deadline is None or at < deadline:
            return at
    return None


class ServiceCore:
    """State shared by every part of the service: the store, the clock, the RNG and the
    engine cache."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.clock = clock or utc_now
        self.rng = rng or random.Random()
        self._engines: OrderedDict[int, tuple[int, Game]] = OrderedDict()

    # ----- internals: time, engines --------------------------------------------------------
    def _now(self) -> datetime:
        now = self.clock()
        return now if now.tzinfo is not None else now.replace(tzinfo=UTC)

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
        moves = [stored.move for stored in await tx.moves(row.id)]
        if not moves:
            game = new_game(row.game, row.size)
        elif _DEFER_COLD.get():
            raise ColdEngines([(row, moves)])
        else:
            game = await replay_off_loop(row.game, row.size, moves)
        self._remember(row.id, row.version, game)
        return game

    async def _engines_for(self, tx: Tx, rows: Sequence[GameRow]) -> list[Game]:
        """Engines for many rows, with every cold one gathered into one ColdEngines."""
        cold = [row for row in rows if self._cached(row) is None]
        if cold and _DEFER_COLD.get():
            missing = [(row, [m.move for m in await tx.moves(row.id)]) for row in cold]
            replays = [(row, moves) for row, moves in missing if moves]
            if replays:
                raise ColdEngines(replays)
        return [await self._engine(tx, row) for row in rows]

    async def warm(self, cold: ColdEngines) -> None:
        """Replay what ``cold`` lists in the replay process, outside any transaction."""
        jobs = [(row.game, row.size, moves) for row, moves in cold.games]
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

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        """A store write transaction whose version conflicts reach players as StaleAction."""
        try:
            async with self.store.write() as tx:
                yield tx
        except WriteConflict as exc:
            raise StaleAction("The game changed while you acted; look again and retry.") from exc

    async def _active_row(self, tx: Tx, channel_id: int) -> GameRow:
        row = await tx.active_game_in(channel_id)
        if row is not None:
            return row
        latest = await tx.latest_game_in(channel_id)
        if latest is not None:
            word = _ENDING_WORDS.get(latest.result_reason or "", "over")
            raise GameFinished(f"The game in this channel is over ({word}); start a new one.")
        raise NoGameHere("There is no game in this channel.")

    @warms_engines
    async def _game_action(
        self,
        channel_id: int,
        user_id: int,
        expected_version: int | None,
        action: Callable[[Tx, GameRow, Game, datetime], Awaitable[tuple[GameRow, T]]],
        game_id: int | None = None,
        *,
        on_copy: bool = False,
    ) -> T:
        """Run a player's action in one write transaction, with the checks every action shares.

        ``game_id`` binds the action to the game it was made against: an action from a button
        or a computer search that read an earlier game in the channel is refused as stale,
        even when its ``expected_version`` matches the channel's new game.  A player whose
        clock ran out loses on time before anything else happens; that loss is committed and
        then reported as :class:`OutOfTime`.

        With ``on_copy`` the action gets a copy of the cached engine, which becomes the cached
        one only once the transaction commits: an action that awaits while the engine changes
        (a move played on another thread) never shows readers a position half played.
        """
        check_id(channel_id, "channel id")
        check_id(user_id, "user id")
        check_version(expected_version)
        check_optional_id(game_id, "game id")
        now = self._now()
        outcome: T | _Timeout
        game: Game | None = None
        plies = 0
        try:
            async with self._write() as tx:
                row = await self._active_row(tx, channel_id)
                if game_id is not None and row.id != game_id:
                    raise StaleAction(
                        "That was for an earlier game in this channel, which has ended. "
                        "Look at the latest board."
                    )
                game = await self._engine(tx, row)
                if on_copy:
                    game = game.copy()
                plies = len(game.history)
                pair = convert.seats(row, game)
                if user_id not in (pair[0].user_id, pair[1].user_id):
                    raise NotAPlayer("You are not playing in this game.")
                if expected_version is not None and expected_version != row.version:
                    raise StaleAction(
                        "That button is out of date: the game has moved on since. "
                        "Look at the latest board."
                    )
                if row.deadline_at is not None and to_us(now) >= row.deadline_at:
                    loser = convert.user_of(pair, game.to_move)
                    assert loser is not None
                    row, ended = await self._finish(tx, row, game, "time", now, loser_id=loser)
                    outcome = _Timeout(ended)
                else:
                    row, outcome = await action(tx, row, game, now)
        except BaseException:
            # A refusal leaves the engine untouched; anything else after a change to it
            # (a failed commit, a cancelled task) must not leave a cached engine ahead of the db.
            if game is not None and not on_copy and len(game.history) != plies:
                self._engines.pop(row.id, None)
            raise
        self._remember(row.id, row.version, game)
        if isinstance(outcome, _Timeout):
            raise OutOfTime(
                "Time ran out before that: the player to move has lost on time.",
                outcome.ended,
            )
        return outcome

    async def _finish(
        self,
        tx: Tx,
        row: GameRow,
        game: Game,
        reason: ResultReason,
        now: datetime,
        *,
        winner_id: int | None = None,
        loser_id: int | None = None,
        actor_id: int | None = None,
        detail: str = "",
    ) -> tuple[GameRow, GameEnded]:
        """Record a result that did not come from a move (resign, time, moderation)."""
        pair = convert.seats(row, game)
        ids = (pair[0].user_id, pair[1].user_id)
        if winner_id is None and loser_id is not None:
            winner_id = ids[1] if loser_id == ids[0] else ids[0]
        if loser_id is None and winner_id is not None:
            loser_id = ids[1] if winner_id == ids[0] else ids[0]
        stamp = to_us(now)
        result = ResultRow(
            status="aborted" if reason == "abort" else "finished",
            reason=reason,
            winner_id=winner_id,
            winner_colour=colour_of(pair, winner_id),
            loser_id=loser_id,
            loser_colour=colour_of(pair, loser_id),
            actor_id=actor_id,
        )
        result, rating = await rate_result(tx, row, game, result, stamp)
        row = await tx.finish_game(row, result, at=stamp)
        await tx.add_event(row.id, stamp, reason, actor_id if actor_id else loser_id, detail)
        info = convert.game_info(row, game)
        assert info.result is not None
        return row, GameEnded(info, info.result, rating)


def time_control_of(row: GameRow) -> TimeControl:
    return TimeControl(row.per_move, tuple(row.reminders))


def other_player(pair: Sequence[Seat], user_id: int) -> int:
    a, b = pair[0].user_id, pair[1].user_id
    return b if user_id == a else a


def colour_of(pair: Sequence[Seat], user_id: int | None) -> str | None:
    for seat in pair:
        if seat.user_id == user_id:
            return seat.colour
    return None


def engine_sentence(text: str) -> str:
    """The engine's own words, trimmed (they start with point names, so no capitalising)."""
    return text.strip()
