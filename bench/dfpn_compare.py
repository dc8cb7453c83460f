"""df-pn against the exact depth-first solver on the same positions: verdicts, nodes, time.

    nice -n 10 python -m bench.dfpn_compare [--positions 6]

Positions are random games' early and middle positions (fixed seeds).  Prints one line per
game and board: both searches' node counts, seconds and nodes a second.  A disagreement is
an error.  It never fails on time.  A df-pn node is one expansion (all children generated);
an old-solver node is one position entered, so compare the seconds as well as the nodes.
"""

from __future__ import annotations

import argparse
import random
import time

from ai.dfpn import DfpnSolver
from ai.solver import SEATS, Solver
from rules import Game, new_game

BOARDS = (("minefield", 4, 5), ("nakeddiagonal", 4, 5), ("clearpath", 4, 5))
BOARDS_5 = (("minefield", 5, 14), ("nakeddiagonal", 5, 14), ("clearpath", 5, 16))


def position(name: str, size: int, plies: int, seed: int) -> Game | None:
    rng = random.Random(seed)
    game = new_game(name, size)
    while not game.is_over and len(game.moves) < plies:
        game.play(rng.choice(game.legal_moves()))
    return None if game.is_over else game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6)
    args = parser.parse_args(argv)
    for name, size, plies in BOARDS + BOARDS_5:
        figures = {"old": [0, 0.0], "dfpn": [0, 0.0]}
        found = 0
        for seed in range(200):
            game = position(name, size, plies, seed)
            if game is None:
                continue
            for seat in SEATS:
                verdicts = []
                for label, cls in (("old", Solver), ("dfpn", DfpnSolver)):
                    solver = cls(name, size, seat)
                    started = time.perf_counter()
                    verdicts.append(solver.wins(game))
                    figures[label][0] += solver.nodes
                    figures[label][1] += time.perf_counter() - started
                if verdicts[0] != verdicts[1]:
                    raise SystemExit(f"disagree: {name} {size} {seat} {game.moves}")
            found += 1
            if found == args.positions:
                break
        cells = []
        for label, (nodes, seconds) in figures.items():
            rate = nodes / seconds if seconds else 0.0
            cells.append(f"{label} {nodes:>8} nodes {seconds:7.2f} s {rate:7.0f}/s")
        print(f"{name:>13} {size}x{size} ply {plies:2} x{found}: " + " | ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
