"""A finished game mined for puzzles in a real background process (:mod:`ai.background`) on
every engine, with the event loop's wake-ups staying on time while the solver runs.

On a worker thread (how mining ran before) the solver held the GIL and every wake-up of the
loop waited for it, about ``sys.getswitchinterval()`` (5 ms) each: the probe here saw a median
lateness of 5 to 9 ms there, against well under a millisecond with the process.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import loop_guard as guard
import pytest
from game_fixtures import ALICE, BOB, GUILD

from ai import background
from ai.lifetime import spawn_pool
from ai.puzzles import load_starter, puzzle_id
from bot.service import GameService
from bot.service.puzzles import service as puzzle_service

loop_guard = guard.loop_guard

TICK = 0.005
"""How often the probe asks the loop to wake it (seconds)."""
SOLVER_SECONDS = 4.0
"""The solver time the game may take here (20 s in the bot): long enough to see the loop."""
MEDIAN_LAG = 0.002
"""The median lateness allowed (seconds): under the interpreter's 5 ms switch interval, the
least a wake-up waits for the GIL while a thread of the bot's process computes."""


@pytest.fixture
def mining_pool() -> Iterator[ProcessPoolExecutor]:
    """A real low-priority worker, fresh for each engine: the solver's caches in a worker that
    mined this game once would answer the second time at once, and the probe would see nothing."""
    pool = spawn_pool(1, also=background.lower_priority)
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


async def test_mining_runs_in_the_background_process_and_the_loop_keeps_time(
    service: GameService, mining_pool: ProcessPoolExecutor, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = next(p for p in load_starter("minefield") if p.size == 6)
    line = (*puzzle.moves, *puzzle.solution)
    challenge = await service.create_challenge(GUILD, 4343, ALICE, BOB, "minefield", puzzle.size)
    info = (await service.accept_challenge(challenge.id, BOB)).game
    for move in line:
        current = await service.get_game(4343)
        assert current is not None and current.to_move_id is not None
        await service.play_move(4343, current.to_move_id, move)
    service.puzzles.background = mining_pool
    # The worker started and its modules imported before the probe, as in a running bot.
    record = (await service.get_game_by_id(info.id)).record
    await asyncio.get_running_loop().run_in_executor(
        mining_pool, puzzle_service._mine, record, 0, 0
    )
    monkeypatch.setattr(puzzle_service, "MINE_SECONDS", SOLVER_SECONDS)
    await service.puzzles.start(ALICE, GUILD, "minefield")  # the shipped set stored beforehand
    with guard.cpu_wait_clock() as waited:
        done = asyncio.Event()
        lags: list[float] = []

        async def probe() -> None:
            # Lateness less the time the loop's thread was runnable but had no CPU (other
            # jobs on a shared machine): what is left is the loop waiting, for the GIL above all.
            while not done.is_set():
                asked, queued = time.perf_counter(), waited()
                await asyncio.sleep(TICK)
                lags.append(time.perf_counter() - asked - TICK - (waited() - queued))

        ticking = asyncio.create_task(probe())
        found = await service.puzzles.mine_game(info.id, None)
        done.set()
        await ticking
    on_line = {puzzle_id("minefield", puzzle.size, list(line[:n])) for n in range(len(line) + 1)}
    assert found and set(found) <= on_line  # puzzles of its line, stored for every server
    async with service.store.read() as tx:
        for found_id in found:
            row = await tx.puzzles.puzzle(found_id)
            # Public; a position that is also a shipped puzzle keeps its shipped row.
            assert row is not None and row.guild_id is None
            assert row.source_game_id in (None, info.id)
    lags.sort()
    assert len(lags) > 50, "the probe must see the mining job run"
    assert lags[len(lags) // 2] < MEDIAN_LAG, f"median loop lag {lags[len(lags) // 2]:.4f} s"


async def test_the_background_worker_lowers_its_priority_and_ends_with_the_bot() -> None:
    pool = background.get_background_pool()
    assert background.get_background_pool() is pool  # one pool, started once
    loop = asyncio.get_running_loop()
    try:
        worker_nice = await loop.run_in_executor(pool, os.nice, 0)
        assert worker_nice == min(19, os.nice(0) + background.NICENESS)  # 19: the lowest
        workers = list(pool._processes.values())
        # The bot's close ends a job in the middle (a mining job writes nothing until it
        # returns), so the bot's exit does not wait out the solver's 20 s.
        pool.submit(time.sleep, 60)
        stopped = time.monotonic()
        background.shutdown_background()
        while any(worker.is_alive() for worker in workers) and time.monotonic() < stopped + 10:
            await asyncio.sleep(0.05)
        assert not any(worker.is_alive() for worker in workers)
        assert time.monotonic() - stopped < 10
    finally:
        await asyncio.to_thread(background.shutdown_background, True)
    assert background.get_background_pool() is not pool  # the next job starts a fresh one
    await asyncio.to_thread(background.shutdown_background, True)
