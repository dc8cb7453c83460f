"""Naked Diagonal at 19x19: the slowest single ``play`` over many plays, and a cold replay,
for two trees in one run (issue 49's targets: worst ``play`` at most 0.2 s over at least
10,000 plays; a 341-move replay at most 2 s; a cold game's first view and first move within 1 s).

Each tree runs in a child process of its own (``PYTHONPATH`` set to the tree), which plays the
same seeded games move for move: the moves are drawn from the empty points by a seeded RNG and
kept only if ``is_legal`` says so, and legality is the same in every correct tree, so both
trees time the same positions.  Styles, taken in turn:

* ``random``: random legal moves until the game ends;
* ``contest``: 80 % of moves next to an opponent's stone, and a winning move is taken back
  (``pop``) and another tried, up to 8 times, so the board gets crowded and contested;
* ``crowded``: random moves with the same no-win rule, which fills most of the board.

Every ``play`` call is timed in CPU seconds of the child (so other jobs on the machine matter
less), including plays later taken back.  Then, from an empty memo: ``parse_record`` of the
341-move game of ``bench/nd_replay_records.json``, the first ``legal_moves()`` after it (what
a web view's board with its illegal points needs) and one more ``play`` (a first ``/move``).

Usage::

    python bench/nd_play_bench.py --trees /work/main . --plays 10000

Prints figures only; it never fails on time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDS = HERE / "nd_replay_records.json"
STYLES = ("random", "contest", "crowded")
TRIES = 8
"""Moves tried before a winning move is accepted (contest and crowded games)."""
DRAWS = 60
"""Random draws of an empty point before a move is chosen from the whole legal list."""


def _choose(game: object, rng: random.Random, style: str) -> str:
    """A legal move drawn the same way in every tree (see the module's docstring)."""
    from rules.geometry import bits_list

    g = game  # typed loosely: the child imports whichever tree it was given
    stones = g._stones  # type: ignore[attr-defined]
    full = g.grid.full  # type: ignore[attr-defined]
    empty = full & ~(stones[0] | stones[1])
    pool = bits_list(empty)
    if style == "contest" and rng.random() < 0.8:
        near = g.grid.dilate8(stones[1 - g._turn]) & empty  # type: ignore[attr-defined]
        if near:
            pool = bits_list(near)
    names = g.grid.names  # type: ignore[attr-defined]
    for _ in range(DRAWS):
        move = names[pool[int(rng.random() * len(pool))]]
        if g.is_legal(move):  # type: ignore[attr-defined]
            return str(move)
    moves = g.legal_moves()  # type: ignore[attr-defined]
    return str(moves[int(rng.random() * len(moves))])


def child(plays: int, size: int, seed: int) -> dict[str, object]:
    """Run in the tree under test: time the plays and the cold replay."""
    from rules import new_game, parse_record
    from rules.nd_area import area_solver

    times: list[float] = []
    worst: list[tuple[float, str, str]] = []
    games = 0
    clock = time.process_time
    while len(times) < plays:
        style = STYLES[games % len(STYLES)]
        rng = random.Random(seed * 1000 + games)
        games += 1
        game = new_game("nakeddiagonal", size)
        while not game.is_over and len(times) < plays:
            for attempt in range(TRIES):
                move = _choose(game, rng, style)
                t0 = clock()
                game.play(move)
                took = clock() - t0
                times.append(took)
                if took > 0.05:
                    worst.append((took, style, game.record()))
                keep = style == "random" or not game.is_over or attempt == TRIES - 1
                if keep:
                    break
                game.pop()
    worst.sort(reverse=True)
    record = json.loads(RECORDS.read_text())[-1]
    # A first web view: the record replayed from an empty memo, then the whole legal list
    # (the board shows the illegal points).
    area_solver(size).forget()
    t0 = clock()
    game = parse_record(record)
    replay = clock() - t0
    t0 = clock()
    first = game.legal_moves()
    view = replay + clock() - t0
    # A first /move: the same replay from an empty memo, then one play.
    area_solver(size).forget()
    t0 = clock()
    game = parse_record(record)
    game.play(first[len(first) // 2])
    first_move = clock() - t0
    return {
        "times": times,
        "games": games,
        "worst": worst[:5],
        "replay": replay,
        "plies": len(game.history) - 1,  # the extra play is not the record's
        "view": view,
        "move": first_move,
    }


def _summary(times: list[float]) -> dict[str, float]:
    s = sorted(times)
    n = len(s)
    return {
        "p50": s[n // 2],
        "p99": s[int(n * 0.99)],
        "p999": s[int(n * 0.999)],
        "max": s[-1],
        "total": sum(s),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", default=["."])
    parser.add_argument("--plays", type=int, default=10_000)
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help="write every tree's figures here as JSON")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.plays, args.size, args.seed)))
        return
    results: dict[str, dict[str, object]] = {}
    for tree in args.trees:
        env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()))
        cmd = [sys.executable, __file__, "--child", "--plays", str(args.plays)]
        cmd += ["--size", str(args.size), "--seed", str(args.seed)]
        out = subprocess.run(cmd, env=env, cwd="/", check=True, capture_output=True, text=True)
        results[tree] = json.loads(out.stdout)
        got = results[tree]
        fig = _summary(got["times"])  # type: ignore[arg-type]
        print(
            f"{tree}: {len(got['times'])} plays in {got['games']} games at "  # type: ignore[arg-type]
            f"{args.size}x{args.size}: p50 {fig['p50'] * 1e3:.2f} ms, "
            f"p99 {fig['p99'] * 1e3:.1f} ms, "
            f"p99.9 {fig['p999'] * 1e3:.1f} ms, max {fig['max']:.3f} s, all {fig['total']:.1f} s; "
            f"cold replay of {got['plies']} plies {got['replay']:.2f} s, "
            f"first view (replay + legal list) {got['view']:.2f} s, "
            f"first move (replay + play) {got['move']:.2f} s",
            flush=True,
        )
    if len(args.trees) == 2:
        # How many times faster the first tree is than the second (second's time / first's).
        a, b = (results[t] for t in args.trees)
        fa, fb = _summary(a["times"]), _summary(b["times"])  # type: ignore[arg-type]
        ratios = {k: fb[k] / fa[k] for k in ("p50", "p99", "max", "total") if fa[k]}
        ratios["replay"] = float(b["replay"]) / float(a["replay"])  # type: ignore[arg-type]
        shown = ", ".join(f"{k} {v:.3g}x" for k, v in ratios.items())
        print(f"{args.trees[0]} is faster than {args.trees[1]} by: {shown}")
    if args.out:
        args.out.write_text(json.dumps(results))


if __name__ == "__main__":
    main()
