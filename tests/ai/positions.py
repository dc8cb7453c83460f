"""Positions for the AI tests: random legal play from a given game."""

from __future__ import annotations

import random

from rules import Game


def random_position(game: Game, rng: random.Random, plies: int) -> Game:
    """``game`` after up to ``plies`` random legal moves (fewer if it ends), for convenience."""
    for _ in range(plies):
        if game.is_over:
            break
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    return game
