"""How long a game analysis takes (docs/analysis.md): a ~60-move 9×9 game at the default
per-position budget and a ~300-move 19×19 game at a smaller one.  Prints figures; never fails
on them.  The games are seeded random Minefield games of about the wanted length.  Example::

    nice -n 10 python bench/analysis_bench.py --workers 2
"""

from __future__ import annotations

import argparse
import random
import time

from ai.analysis import Settings, analyse
from ai.lifetime import spawn_pool
from rules import new_game


def random_game(size: int, moves: int) -> str:
    """The first seeded random Minefield game on ``size`` within 3 plies of ``moves`` long."""
    for seed in range(1000):
        game = new_game("minefield", size=size)
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        if abs(len(game.history) - moves) <= 3:
            return game.record()
    raise RuntimeError(f"no random {size}x{size} game of about {moves} moves")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--small-budget", type=int, default=Settings().playouts)
    p.add_argument("--large-budget", type=int, default=200)
    p.add_argument("--skip-large", action="store_true")
    args = p.parse_args()
    cases = [(9, 60, args.small_budget)]
    if not args.skip_large:
        cases.append((19, 300, args.large_budget))
    pool = spawn_pool(args.workers) if args.workers > 1 else None
    try:
        for size, moves, budget in cases:
            record = random_game(size, moves)
            start = time.perf_counter()
            result = analyse(
                record, Settings(playouts=budget), seed=1, mapper=pool.map if pool else None
            )
            took = time.perf_counter() - start
            plies = len(result.moves)
            proven = sum(1 for m in result.moves if m.proven_before is not None)
            print(
                f"{size}x{size}: {plies} plies at {budget} playouts/position, "
                f"{args.workers} worker(s): {took:.1f} s ({took / plies:.2f} s/position, "
                f"{proven} positions proven)",
                flush=True,
            )
    finally:
        if pool is not None:
            pool.shutdown()


if __name__ == "__main__":
    main()
