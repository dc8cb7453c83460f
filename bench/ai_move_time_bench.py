"""Worst-case thinking time of each level against its seconds cap, on the slowest boards.

Prints figures; never fails on them.  For every level and every (game, size) listed, the AI
chooses a move (exactly as the bot does: ``ai.think`` with the level's full budget) in a few
positions: the opening and positions after random play filled part of the board.  The line per
level gives the slowest move and its ratio to the cap (the target is at most cap + 10 %).

    python bench/ai_move_time_bench.py                      # Naked Diagonal 13, Clear Path 19
    python bench/ai_move_time_bench.py --board clearpath:7 --levels 1 3
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import LEVELS, think
from ai.moves import prepare, random_point
from rules import Game, new_game

DEFAULT_BOARDS = ("nakeddiagonal:13", "clearpath:19")
FILLS = (0.0, 0.25, 0.5)


def position(name: str, size: int, fill: float, rng: random.Random) -> Game | None:
    """A position after random legal moves covering about ``fill`` of the board."""
    game = new_game(name, size)
    prepare(game)  # Naked Diagonal: decide single points, not whole masks, while setting up
    target = int(fill * size * size)
    while len(game.history) < target and not game.is_over:
        point = random_point(game, rng.random)
        if point is not None:
            game.play_index(point)
        else:
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
    if game.is_over:
        return None
    game.legal_mask()  # as in a real game, the engine knows the legal moves before the AI thinks
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", help="game:size (repeatable)")
    parser.add_argument("--levels", type=int, nargs="*", default=sorted(LEVELS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    boards = args.board or list(DEFAULT_BOARDS)
    rng = random.Random(args.seed)
    positions: list[tuple[str, Game]] = []
    for board in boards:
        name, _, size_text = board.partition(":")
        size = int(size_text)
        for fill in FILLS:
            game = position(name, size, fill, rng)
            if game is not None:
                positions.append((f"{name} {size}x{size} {len(game.history)} plies", game))
    for number in args.levels:
        level = LEVELS[number]
        cap = level.budget.seconds or 0.0
        worst = 0.0
        where = ""
        for label, game in positions:
            started = time.perf_counter()
            result = think(game, level, seed=args.seed)
            took = time.perf_counter() - started
            print(
                f"level {number} {label}: {took:6.2f} s ({result.playouts} playouts, "
                f"{result.reason})",
                flush=True,
            )
            if took > worst:
                worst, where = took, label
        ratio = worst / cap if cap else 0.0
        print(
            f"LEVEL {number} cap {cap:.1f} s: worst {worst:.2f} s = {ratio:.0%} of the cap "
            f"({where}); {'within' if ratio <= 1.1 else 'OVER'} cap + 10 %",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
