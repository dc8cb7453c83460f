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


def step_alike(plain: Game, fast: Game, rnd: random.Random) -> None:
    """Play one random legal move on a plain engine and on one using search fast paths, and
    check they offer the same moves and end in the same state."""
    assert fast.legal_moves() == plain.legal_moves()
    move = rnd.choice(plain.legal_moves())
    assert plain.play(move) == fast.play(move)
    assert fast.state_key() == plain.state_key()


def end_alike(plain: Game, fast: Game) -> None:
    """Both games ended the same way, and undoing every move keeps them in the same state."""
    assert fast.is_over and fast.winner == plain.winner
    assert fast.record() == plain.record()
    while fast.history:
        fast.pop()
        plain.pop()
        assert fast.state_key() == plain.state_key()
