"""An analysis judged in the computer's real process pool (spawned workers), with the event
loop never held: what the bot runs, end to end, on a game that ended on the board."""

from __future__ import annotations

import asyncio

import loop_guard as guard
import pytest
from game_fixtures import ALICE, CHANNEL, GUILD, StartGame

from ai.analysis import Settings, analyse
from ai.lifetime import spawn_pool
from bot.service import GameService, Viewer

loop_guard = guard.loop_guard

SMALL = Settings(playouts=30, solve_nodes=2_000)
MOVES = ("c1", "a3", "c2", "b3", "c3", "d3", "c4", "e3", "c5")


@pytest.mark.engines("sqlite")
async def test_the_process_pool_judges_and_the_loop_stays_free(
    service: GameService, start_game: StartGame
) -> None:
    info = await start_game("minefield", 5)
    for move in MOVES:
        mover = (await service.get_game_by_id(info.id)).to_move_id
        await service.play_move(CHANNEL, mover or 0, move)
    assert (await service.get_game_by_id(info.id)).status == "finished"
    seen: list[int] = []

    async def progress(done: int, total: int) -> None:
        seen.append(done)

    pool = spawn_pool(2)
    try:
        stored = await service.analysis.analyse(
            info.id, Viewer(ALICE, GUILD), claimant="bot", executor=pool,
            progress=progress, settings=SMALL,
        )  # fmt: skip
    finally:
        await asyncio.to_thread(pool.shutdown)
    assert seen == list(range(1, len(MOVES) + 1))
    # Seeded: the same figures as the engine's own sequential analysis with seed 0.
    record = "minefield 5: " + " ".join(MOVES)
    assert stored.analysis == await asyncio.to_thread(analyse, record, SMALL, 0)
