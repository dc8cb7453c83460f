"""Naked Diagonal benchmark: legal-move generation time on positions from random playouts.

Prints figures only; it never fails on time.  Two figures per board size:

* ``in play``: the time of each ``play()`` in a random playout, which is dominated by generating
  the legal moves of the new position (the engine does that eagerly to apply the skip rule).
  The area solver's memo holds what earlier positions of the same game computed, as in a real
  game, but nothing about the new position itself.
* ``cold``: ``legal_moves()`` on a sample of the same positions with the solver's memo emptied
  first, i.e. with no help from earlier moves at all (a pessimistic bound).

Targets (issue 3, one core): 7x7 p95 <= 50 ms and max < 1 s; 9x9 p95 <= 200 ms and max < 1 s.
Usage: ``python bench/nakeddiagonal_bench.py`` (the lead's rules_bench calls :func:`run`).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import new_game
from rules.nd_area import area_solver

SIZES = (5, 7, 9, 11)
GAMES = {5: 40, 7: 25, 9: 15, 11: 8, 13: 4}
COLD_SAMPLE = 120


def _summary(times: list[float]) -> str:
    times = sorted(times)
    n = len(times)
    p50 = times[n // 2] * 1e3
    p95 = times[min(n - 1, int(n * 0.95))] * 1e3
    return f"p50 {p50:7.2f} ms  p95 {p95:7.2f} ms  max {times[-1] * 1e3:7.1f} ms  (n={n})"


def measure(size: int, games: int, seed: int) -> tuple[list[float], list[float]]:
    """(in-play times, cold times) for ``games`` random playouts on a ``size`` board."""
    rnd = random.Random(seed * 1000 + size)
    solver = area_solver(size)
    solver.forget()
    in_play: list[float] = []
    positions: list[list[str]] = []
    for _ in range(games):
        game = new_game("nakeddiagonal", size)
        moves: list[str] = []
        while not game.is_over:
            move = rnd.choice(game.legal_moves())
            started = time.perf_counter()
            game.play(move)
            in_play.append(time.perf_counter() - started)
            moves.append(move)
            positions.append(list(moves))
    cold: list[float] = []
    for moves in rnd.sample(positions, min(COLD_SAMPLE, len(positions))):
        game = new_game("nakeddiagonal", size)
        for move in moves:
            game.play(move)
        if game.is_over:
            continue
        solver.forget()
        game._legal = None  # measure the generation itself, not the position's cached answer
        started = time.perf_counter()
        game.legal_moves()
        cold.append(time.perf_counter() - started)
    return in_play, cold


def run(seed: int = 1, sizes: tuple[int, ...] = SIZES) -> None:
    print("Naked Diagonal legal-move generation (random playouts)")
    for size in sizes:
        in_play, cold = measure(size, GAMES.get(size, 4), seed)
        print(f"  {size:2d}x{size:<2d} in play  {_summary(in_play)}")
        if cold:
            print(f"  {size:2d}x{size:<2d} cold     {_summary(cold)}")
        sys.stdout.flush()


if __name__ == "__main__":
    run(sizes=tuple(int(a) for a in sys.argv[1:]) or SIZES)
