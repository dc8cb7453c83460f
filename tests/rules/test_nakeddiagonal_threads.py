"""Naked Diagonal engines on several threads at once, as the service uses them.

The service replays cold games on worker threads while the event loop's thread checks moves.
The area solver keeps per-search state, so each thread must have its own.  With one shared
solver, replays of 13x13 games on several threads let an internal ``_OutOfBudget`` escape from
``Game.play``; that takes minutes to provoke, so the first two tests check the cause directly
(they fail against a shared solver) and the last checks that threaded replays agree.
"""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from rules import new_game
from rules.nd_area import area_solver


def _random_game(seed: int, size: int) -> list[str]:
    rng = random.Random(seed)
    game = new_game("nakeddiagonal", size=size)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return [record.move for record in game.history]


def _replay(size: int, moves: list[str]) -> tuple[str, str | None, str | None]:
    game = new_game("nakeddiagonal", size=size)
    for move in moves:
        game.play(move)
    return game.record(), game.winner, game.to_move


def test_each_thread_has_its_own_solver() -> None:
    here = area_solver(7)
    assert area_solver(7) is here  # kept within a thread
    seen: list[object] = []
    worker = threading.Thread(target=lambda: seen.append(area_solver(7)))
    worker.start()
    worker.join()
    assert len(seen) == 1 and seen[0] is not here


def test_a_game_made_on_one_thread_uses_the_solver_of_the_thread_playing_it() -> None:
    game = new_game("nakeddiagonal", size=6)
    used: list[object] = []
    worker = threading.Thread(target=lambda: used.append(game._solver))
    worker.start()
    worker.join()
    assert used[0] is not game._solver


@pytest.mark.slow
def test_concurrent_replays_agree_with_one_thread() -> None:
    games = [(size, _random_game(seed, size)) for seed, size in ((1, 7), (2, 8), (3, 7), (4, 8))]
    alone = [_replay(size, moves) for size, moves in games]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(2):
            together = list(pool.map(lambda job: _replay(*job), games * 2))
            assert together == alone * 2
