"""How fast Clear Path's proofs grow with the stones left to play: an extrapolation to 5x5.

    nice -n 10 python -m bench.clearpath_growth [--size 5] [--plies 14 12 10 8] [--positions 4]

Solves random positions of the board after each number of plies (from the empty board, a
random placement among those that leave the other side no win in one, the swap taken half
the time when offered; positions already decided, where the mover has a win in one or every
placement leaves one, are skipped: pure random play decides a 5x5 game within a few plies,
and the search settles such positions in a handful of expansions) with the bitboard df-pn
(ai/dfpn_clearpath.py), once per seat, and prints the expansions it took to settle each (the
sum over both seats: what deciding the position costs).  A position that runs past
``--cap`` expansions counts as the cap (so a mean with a capped position is a lower bound).
The mean per ply (arithmetic: the costs are bimodal, a few hard positions among easy ones,
and the hard ones are what the whole board is made of), fitted as ``log(mean) = a + b *
plies`` by least squares and extrapolated to ply 0, is the estimate of the whole board's
cost (docs/solved.md says how far to trust it: random positions are easier than best
play's).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

from ai.connection import stone_masks
from ai.dfpn_clearpath import FLAGS, SWAP, ClearPathDfpn
from ai.solver import SearchLimit, flags
from rules import Game, new_game


def bits_state(game: Game) -> tuple[int, int, int, int]:
    assert game.to_move is not None
    red, blue = stone_masks(game)
    return red, blue, game.players.index(game.to_move), FLAGS.index(flags(game))


def open_moves(solver: ClearPathDfpn, game: Game) -> list[str]:
    """The mover's moves that leave the other side no win in one, empty if the mover has a
    settled win (a win in one, or a chain stone that wins) or every move leaves one."""
    red, blue, mover, flag = bits_state(game)
    _, legal, wins, surrounded = solver.turn(red, blue, mover, flag)
    if wins:
        return []
    keys = solver.keys_of(red, blue)
    children = solver.cp_children(red, blue, mover, flag, legal, wins, surrounded, keys)
    if any(c[5] is not None and c[2] == mover for c in children):
        return []  # a chain stone that wins for the mover (settled children, docs/solved.md)
    names = solver.cp.grid.names
    moves = ["swap" if c[7] == SWAP else names[c[7]] for c in children if c[5] is None]
    return moves


def position(size: int, plies: int, seed: int) -> Game | None:
    rng = random.Random(seed)
    game = new_game("clearpath", size)
    solver = ClearPathDfpn(size, 0)
    while len(game.moves) < plies:
        moves = open_moves(solver, game)
        if not moves:
            return None
        game.play("swap" if "swap" in moves and rng.random() < 0.5 else rng.choice(moves))
        if game.is_over:
            return None
    return game if open_moves(solver, game) else None


def settle(game: Game, cap: int) -> tuple[int, bool]:
    """(expansions over both seats, whether both finished within the cap)."""
    args = bits_state(game)
    total, done = 0, True
    for seat in (0, 1):
        solver = ClearPathDfpn(game.size, seat, max_nodes=cap)
        try:
            solver.wins(*args)
        except SearchLimit:
            done = False
        total += min(solver.nodes, cap)
    return total, done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--plies", type=int, nargs="+", default=[14, 12, 10, 8])
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--cap", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    points: list[tuple[int, float]] = []
    for plies in args.plies:
        costs: list[int] = []
        capped = 0
        seed = 0
        cpu = time.process_time()
        while len(costs) < args.positions:
            seed += 1
            game = position(args.size, plies, plies * 1000 + seed)
            if game is None:
                continue
            cost, done = settle(game, args.cap)
            costs.append(cost)
            capped += not done
        geometric = math.exp(sum(math.log(c) for c in costs) / len(costs))
        mean = sum(costs) / len(costs)
        points.append((plies, math.log(mean)))
        row = {
            "plies": plies,
            "expansions": costs,
            "mean": round(mean),
            "geometric_mean": round(geometric),
            "capped": capped,
            "cpu_seconds": round(time.process_time() - cpu, 1),
        }
        print(json.dumps(row), flush=True)
    if len(points) >= 2:
        n = len(points)
        mx = sum(x for x, _ in points) / n
        my = sum(y for _, y in points) / n
        b = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
        a = my - b * mx
        print(
            json.dumps(
                {
                    "growth_per_ply": round(math.exp(-b), 2),
                    "ply_0_estimate": f"{math.exp(a):.3g}",
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
