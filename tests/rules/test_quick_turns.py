"""Clearcut's and Clear Path's search fast paths give exactly the full legal mask's verdicts.

``use_quick_turns`` leaves the next player's mask uncomputed when some point is surely
legal, ``point_is_legal`` decides one point and ``sample_legal_point`` draws by rejection
(rules/quick_turns.py).  Each is compared with the plain engine, whose masks
test_reference_crosscheck.py compares with a literal reading of the rules, on every position
of random games, and the draw is checked for uniformity.
"""

from __future__ import annotations

import random

import pytest
from rules_helpers import end_alike, step_alike

from rules import Game, new_game
from rules.clearcut import Clearcut
from rules.geometry import DIAGONAL
from rules.quick_turns import QuickTurns

GAMES = ["clearcut", "clearpath", "crosscut"]


def quick_game(name: str, size: int) -> QuickTurns:
    game = new_game(name, size)
    assert isinstance(game, QuickTurns)
    game.use_quick_turns()
    return game


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("size", [5, 7, 9])
def test_quick_turns_play_exactly_like_the_engine(name: str, size: int) -> None:
    rnd = random.Random(f"{name}-{size}")
    lazy = refused = 0
    for _ in range(6 if size < 9 else 3):
        plain, quick = new_game(name, size), quick_game(name, size)
        while not plain.is_over:
            mask = plain.legal_mask()
            if quick._legal is None:  # the skip check left the mask uncomputed
                lazy += 1
                probe = quick.copy()
                assert isinstance(probe, QuickTurns)
                for p in range(quick.grid.area):
                    assert probe.point_is_legal(p) == bool(mask >> p & 1), (plain.moves, p)
                assert probe._legal is None, "deciding points must not compute the mask"
                point = probe.sample_legal_point(rnd.random)
                assert point is not None and mask >> point & 1, (plain.moves, point)
                refused += (probe._quick_masks(probe._turn)[1] & ~mask).bit_count()
            step_alike(plain, quick, rnd)
        end_alike(plain, quick)
    assert lazy > 30
    if size == 7:
        assert refused > 0, "no point needing the costly test was refused by it"


def uniformity(game: Game, trials_per_point: int = 40) -> tuple[float, int]:
    """(chi-square, degrees of freedom) of rejection draws over the legal points."""
    assert isinstance(game, QuickTurns) and game._legal is None
    legal = set(game.copy().legal_points())
    counts = dict.fromkeys(legal, 0)
    rnd = random.Random(5)
    trials = trials_per_point * len(legal)
    for _ in range(trials):
        point = game.sample_legal_point(rnd.random)
        assert point in counts
        counts[point] += 1
    expected = trials / len(legal)
    return sum((n - expected) ** 2 / expected for n in counts.values()), len(legal) - 1


@pytest.mark.parametrize("name", GAMES)
def test_the_draw_is_uniform_over_the_legal_points_where_some_candidates_fail(name: str) -> None:
    """A position where some points needing the costly test are illegal, so the rejection
    matters; 2.0 x the degrees of freedom is far beyond p = 0.001 (fixed seeds: no flakes)."""
    rnd = random.Random(3)
    for _ in range(200):
        plain, quick = new_game(name, 7), quick_game(name, 7)
        while not plain.is_over:
            move = rnd.choice(plain.legal_moves())
            plain.play(move)
            quick.play(move)
            if quick.is_over or quick._legal is not None:
                continue
            maybe = quick._quick_masks(quick._turn)[1]
            if maybe & ~plain.legal_mask() and plain.legal_mask().bit_count() > 10:
                chi2, freedom = uniformity(quick)
                assert chi2 < 2.0 * freedom, (plain.moves, chi2)
                return
    raise AssertionError("no position with a refused candidate point")


def test_clearcut_candidates_written_out_match_the_general_shifts() -> None:
    """``Clearcut._crosscut_candidates`` spells its shifts out for speed; the general
    ``Grid.shift`` form of the same expression must give the same points on every board."""
    rnd = random.Random(1)
    nonzero = 0
    for size in (4, 7, 13, 19):
        for _ in range(4):
            game = new_game("clearcut", size)
            assert isinstance(game, Clearcut)
            g = game.grid
            while not game.is_over:
                for player in (0, 1):
                    own, opp = game._stones[player], game._stones[1 - player]
                    general = 0
                    for dx, dy in DIAGONAL:
                        general |= g.shift(own, dx, dy) & g.shift(opp, dx, 0) & g.shift(opp, 0, dy)
                    general &= g.full & ~(own | opp)
                    assert game._crosscut_candidates(player) == general, (size, game.moves)
                    nonzero += general != 0
                game.play(rnd.choice(game.legal_moves()))
    assert nonzero > 100
