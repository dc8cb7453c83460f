"""How long a computer's move waits while a game is being analysed in the same pool.

The computer's process pool plays the computer's moves and judges analyses, in the order they
were handed over.  This analyses a seeded ~60-move 9×9 Minefield game through
``service.analysis`` on a one-worker pool (the bot's default), asks the pool for a level-2
move a second after the analysis started, and prints how long that move took and how long
the analysis took.  ``--in-flight`` sets how many positions the analysis hands over at a time
(:data:`bot.service.analysis.service.IN_FLIGHT`; a large number is the old behaviour, all at
once).  Prints figures; never fails on them::

    nice -n 10 python bench/analysis_move_wait.py --in-flight 2 --in-flight 1000
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent))

from analysis_bench import random_game

import bot.service.analysis.service as analysis_service
from ai.lifetime import spawn_pool
from ai.pool import think
from bot.service import GameService, Viewer
from bot.store import open_store
from rules import new_game, parse_record

GUILD, CHANNEL, ALICE, BOB = 10, 20, 1, 2


async def one_run(in_flight: int, record: str) -> tuple[float, float]:
    analysis_service.IN_FLIGHT = in_flight
    pool = spawn_pool(1)
    try:
        await asyncio.get_running_loop().run_in_executor(pool, int, "1")  # start the worker
        with tempfile.TemporaryDirectory() as folder:
            async with await open_store(str(Path(folder) / "bench.db")) as store:
                service = GameService(store)
                game_id = await play_record(service, record)
                started = time.perf_counter()
                analysis = asyncio.create_task(
                    service.analysis.analyse(
                        game_id, Viewer(ALICE, GUILD), claimant="bench", executor=pool
                    )
                )
                await asyncio.sleep(1.0)
                asked = time.perf_counter()
                whole = parse_record(record)
                position = new_game(whole.name, whole.size)
                for rec in whole.history[:30]:
                    position.play(rec.move)
                await asyncio.get_running_loop().run_in_executor(pool, think, position, 2, 7)
                waited = time.perf_counter() - asked
                await analysis
                return waited, time.perf_counter() - started
    finally:
        pool.shutdown(cancel_futures=True)


async def play_record(service: GameService, record: str) -> int:
    game = parse_record(record)
    challenge = await service.create_challenge(
        GUILD, CHANNEL, ALICE, BOB, game.name, size=game.size, first="me", time_control="none"
    )
    started = await service.accept_challenge(challenge.id, BOB)
    for rec in game.history:
        mover = (await service.get_game_by_id(started.game.id)).to_move_id
        assert mover is not None
        await service.play_move(CHANNEL, mover, rec.move)
    return started.game.id


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--in-flight", type=int, action="append", default=[])
    args = p.parse_args()
    record = random_game(9, 60)
    for in_flight in args.in_flight or [analysis_service.IN_FLIGHT, 1000]:
        waited, took = asyncio.run(one_run(in_flight, record))
        print(
            f"in flight {in_flight}: the computer's move waited {waited:.1f} s;"
            f" the analysis took {took:.1f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
