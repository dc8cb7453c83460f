"""CPU seconds of whole level-3 seat-fairness games, for two source trees in one run.

Issue 49's table costs what level 3's games against itself cost (``bench/seat_fairness.py``),
so a change meant to speed the search is measured on those games: each tree named by
``--tree`` (default: /work/main and this tree) plays the same seeded games, each game in its
own Python process with that tree first on the path, the trees alternating game by game so
that load changes fall on both.  It prints each board's CPU seconds per game in each tree, the
ratio to the first tree, and whether every tree played the same game (the same record): a
change that leaves the search's computation alone must.  Prints figures; never fails on them.

    nice -n 10 python bench/seat_speed.py --tree /work/main --tree . --seeds 2
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
DEFAULT_BOARDS = ("clearcut:9", "clearpath:9:pie", "crosscut:9", "minefield:9", "nakeddiagonal:7")

# Run inside the measured tree: one game of the table, as its results line.
CHILD = """
import json, sys
from bench.seat_fairness import Board, play_game
name, size, pie, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "pie", int(sys.argv[4])
print(json.dumps(play_game(Board(name, size, pie), seed)))
"""


def play(tree: Path, board: str, seed: int) -> dict[str, object]:
    name, size, *pie = board.split(":")
    out = subprocess.run(
        [sys.executable, "-c", CHILD, name, size, "pie" if pie else "", str(seed)],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    row: dict[str, object] = json.loads(out.stdout)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", action="append", type=Path, help="source trees (first: base)")
    parser.add_argument("--board", action="append", help="game:size[:pie] (repeatable)")
    parser.add_argument("--seeds", type=int, default=2, help="games per board: seeds 0, 1, ...")
    args = parser.parse_args()
    trees: list[Path] = args.tree or [Path("/work/main"), HERE]
    boards: list[str] = args.board or list(DEFAULT_BOARDS)
    print("board".ljust(18) + "".join(str(t)[-20:].rjust(22) for t in trees) + "   ratio  same")
    total = [0.0] * len(trees)
    for board in boards:
        cpu = [0.0] * len(trees)
        same = True
        for seed in range(args.seeds):
            rows = [play(tree, board, seed) for tree in trees]
            same &= all(r["record"] == rows[0]["record"] for r in rows)
            for i, r in enumerate(rows):
                cpu[i] += float(str(r["cpu"]))
        total = [t + c for t, c in zip(total, cpu, strict=True)]
        per_game = [c / args.seeds for c in cpu]
        ratios = " ".join(f"{cpu[0] / c:.2f}x" for c in cpu[1:])
        print(
            board.ljust(18) + "".join(f"{c:22.1f}" for c in per_game) + f"   {ratios}  {same}",
            flush=True,
        )
    ratios = " ".join(f"{total[0] / t:.2f}x" for t in total[1:])
    print("all".ljust(18) + "".join(f"{t:22.1f}" for t in total) + f"   {ratios}")


if __name__ == "__main__":
    main()
