"""Thinking in the process pool: the event loop keeps running, and bad input fails early."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import pytest

import ai
from ai import AIPlayer, Budget, ai_move, ai_result
from rules import InvalidRecord, new_game, parse_record

RECORD = "minefield 7: d4 c3"


@pytest.fixture(scope="module")
def shared_pool() -> Iterator[ProcessPoolExecutor]:
    pool = ai.get_pool()
    yield pool
    ai.shutdown()


async def test_ai_move_in_the_shared_pool_is_legal(shared_pool: ProcessPoolExecutor) -> None:
    move = await ai_move(RECORD, level=2, seed=1)
    game = parse_record(RECORD)
    assert move in game.legal_moves()


async def test_event_loop_keeps_running_while_the_pool_thinks(
    shared_pool: ProcessPoolExecutor,
) -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    result = await ai_result(RECORD, seed=2, budget=Budget(seconds=0.5))
    task.cancel()
    assert result.playouts > 0
    assert ticks >= 10, "the loop must not block while the AI thinks"


async def test_pool_result_matches_in_process_result(shared_pool: ProcessPoolExecutor) -> None:
    budget = Budget(playouts=60)
    in_pool = await ai_result(RECORD, level=3, seed=7, budget=budget)
    local = ai.think(parse_record(RECORD), level=3, seed=7, budget=budget)
    assert (in_pool.move, in_pool.playouts, in_pool.value) == (
        local.move,
        local.playouts,
        local.value,
    )


async def test_ai_player_plays_a_whole_game_through_the_pool(
    shared_pool: ProcessPoolExecutor,
) -> None:
    game = new_game("minefield", 4)
    players = {"black": AIPlayer(level=1, seed=3), "white": AIPlayer(level=1, seed=4)}
    while not game.is_over:
        game.play(await players[str(game.to_move)].move(game))
    assert game.winner in ("black", "white")


async def test_bad_record_fails_before_reaching_the_pool() -> None:
    with pytest.raises(InvalidRecord, match="move 2 'c3'"):
        await ai_move("minefield 7: c3 c3")


async def test_finished_game_and_bad_level_fail_early() -> None:
    with pytest.raises(ValueError, match="the game is over"):
        await ai_move("minefield 5: c1 a1 c2 a2 c3 a3 c4 e1 c5")
    with pytest.raises(ValueError, match="unknown AI level"):
        await ai_move(RECORD, level="grandmaster")


def test_shutdown_is_safe_to_repeat_and_pool_restarts() -> None:
    ai.shutdown()
    ai.shutdown()
    pool = ai.get_pool()
    assert pool is ai.get_pool()
    ai.shutdown()
    assert ai.get_pool() is not pool
    ai.shutdown()
