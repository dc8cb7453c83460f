"""The event loop's lag while a finished game is mined for puzzles: on a worker thread (how
``service.puzzles.mine_game`` ran before) and in the background process (:mod:`ai.background`).

``python -m bench.mine_lag`` mines one finished Minefield 6×6 game (a shipped puzzle's line
played out, so its last positions hold puzzles) each way, while a task on the loop asks to
wake every 5 ms, and prints how late its wake-ups were: on a thread the solver holds the GIL
and the loop waits for it on every wake-up; in the process the loop's thread has no rival.
Wall-clock figures: run it on a quiet machine, or read them side by side.  Then the worker's
resident memory after the job (Linux).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable

from ai.background import lower_priority
from ai.lifetime import spawn_pool
from ai.puzzles import Puzzle, load_starter
from bot.service.puzzles.service import MINE_POSITIONS, MINE_SECONDS, _mine

TICK = 0.005
"""How often the loop's task asks to wake (seconds)."""


def finished_record() -> str:
    puzzle = next(p for p in load_starter("minefield") if p.size == 6)
    return "minefield 6: " + " ".join((*puzzle.moves, *puzzle.solution))


async def lags_while(job: Callable[[], Awaitable[list[Puzzle]]]) -> tuple[list[float], float, int]:
    """The loop's wake-up lateness (seconds, sorted) while ``job`` runs, the job's time, and
    how many puzzles it found."""
    done = asyncio.Event()
    lags: list[float] = []

    async def ticker() -> None:
        while not done.is_set():
            asked = time.perf_counter()
            await asyncio.sleep(TICK)
            lags.append(time.perf_counter() - asked - TICK)

    task = asyncio.create_task(ticker())
    start = time.perf_counter()
    found = await job()
    took = time.perf_counter() - start
    done.set()
    await task
    return sorted(lags), took, len(found)


def report(name: str, lags: list[float], took: float, found: int) -> None:
    def ms(q: float) -> str:
        return f"{lags[min(len(lags) - 1, int(len(lags) * q))] * 1000:.1f}"

    print(
        f"{name:>8}: mined in {took:.1f} s, {found} puzzles; loop lag over {len(lags)} wake-ups:"
        f" median {ms(0.5)} ms, p99 {ms(0.99)} ms, worst {lags[-1] * 1000:.1f} ms"
    )


def resident_mib(pid: int) -> float:
    """``pid``'s resident memory (Linux's /proc), in MiB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def main() -> None:
    record = finished_record()
    loop = asyncio.get_running_loop()
    report(
        "thread",
        *await lags_while(lambda: asyncio.to_thread(_mine, record, MINE_POSITIONS, MINE_SECONDS)),
    )
    pool = spawn_pool(1, also=lower_priority)
    try:
        await loop.run_in_executor(pool, int, 0)  # started before timing, as in a running bot
        report(
            "process",
            *await lags_while(
                lambda: loop.run_in_executor(pool, _mine, record, MINE_POSITIONS, MINE_SECONDS)
            ),
        )
        pid = await loop.run_in_executor(pool, os.getpid)
        print(f"the background worker after mining: {resident_mib(pid):.0f} MiB resident")
    finally:
        pool.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
