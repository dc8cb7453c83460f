"""Helpers shared by the rules tests (a plainly named module, so it can't collide)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rules import Game

FOUR_GAMES = ("clearpath", "minefield", "crosscut", "clearcut")
SMALL_SIZES = {"clearpath": 4, "minefield": 4, "crosscut": 5, "clearcut": 4}


def random_playout(game: Game, rnd: random.Random, max_plies: int = 400) -> Iterator[Game]:
    """Play random legal moves until the game ends; yields after every move."""
    while not game.is_over and max_plies:
        game.play(rnd.choice(game.legal_moves()))
        max_plies -= 1
        yield game
