"""The solver reduces positions only by symmetries that each game's rules keep.

A symmetry is kept when a random game and its image, replayed move by move, offer the image
of each other's legal moves at every step and end the same way (same winner, or both drawn).
Random games reach positions of every kind (Clear Path chains and swaps, Crosscut flips and
perimeter removals, Clearcut removals, skips), so this compares the rules, not one diagram.
The symmetries left out of :data:`ai.solver.GAME_SYMMETRIES` are shown to break a game,
which also shows that the comparison can fail.
"""

from __future__ import annotations

import random

import pytest

from ai.solver import GAME_SYMMETRIES, TRANSFORMS, Symmetry, symmetry
from rules import Game, new_game

SIZES = {
    "clearpath": (4, 5),
    "minefield": (4, 5),
    "clearcut": (4, 5),
    "nakeddiagonal": (4, 5),
    "crosscut": (5, 6),
}
GAMES = 12


def image(game: Game, sym: Symmetry, move: str) -> str:
    names = game.grid.names
    if move in names:
        return names[sym.perm[names.index(move)]]
    return move


def disagreement(name: str, size: int, sym: Symmetry, seed: int) -> str | None:
    """Where a random game and its image under ``sym`` part ways, or None if they never do."""
    rng = random.Random(seed)
    game, twin = new_game(name, size), new_game(name, size)
    while not game.is_over:
        moves = game.legal_moves()
        if {image(game, sym, m) for m in moves} != set(twin.legal_moves()):
            return f"legal moves differ after {game.moves}"
        if game.to_move != twin.to_move:
            return f"the mover differs after {game.moves}"
        move = rng.choice(moves)
        game.play(move)
        twin.play(image(game, sym, move))
    if not twin.is_over or twin.winner != game.winner:
        return f"the result differs after {game.moves}"
    return None


CASES = [
    pytest.param(name, size, marks=pytest.mark.slow)
    if (name, size) == ("nakeddiagonal", 5)
    else (name, size)
    for name, sizes in SIZES.items()
    for size in sizes
]
"""Naked Diagonal 5x5 games take a second or more: its area checks are the costly part."""


@pytest.mark.parametrize(("name", "size"), CASES)
def test_listed_symmetries_keep_the_rules(name: str, size: int) -> None:
    for sym_name in GAME_SYMMETRIES[name]:
        sym = symmetry(sym_name, size)
        for seed in range(GAMES):
            assert disagreement(name, size, sym, seed) is None, (name, size, sym_name)


@pytest.mark.parametrize(("name", "size"), CASES)
def test_left_out_symmetries_break_the_rules(name: str, size: int) -> None:
    for sym_name in set(TRANSFORMS) - set(GAME_SYMMETRIES[name]):
        sym = symmetry(sym_name, size)
        seeds = range(4 * GAMES)
        assert any(disagreement(name, size, sym, seed) for seed in seeds), (name, size, sym_name)


@pytest.mark.parametrize("size", [4, 5, 6])
def test_bitboard_image_matches_the_point_map(size: int) -> None:
    rng = random.Random(size)
    for sym_name in TRANSFORMS:
        sym = symmetry(sym_name, size)
        for _ in range(50):
            mask = rng.getrandbits(size * size)
            expected = sum(1 << sym.perm[i] for i in range(size * size) if mask >> i & 1)
            assert sym.apply(mask) == expected
            assert [sym.inverse[sym.perm[i]] for i in range(size * size)] == list(
                range(size * size)
            )
