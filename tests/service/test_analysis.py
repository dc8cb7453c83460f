"""Stored analyses (issue 48) on every engine: computed once however many ask, refused for a
running or hidden game with nothing written, nothing half-stored after a crash, and reused
across services over the same store."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB, CAROL, CHANNEL, GUILD, FakeClock, Snapshot, StartGame, refused

from ai.analysis import Settings
from bot.service import (
    MAX_PER_PLAYER,
    MAX_PER_SERVER,
    AnalysisReady,
    AnalysisRefused,
    GameInfo,
    GameService,
    PermissionDenied,
    StoredAnalysis,
    Viewer,
)
from bot.service.analysis.service import IN_FLIGHT
from bot.service.convert import to_us
from bot.store import AnalysisRow, open_store

SMALL = Settings(playouts=30, solve_nodes=2_000)
"""A small budget: the tests check the bookkeeping, not the figures."""
MOVES = ("a1", "b1", "a2", "b2", "a3", "b3")


class CountingExecutor(Executor):
    """Threads that count the positions handed to them (each is one judgement)."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.threads = ThreadPoolExecutor(2)
        self.count = 0
        self.fail_at = fail_at
        self.outstanding = 0
        self.most_outstanding = 0
        self._lock = threading.Lock()

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.count += 1
        if self.fail_at is not None and self.count >= self.fail_at:
            raise RuntimeError("the worker process died")
        with self._lock:
            self.outstanding += 1
            self.most_outstanding = max(self.most_outstanding, self.outstanding)
        future = self.threads.submit(fn, *args, **kwargs)
        future.add_done_callback(self._finished)
        return future

    def _finished(self, _: Future[Any]) -> None:
        with self._lock:
            self.outstanding -= 1

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.threads.shutdown(wait, cancel_futures=cancel_futures)


@pytest.fixture
def executor() -> Any:
    pool = CountingExecutor()
    yield pool
    pool.shutdown()


async def finished_game(service: GameService, start_game: StartGame, **where: Any) -> int:
    """A 5×5 Minefield game of a few moves, then resigned (an ending off the board)."""
    info: GameInfo = await start_game("minefield", 5, **where)
    channel = where.get("channel", CHANNEL)
    for move in MOVES:
        mover = (await service.get_game_by_id(info.id)).to_move_id
        assert mover is not None
        await service.play_move(channel, mover, move)
    mover = (await service.get_game_by_id(info.id)).to_move_id
    assert mover is not None
    await service.resign(channel, mover)
    return info.id


def alice(sees: bool = False) -> Viewer:
    return Viewer(ALICE, GUILD, sees)


async def test_an_analysis_is_computed_once_and_stored(
    service: GameService, start_game: StartGame, executor: CountingExecutor
) -> None:
    game_id = await finished_game(service, start_game)
    ready: list[AnalysisReady] = []
    service.events.subscribe(AnalysisReady, ready.append)
    seen: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        seen.append((done, total))

    assert await service.analysis.stored(game_id, alice()) is None
    first = await service.analysis.analyse(
        game_id, alice(), claimant="p1", executor=executor, progress=progress, settings=SMALL
    )
    # Six plies, resigned: the position before each ply and the final one.
    assert executor.count == 7
    assert seen == [(n, 7) for n in range(1, 8)]
    # Handed over a few at a time, so a computer's move asked for meanwhile is not queued
    # behind the whole game.
    assert executor.most_outstanding == IN_FLIGHT
    assert [m.move for m in first.analysis.moves] == list(MOVES)
    assert first.playouts == SMALL.playouts
    assert [(e.game_id, e.requester_id) for e in ready] == [(game_id, ALICE)]
    again = await service.analysis.analyse(
        game_id, Viewer(BOB, GUILD), claimant="p2", executor=executor, settings=SMALL
    )
    assert executor.count == 7 and again == first and len(ready) == 1
    assert await service.analysis.stored(game_id, alice()) == first


