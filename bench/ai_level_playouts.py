"""Playouts a level's search reaches within its caps, from positions every version of the code
builds alike.

Levels 4 and 5 (and 3 in Naked Diagonal) are bound by their seconds cap in real play, so the
playouts a search gets through in those seconds are its strength there.  The positions come
from plain random play through the engine's public API only (``legal_moves`` and ``play``),
so checking out an older commit and running this file from it measures the same positions,
for before/after figures of a change to the search's speed.  Prints figures; never fails on
them.  Example::

    python bench/ai_level_playouts.py --level 4 --board clearpath:19 --board clearcut:9
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.levels import LEVELS
from ai.search import search
from rules import Game, new_game

DEFAULT_BOARDS = ("clearpath:9", "clearcut:9", "nakeddiagonal:7", "clearpath:19")
FILLS = (0.0, 0.25, 0.5)


def position(name: str, size: int, fill: float, rng: random.Random) -> Game | None:
    """The game after random legal moves covering about ``fill`` of the board (None if it
    ended first), its legal mask known as in a real game."""
    game = new_game(name, size)
    while len(game.history) < int(fill * size * size) and not game.is_over:
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    if game.is_over:
        return None
    game.legal_mask()
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", help="game:size (repeatable)")
    parser.add_argument("--level", type=int, default=4, choices=sorted(LEVELS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    level = LEVELS[args.level]
    rng = random.Random(args.seed)
    for board in args.board or DEFAULT_BOARDS:
        name, _, size_text = board.partition(":")
        size = int(size_text)
        for fill in FILLS:
            game = position(name, size, fill, rng)
            if game is None:
                continue
            budget = level.budget_for(game.name, size)
            result = search(game, budget, seed=args.seed, config=level.config)
            print(
                f"level {level.number} {name} {size}x{size} {len(game.history):3d} plies: "
                f"{result.playouts:5d} playouts in {result.seconds:5.2f} s "
                f"({result.playouts_per_second:6.0f}/s, {result.reason})",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
