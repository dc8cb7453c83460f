"""How a bitboard df-pn search grows with the empty board: an extrapolation of a whole solve.

    nice -n 10 python -m bench.dfpn_bits_growth nakeddiagonal 5 --plies 14 12 10 8

Solves random positions (fixed seeds, random legal moves) after each number of plies, for
the seat to move (with no drawn position on the way the other seat's search is the same
search with the numbers exchanged, docs/solved.md), and prints the geometric mean of the
expansions per ply count, then the growth factor per ply fitted to their logarithms (least
squares) and what it gives at ply 0.  Random positions are not the positions a proof goes
through, so this is an order of magnitude, not a forecast: Minefield 5x5 was put at
10^7-10^8 this way and took 1.4 x 10^7.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from ai.connection import stone_masks
from ai.dfpn_bits import BITS_GAMES, BitsDfpn
from rules import Game, new_game


def position(name: str, size: int, plies: int, seed: int) -> Game | None:
    rng = random.Random(seed)
    game = new_game(name, size)
    while not game.is_over and len(game.moves) < plies:
        game.play(rng.choice(game.legal_moves()))
    return None if game.is_over else game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(BITS_GAMES))
    parser.add_argument("size", type=int)
    parser.add_argument("--plies", type=int, nargs="+", default=[14, 12, 10, 8])
    parser.add_argument("--positions", type=int, default=6)
    args = parser.parse_args(argv)
    points: list[tuple[int, float]] = []
    for plies in args.plies:
        logs: list[float] = []
        started = time.process_time()
        for seed in range(1000):
            game = position(args.game, args.size, plies, seed)
            if game is None or game.to_move is None:
                continue
            mover = game.players.index(game.to_move)
            black, white = stone_masks(game)
            solver = BitsDfpn(args.game, args.size, mover)
            solver.wins(black, white, mover)
            logs.append(math.log(max(solver.nodes, 1)))
            if len(logs) == args.positions:
                break
        mean = sum(logs) / len(logs)
        points.append((plies, mean))
        print(
            f"ply {plies:>2} x{len(logs)}: geometric mean {math.exp(mean):10.0f} expansions, "
            f"largest {math.exp(max(logs)):10.0f}, {time.process_time() - started:.1f} CPU s",
            flush=True,
        )
    if len(points) >= 2:
        xs, ys = [p for p, _ in points], [m for _, m in points]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
            (x - mx) ** 2 for x in xs
        )
        at_zero = my - slope * mx
        print(
            f"fit: x{math.exp(-slope):.2f} expansions per ply fewer stones, "
            f"ply 0 about {math.exp(at_zero):.2g} expansions",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
