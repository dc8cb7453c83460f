"""A df-pn's verdicts against the exact solver's, on positions of random games.

Every df-pn here (the engine one and the four bitboard ones) is checked the same way: on a few
positions reached by random play, for both seats, its answer must equal
:class:`ai.solver.Solver`'s (itself checked against plain minimax in tests/ai/test_solver.py),
and the positions must include both wins and non-wins, or the check proves little.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ai.connection import stone_masks
from ai.solver import SEATS, Solver
from rules import Game, new_game

Verdict = Callable[[Game, int], bool]
"""The search under test: does the seat of this index (0 first, 1 second) win ``game``?"""


def random_position(
    name: str, size: int, plies: int, seed: int, *, swap: bool = False
) -> Game | None:
    """The position after ``plies`` random moves (seeded), or None if the game ended first.
    ``swap``: take the pie rule's swap whenever it is offered."""
    rng = random.Random(seed)
    game = new_game(name, size)
    while not game.is_over and len(game.moves) < plies:
        moves = game.legal_moves()
        game.play("swap" if swap and "swap" in moves else rng.choice(moves))
    return None if game.is_over else game


def bits_position(game: Game) -> tuple[int, int, int]:
    """The bitboard searches' position: first colour's stones, second's, colour to move."""
    assert game.to_move is not None
    first, second = stone_masks(game)
    return first, second, game.players.index(game.to_move)


def check_verdicts(
    name: str,
    size: int,
    plies: int,
    verdict: Verdict,
    *,
    count: int = 5,
    seeds: int = 80,
    position: Callable[[int], Game | None] | None = None,
) -> None:
    """``verdict`` agrees with the exact solver on ``count`` positions after ``plies`` random
    moves (from seeds 0, 1, ... below ``seeds``; ``position(seed)`` makes them otherwise)."""
    checked = 0
    verdicts: set[bool] = set()
    for seed in range(seeds):
        game = position(seed) if position is not None else random_position(name, size, plies, seed)
        if game is None:
            continue
        for index, seat in enumerate(SEATS):
            expected = Solver(name, size, seat).wins(game)
            assert verdict(game, index) == expected, (name, game.moves, seat)
            verdicts.add(expected)
        checked += 1
        if checked == count:
            break
    assert checked == count
    assert verdicts == {True, False}, "the positions should include wins and non-wins"
