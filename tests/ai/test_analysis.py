"""Game analysis: proven wins are marked by the solver's verdicts, and a seed fixes it all."""

from __future__ import annotations

import random

import pytest

from ai import exact_table
from ai.analysis import Settings, analyse, exhaustive, judge, mark, move_accuracy
from rules import new_game, parse_record

GAMES = ("clearpath", "minefield", "clearcut", "nakeddiagonal", "crosscut")
SETTINGS = Settings(playouts=60, solve_empties=12, solve_nodes=5_000, proof_board_nodes=5_000)


def random_record(name: str, size: int, seed: int) -> str:
    game = new_game(name, size=size)
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game.record()


SIZES = {"crosscut": (5, 6)}  # Crosscut's smallest board is 5x5
CASES = [
    (name, size, seed) for name in GAMES for size in SIZES.get(name, (4, 5)) for seed in range(3)
]


@pytest.mark.parametrize(("name", "size", "seed"), CASES)
def test_proven_wins_are_marked_by_the_rules(name: str, size: int, seed: int) -> None:
    analysis = analyse(random_record(name, size, seed), SETTINGS, seed=seed)
    assert [p.ply for p in analysis.moves] == list(range(1, len(analysis.moves) + 1))
    for ply in analysis.moves:
        if ply.proven_before == "win" and ply.proven_after == "loss":
            assert ply.mark == "blunder", ply
        if ply.proven_before == "win" and ply.proven_after == "win":
            assert ply.mark is None, ply
        if ply.proven_before == "win":
            assert ply.win_chance_before == 1.0
    # The final position is decided by the rules: the last mover won or lost outright.
    assert analysis.moves[-1].proven_after in ("win", "loss") or analysis.moves[-1].mark is None


def test_some_random_games_have_proven_blunders() -> None:
    """The property test above is not vacuous: random play throws proven wins away."""
    found = 0
    for name, size, seed in CASES[:12]:
        analysis = analyse(random_record(name, size, seed), SETTINGS, seed=seed)
        found += sum(
            1 for p in analysis.moves if p.proven_before == "win" and p.proven_after == "loss"
        )
    assert found > 0


def test_fixed_seed_gives_identical_output() -> None:
    record = random_record("minefield", 5, 7)
    assert analyse(record, SETTINGS, seed=3) == analyse(record, SETTINGS, seed=3)


def test_running_game_is_refused() -> None:
    game = new_game("minefield", size=5)
    game.play("c3")
    with pytest.raises(ValueError, match="finished"):
        analyse(game.record(), SETTINGS)


def test_mark_thresholds() -> None:
    assert mark(0.6, 0.55, None, None) is None
    assert mark(0.6, 0.5, None, None) == "inaccuracy"
    assert mark(0.6, 0.4, None, None) == "mistake"
    assert mark(0.6, 0.3, None, None) == "blunder"
    assert mark(1.0, 0.7, "win", None) == "missed_win"
    assert mark(1.0, 0.0, "win", "loss") == "blunder"
    assert mark(1.0, 1.0, "win", "win") is None
    assert mark(0.0, 0.0, "loss", "loss") is None


def test_accuracy_is_full_without_drops_and_falls_with_them() -> None:
    assert move_accuracy(0.5, 0.5) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.5, 0.6) == pytest.approx(100.0, abs=0.01)
    assert 0 < move_accuracy(0.6, 0.3) < move_accuracy(0.6, 0.5) < 100


def test_a_board_with_a_shipped_proof_is_decided_off_the_proof() -> None:
    """Off the proof's line a 4×4 position needs more solver nodes than ``solve_nodes``; on
    such a board the analysis spends ``proof_board_nodes`` so a thrown-away win is proven."""
    position = parse_record("minefield 4: a2 c3 d4 c4")  # about 15 000 nodes to decide
    cheap = Settings(playouts=20, solve_empties=16, solve_nodes=5_000, proof_board_nodes=5_000)
    assert judge(position, cheap, seed=1).proven is None
    exact = Settings(playouts=20, solve_empties=16, solve_nodes=5_000, proof_board_nodes=60_000)
    assert judge(position, exact, seed=1).proven == "loss"


def test_a_solved_board_too_large_to_decide_everywhere_uses_its_proof_where_it_reaches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Minefield 5×5 ships a proof, but a position off it can take millions of solver nodes:
    the analysis takes the proof's move where it reaches, and elsewhere the ordinary path,
    never the whole-board exact solve (which took two minutes and decided nothing)."""
    start = new_game("minefield", size=5)
    assert not exhaustive(start) and exhaustive(new_game("minefield", size=4))

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the exact table was asked about a 5×5 position")

    monkeypatch.setattr(exact_table, "verdict", refused)
    monkeypatch.setattr(exact_table, "winners", refused)
    first = judge(start, Settings(playouts=20), seed=0)
    assert first.proven == "win" and first.best == "c2"  # the shipped proof's first move
    start.play("e1")  # off the proof: the first seat's only proven opening is c2
    assert judge(start, Settings(playouts=20), seed=0).proven is None