async def test_racing_requests_compute_once(
    store_target: str | Path, service: GameService, start_game: StartGame, clock: FakeClock
) -> None:
    game_id = await finished_game(service, start_game)
    executor = CountingExecutor()
    try:
        async with await open_store(store_target) as other_store:
            other = GameService(other_store, clock=clock)
            results = await asyncio.gather(
                service.analysis.analyse(
                    game_id, alice(), claimant="p1", executor=executor, settings=SMALL
                ),
                other.analysis.analyse(
                    game_id, Viewer(BOB, GUILD), claimant="p2", executor=executor, settings=SMALL
                ),
                service.analysis.analyse(
                    game_id,
                    Viewer(CAROL, GUILD, True),
                    claimant="p1",
                    executor=executor,
                    settings=SMALL,
                ),
            )
    finally:
        executor.shutdown()
    assert executor.count == 7
    assert results[0] == results[1] == results[2]


async def test_a_running_game_is_refused_and_nothing_written(
    service: GameService, start_game: StartGame, snapshot: Snapshot, executor: CountingExecutor
) -> None:
    info = await start_game("minefield", 5)
    await service.play_move(CHANNEL, info.to_move_id or 0, "c3")
    await refused(
        snapshot,
        AnalysisRefused,
        service.analysis.analyse(info.id, alice(), claimant="p1", executor=executor),
        "still being played",
    )
    await refused(
        snapshot, AnalysisRefused, service.analysis.stored(info.id, alice()), "still being played"
    )
    assert executor.count == 0


async def test_a_game_the_caller_may_not_see_is_refused(
    service: GameService, start_game: StartGame, snapshot: Snapshot, executor: CountingExecutor
) -> None:
    game_id = await finished_game(service, start_game)
    for viewer in (Viewer(CAROL, GUILD), Viewer(ALICE, GUILD + 1, True)):
        await refused(
            snapshot,
            PermissionDenied,
            service.analysis.analyse(game_id, viewer, claimant="p1", executor=executor),
            "can't see",
        )
    assert executor.count == 0


