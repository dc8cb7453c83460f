"""Who wins small Minefield boards with perfect play: an exhaustive search (prints figures).

The level matches found that in Minefield the stronger the players, the more often the second
player wins at 7×7 (docs/ai.md, "Strength").  This asks the engine itself, on boards small
enough to search to the end: a plain negamax with a table of positions (the owner of every
point and the player to move), using only the public engine API.  4×4 takes about a minute
and a half here; 5×5 did not finish in nine minutes.

    python bench/minefield_solve.py 4
"""

from __future__ import annotations

import argparse
import sys
import time

from ai.moves import legal_moves, play
from rules import Game, new_game


def first_player_wins(size: int) -> tuple[bool, int, int]:
    """Whether the first player wins ``size``×``size`` Minefield, nodes visited, positions."""
    game = new_game("minefield", size)
    table: dict[tuple[str | None, tuple[str | None, ...]], bool] = {}
    nodes = 0

    def mover_wins(g: Game) -> bool:
        nonlocal nodes
        nodes += 1
        key = (g.to_move, tuple(g.cells()))
        known = table.get(key)
        if known is not None:
            return known
        mover = g.to_move
        won = False
        for move in legal_moves(g):
            play(g, move)
            if g.is_over:
                won = g.winner == mover
            elif g.to_move == mover:  # the opponent has no placement and is skipped
                won = mover_wins(g)
            else:
                won = not mover_wins(g)
            g.pop()
            if won:
                break
        table[key] = won
        return won

    return mover_wins(game), nodes, len(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", type=int, nargs="+", help="board sizes (4 is quick)")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(10_000)
    for size in args.sizes:
        started = time.perf_counter()
        try:
            wins, nodes, positions = first_player_wins(size)
        except ValueError as error:  # rules.errors.InvalidOptions: a size Minefield refuses
            print(f"{size}×{size}: {error}")
            continue
        who = "the first player" if wins else "the second player"
        print(
            f"Minefield {size}×{size}: {who} wins with perfect play "
            f"({nodes:,} nodes, {positions:,} positions, {time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
