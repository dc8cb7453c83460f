"""Puzzles: the shipped starter set re-verified by the exact solver, and answers judged."""

from __future__ import annotations

import gzip
import json
import random

import pytest

from ai.endgame import Endgame, Verdict
from ai.puzzles import MAX_WINNER_MOVES, Puzzle, Reply, answer, find_puzzle, verify
from ai.puzzles.line import LineSearch
from ai.puzzles.starter import load_starter, starter_path
from ai.solver import seat_of, winner_seat
from rules import IllegalMove, InvalidNotation, game_names

SHIPPED = [name for name in game_names() if starter_path(name).exists()]


def sample(count: int) -> list[Puzzle]:
    """A seeded random sample of the shipped puzzles, ``count`` per game."""
    rng = random.Random(48)
    picked: list[Puzzle] = []
    for name in SHIPPED:
        puzzles = list(load_starter(name))
        picked += rng.sample(puzzles, min(count, len(puzzles)))
    return picked


def test_some_starter_puzzles_ship() -> None:
    assert SHIPPED, "no ai/puzzles/<game>.json.gz ships"
    for name in SHIPPED:
        assert load_starter(name), name


def test_every_game_ships_at_least_200_puzzles() -> None:
    # Issue 48's floor; Clear Path reaches it counting a puzzle's moves in turns.
    for name in game_names():
        assert len(load_starter(name)) >= 200, name


@pytest.mark.parametrize("name", SHIPPED)
def test_starter_file_has_the_issue_format(name: str) -> None:
    document = json.loads(gzip.decompress(starter_path(name).read_bytes()))
    assert set(document) == {"puzzles"}
    required = {"id", "game", "size", "moves", "solution"}
    for entry in document["puzzles"]:
        # issue 48's fields, and the level-3 effort (ai.puzzles.difficulty) as an extra
        assert required <= set(entry) <= {*required, "effort"}
        assert entry["game"] == name
        assert isinstance(entry["size"], int) and entry["solution"]


@pytest.mark.parametrize("puzzle", sample(4), ids=lambda p: f"{p.game}-{p.size}-{p.id}")
def test_a_sample_of_the_starter_set_verifies(puzzle: Puzzle) -> None:
    assert verify(puzzle) is None
    assert 1 <= puzzle.winner_moves <= MAX_WINNER_MOVES


@pytest.mark.parametrize("puzzle", sample(2), ids=lambda p: f"{p.game}-{p.size}-{p.id}")
def test_the_puzzle_is_found_again_in_its_position(puzzle: Puzzle) -> None:
    assert find_puzzle(puzzle.position()) == puzzle


@pytest.mark.parametrize("puzzle", sample(2), ids=lambda p: f"{p.game}-{p.size}-{p.id}")
def test_playing_the_solution_solves_it(puzzle: Puzzle) -> None:
    played: list[str] = []
    for index, move in enumerate(puzzle.solution):
        game = puzzle.position()
        for done in played:
            game.play(done)
        assert game.to_move is not None
        start = puzzle.position()
        assert start.to_move is not None
        if seat_of(game, game.to_move) != seat_of(start, start.to_move):
            played.append(move)  # the bot's defence, given with the answer before
            continue
        reply = answer(puzzle, played, move)
        assert reply.correct, (index, move)
        played.append(move)
        # The defender's whole turn (a Clear Path chain: every placement) follows the line.
        assert reply.defence == puzzle.solution[index + 1 : index + 1 + len(reply.defence)]
    assert reply.solved


@pytest.mark.parametrize("puzzle", sample(2), ids=lambda p: f"{p.game}-{p.size}-{p.id}")
def test_a_wrong_first_move_is_refuted_by_a_proven_win(puzzle: Puzzle) -> None:
    game = puzzle.position()
    assert game.to_move is not None
    solver_seat = seat_of(game, game.to_move)
    wrong = next(m for m in game.legal_moves() if m != puzzle.solution[0])
    reply = answer(puzzle, [], wrong)
    assert not reply.correct and reply.refutation is not None
    refutation = reply.refutation
    assert refutation.move == wrong
    game.play(wrong)
    if game.is_over:  # a move that ends the game badly needs no reply
        assert winner_seat(game) != solver_seat and refutation.reply is None
        return
    assert game.to_move is not None
    if seat_of(game, game.to_move) == solver_seat:
        # A Clear Path chain goes on: no reply yet, and the solver proves the turn lost.
        assert refutation.reply is None
        verdict = Endgame(game, game.size**2).verdict(game, 200_000, None)
        assert verdict is Verdict.MOVER_LOSES
        return
    assert refutation.reply is not None
    game.play(refutation.reply)
    if refutation.connects:
        assert game.is_over and winner_seat(game) not in (None, solver_seat)
    elif not game.is_over:
        # The reply keeps the opponent's proven win: the solver says the solver seat loses.
        assert game.to_move is not None
        verdict = Endgame(game, game.size**2).verdict(game, 200_000, None)
        mover_is_solver = seat_of(game, game.to_move) == solver_seat
        assert verdict is (Verdict.MOVER_LOSES if mover_is_solver else Verdict.MOVER_WINS)


