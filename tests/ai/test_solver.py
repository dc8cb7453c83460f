"""The solver and the shipped proofs.

The proofs in ai/solved/ are walked by the checker (bench/verify_proof.py), which shares no
code with the solver.  The checker is shown to reject broken proofs, and the solver's verdicts
are compared with a plain minimax (no table, no symmetry) on late positions of random games.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest

from ai.pool import think
from ai.solver import SEATS, Seat, Solver, solve, winner_seat
from bench.verify_proof import ProofError, load, position_key, verify
from rules import Game, game_class, new_game

SOLVED = Path(__file__).resolve().parents[2] / "ai" / "solved"
SMALLEST = {
    "clearpath": 4,
    "minefield": 4,
    "clearcut": 4,
    "nakeddiagonal": 4,
    "crosscut": 5,
}
QUICK = ("crosscut",)
"""The games whose smallest proof the checker walks well within a second; the others are
slow (from about 2 s for Minefield to about 16 s for Clear Path on a busy machine)."""


def proof_path(name: str, size: int) -> Path:
    return SOLVED / f"{name}-{size}.json.gz"


@pytest.mark.parametrize(
    "name",
    [n if n in QUICK else pytest.param(n, marks=pytest.mark.slow) for n in SMALLEST],
)
def test_smallest_board_proof_is_shipped_and_holds(name: str) -> None:
    data = load(proof_path(name, SMALLEST[name]))
    assert set(data) == {"game", "size", "winner_seat", "strategy"}
    verdict = verify(data)
    assert (verdict.game, verdict.size) == (name, SMALLEST[name])
    assert verdict.unused_entries == 0
    assert verdict.winner_positions == len(data["strategy"])


def test_every_shipped_proof_names_its_file() -> None:
    for path in SOLVED.glob("*.json.gz"):
        data = load(path)
        assert path.name == f"{data['game']}-{data['size']}.json.gz"


@pytest.fixture(scope="module")
def small_proof() -> dict[str, Any]:
    """The smallest shipped proof (Crosscut 5x5): broken copies of it are rejected quickly."""
    return load(proof_path("crosscut", 5))


def test_checker_rejects_a_missing_winner_move(small_proof: dict[str, Any]) -> None:
    rng = random.Random(7)
    for _ in range(2):
        broken = copy.deepcopy(small_proof)
        del broken["strategy"][rng.choice(sorted(broken["strategy"]))]
        with pytest.raises(ProofError, match="no move for the winner"):
            verify(broken)


def test_checker_rejects_an_illegal_move(small_proof: dict[str, Any]) -> None:
    broken = copy.deepcopy(small_proof)
    start = position_key(new_game("crosscut", 5))
    assert start in broken["strategy"]  # the first seat wins Crosscut 5x5
    broken["strategy"][start] = "z9"
    with pytest.raises(ProofError, match="illegal"):
        verify(broken)


def test_checker_rejects_the_wrong_winner(small_proof: dict[str, Any]) -> None:
    broken = copy.deepcopy(small_proof)
    broken["winner_seat"] = "second" if broken["winner_seat"] == "first" else "first"
    with pytest.raises(ProofError):
        verify(broken)


def position_from_key(name: str, key: str, size: int) -> Game:
    """A position from its proof-file text, for a game without pie-rule flags to restore."""
    board, mover, _ = key.split("/")
    cls = game_class(name)
    names = new_game(name, size).grid.names
    first, second = cls.players
    stones = {
        first: [names[i] for i, c in enumerate(board) if c == "x"],
        second: [names[i] for i, c in enumerate(board) if c == "o"],
    }
    return cls.from_position(size, stones, first if mover == "x" else second)


def test_checker_rejects_a_losing_move(small_proof: dict[str, Any]) -> None:
    """Replace one winner's move by another legal move that the solver says does not win:
    in a late position, so the solver answers at once."""
    seat: Seat = small_proof["winner_seat"]
    for key in sorted(small_proof["strategy"], key=lambda k: k.count(".")):
        game = position_from_key("crosscut", key, 5)
        solver = Solver("crosscut", 5, seat)
        losing = []
        for move in game.legal_moves():
            game.play(move)
            if not solver.wins(game):
                losing.append(move)
            game.pop()
        if losing:
            break
    else:
        pytest.fail("no winner position in the proof has a move that does not win")
    broken = copy.deepcopy(small_proof)
    broken["strategy"][key] = losing[0]
    with pytest.raises(ProofError):
        verify(broken)


def test_checker_rejects_malformed_headers(small_proof: dict[str, Any]) -> None:
    for key, value in (("game", "chess"), ("size", "4"), ("winner_seat", "red"), ("strategy", [])):
        broken = dict(small_proof, **{key: value})
        with pytest.raises(ProofError):
            verify(broken)


# ----- the solver against a plain minimax --------------------------------------------------
def minimax(game: Game, seat: Seat, line: set[str]) -> int:
    """+1 if ``seat`` can force a win, -1 if the other seat can, 0 otherwise (a draw, or a
    line that repeats forever)."""
    if game.is_over:
        won = winner_seat(game)
        return 0 if won is None else 1 if won == seat else -1
    key = position_key(game)
    if key in line:
        return 0
    line.add(key)
    assert game.to_move is not None
    mine = winner_seat_of_mover(game) == seat
    values = []
    for move in game.legal_moves():
        game.play(move)
        values.append(minimax(game, seat, line))
        game.pop()
    line.discard(key)
    return max(values) if mine else min(values)


def winner_seat_of_mover(game: Game) -> Seat:
    assert game.to_move is not None
    return SEATS[game.players.index(game.to_move) ^ bool(getattr(game, "swapped", False))]


SLOW_MINIMAX = ("crosscut", "clearcut")
"""Their late positions still leave minimax a second or more (flips and removals)."""


def late_position(name: str, size: int, plies: int, seed: int) -> Game | None:
    rng = random.Random(seed)
    game = new_game(name, size)
    while not game.is_over and len(game.moves) < plies:
        game.play(rng.choice(game.legal_moves()))
    return None if game.is_over else game


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_MINIMAX else n for n in SMALLEST],
)
def test_solver_agrees_with_plain_minimax(name: str) -> None:
    size = SMALLEST[name]
    plies = {"crosscut": 3, "clearcut": 11}.get(name, 9)
    checked = 0
    for seed in range(40):
        game = late_position(name, size, plies, seed)
        if game is None:
            continue
        value = minimax(game, "first", set())
        for use_symmetry in (True, False):
            first = Solver(name, size, "first", use_symmetry=use_symmetry)
            second = Solver(name, size, "second", use_symmetry=use_symmetry)
            assert first.wins(game) == (value == 1), (name, game.moves)
            assert second.wins(game) == (value == -1), (name, game.moves)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_solve_finds_a_checkable_proof_from_scratch() -> None:
    """Crosscut 5x5 solved in the test itself; its proof must pass the checker."""
    solution = solve("crosscut", 5, first_moves=False)
    assert solution.winner_seat is not None
    verdict = verify(solution.proof_document())
    assert verdict.unused_entries == 0


@pytest.mark.slow
def test_clear_path_proof_keys_swaps_and_chains() -> None:
    """Blue's pie-rule decisions are keyed with the ``s`` flag, and a chain of the winner's
    is written as consecutive entries: the board after one entry's placement, with the same
    colour still to move, is another entry."""
    data = load(proof_path("clearpath", 4))
    strategy: dict[str, str] = data["strategy"]
    names = new_game("clearpath", 4).grid.names
    assert any(key.endswith("/s") for key in strategy)
    chained = 0
    for key, move in strategy.items():
        if move == "swap":
            continue
        board, mover, flag = key.split("/")
        i = names.index(move)
        after = board[:i] + mover + board[i + 1 :]
        if f"{after}/{mover}/{'-' if flag == 's' else flag}" in strategy:
            chained += 1
    assert chained > 0


@pytest.mark.parametrize(("name", "size"), [("minefield", 4), ("crosscut", 6)])
def test_levels_from_three_play_the_proof_and_win(name: str, size: int) -> None:
    """The proven winner at level 3 takes every move from the proof, against random replies,
    and wins every game; level 2 still searches."""
    winner: Seat = load(proof_path(name, size))["winner_seat"]
    assert think(new_game(name, size), level=2, seed=1).reason != "solved board"
    for seed in range(5):
        rng = random.Random(seed)
        game = new_game(name, size)
        while not game.is_over:
            if winner_seat_of_mover(game) == winner:
                result = think(game, level=3, seed=seed)
                assert result.reason == "solved board"
                game.play(result.move)
            else:
                game.play(rng.choice(game.legal_moves()))
        assert winner_seat(game) == winner
