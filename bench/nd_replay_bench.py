"""Time what a cold 19x19 Naked Diagonal game costs: replaying its record, then one move.

The web page's first view, ``/move`` on a game not in memory since a restart and the console
all replay the record through the engine before they can answer, with the area solver's memo
empty.  This prints, for records of random 19x19 games (made once with ``--make FILE``, kept as
JSON so every tree replays the same games), the CPU seconds of ``parse_record`` from an empty
memo, of one more ``play`` after it, and of the slowest single ``play`` during the replay, plus
p50/p99 of all those plays.  Run one tree against another in one go by choosing the tree with
PYTHONPATH (this file adds nothing to ``sys.path``)::

    PYTHONPATH=/work/main python bench/nd_replay_bench.py --records recs.json
    PYTHONPATH=.          python bench/nd_replay_bench.py --records recs.json

Run it as a script, as above: ``python -c`` or ``python -m`` put the current directory ahead
of PYTHONPATH, so they would time the tree you stand in whatever PYTHONPATH says.

Prints figures only; it never fails on time.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from rules import new_game, parse_record
from rules.nd_area import area_solver

TRIES = 8
"""Moves tried before a winning move is accepted, so a game runs on to a crowded board."""


def make(size: int, plies: int, seed: int) -> str:
    """The record of a random game of ``plies`` moves (wins avoided while others exist)."""
    rnd = random.Random(seed)
    game = new_game("nakeddiagonal", size)
    while not game.is_over and len(game.moves) < plies:
        legal = game.legal_moves()
        for attempt in range(TRIES):
            game.play(rnd.choice(legal))
            if not game.is_over or attempt == TRIES - 1 or len(legal) == 1:
                break
            game.pop()
    return game.record()


def time_record(record: str) -> tuple[float, float, list[float]]:
    """(replay seconds, next play seconds, every play's seconds), from an empty memo."""
    head, _, body = record.partition(":")
    size = int(head.split()[1])
    area_solver(size).forget()
    started = time.process_time()
    game = parse_record(record)
    replayed = time.process_time() - started
    # The per-play times: replay again move by move, memo emptied first.
    area_solver(size).forget()
    plays: list[float] = []
    again = new_game("nakeddiagonal", size)
    for move in body.split():
        if move == "-":
            continue
        t0 = time.process_time()
        again.play(move)
        plays.append(time.process_time() - t0)
    nxt = 0.0
    if not game.is_over:
        t0 = time.process_time()
        game.play(game.legal_moves()[0])
        nxt = time.process_time() - t0
    return replayed, nxt, plays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=Path, required=True)
    parser.add_argument("--make", action="store_true", help="write new records, then time them")
    parser.add_argument("--plies", type=int, nargs="+", default=[120, 341])
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.make:
        recs = [make(args.size, n, args.seed + i) for i, n in enumerate(args.plies)]
        args.records.write_text(json.dumps(recs, indent=1))
    every: list[float] = []
    for record in json.loads(args.records.read_text()):
        replayed, nxt, plays = time_record(record)
        every += plays
        print(
            f"{record.split(':')[0]}, {len(plays)} moves: replay {replayed:.2f} s, "
            f"next play {nxt:.3f} s, worst play {max(plays):.3f} s",
            flush=True,
        )
    every.sort()
    n = len(every)
    print(
        f"all {n} plays: p50 {every[n // 2] * 1e3:.1f} ms, "
        f"p99 {every[int(n * 0.99)] * 1e3:.1f} ms, max {every[-1]:.3f} s"
    )


if __name__ == "__main__":
    main()
