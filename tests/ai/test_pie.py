"""The computer and the pie rule: it decides the swap from its search, and never plays a proof
of the rule sheet's game (no pie rule) in a game with the pie rule chosen."""

from __future__ import annotations

import pytest

from ai.pie import pie_search, should_swap, swap_offered
from ai.pool import think
from ai.search import Budget, SearchResult
from ai.solver import Solver, position_text, proof_move, shipped_proof
from rules import new_game


def result(value: float, proven: int = 0) -> SearchResult:
    return SearchResult("c3", 100, 0.1, value, proven, "search")


def test_the_rule_of_the_decision() -> None:
    assert should_swap(result(0.3)) and not should_swap(result(0.7))
    assert should_swap(result(0.9, proven=-1))  # every placement lost: take the other side
    assert not should_swap(result(0.1, proven=1))  # a placement proven to win: play it


@pytest.mark.parametrize("name", ["minefield", "clearcut", "nakeddiagonal", "clearpath"])
def test_swap_is_offered_to_the_computer_only_at_its_moment(name: str) -> None:
    game = new_game(name, 5, pie=True)
    assert not swap_offered(game)
    game.play("c3")
    assert swap_offered(game)
    plain = game.without_swap()
    assert "swap" not in plain.legal_moves() and plain.cells() == game.cells()
    assert plain.to_move == game.to_move and "swap" in game.legal_moves()  # the original
    game.play("b2")
    assert not swap_offered(game)


@pytest.mark.slow
def test_it_keeps_a_clearly_bad_opening() -> None:
    # Minefield 4×4: Black's b2 loses against best play (the solver proves White wins; its
    # first seat wins only with a2, d2, a3 or d3, docs/solved.md).  White plays on.
    game = new_game("minefield", 4, pie=True)
    game.play("b2")
    plain = new_game("minefield", 4)
    plain.play("b2")
    assert Solver("minefield", 4, "second").wins(plain)
    chosen = think(game, 3, seed=1, budget=Budget(playouts=1000))
    assert chosen.move != "swap" and game.is_legal(chosen.move)
    assert chosen.value > 0.6


@pytest.mark.slow
def test_it_swaps_a_clearly_winning_opening() -> None:
    # Clearcut 5×5: the centre is the strongest first move by far (the search rates the best
    # answer to it well below even, and every other first move near even or above).
    game = new_game("clearcut", 5, pie=True)
    game.play("c3")
    chosen = think(game, 4, seed=1, budget=Budget(playouts=5000))
    assert chosen.move == "swap" and chosen.value > 0.5
    after = game.copy()
    after.play(chosen.move)
    assert after.swapped
    # The same search without the swap on offer is what the decision read.
    plain = pie_search(game.without_swap(), Budget(playouts=5000), seed=1)
    assert plain.move != "swap"


def test_no_proof_of_the_plain_game_is_used_in_a_pie_game() -> None:
    # Minefield 4×4 is solved without the pie rule (the first seat wins); the proof says
    # nothing about the game with it, so the computer must search there instead.
    assert shipped_proof("minefield", 4) is not None
    assert shipped_proof("minefield+pie", 4) is None
    plain, pie = new_game("minefield", 4), new_game("minefield", 4, pie=True)
    assert proof_move(plain) is not None
    assert proof_move(pie) is None
    first = proof_move(plain)
    assert first is not None
    for game in (plain, pie):
        game.play(first)
    # Blue's reply: with the pie rule the position is keyed as the swap's moment ("s").
    assert position_text(pie).endswith("/o/s") and position_text(plain).endswith("/o/-")
    reply = next(m for m in plain.legal_moves())
    for game in (plain, pie):
        game.play(reply)
    # The stones are the same, Black is to move: the plain game plays its proof, the pie
    # game does not.
    assert position_text(pie) == position_text(plain)
    assert proof_move(plain) is not None and proof_move(pie) is None
    assert think(pie, 3, seed=1, budget=Budget(playouts=50)).reason != "solved board"
