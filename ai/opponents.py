"""Simple reference opponents that the search must beat (benchmark and tests).

``greedy_move`` is the benchmark's one-ply player: it wins when it can, blocks when it must
(avoids every move that lets the opponent win at once, when some move avoids it), and
otherwise plays uniformly at random.
"""

from __future__ import annotations

import random

from rules import Game

from .moves import legal_moves, move_name
from .tactics import safe_moves, winning_moves


def random_move(game: Game, rng: random.Random) -> str:
    """A uniformly random legal move."""
    moves = legal_moves(game)
    return move_name(game, moves[rng.randrange(len(moves))])


def greedy_move(game: Game, rng: random.Random) -> str:
    """Win in one if possible; else a random move that does not lose in one, if any."""
    moves = legal_moves(game)
    wins = winning_moves(game, moves)
    if wins:
        return move_name(game, wins[rng.randrange(len(wins))])
    safe = safe_moves(game, moves)
    return move_name(game, safe[rng.randrange(len(safe))])
