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
from ai.search import search
from bench import ai_move_time_bench
from rules import new_game, parse_record
from rules.notation import parse_point

FOUND = ai_move_time_bench.chain_turn(7, random.Random(0))
assert FOUND is not None
TURN = [before for before, _ in FOUND]
"""The position before each placement of a Clear Path 7×7 chain of at least three placements."""


def test_the_chain_is_one_turn_of_one_player() -> None:
    assert len(TURN) >= 3
    assert [placements_this_turn(position) for position in TURN] == list(range(len(TURN)))
    assert len({position.to_move for position in TURN}) == 1
    assert all(chain_points(position) for position in TURN)


@pytest.mark.parametrize("number", sorted(LEVELS))
def test_the_placements_of_a_turn_share_the_level_s_seconds(number: int) -> None:
    """Each placement but the last continued the chain, so it had at most its
    ``chain_seconds``; the last, which ended the turn, at most its ``seconds``."""
    turn = LEVELS[number].budget_for("clearpath", 7)
    assert turn.seconds is not None
    given = [placement_budget(turn, position) for position in TURN]
    assert [b.seconds for b in given] == [turn.seconds / 2**k for k in range(len(TURN))]
    assert all(b.chain_seconds == (b.seconds or 0.0) / 2 for b in given)
    spent = sum(b.chain_seconds or 0.0 for b in given[:-1]) + (given[-1].seconds or 0.0)
    assert spent <= turn.seconds
    assert all(b.playouts == turn.playouts for b in given)  # playouts stay per placement


def test_a_turn_that_cannot_chain_keeps_the_whole_budget() -> None:
    turn = Budget(playouts=100, seconds=8.0)
    game = new_game("clearpath", 7)
    assert not chain_points(game)  # no point is surrounded on an empty board
    assert placement_budget(turn, game) == turn
    assert placement_budget(turn, new_game("minefield", 7)) == turn
    assert placement_budget(Budget(playouts=50), TURN[1]) == Budget(playouts=50)


@pytest.mark.parametrize(
    ("playouts", "seconds", "chain"),
    [(None, None, 1.0), (10, None, 1.0), (10, 1.0, 0), (10, 1.0, 2.0)],
)
def test_chain_seconds_need_seconds_to_fit_in(
    playouts: int | None, seconds: float | None, chain: float
) -> None:
    with pytest.raises(ValueError, match="seconds"):
        Budget(playouts=playouts, seconds=seconds, chain_seconds=chain)


CHAIN_FAVOURED = "clearpath 7: e6 c3 c4 f7 c7 a6"
"""A position whose search at these budgets usually chooses a chain placement (e7)."""


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("record", [TURN[0].record(), CHAIN_FAVOURED])
def test_a_chain_placement_is_chosen_only_within_its_seconds(record: str, seed: int) -> None:
    """Past ``chain_seconds`` the search either stops with a chain placement it has visited or
    goes on and plays a move that ends the turn, with the rest of its seconds."""
    game = parse_record(record)
    chained = chain_points(game)
    budget = Budget(playouts=10**6, seconds=0.45, chain_seconds=0.15)
    result = search(game, budget, seed=seed)
    point = parse_point(result.move, game.size) if result.move != "swap" else None
    if point is not None and chained >> point & 1:
        assert result.seconds <= 0.15 + 0.05, result
    else:
        assert result.seconds >= 0.4, result


def test_the_rest_of_a_chain_gets_what_the_cap_leaves() -> None:
    """The computer finishes a chain under way, choosing its own placements as the bot asks
    for them (``think`` with the level), with a cap small enough to bind: after one placement
    the rest of the turn has half the cap.  Before the split, each placement took the whole
    cap."""
    cap = 0.4
    level = replace(LEVELS[5], budget=Budget(playouts=10**6, seconds=cap))
    game = TURN[1].copy()
    mover = game.to_move
    started = time.perf_counter()
    reasons = []
    while not game.is_over and game.to_move == mover:
        result = think(game, level, seed=1)
        reasons.append(result.reason)
        if not game.play(result.move).continues:
            break
    took = time.perf_counter() - started
    assert reasons[0] == "search"  # ended by the clock, not by a proof
    assert took <= 1.25 * cap / 2, f"{len(reasons)} placements took {took:.2f} s of {cap / 2} s"
