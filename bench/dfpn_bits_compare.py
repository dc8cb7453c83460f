"""The bitboard df-pn (ai/dfpn_bits.py) against the engine df-pn (ai/dfpn.py), one run.

    nice -n 10 python -m bench.dfpn_bits_compare [--budget 20000] [--positions 6]
    nice -n 10 python -m bench.dfpn_bits_compare --game nakeddiagonal --budget 5000 --no-4

Three measurements of one game (Minefield unless ``--game`` says otherwise), both searches in
the same process, one after the other, timed in CPU seconds of this process (the machine is
shared; wall-clock seconds measured the load as much as the search):

- the 5x5 start, each search stopped after ``--budget`` expansions (expansions a second on
  the same position: the node's cost, since both expand the same way);
- random 5x5 positions after ``--plies`` plies (fixed seeds), both seats, solved to the end
  by both (the verdicts must agree): expansions and seconds, which shows the pruning too;
- the whole 4x4 board for the seat that wins it (``--no-4`` leaves it out: the engine df-pn
  takes about a minute for Minefield).
"""

from __future__ import annotations

import argparse
import random
import time

from ai.connection import stone_masks
from ai.dfpn import DfpnSolver
from ai.dfpn_bits import BitsDfpn
from ai.solver import SEATS, SearchLimit
from rules import Game, new_game
from rules.nd_area import forget_memos

GAME = "minefield"
"""The game measured (``--game``)."""
WINNER_4 = {"minefield": 0, "nakeddiagonal": 1}
"""The seat that wins each game's 4x4 board (docs/solved.md)."""


def position(size: int, plies: int, seed: int) -> Game | None:
    rng = random.Random(seed)
    game = new_game(GAME, size)
    while not game.is_over and len(game.moves) < plies:
        game.play(rng.choice(game.legal_moves()))
    return None if game.is_over else game


def run_engine(game: Game, seat: int, budget: int | None) -> tuple[bool | None, int, float]:
    solver = DfpnSolver(GAME, game.size, SEATS[seat], max_nodes=budget)
    forget_memos()  # each search starts from cold area memos: neither inherits the other's
    started = time.process_time()
    try:
        verdict: bool | None = solver.wins(game)
    except SearchLimit:
        verdict = None
    return verdict, solver.nodes, time.process_time() - started


def run_bits(game: Game, seat: int, budget: int | None) -> tuple[bool | None, int, float]:
    solver = BitsDfpn(GAME, game.size, seat, max_nodes=budget)
    assert game.to_move is not None
    black, white = stone_masks(game)
    forget_memos()
    started = time.process_time()
    try:
        verdict: bool | None = solver.wins(black, white, game.players.index(game.to_move))
    except SearchLimit:
        verdict = None
    return verdict, solver.nodes, time.process_time() - started


def line(label: str, figures: dict[str, list[float]]) -> str:
    cells = []
    for name, (nodes, seconds) in figures.items():
        cells.append(f"{name} {int(nodes):>8} exp {seconds:7.2f} s {nodes / seconds:6.0f}/s")
    return f"{label:<28}" + " | ".join(cells)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--plies", type=int, nargs="*", default=[14, 8])
    parser.add_argument("--no-start", dest="start", action="store_false")
    parser.add_argument("--no-4", dest="four", action="store_false")
    parser.add_argument("--game", choices=sorted(WINNER_4), default="minefield")
    args = parser.parse_args(argv)
    global GAME
    GAME = args.game
    runners = {"engine": run_engine, "bits": run_bits}
    if args.start:
        figures = {name: [0.0, 0.0] for name in runners}
        for name, run in runners.items():
            _, nodes, seconds = run(new_game(GAME, 5), 0, args.budget)
            figures[name] = [nodes, seconds]
        print(line(f"5x5 start, {args.budget} exp", figures), flush=True)
    for plies in args.plies:
        figures = {name: [0.0, 0.0] for name in runners}
        found = 0
        for seed in range(200):
            game = position(5, plies, seed)
            if game is None:
                continue
            for seat in (0, 1):
                verdicts = set()
                for name, run in runners.items():
                    verdict, nodes, seconds = run(game, seat, None)
                    verdicts.add(verdict)
                    figures[name][0] += nodes
                    figures[name][1] += seconds
                if len(verdicts) != 1:
                    raise SystemExit(f"disagree: {seat} {game.moves}")
            found += 1
            if found == args.positions:
                break
        print(line(f"5x5 ply {plies} x{found}, both seats", figures), flush=True)
    if args.four:
        figures = {}
        for name, run in runners.items():
            verdict, nodes, seconds = run(new_game(GAME, 4), WINNER_4[GAME], None)
            assert verdict, "the seat docs/solved.md names wins 4x4"
            figures[name] = [nodes, seconds]
        print(line(f"4x4 start, {SEATS[WINNER_4[GAME]]} seat", figures), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
