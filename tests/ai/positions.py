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


def random_stones(
    area: int, rng: random.Random, densities: tuple[float, ...], per_density: int
) -> Iterator[tuple[int, int]]:
    """Random stone masks (first's, second's) on a board of ``area`` points, not necessarily
    reachable in play: ``per_density`` pairs at each density, each point the first's with
    chance ``density``, else the second's with the same chance, else empty.  For comparing
    bitboard functions with their references on many shapes at once."""
    for density in densities:
        for _ in range(per_density):
            first = second = 0
            for point in range(area):
                draw = rng.random()
                if draw < density:
                    first |= 1 << point
                elif draw < 2 * density:
                    second |= 1 << point
            yield first, second
