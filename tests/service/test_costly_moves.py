"""Moves of games whose engine may search (Naked Diagonal) are played off the event loop, on a copy.

Why: a Naked Diagonal move computes the next player's legal placements, an exact search that
usually takes milliseconds but once took minutes (the knot in docs/naked-diagonal.md).  On the
event loop that would freeze every server the process serves.  The move is played on the
service's moves thread, on a copy of the cached engine that replaces it only once the
transaction commits, so a reader never sees a position half played and a refused, failed or
cancelled move leaves the cached engine as it was.

``play`` is wrapped here: the real ``play`` runs, then the moves thread is held until the test
lets it go, as if the search that follows a placement were still running.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from game_fixtures import CHANNEL, StartGame

from bot.service import GameService, IllegalMoveError
from rules import MoveRecord
from rules.minefield import Minefield
from rules.nakeddiagonal import NakedDiagonal

Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]


class HeldPlay:
    """Wraps a game class's ``play``: records the thread, plays, then waits for ``release``
    before returning, like a long search that has placed the stone and is still computing."""

    def __init__(self, cls: type[Any]) -> None:
        self.real: Callable[[Any, str], MoveRecord] = cls.play
        self.threads: list[str] = []
        self.entered = threading.Event()
        self.release = threading.Event()

    def __call__(self, game: Any, move: str) -> MoveRecord:
        self.threads.append(threading.current_thread().name)
        record = self.real(game, move)  # the engine has changed; the call has not returned yet
        self.entered.set()
        if not self.release.wait(30):
            raise TimeoutError("the test never released the move")
        return record

    def method(self) -> Callable[[Any, str], MoveRecord]:
        """A plain function to set on the class (an instance there would not bind ``self``)."""

        def play(game: Any, move: str) -> MoveRecord:
            return self(game, move)

        return play


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldPlay]:
    hold = HeldPlay(NakedDiagonal)
    monkeypatch.setattr(NakedDiagonal, "play", hold.method())
    yield hold
    hold.release.set()  # never leave the moves thread waiting after a failed test


async def _loop_stall_while(event: threading.Event) -> float:
    """The longest a 5 ms sleep overslept until ``event`` was set (the loop's worst stall)."""
    worst = 0.0
    loop = asyncio.get_running_loop()
    while not event.is_set():
        before = loop.time()
        await asyncio.sleep(0.005)
        worst = max(worst, loop.time() - before - 0.005)
    return worst


async def test_a_naked_diagonal_move_is_played_off_the_loop_and_readers_see_it_whole(
    service: GameService, start_game: StartGame, held: HeldPlay
) -> None:
    info = await start_game("nakeddiagonal", 7)
    held.release.set()
    first = await service.play_move(CHANNEL, info.user_of("red"), "b2")  # warms the cache
    held.release.clear()
    held.entered.clear()
    held.threads.clear()
    before = first.game

    moving = asyncio.ensure_future(service.play_move(CHANNEL, info.user_of("blue"), "e5"))
    await asyncio.to_thread(held.entered.wait, 30)
    assert held.threads == ["crosspath-moves_0"]
    reading = asyncio.ensure_future(service.get_game(CHANNEL))
    # The loop runs on while the move is held: a probe measures it for a while.
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    assert await _loop_stall_while(stop) < 0.1
    held.release.set()
    played = await moving
    seen = await reading
    assert played.game.moves == ("b2", "e5") and played.game.version == before.version + 1
    # PostgreSQL lets the read through during the move, SQLite queues it behind the write;
    # either way the reader sees one whole position, consistent with its row's version.
    assert seen is not None
    assert (seen.version, seen.moves) in {
        (before.version, ("b2",)),
        (played.game.version, ("b2", "e5")),
    }
    after = await service.get_game(CHANNEL)
    assert (
        after is not None and after.moves == ("b2", "e5") and after.version == played.game.version
    )


async def test_a_refused_move_off_the_loop_changes_nothing(
    service: GameService, start_game: StartGame, held: HeldPlay, snapshot: Snapshot
) -> None:
    info = await start_game("nakeddiagonal", 5)
    held.release.set()
    await service.play_move(CHANNEL, info.user_of("red"), "b2")
    await service.play_move(CHANNEL, info.user_of("blue"), "d4")
    stored = snapshot()
    with pytest.raises(IllegalMoveError, match="naked diagonal"):
        await service.play_move(CHANNEL, info.user_of("red"), "c3")  # naked with b2
    assert snapshot() == stored
    result = await service.play_move(CHANNEL, info.user_of("red"), "b3")
    assert result.game.moves == ("b2", "d4", "b3")
    assert held.threads and set(held.threads) == {"crosspath-moves_0"}


async def test_a_cancelled_move_leaves_the_game_and_its_cached_engine_as_they_were(
    service: GameService, start_game: StartGame, held: HeldPlay, snapshot: Snapshot
) -> None:
    info = await start_game("nakeddiagonal", 7)
    held.release.set()
    await service.play_move(CHANNEL, info.user_of("red"), "b2")
    held.release.clear()
    held.entered.clear()
    stored = snapshot()
    moving = asyncio.ensure_future(service.play_move(CHANNEL, info.user_of("blue"), "e5"))
    await asyncio.to_thread(held.entered.wait, 30)
    moving.cancel()  # a shutdown, or the interaction's task torn down
    with pytest.raises(asyncio.CancelledError):
        await moving
    held.release.set()  # the thread finishes the move on a copy nobody keeps
    await asyncio.sleep(0.05)
    assert snapshot() == stored
    now = await service.get_game(CHANNEL)
    assert now is not None and now.moves == ("b2",)
    again = await service.play_move(CHANNEL, info.user_of("blue"), "e5")
    assert again.game.moves == ("b2", "e5")


async def test_cheap_engines_play_on_the_loop_without_a_thread_hop(
    service: GameService, start_game: StartGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    hold = HeldPlay(Minefield)
    hold.release.set()
    monkeypatch.setattr(Minefield, "play", hold.method())
    info = await start_game("minefield", 5)
    await service.play_move(CHANNEL, info.user_of("black"), "c3")
    assert hold.threads == [threading.current_thread().name]
