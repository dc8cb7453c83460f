"""Cold games are replayed in a worker process, and a lost worker costs no replay.

Why a process: a long Naked Diagonal replay makes Python run full garbage collections that
hold the GIL for tens of milliseconds, stalling the event loop from any thread
(``bench/interaction_latency.py``).  These tests check that the engine that comes back is the
one an in-process replay builds, and that a worker that dies is replaced.
"""

from __future__ import annotations

import os
import random
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.service import engines as core
from rules import new_game


def _random_moves(name: str, size: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    game = new_game(name, size)
    while not game.is_over and len(game.history) < 40:
        game.play(rng.choice(game.legal_moves()))
    return [record.move for record in game.history]


@pytest.mark.parametrize(("name", "size"), [("nakeddiagonal", 7), ("clearpath", 6)])
async def test_a_replay_in_the_worker_is_the_same_engine(name: str, size: int) -> None:
    moves = _random_moves(name, size, seed=size)
    here = core.replay(name, size, moves)
    there = await core.replay_off_loop(name, size, moves)
    assert there.record() == here.record()
    assert (there.to_move, there.winner) == (here.to_move, here.winner)
    assert sorted(there.legal_moves()) == sorted(here.legal_moves())
    if not there.is_over:  # it plays on like the original
        move = here.legal_moves()[0]
        assert there.play(move).move == here.play(move).move
        assert there.record() == here.record()


async def test_a_worker_that_dies_is_replaced_and_the_replay_still_happens() -> None:
    moves = _random_moves("minefield", 5, seed=3)
    expected = core.replay("minefield", 5, moves).record()
    pool = core._replay_pool()
    with pytest.raises(BrokenProcessPool):
        pool.submit(os._exit, 1).result(timeout=60)  # the worker dies; the pool is broken
    survived = await core.replay_off_loop("minefield", 5, moves)  # on the thread this time
    assert survived.record() == expected
    assert core._replay_pool() is not pool  # the next replay gets a fresh worker
    again = await core.replay_off_loop("minefield", 5, moves)
    assert again.record() == expected
