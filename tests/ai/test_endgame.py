"""Exact endgame solving in the tree search (levels 4 and 5).

Every verdict is checked against something that shares no table with the search's solvers: a
plain minimax on 4×4 boards, and a fresh solver without symmetry on 7×7 ones.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ai.endgame import Endgame, Verdict, empty_points
from ai.levels import LEVELS
from ai.moves import legal_moves
from ai.pool import think
from ai.search import DEFAULT_CONFIG, Budget, Searcher
from ai.solver import SEATS, Seat, Solver
from ai.tactics import winning_moves
from rules import Game, new_game

from .test_solver import minimax, winner_seat_of_mover

PATH_GAMES = ("clearpath", "minefield", "clearcut", "nakeddiagonal")


def random_position(name: str, size: int, empties: int, seed: int) -> Game | None:
    """Random play until ``empties`` points are empty; None if the game ended first."""
    rng = random.Random(seed)
    game = new_game(name, size)
    while not game.is_over and empty_points(game) > empties:
        game.play(rng.choice(game.legal_moves()))
    return None if game.is_over or empty_points(game) != empties else game


def plain_verdict(game: Game) -> Verdict:
    """Who wins, from fresh solvers with no symmetry reduction."""
    mover = winner_seat_of_mover(game)
    other: Seat = SEATS[1 - SEATS.index(mover)]
    if Solver(game.name, game.size, mover, use_symmetry=False).wins(game.copy()):
        return Verdict.MOVER_WINS
    if Solver(game.name, game.size, other, use_symmetry=False).wins(game.copy()):
        return Verdict.MOVER_LOSES
    return Verdict.NEITHER


@pytest.mark.parametrize("name", ["minefield", "nakeddiagonal", "clearpath"])
def test_verdicts_match_plain_minimax_on_small_boards(name: str) -> None:
    size = 4
    seen = set()
    checked = 0
    for seed in range(60):
        game = random_position(name, size, 7, seed)
        if game is None:
            continue
        value = minimax(game, winner_seat_of_mover(game), set())
        verdict = Endgame(game, 99).verdict(game, 100_000, None)
        assert verdict is not None
        assert verdict.value == value, (name, game.moves)
        seen.add(verdict)
        checked += 1
        if checked == 6:
            break
    assert checked == 6
    assert Verdict.MOVER_WINS in seen


@pytest.mark.parametrize("name", PATH_GAMES)
def test_verdicts_match_a_fresh_solver_at_seven(name: str) -> None:
    """One Endgame answers several positions in turn (its tables carry over); each answer
    equals a fresh, symmetry-free solver's."""
    checked = 0
    endgame: Endgame | None = None
    for seed in range(40):
        game = random_position(name, 7, 9, seed)
        if game is None:
            continue
        endgame = endgame or Endgame(game, 99)
        assert endgame.verdict(game, 200_000, None) == plain_verdict(game), game.moves
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def forced_win(name: str, empties: int) -> Game:
    """A 7×7 position whose mover can force a win, but not at once, and can also throw it
    away (some move loses the win): a real choice, a few moves deep."""
    for seed in range(200):
        game = random_position(name, 7, empties, seed)
        if game is None or winning_moves(game, legal_moves(game)):
            continue
        if plain_verdict(game) is not Verdict.MOVER_WINS:
            continue
        mover = winner_seat_of_mover(game)
        for move in game.legal_moves():
            game.play(move)
            still = Solver(name, 7, mover, use_symmetry=False).wins(game.copy())
            game.pop()
            if not still:
                return game
    raise AssertionError(f"no forced-win position found in {name}")


@pytest.mark.parametrize("name", PATH_GAMES)
def test_level_four_finds_a_forced_win(name: str) -> None:
    game = forced_win(name, 10)
    mover = winner_seat_of_mover(game)
    result = think(game, level=4, seed=1)
    assert result.reason == "endgame solved" and result.proven == 1
    game.play(result.move)
    assert game.is_over or Solver(name, 7, mover, use_symmetry=False).wins(game.copy())
    # Level 3 has no endgame solver: it searches.
    game.pop()
    assert think(game, level=3, seed=1).reason != "endgame solved"


def test_tree_verdicts_back_up_to_the_root() -> None:
    """With the root's own question given no budget, the tree's questions alone prove the
    root: a proven-won child is chosen, and it wins (a fresh solver agrees)."""
    game = forced_win("minefield", 10)
    mover = winner_seat_of_mover(game)
    config = replace(DEFAULT_CONFIG, endgame_empties=49, endgame_root_nodes=1)
    searcher = Searcher(game, 1, config)
    result = searcher.run(Budget(playouts=5_000))
    assert result.proven == 1 and result.reason == "proven win"
    assert result.playouts < 5_000  # stopped once proven
    assert searcher.endgame is not None and searcher.endgame.settled > 0
    game.play(result.move)
    assert game.is_over or Solver("minefield", 7, mover, use_symmetry=False).wins(game.copy())


def test_a_lost_root_is_proven_lost_through_its_children() -> None:
    """Where every move loses, each child's verdict marks it lost and the root is proven lost,
    so the search stops early instead of sampling on."""
    for seed in range(200):
        game = random_position("minefield", 7, 10, seed)
        if game is None or plain_verdict(game) is not Verdict.MOVER_LOSES:
            continue
        config = replace(DEFAULT_CONFIG, endgame_empties=49)
        result = Searcher(game, 1, config).run(Budget(playouts=5_000))
        if result.reason == "only safe move":  # the root scans chose it: no tree to prove
            continue
        assert result.proven == -1 and result.reason == "proven loss"
        assert result.playouts < 5_000
        return
    raise AssertionError("no lost position found")


def test_the_endgame_keeps_to_the_time_cap() -> None:
    """A position too open to settle in the time: the questions are asked, and cut off by the
    clock, and the move still comes within the cap."""
    game = random_position("clearcut", 7, 20, 1)
    assert game is not None
    config = replace(DEFAULT_CONFIG, endgame_empties=49, endgame_root_nodes=10**9)
    searcher = Searcher(game, 1, config)
    result = searcher.run(Budget(seconds=1.0))
    assert searcher.endgame is not None and searcher.endgame.questions > 0
    assert result.seconds <= 1.25


def test_levels_four_and_five_solve_endgames_and_lower_levels_do_not() -> None:
    empties = [LEVELS[n].config.endgame_empties for n in range(1, 6)]
    assert empties[:3] == [0, 0, 0]
    assert 0 < empties[3] <= empties[4]
