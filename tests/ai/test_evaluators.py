"""The search's evaluator protocol (ai/evaluators.py): each source of knowledge answers the
same two questions, and answers them as the code it replaced in the search did.

The search's fixed-seed games (test_fixed_seed.py) prove the search plays byte-identically
through the protocol; these check each evaluator on its own against an independent answer:
plain minimax for the solver, the finished game for a playout, move_priors for the priors.
"""

from __future__ import annotations

import random

import pytest

from ai.connection import move_priors
from ai.endgame import Endgame
from ai.evaluators import (
    DRAW,
    ConnectionPrior,
    Evaluator,
    Leaf,
    PlayoutEvaluator,
    SolverEvaluator,
)
from ai.playouts import NEAR_LAST, UNIFORM
from ai.search import DEFAULT_CONFIG, Searcher
from rules import new_game

from .test_endgame import random_position
from .test_solver import minimax, winner_seat_of_mover


def test_the_three_sources_share_one_protocol() -> None:
    game = new_game("minefield", 5)
    index = {c: i for i, c in enumerate(game.players)}
    evaluators: list[Evaluator] = [
        PlayoutEvaluator(UNIFORM, random.Random(1).random, index),
        ConnectionPrior(),
        SolverEvaluator(Endgame(game, 25), 1000),
    ]
    for evaluator in evaluators:
        assert callable(evaluator.evaluate) and callable(evaluator.prior)
    # Only the priors give priors; only the others evaluate.
    assert [e.prior(game) is None for e in evaluators] == [True, move_priors(game) is None, True]
    assert ConnectionPrior().evaluate(game, Leaf(0)) is None


@pytest.mark.parametrize("name", ["minefield", "nakeddiagonal", "clearpath"])
def test_the_solver_evaluator_names_minimaxs_winner(name: str) -> None:
    """Person 0 moves: a forced win is 0, a forced loss 1, neither None."""
    checked = 0
    for seed in range(60):
        game = random_position(name, 4, 7, seed)
        if game is None:
            continue
        value = minimax(game, winner_seat_of_mover(game), set())
        winner = SolverEvaluator(Endgame(game, 99), 100_000).evaluate(game, Leaf(0))
        assert winner == {1: 0, -1: 1, 0: None}[value], (name, game.moves)
        checked += 1
        if checked == 5:
            break
    assert checked == 5


def test_the_solver_evaluator_leaves_an_open_board_alone() -> None:
    game = new_game("minefield", 7)
    assert SolverEvaluator(Endgame(game, 10), 100_000).evaluate(game, Leaf(0)) is None


@pytest.mark.parametrize("name", ["clearpath", "minefield", "crosscut", "clearcut"])
def test_a_playout_to_the_end_reports_the_games_winner_and_its_moves(name: str) -> None:
    game = new_game(name, 7)
    index = {c: i for i, c in enumerate(game.players)}
    playout = NEAR_LAST if name == "clearpath" else UNIFORM
    for seed in range(5):
        work = game.copy()
        leaf = Leaf(0)
        outcome = PlayoutEvaluator(playout, random.Random(seed).random, index, fast=False).evaluate(
            work, leaf
        )
        assert work.is_over
        expected = DRAW if work.winner is None else index[work.winner] ^ leaf.flip
        assert outcome == expected
        assert len(leaf.played) <= len(work.moves)
        assert all(person in (0, 1) for _, person in leaf.played)


def test_a_playout_past_its_deadline_evaluates_nothing() -> None:
    game = new_game("minefield", 7)
    index = {c: i for i, c in enumerate(game.players)}
    leaf = Leaf(0, deadline=0.0)
    assert PlayoutEvaluator(UNIFORM, random.Random(1).random, index).evaluate(game, leaf) is None
    assert leaf.played == [] and not game.moves


def test_the_searcher_holds_its_evaluators_by_what_the_level_uses() -> None:
    game = new_game("minefield", 7)
    searcher = Searcher(game, 1, DEFAULT_CONFIG)
    assert isinstance(searcher.rollout, PlayoutEvaluator)
    assert (searcher.exact is None) == (DEFAULT_CONFIG.endgame_empties == 0)
    assert (searcher.priors is None) == (not searcher.prior_weight)
