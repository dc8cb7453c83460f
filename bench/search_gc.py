"""What pausing the garbage collector during a search saves (``Searcher.run``).

Prints figures only; it never fails on time.  For each game it plays ``--plies`` random moves
on the benchmark board (7×7, Crosscut 8×8) and runs one unmeasured warm-up search.  Then it
runs the same level-4 search (same seed, so the same playouts and move) ``--reps`` times with
the collector paused (``Searcher.run``) and as many with it running
(``Searcher.run_collecting``), alternately.  It prints the mean CPU time of
each, the CPU spent in collections with the collector running, the ratio paused/running, and
how many objects the paused searches left in reference cycles (the pause is safe only while
that is 0).  CPU time (``time.process_time``) is used so that other jobs on the host matter
less, and the two variants alternate so drift hits both; on a shared 2-core host the ratio
still wanders by ±10 % from run to run, so the time in collections is the steadier figure.
Naked Diagonal's area-solver memos are emptied before every search: a search that finds the
memos its twin filled runs up to twice as fast, which would swamp the difference measured.

Usage: ``python bench/search_gc.py [--game clearpath ...] [--playouts 5000] [--reps 3]``.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# nd_memo_gc is a sibling script, found in the script's own directory (bench/), which Python
# puts on sys.path for every script.
from nd_memo_gc import CollectionClock

from ai.levels import LEVELS
from ai.search import Budget, Searcher
from rules import game_names, new_game
from rules.nd_area import forget_memos

BENCH_SIZE = {"crosscut": 8}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(game_names()))
    parser.add_argument("--playouts", type=int, default=5_000)
    parser.add_argument("--plies", type=int, default=6, help="random moves before the search")
    parser.add_argument("--reps", type=int, default=3, help="searches per variant")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    if args.playouts < 1 or args.reps < 1 or args.plies < 0:
        parser.error("--playouts and --reps must be at least 1, --plies at least 0")
    clock = CollectionClock()
    gc.callbacks.append(clock)
    config = LEVELS[4].config
    print(f"level-4 searches of {args.playouts} playouts, {args.reps} per variant, alternating")
    print("game | paused: CPU s | running: CPU s (in collections) | paused / running")
    for name in args.game or sorted(game_names()):
        size = BENCH_SIZE.get(name, 7)
        rng = random.Random(args.seed)
        game = new_game(name, size)
        for _ in range(args.plies):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.is_over:
            print(f"{name}: the random opening ended the game; try another --seed")
            continue
        Searcher(game, "warm-up", config).run(Budget(playouts=args.playouts // 4 or 1))
        cpu = {True: 0.0, False: 0.0}
        collected = 0.0
        left = 0
        moves = set()
        for rep in range(args.reps):
            for paused in (True, False):
                searcher = Searcher(game, f"{args.seed}:{rep}", config)
                run = searcher.run if paused else searcher.run_collecting
                forget_memos()
                gc.collect()
                clock.seconds = 0.0
                start = time.process_time()
                result = run(Budget(playouts=args.playouts))
                cpu[paused] += time.process_time() - start
                if paused:
                    left += gc.collect()  # objects the paused search left in reference cycles
                else:
                    collected += clock.seconds
                moves.add((rep, result.move))
        same = "same moves" if len(moves) == args.reps else "MOVES DIFFER"
        running = cpu[False] / args.reps
        print(
            f"{name} {size}x{size} | {cpu[True] / args.reps:.2f} | {running:.2f} "
            f"({collected / args.reps:.2f}, {100 * collected / cpu[False]:.1f} %) | "
            f"{cpu[True] / cpu[False]:.3f} ({same}; {left} objects left in cycles)",
            flush=True,
        )
    gc.callbacks.remove(clock)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
