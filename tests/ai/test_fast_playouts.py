"""The playout kernels (ai/fast/) play exactly the engine's playouts.

Every game, at several board sizes, with and without the pie rule where a game may have it:
random positions, each played out with each playout a level uses, once through the engine
(``PlayoutEvaluator(fast=False)``) and once through the kernel from the same seed.  Every move
and its person, the winner, the colour flip and the random generator's state afterwards must
be the same: the kernels are only a faster way to make the same draws.
"""

from __future__ import annotations

import random

import pytest
from positions import random_position, random_stones

from ai.evaluators import Leaf, PlayoutEvaluator
from ai.fast import kernel_for
from ai.fast.glyphs import both_glyphs
from ai.moves import prepare
from ai.playouts import NEAR_LAST, ON_PATHS, UNIFORM, Playout
from rules import Game, game_class, new_game
from rules.geometry import grid
from rules.minefield import glyph_mask

SIZES = (5, 6, 7, 9, 13)
GAMES = ("clearpath", "minefield", "crosscut", "clearcut")
"""The games with kernels; Naked Diagonal's playouts stay the engine's (last test)."""
PLAYOUTS: tuple[Playout, ...] = (UNIFORM, NEAR_LAST, ON_PATHS)


def _variants() -> list[tuple[str, int, bool]]:
    found = []
    for name in GAMES:
        cls = game_class(name)
        pies = (False, True) if cls.pie_rule == "option" else (cls.pie_rule == "always",)
        for size in SIZES:
            size = min(max(size, cls.min_size), cls.max_size)
            for pie in pies:
                if (name, size, pie) not in found:
                    found.append((name, size, pie))
    return found


def _play_out(
    game: Game, playout: Playout, seed: int, fast: bool, warm: bool
) -> tuple[object, ...]:
    work = game.copy()
    rng = random.Random(seed)
    prepare(work, rng.random)
    if warm:
        work.legal_mask()  # a tree node listed its moves: the first draw is from the mask
    last = work.last_move
    point = None if last is None or last.point is None else work.grid.names.index(last.point)
    index = {colour: i for i, colour in enumerate(work.players)}
    leaf = Leaf(0, flip=seed % 2, last=point)
    outcome = PlayoutEvaluator(playout, rng.random, index, fast=fast).evaluate(work, leaf)
    return outcome, leaf.flip, leaf.played, rng.getstate()


@pytest.mark.parametrize(("name", "size", "pie"), _variants())
def test_a_kernel_plays_the_engines_playout_move_for_move(name: str, size: int, pie: bool) -> None:
    rng = random.Random(f"{name}{size}{pie}")
    used = 0
    for round_ in range(30):
        game = random_position(new_game(name, size, pie=pie), rng, rng.randrange(size * size // 2))
        if game.is_over:
            continue
        for playout in PLAYOUTS:
            if kernel_for(game, playout) is None:
                continue
            used += 1
            for seed in range(3):
                warm = (round_ + seed) % 3 == 0
                slow = _play_out(game, playout, seed, False, warm)
                fast = _play_out(game, playout, seed, True, warm)
                assert fast == slow, (game.record(), playout, seed, warm)
    assert used


def test_naked_diagonal_has_no_kernel() -> None:
    """Its legality is the area solver's (rules/nd_area.py): its playouts stay the engine's."""
    game = new_game("nakeddiagonal", 7)
    assert all(kernel_for(game, playout) is None for playout in PLAYOUTS)


@pytest.mark.parametrize("size", [4, 5, 6, 9, 13, 19])
def test_both_glyph_masks_are_the_rules_glyph_masks(size: int) -> None:
    g = grid(size)
    both = both_glyphs(size)
    rng = random.Random(size)
    for first, second in random_stones(g.area, rng, (0.1, 0.3, 0.5), 200):
        empty = g.full & ~(first | second)
        assert both(first, second, empty) == (
            glyph_mask(g, first, second, empty),
            glyph_mask(g, second, first, empty),
        )
