"""The Clearcut bitboard df-pn (ai/dfpn_clearcut.py) against the exact solver, one process.

    nice -n 10 python -m bench.clearcut_bits_compare [--budget 100000] [--positions 6]
    nice -n 10 python -m bench.clearcut_bits_compare --depths 14 12 10 8 --cap 400000

Times are CPU seconds of this process (the machine is shared, so wall time says little):

- children generated a second: the engine (``legal_moves``, then ``play`` and ``pop`` of
  each) against the bitboards (``legal``, then each placement with its removals), over the
  positions of random 4x4 games;
- the 4x4 start for the first seat: the exact solver stopped after ``--budget`` nodes (its
  nodes a second), then the df-pn solving the whole board (its expansions a second);
- random 4x4 positions after 6 plies and 5x5 positions after 16, both seats, solved by
  both (the verdicts must agree): nodes, expansions and seconds.

With ``--depths``, only the df-pn instead, on ``--size`` (5) positions after each number of random
plies (fixed seeds, both seats, at most ``--cap`` expansions each): the expansions each
took, for an extrapolation of the whole board from how fast they grow per ply.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from ai.clearcut_bits import ClearcutBits
from ai.connection import stone_masks
from ai.dfpn_clearcut import ClearcutDfpn
from ai.solver import SEATS, SearchLimit, Solver
from rules import Game, new_game


def position(size: int, plies: int, seed: int) -> Game | None:
    rng = random.Random(seed)
    game = new_game("clearcut", size)
    while not game.is_over and len(game.moves) < plies:
        game.play(rng.choice(game.legal_moves()))
    return None if game.is_over else game


def children_rates(games: list[Game]) -> tuple[float, float, int]:
    """(engine children a second, bitboard children a second, children per pass)."""
    bits = ClearcutBits(games[0].size)
    solver = ClearcutDfpn(games[0].size, 0)
    count = 0
    started = time.process_time()
    for game in games:
        for move in game.legal_moves():
            game.play(move)
            game.pop()
            count += 1
    engine = count / (time.process_time() - started)
    started = time.process_time()
    for game in games:
        assert game.to_move is not None
        mover = game.players.index(game.to_move)
        black, white = stone_masks(game)
        own, opp = (black, white) if mover == 0 else (white, black)
        legal = bits.legal(own, opp)
        while legal:
            low = legal & -legal
            legal ^= low
            solver.play(black, white, mover, low.bit_length() - 1)
    return engine, count / (time.process_time() - started), count


def run_exact(game: Game, seat: int, budget: int | None) -> tuple[bool | None, int, float]:
    solver = Solver("clearcut", game.size, SEATS[seat], max_nodes=budget)
    started = time.process_time()
    try:
        verdict: bool | None = solver.wins(game)
    except SearchLimit:
        verdict = None
    return verdict, solver.nodes, time.process_time() - started


def run_bits(game: Game, seat: int) -> tuple[bool | None, int, float]:
    solver = ClearcutDfpn(game.size, seat)
    assert game.to_move is not None
    black, white = stone_masks(game)
    started = time.process_time()
    verdict = solver.wins(black, white, game.players.index(game.to_move))
    return verdict, solver.nodes, time.process_time() - started


def depths(size: int, plies_list: list[int], positions: int, cap: int, seats: int) -> int:
    for plies in plies_list:
        counts: list[int] = []
        capped = 0
        cpu = 0.0
        found = 0
        for seed in range(300):
            game = position(size, plies, seed)
            if game is None:
                continue
            black, white = stone_masks(game)
            assert game.to_move is not None
            mover = game.players.index(game.to_move)
            for seat in range(seats):
                solver = ClearcutDfpn(size, seat, max_nodes=cap)
                started = time.process_time()
                try:
                    solver.wins(black, white, mover)
                except SearchLimit:
                    capped += 1
                cpu += time.process_time() - started
                counts.append(solver.nodes)
            found += 1
            if found == positions:
                break
        counts.sort()
        mean = sum(counts) / len(counts)
        geo = math.exp(sum(math.log(max(c, 1)) for c in counts) / len(counts))
        print(
            f"{size}x{size} ply {plies} x{found}, {seats} seat(s): expansions sorted {counts}; "
            f"mean "
            f"{mean:.0f}, median {counts[len(counts) // 2]}, geometric mean {geo:.0f}; "
            f"{capped} capped at {cap}; {cpu:.1f} s CPU",
            flush=True,
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=100_000)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--depths", type=int, nargs="*", default=None)
    parser.add_argument("--cap", type=int, default=400_000)
    parser.add_argument("--size", type=int, default=5, help="the board of --depths")
    parser.add_argument(
        "--seats",
        type=int,
        choices=(1, 2),
        default=2,
        help="1: the first seat only (without draws the two searches are each other's dual)",
    )
    args = parser.parse_args(argv)
    if args.depths:
        return depths(args.size, args.depths, args.positions, args.cap, args.seats)
    games = [g for seed in range(40) for g in [position(4, seed % 10, seed)] if g is not None]
    engine, bits, count = children_rates(games)
    print(
        f"children a second over {count} children: engine {engine:.0f}, bitboards {bits:.0f}"
        f" ({bits / engine:.1f}x)",
        flush=True,
    )
    _, nodes, seconds = run_exact(new_game("clearcut", 4), 0, args.budget)
    print(f"4x4 start, exact solver: {nodes} nodes, {seconds:.1f} s, {nodes / seconds:.0f}/s")
    verdict, expansions, seconds2 = run_bits(new_game("clearcut", 4), 0)
    assert verdict, "the first seat wins Clearcut 4x4"
    print(
        f"4x4 start, df-pn: solved in {expansions} expansions, {seconds2:.1f} s, "
        f"{expansions / seconds2:.0f}/s",
        flush=True,
    )
    for size, plies in ((4, 6), (5, 16)):
        totals = {"exact": [0.0, 0.0], "df-pn": [0.0, 0.0]}
        found = 0
        for seed in range(300):
            game = position(size, plies, seed)
            if game is None:
                continue
            for seat in (0, 1):
                expected, n1, s1 = run_exact(game, seat, None)
                got, n2, s2 = run_bits(game, seat)
                if expected != got:
                    raise SystemExit(f"disagree: {SEATS[seat]} {' '.join(game.moves)}")
                totals["exact"][0] += n1
                totals["exact"][1] += s1
                totals["df-pn"][0] += n2
                totals["df-pn"][1] += s2
            found += 1
            if found == args.positions:
                break
        cells = " | ".join(
            f"{name} {int(n)} nodes {s:.2f} s {n / max(s, 1e-9):.0f}/s"
            for name, (n, s) in totals.items()
        )
        print(f"{size}x{size} ply {plies} x{found}, both seats: {cells}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