async def test_a_crash_mid_analysis_leaves_nothing_half_stored(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    game_id = await finished_game(service, start_game)
    before = snapshot()
    failing = CountingExecutor(fail_at=4)
    try:
        with pytest.raises(RuntimeError, match="died"):
            await service.analysis.analyse(
                game_id, alice(), claimant="p1", executor=failing, settings=SMALL
            )
    finally:
        failing.shutdown()
    assert snapshot() == before  # the claim was dropped with nothing stored
    executor = CountingExecutor()
    try:
        done = await service.analysis.analyse(
            game_id, alice(), claimant="p1", executor=executor, settings=SMALL
        )
    finally:
        executor.shutdown()
    assert executor.count == 7 and len(done.analysis.moves) == len(MOVES)


async def test_a_dead_process_claim_lapses_and_a_new_service_recomputes(
    store_target: str | Path,
    service: GameService,
    start_game: StartGame,
    clock: FakeClock,
    executor: CountingExecutor,
) -> None:
    """A process that died mid-analysis left its claim: until it lapses the game's analysis
    counts against the queue; after it, a new service over the same store computes it."""
    game_id = await finished_game(service, start_game)
    info = await service.get_game_by_id(game_id)
    now = to_us(clock())
    async with service.store.write() as tx:
        assert await tx.analysis.claim(
            AnalysisRow(
                game_id,
                info.version,
                GUILD,
                ALICE,
                "running",
                30,
                0,
                "dead/1",
                now + 60_000_000,
                None,
                now,
                None,
            ),
            now,
        )
    clock.advance(seconds=61)
    async with await open_store(store_target) as reopened:
        fresh = GameService(reopened, clock=clock)
        done = await fresh.analysis.analyse(
            game_id, alice(), claimant="p2", executor=executor, settings=SMALL
        )
    assert executor.count == 7
    assert await service.analysis.stored(game_id, Viewer(BOB, GUILD)) == done


async def test_the_queue_limits_refuse_with_a_sentence(
    service: GameService,
    start_game: StartGame,
    clock: FakeClock,
    snapshot: Snapshot,
    executor: CountingExecutor,
) -> None:
    assert MAX_PER_PLAYER == 1 and MAX_PER_SERVER == 2
    games = [await finished_game(service, start_game, channel=CHANNEL + n) for n in range(3)]
    now = to_us(clock())
    async with service.store.write() as tx:  # ALICE's analysis of the first game is running
        version = (await tx.games.game(games[0])).version  # type: ignore[union-attr]
        await tx.analysis.claim(
            AnalysisRow(
                games[0],
                version,
                GUILD,
                ALICE,
                "running",
                30,
                0,
                "other/1",
                now + 60_000_000,
                None,
                now,
                None,
            ),
            now,
        )
    await refused(
        snapshot,
        AnalysisRefused,
        service.analysis.analyse(games[1], alice(), claimant="p1", executor=executor),
        "already have 1 analysis running",
    )
    async with service.store.write() as tx:  # BOB's too: the server has two
        version = (await tx.games.game(games[1])).version  # type: ignore[union-attr]
        await tx.analysis.claim(
            AnalysisRow(
                games[1],
                version,
                GUILD,
                BOB,
                "running",
                30,
                0,
                "other/2",
                now + 60_000_000,
                None,
                now,
                None,
            ),
            now,
        )
    await refused(
        snapshot,
        AnalysisRefused,
        service.analysis.analyse(
            games[2], Viewer(CAROL, GUILD, True), claimant="p1", executor=executor
        ),
        "already has 2 analyses running",
    )
    assert executor.count == 0
    clock.advance(minutes=2)  # both claims lapse: the queue is free again
    done = await service.analysis.analyse(
        games[2], Viewer(CAROL, GUILD, True), claimant="p1", executor=executor, settings=SMALL
    )
    assert isinstance(done, StoredAnalysis) and executor.count == 7
    assert timedelta(0) <= clock() - done.finished_at


async def test_an_aborted_game_is_refused_and_nothing_written(
    service: GameService, start_game: StartGame, snapshot: Snapshot, executor: CountingExecutor
) -> None:
    info = await start_game("minefield", 5)
    await service.play_move(CHANNEL, info.to_move_id or 0, "c3")
    await service.aborts.abort(CHANNEL, ALICE)
    assert (await service.get_game_by_id(info.id)).status == "aborted"
    await refused(
        snapshot,
        AnalysisRefused,
        service.analysis.analyse(info.id, alice(), claimant="p1", executor=executor),
        "was aborted",
    )
    await refused(
        snapshot, PermissionDenied, service.analysis.stored(info.id, Viewer(CAROL, GUILD)),
        "can't see",
    )  # fmt: skip
    assert executor.count == 0


class BlockedExecutor(CountingExecutor):
    """Threads that hold every judgement until :attr:`release` is set: the claims that won
    stay running while the test looks at them."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        def held() -> Any:
            self.release.wait(30)
            return fn(*args, **kwargs)

        self.count += 1
        return self.threads.submit(held)


async def test_racing_requests_for_different_games_keep_the_server_limit(
    store_target: str | Path, service: GameService, start_game: StartGame, clock: FakeClock
) -> None:
    """Many players of one server ask at once, each for another game: the count of running
    analyses and the claim are one step, so exactly MAX_PER_SERVER claims win on every engine
    (on PostgreSQL, a count read before another request's claim commits let them all in)."""
    racers = 8
    games = [await finished_game(service, start_game, channel=CHANNEL + n) for n in range(racers)]
    executor = BlockedExecutor()
    try:
        async with await open_store(store_target) as other_store:
            services = [service, GameService(other_store, clock=clock)]
            tasks = [
                asyncio.ensure_future(
                    services[n % 2].analysis.analyse(
                        game,
                        Viewer(1000 + n, GUILD, True),
                        claimant=f"p{n % 2}",
                        executor=executor,
                        settings=SMALL,
                    )
                )
                for n, game in enumerate(games)
            ]
            for _ in range(400):  # the refusals come back while the winners compute
                if sum(t.done() for t in tasks) >= racers - MAX_PER_SERVER:
                    break
                await asyncio.sleep(0.05)
            refusals = [t for t in tasks if t.done()]
            async with service.store.read() as tx:
                running = await tx.analysis.running(GUILD, 0, to_us(clock()))
            executor.release.set()
            results = await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        executor.release.set()
        executor.shutdown()
    assert running[0] == MAX_PER_SERVER
    assert len(refusals) == racers - MAX_PER_SERVER
    refused_now = [r for r in results if isinstance(r, AnalysisRefused)]
    assert len(refused_now) == racers - MAX_PER_SERVER
    assert all("already has 2 analyses running" in str(r) for r in refused_now)
    assert sum(isinstance(r, StoredAnalysis) for r in results) == MAX_PER_SERVER