def test_a_tampered_puzzle_fails_verification() -> None:
    puzzle = sample(1)[0]
    game = puzzle.position()
    other = next(m for m in game.legal_moves() if m != puzzle.solution[0])
    bad = Puzzle(puzzle.id, puzzle.game, puzzle.size, puzzle.moves, (other,))
    assert verify(bad) is not None
    moved = Puzzle("0" * 12, puzzle.game, puzzle.size, puzzle.moves, puzzle.solution)
    assert verify(moved) == "the id does not match the position"


def test_an_answer_that_is_not_a_legal_point_raises() -> None:
    puzzle = sample(1)[0]
    with pytest.raises(InvalidNotation):
        answer(puzzle, [], "zz99")
    occupied = next(m for m in puzzle.moves if m != "swap")
    with pytest.raises(IllegalMove):
        answer(puzzle, [], occupied)


# A Clear Path puzzle from the 4×4 proof's lines (bench/mine_clearpath): Blue wins in two
# turns, d4-b1 (a chain) and c2-b3-c3 (a chain that connects), five placements in all; Red's
# defence between them is a chain too, c1-b2.
CHAIN = Puzzle(
    "cfdd5f855b13",
    "clearpath",
    4,
    ("a2", "a3", "a1", "d3", "d1", "a4", "b4", "d2"),
    ("d4", "b1", "c1", "b2", "c2", "b3", "c3"),
)


def test_a_clear_path_chain_is_one_move_of_the_puzzle() -> None:
    game = CHAIN.position()
    assert game.to_move is not None
    blue = seat_of(game, game.to_move)
    placements = 0
    for name in CHAIN.solution:
        assert game.to_move is not None
        placements += seat_of(game, game.to_move) == blue
        game.play(name)
    # Counted in placements the win is too long for a puzzle; counted in turns it is two.
    assert placements == 5 > MAX_WINNER_MOVES
    assert CHAIN.winner_moves == 2
    assert LineSearch(blue).moves_needed(CHAIN.position()) == 2
    assert verify(CHAIN) is None
    assert find_puzzle(CHAIN.position()) == CHAIN


def test_a_chain_is_answered_one_placement_at_a_time() -> None:
    # The first placement of the only winning turn must be solution[0].
    assert not answer(CHAIN, [], "c4").correct
    first = answer(CHAIN, [], "d4")
    # Mid-chain: right, and no defence yet (the solver places again).
    assert first == Reply(True)
    # The chain's last placement: the defence is Red's whole chain.
    assert answer(CHAIN, ["d4"], "b1") == Reply(True, defence=("c1", "b2"))
    # Later placements need not be the solution's: any that still wins in time is right (c1
    # ends the chain elsewhere), and the defence is then the longest one, chain and all.
    other = answer(CHAIN, ["d4"], "c1")
    assert other.correct and other.defence == ("b1", "b2")
    # A placement that lets the win slip is refuted by the opponent's proven win.
    wrong = answer(CHAIN, ["d4"], "b2")
    assert not wrong.correct and wrong.refutation is not None
    assert wrong.refutation.reply == "b3"
    played = ["d4", "b1", "c1", "b2"]
    for name in ("c2", "b3"):
        assert answer(CHAIN, played, name) == Reply(True)
        played.append(name)
    assert answer(CHAIN, played, "c3") == Reply(True, solved=True)


def test_a_one_placement_game_still_counts_placements() -> None:
    # Outside Clear Path a turn is one placement: the sampled shipped puzzles' winner moves
    # are their winner placements, as before turns were counted.
    for puzzle in sample(2):
        if puzzle.game == "clearpath":
            continue
        game = puzzle.position()
        assert game.to_move is not None
        mover = seat_of(game, game.to_move)
        placements = 0
        for name in puzzle.solution:
            assert game.to_move is not None
            placements += seat_of(game, game.to_move) == mover
            game.play(name)
        assert puzzle.winner_moves == placements
