"""The computer on a solved board's losing side: the move whose proof is largest.

The shipped sizes (ai/solved/sizes/) are checked against a plain count of the proof's lines
that shares no memo with :func:`ai.solver.proof_sizes`, and the move chosen is checked against
the sizes of every reply worked out here from the proof file alone.
"""

from __future__ import annotations

import pytest

from ai.moves import legal_moves, move_name, play
from ai.pool import think
from ai.solver import (
    SEATS,
    Seat,
    losing_side_move,
    proof_sizes,
    shipped_proof,
    shipped_sizes,
    winner_seat,
)
from bench.verify_proof import load, position_key
from rules import Game, new_game

from .test_solver import position_from_key, proof_path


def mover_seat(game: Game) -> Seat:
    assert game.to_move is not None
    return SEATS[game.players.index(game.to_move) ^ bool(getattr(game, "swapped", False))]


def lines(game: Game, winner: Seat, strategy: dict[str, str]) -> int:
    """The winner positions on every line of the proof from ``game``, with no memo at all."""
    if game.is_over:
        return 0
    if mover_seat(game) == winner:
        game.play(strategy[position_key(game)])
        count = 1 + lines(game, winner, strategy)
        game.pop()
        return count
    total = 0
    for move in game.legal_moves():
        game.play(move)
        total += lines(game, winner, strategy)
        game.pop()
    return total


def test_shipped_sizes_match_a_plain_count_of_the_proof_lines() -> None:
    data = load(proof_path("crosscut", 5))
    game = new_game("crosscut", 5)
    sizes = shipped_sizes("crosscut", 5)
    assert sizes is not None and set(sizes) == set(data["strategy"])
    for key in sorted(sizes)[:20]:
        position = position_from_key("crosscut", key, 5)
        assert sizes[key] == lines(position, data["winner_seat"], data["strategy"]), key
    # The root (the winner moves first here) covers the whole proof.
    assert sizes[position_key(game)] == lines(game, data["winner_seat"], data["strategy"])
    # Recomputed now, the sizes equal the shipped ones (the file is not stale).
    assert proof_sizes(game, data["winner_seat"], data["strategy"]) == sizes


@pytest.mark.parametrize(
    ("name", "size"), [("crosscut", 5), pytest.param("minefield", 4, marks=pytest.mark.slow)]
)
def test_the_proven_loser_plays_the_reply_with_the_largest_proof(name: str, size: int) -> None:
    """Level 3 as the loser against level 3 as the winner: each loser move is the reply whose
    line count (from the proof file, counted here) is largest; the winner still wins."""
    data = load(proof_path(name, size))
    winner: Seat = data["winner_seat"]
    game = new_game(name, size)
    loser_moves = real_choices = 0
    while not game.is_over:
        result = think(game, level=3, seed=1)
        if mover_seat(game) == winner:
            assert result.reason == "solved board"
        else:
            assert result.reason == "solved board, losing side"
            counts = {}
            for move in legal_moves(game):
                play(game, move)
                counts[move_name(game, move)] = lines_from_reply(game, winner, data["strategy"])
                game.pop()
            assert counts[result.move] == max(counts.values()), counts
            real_choices += len(set(counts.values())) > 1
            loser_moves += 1
        game.play(result.move)
    assert loser_moves >= 2 and real_choices >= 1, "no choice here could have gone wrong"
    assert winner_seat(game) == winner


def lines_from_reply(game: Game, winner: Seat, strategy: dict[str, str]) -> int:
    return lines(game, winner, strategy)


def test_the_losing_side_rule_needs_a_solved_board_and_level_three() -> None:
    game = new_game("minefield", 4)
    game.play("a2")  # a proven winning first move: the second seat to move loses
    assert losing_side_move(game) is not None
    assert think(game, level=2, seed=1).reason != "solved board, losing side"
    assert losing_side_move(new_game("minefield", 5)) is None  # not solved
    assert losing_side_move(new_game("minefield", 4)) is None  # the winner is to move


def test_a_position_off_the_proof_is_left_to_the_search() -> None:
    """Once the winner leaves its strategy, the proof says nothing, so the search decides."""
    proof = shipped_proof("minefield", 4)
    assert proof is not None and proof.winner_seat == "first"
    game = new_game("minefield", 4)
    # The winner opens off the proof: every position after it lies outside the strategy.
    off = next(m for m in game.legal_moves() if m != proof.strategy[position_key(game)])
    game.play(off)
    assert losing_side_move(game) is None
    assert think(game, level=3, seed=1).reason != "solved board, losing side"
