"""Finished games are mined for puzzles in the background (issue 48): a game that ends at the
wire is queued, mined off the loop, and its puzzles are stored for its own server when its
channel was not public; a queue that is full skips games instead of growing."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import discord_fakes as fakes
from discord_fakes import ALICE, BOB

from ai import background
from bot.discord.puzzles.miner import PuzzleMiner

CHANNEL = fakes.CHANNEL
h = fakes.h
close_harnesses = fakes.close_harnesses


async def play_out(h: Any, seed: int) -> None:
    players = {ALICE.id: ALICE, BOB.id: BOB}
    for point in fakes.winning_line("minefield", 5, seed=seed):
        info = await h.service.get_game(CHANNEL)
        await h.command("move", players[info.to_move_id], point=point)


async def test_an_ended_game_is_mined_in_the_background(h: Any, monkeypatch: Any) -> None:
    asked: list[tuple[int, int | None]] = []
    real = h.service.puzzles.mine_game

    async def mine_game(game_id: int, guild_id: int | None) -> list[str]:
        asked.append((game_id, guild_id))
        return await real(game_id, guild_id, limit=3)

    monkeypatch.setattr(h.service.puzzles, "mine_game", mine_game)
    h.bot.puzzle_miner.enabled = True
    info = await fakes.challenge_and_accept(h)
    await play_out(h, seed=4)
    ended = await h.service.get_game_by_id(info.id)
    assert ended.status == "finished"
    # The miner runs as its own task, after the move was answered, in a low-priority process
    # that a loaded machine may hold back for a while.
    give_up = time.monotonic() + 120
    while not h.bot.puzzle_miner.mined and time.monotonic() < give_up:
        await asyncio.sleep(0.05)
    assert asked == [(info.id, None if ended.public else ended.guild_id)]
    assert h.bot.puzzle_miner.mined == 1
    # Mined in the background process, which ends when the miner does (the bot's close).
    assert background._pool is not None
    workers = list(background._pool._processes.values())
    await h.bot.puzzle_miner.close()
    assert background._pool is None
    for _ in range(100):
        if not any(worker.is_alive() for worker in workers):
            break
        await asyncio.sleep(0.05)
    assert not any(worker.is_alive() for worker in workers)


async def test_a_full_queue_skips_games(h: Any) -> None:
    miner = PuzzleMiner(h.bot, backlog=1)
    info = await fakes.challenge_and_accept(h)
    await play_out(h, seed=4)
    ended = await h.service.get_game_by_id(info.id)
    miner._task = asyncio.get_running_loop().create_future()  # type: ignore[assignment]
    miner.game_ended(ended)
    miner.game_ended(ended)  # the queue holds one: the second is skipped
    assert miner._queue.qsize() == 1
    miner._task.cancel()
