"""A level's seconds cap holds for a whole turn: the placements of a Clear Path chain share it.

A chain is several placements by the same player, and each is a search of its own; given the
level's whole cap each, a chain of three kept a player waiting three times the cap.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from ai import LEVELS, Budget, think
from ai.levels import placement_budget
from ai.moves import chain_points, placements_this_turn
from bench import ai_move_time_bench
from rules import new_game

FOUND = ai_move_time_bench.chain_turn(7, random.Random(0))
assert FOUND is not None
TURN = [before for before, _ in FOUND]
"""The position before each placement of a Clear Path 7×7 chain of at least three placements."""


def test_the_chain_is_one_turn_of_one_player() -> None:
    assert len(TURN) >= 3
    assert [placements_this_turn(position) for position in TURN] == list(range(len(TURN)))
    assert len({position.to_move for position in TURN}) == 1
    assert all(chain_points(position) for position in TURN[:-1])


@pytest.mark.parametrize("number", sorted(LEVELS))
def test_the_placements_of_a_turn_share_the_level_s_seconds(number: int) -> None:
    level = LEVELS[number]
    turn = level.budget_for("clearpath", 7)
    given = [placement_budget(turn, position) for position in TURN]
    assert turn.seconds is not None
    assert sum(b.seconds or 0.0 for b in given) <= turn.seconds
    assert all(b.playouts == turn.playouts for b in given)  # playouts stay per placement
    assert given[0].seconds == turn.seconds / 2  # the turn may go on: half of it


def test_a_placement_that_must_end_the_turn_gets_all_that_is_left() -> None:
    turn = Budget(playouts=100, seconds=8.0)
    game = new_game("clearpath", 7)
    assert not chain_points(game)  # no point is surrounded on an empty board
    assert placement_budget(turn, game) == turn
    minefield = new_game("minefield", 7)
    assert placement_budget(turn, minefield) == turn
    assert placement_budget(Budget(playouts=50), TURN[1]) == Budget(playouts=50)


def test_a_whole_chain_stays_within_the_cap() -> None:
    """Each placement of the chain searched as the bot asks (``think`` with the level), with a
    cap small enough to bind: before the split, each search took the whole cap."""
    cap = 0.4
    level = replace(LEVELS[5], budget=Budget(playouts=10**6, seconds=cap))
    started = time.perf_counter()
    reasons = [think(position, level, seed=1).reason for position in TURN]
    took = time.perf_counter() - started
    assert reasons[0] == "search"  # ended by the clock, not by a proof
    assert took <= 1.25 * cap, f"{len(TURN)} placements took {took:.2f} s against {cap} s"
