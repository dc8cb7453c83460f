"""Positions for the AI tests: random legal play from a given game."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from rules import Game


def random_position(game: Game, rng: random.Random, plies: int) -> Game:
    """``game`` after up to ``plies`` random legal moves (fewer if it ends), for convenience."""
    for _ in range(plies):
        if game.is_over:
            break
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    return game


def live_positions(
    make: Callable[[], Game], rng: random.Random, count: int, plies: tuple[int, int]
) -> Iterator[Game]:
    """Of ``count`` fresh games from ``make``, each after ``rng.randrange(*plies)`` random
    moves, the ones still being played (the random draws are the same whether or not the
    caller draws from ``rng`` between them)."""
    for _ in range(count):
        game = random_position(make(), rng, rng.randrange(*plies))
        if not game.is_over:
            yield game


def wins_now(game: Game, move: str) -> bool:
    """Brute force, independent of ai.tactics: does ``move`` win at once for the mover?"""
    mover = game.to_move
    game.play(move)
    try:
        return game.winner is not None and game.winner == mover
    finally:
        game.pop()


def opponent_wins_after(game: Game, move: str) -> bool:
    """Brute force, independent of ai.tactics: can the other colour win with one placement?"""
    mover = game.to_move
    game.play(move)
    try:
        if game.is_over:
            return game.winner not in (None, mover)
        if game.to_move == mover:
            return False
        return any(wins_now(game, reply) for reply in game.legal_moves())
    finally:
        game.pop()
