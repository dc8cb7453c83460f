"""Naked Diagonal memos and the garbage collector: how long a full collection takes once
searches have filled the area solver's memos.

Prints figures only; it never fails on time.  Level-5 searches play a Naked Diagonal game on
one board until ``--seconds`` have passed, which leaves the calling thread's solver holding
what an AI worker process or the AI tests hold after a while (hundreds of thousands of area
verdicts and timelines).  It then prints the memo sizes, the objects the collector tracks, and
the time of three full collections.  Memo keys are ints and values strs or None, so the memo
dicts are never tracked (see ``rules.nd_area.Timeline``).  While timelines were NamedTuples
holding a dict and a list, 200,000 of them kept 418,000 objects tracked and one full
collection took 0.8-1.1 s on a 2-core host; as plain tuples 0.16-0.27 s; with int keys and str
values (issue 14, fourteenth round) 56-64 ms, long enough before to stall an event loop on the
same thread or eat into a level's time cap.

``--games N`` instead plays N whole games of level-5 self-play at ``--playouts`` a move (no
time cap, so the moves depend only on the seeds) and prints, per game, its CPU time, the part
spent in collections, the process's memory and a digest of the moves: run it in a checkout of
another commit to compare the two on the same games (issue 14, fourteenth round).

Usage: ``python bench/nd_memo_gc.py [--size 7] [--seconds 60 | --games 4 [--playouts 1000]]``.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import Budget, choose_move
from ai.levels import LEVELS
from ai.search import search
from rules import new_game
from rules.nd_area import area_solver


def fill(size: int, seconds: float) -> int:
    """Play level-5 moves (3,000 playouts or 3 s each) for ``seconds``; the plies played."""
    game = new_game("nakeddiagonal", size)
    started = time.perf_counter()
    plies = 0
    while not game.is_over and time.perf_counter() - started < seconds:
        game.play(choose_move(game, 5, seed=plies, budget=Budget(playouts=3000, seconds=3.0)))
        plies += 1
    return plies


class CollectionClock:
    """CPU time spent in garbage collections while it is installed (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.seconds += time.process_time() - self._started


def current_rss_mb() -> float:
    """The process's resident memory now (Linux ``/proc``; the peak elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def self_play(size: int, games: int, playouts: int) -> None:
    """Whole games of level-5 self-play in this process, one line each (see the module doc)."""
    clock = CollectionClock()
    gc.callbacks.append(clock)
    total_cpu = total_gc = 0.0
    for index in range(games):
        game = new_game("nakeddiagonal", size)
        clock.seconds = 0.0
        cpu = time.process_time()
        done = 0
        while not game.is_over:
            seed = f"{index}:{len(game.history)}"
            result = search(game, Budget(playouts=playouts), seed=seed, config=LEVELS[5].config)
            done += result.playouts
            game.play(result.move)
        cpu = time.process_time() - cpu
        total_cpu += cpu
        total_gc += clock.seconds
        moves = " ".join(record.move for record in game.history)
        digest = hashlib.sha256(moves.encode()).hexdigest()[:8]
        print(
            f"game {index + 1}: {len(game.history)} plies, moves {digest}, {cpu:.1f} s CPU "
            f"({done / cpu:.0f} playouts a CPU second), {clock.seconds:.1f} s in collections, "
            f"{current_rss_mb():.0f} MB",
            flush=True,
        )
    gc.callbacks.remove(clock)
    print(
        f"all {games} games: {total_cpu:.1f} s CPU, {total_gc:.1f} s in collections "
        f"({total_gc / max(total_cpu, 1e-9):.1%})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=7, help="board size (default 7)")
    parser.add_argument("--seconds", type=float, default=60.0, help="searching time (default 60)")
    parser.add_argument("--games", type=int, default=0, help="self-play games instead (0: none)")
    parser.add_argument("--playouts", type=int, default=1000, help="playouts a move with --games")
    args = parser.parse_args(argv)
    if args.games > 0:
        self_play(args.size, args.games, args.playouts)
        return 0
    clock = CollectionClock()
    gc.callbacks.append(clock)
    cpu = time.process_time()
    plies = fill(args.size, args.seconds)
    cpu = time.process_time() - cpu
    gc.callbacks.remove(clock)
    solver = area_solver(args.size)
    print(
        f"Naked Diagonal {args.size}x{args.size}, {plies} plies of level-5 search: "
        f"{len(solver.cache):,} verdicts and {len(solver.timelines):,} timelines memoised"
    )
    print(
        f"collections during the search: {clock.seconds:.1f} s of {cpu:.1f} s CPU "
        f"({clock.seconds / cpu:.0%}); peak RSS "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )
    times = []
    for _ in range(3):
        started = time.perf_counter()
        gc.collect()
        times.append(time.perf_counter() - started)
    print(f"objects the collector tracks: {len(gc.get_objects()):,}")
    print("full collections: " + ", ".join(f"{t * 1e3:.0f} ms" for t in times))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
