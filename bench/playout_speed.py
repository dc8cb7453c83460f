"""Playouts per second, per game and board size, for two source trees in one run.

The engine's speed item asks for playouts per second before and after, as ratios measured
together on the same (shared, noisy) machine.  This runs the same playouts in each tree named
by ``--tree`` (default: /work/main and this tree), each in its own Python process with that
tree first on the path, alternating trees round by round so that load changes fall on both,
and prints the best round's playouts/s per tree and the ratio to the first tree.  With
``--cpu`` the rate is per second of the process's own CPU time, which another process on a
busy shared host takes far less from than it takes wall-clock time.  Each
playout is the search's own (``Searcher._playout``, present in every version since the
playouts became objects) from the empty board, with a fixed seed, so both trees play the same
playouts if they consume the random generator alike.  With ``--search N`` each round is
instead one whole search of the level (tree, priors, playouts) of N playouts from the empty
board, the rate its playouts per second: what levels 4 and 5 turn into more playouts a turn
under their seconds caps.  Prints figures; never fails on them.  Example::

    python bench/playout_speed.py --board clearpath:9 --board nakeddiagonal:13 --seconds 1
    python bench/playout_speed.py --level 4 --search 2000 --cpu
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
DEFAULT_BOARDS = (
    "clearpath:9",
    "minefield:9",
    "crosscut:9",
    "nakeddiagonal:9",
    "clearcut:9",
    "clearpath:13",
    "nakeddiagonal:13",
)

# Run inside the measured tree: playouts/s of the level's playout from the empty board.
CHILD = """
import json, sys, time
from ai.levels import LEVELS
from ai.search import Searcher
from rules import new_game
name, size, level, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
clock = time.process_time if sys.argv[5] == "cpu" else time.perf_counter
searcher = Searcher(new_game(name, size), 1, LEVELS[level].config)
count, start = 0, clock()
while clock() - start < seconds:
    searcher._playout(searcher.game.copy(), 0, [], None)
    count += 1
print(json.dumps(count / (clock() - start)))
"""

# The same for a whole search of a fixed number of playouts (``--search``).
CHILD_SEARCH = """
import json, sys, time
from ai.levels import LEVELS
from ai.search import Budget, search
from rules import new_game
name, size, level, playouts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
clock = time.process_time if sys.argv[5] == "cpu" else time.perf_counter
start = clock()
found = search(new_game(name, size), Budget(playouts=playouts), seed=1, config=LEVELS[level].config)
print(json.dumps(found.playouts / (clock() - start)))
"""


def measure(
    tree: Path, board: str, level: int, seconds: float, cpu: bool = False, search: int = 0
) -> float:
    name, size = board.split(":")
    clock = "cpu" if cpu else "wall"
    code, amount = (CHILD_SEARCH, str(search)) if search else (CHILD, str(seconds))
    out = subprocess.run(
        [sys.executable, "-c", code, name, size, str(level), amount, clock],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    return float(json.loads(out.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", action="append", type=Path, help="source trees (first: base)")
    parser.add_argument("--board", action="append", help="game:size (repeatable)")
    parser.add_argument("--level", type=int, default=3, help="whose playout (default 3)")
    parser.add_argument("--seconds", type=float, default=1.0, help="per round and tree")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--cpu", action="store_true", help="per CPU second, not wall-clock")
    parser.add_argument(
        "--search", type=int, default=0, help="time whole searches of this many playouts"
    )
    args = parser.parse_args()
    trees: list[Path] = args.tree or [Path("/work/main"), HERE]
    boards: list[str] = args.board or list(DEFAULT_BOARDS)
    print("board".ljust(18) + "".join(str(t)[-24:].rjust(26) for t in trees) + "   ratio")
    for board in boards:
        best = [0.0] * len(trees)
        for _ in range(args.rounds):
            for i, tree in enumerate(trees):
                rate = measure(tree, board, args.level, args.seconds, args.cpu, args.search)
                best[i] = max(best[i], rate)
        ratios = " ".join(f"{b / best[0]:.2f}x" for b in best[1:])
        print(board.ljust(18) + "".join(f"{b:26.0f}" for b in best) + f"   {ratios}")


if __name__ == "__main__":
    main()
