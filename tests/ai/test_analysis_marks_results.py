"""The accumulating marks check (bench/analysis_marks.py): its schedule, its results file, its
summary, and the figures docs/analysis.md publishes from the committed results."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from ai.analysis import Settings, positions
from bench import analysis_marks
from bench.analysis_marks import Board, Truth, check, random_record, read_rows, summary
from rules import parse_record

CROSSCUT = Board("crosscut", 5, "solved")


def row(board: Board, seed: int, checked: int, **extra: object) -> dict[str, object]:
    counts = {name: 0 for name in analysis_marks.COUNTS} | {"checked": checked}
    return {
        "game": board.game,
        "size": board.size,
        "kind": board.kind,
        "seed": seed,
        "plies": 10,
        **counts,
        "cpu": 2.0,
        "cpu_analysis": 1.0,
        "cpu_truth": 1.0,
        "warm": 0,
    } | extra


def test_every_game_has_both_sizes_late_and_the_proof_boards_every_ply() -> None:
    boards = analysis_marks.all_boards()
    assert [b.size for b in boards if b.kind == "solved"] == [4, 4, 4, 4, 5]
    late = {(b.game, b.size) for b in boards if b.kind == "late"}
    assert late == {(g, s) for g in analysis_marks.GAMES for s in (7, 9)}
    # Before anything is measured the cheap boards go first, the cold 4×4 tables last.
    assert [b.size for b in analysis_marks.first_round()][-4:] == [4, 4, 4, 4]


def test_a_board_is_named_as_players_would_and_a_wrong_one_is_refused() -> None:
    assert analysis_marks.parse_board("Minefield 4") == Board("minefield", 4, "solved")
    assert analysis_marks.parse_board("crosscut:9") == Board("crosscut", 9, "late")
    for bad in ("minefield 5", "hex 4", "minefield"):
        with pytest.raises(argparse.ArgumentTypeError, match="unknown board"):
            analysis_marks.parse_board(bad)


def test_a_run_appends_each_game_and_the_next_run_skips_the_seeds_already_there(
    tmp_path: Path,
) -> None:
    out = tmp_path / "marks.jsonl"
    args = ["--out", str(out), "--boards", "crosscut 5", "--playouts", "10"]
    assert analysis_marks.main([*args, "--games", "2"]) == 0
    first = read_rows(out)
    assert [r["seed"] for r in first] == [0, 1]
    assert analysis_marks.main([*args, "--games", "3"]) == 0
    rows = read_rows(out)
    assert rows[:2] == first  # kept as they were, not checked again
    assert [r["seed"] for r in rows] == [0, 1, 2]
    assert [r["warm"] for r in rows] == [0, 1, 0]  # the second run's process started cold
    for r in rows:
        assert r["checked"] == r["plies"]  # on a proof board every ply is checked
        assert r["wrong"] == r["unmarked"] == r["kept_marked"] == 0


def test_a_late_board_checks_the_last_positions_even_with_many_points_empty() -> None:
    """A random Crosscut 7×7 game ends with more than 12 points empty: without the last
    plies nothing of it would be checked."""
    record = random_record("crosscut", 7, 0)
    settings = Settings(playouts=10)
    assert check(record, settings, 0, 12, Truth(50_000))["checked"] == 0
    counts = check(record, settings, 0, 12, Truth(50_000), last=(6, 50_000))
    assert 0 < counts["checked"] <= 6
    assert counts["wrong"] == counts["unmarked"] == counts["kept_marked"] == 0


def test_the_summary_counts_only_games_that_were_checked() -> None:
    board = Board("crosscut", 7, "late")
    rows = [
        row(board, 0, 4, thrown=1, warm=0, cpu=3.0),
        row(board, 1, 0, warm=1, cpu=1.0),  # nothing decided: not a checked game
        row(board, 2, 2, warm=1, cpu=2.0),
    ]
    text = summary(rows)
    assert "| crosscut 7×7 | late plies | 2 | 6 | 0 | 1 | 0 | 0 | 0 | 0 | 3.0 | 1.5 |" in text
    assert text.splitlines()[-1] == "| all | | 2 | 6 | 0 | 1 | 0 | 0 | 0 | 0 | | |"


def test_a_mark_on_a_ply_the_analysis_only_estimated_is_counted_apart() -> None:
    """Clear Cut 9×9, seed 2: move 60 (d6) keeps the second player's win, which the truth
    proves at 400,000 nodes; the analysis's solver did not decide the position within its
    budget, and a 60-playout search put the position after it at 0.5, so the move reads as a
    blunder.  That is the search's error, not a proof's: counted as ``estimated_off``, never
    as a kept win marked."""
    record = random_record("clearcut", 9, 2)
    counts = check(record, Settings(playouts=60), 2, 12, Truth(400_000), last=(6, 50_000))
    assert counts["kept_marked"] == counts["unmarked"] == counts["wrong"] == 0
    assert counts["estimated_off"] >= 1
    assert counts["unproven"] >= counts["estimated_off"]


def test_a_proven_win_thrown_into_a_position_the_analysis_cannot_decide_is_a_missed_win() -> None:
    """Naked Diagonal 9×9, seed 36: move 63 (b2) throws away the first player's proven win.
    The truth proves the position after it lost for them (at 400,000 nodes); the analysis's
    solver did not decide it, so the analysis says what it knows, "missed_win" (a proven win
    became unclear), which the check accepts; a blunder mark needs the loss proven too."""
    record = random_record("nakeddiagonal", 9, 36)
    counts = check(record, Settings(playouts=60), 36, 12, Truth(400_000), last=(6, 50_000))
    assert counts["thrown"] >= 1
    assert counts["unmarked"] == counts["kept_marked"] == counts["wrong"] == 0


def test_bad_arguments_are_refused_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in (["--games", "-1"], ["--hours", "0"], ["--boards", "hex 4"]):
        with pytest.raises(SystemExit):
            analysis_marks.main(bad)
        assert "error" in capsys.readouterr().err


def test_the_committed_results_are_real_checks_with_all_three_counts_zero() -> None:
    rows = read_rows(analysis_marks.RESULTS)
    assert rows, "bench/results/analysis_marks.jsonl is committed"
    boards = set(analysis_marks.all_boards())
    seen = set()
    for r in rows:
        assert analysis_marks.board_of(r) in boards
        key = (analysis_marks.board_of(r), r["seed"])
        assert key not in seen  # each seed once
        seen.add(key)
        assert 0 <= int(str(r["checked"])) <= int(str(r["plies"]))
        assert r["wrong"] == r["unmarked"] == r["kept_marked"] == 0
        # Marks on plies the analysis only estimated are the search's, not a proof's.
        assert int(str(r.get("estimated_off", 0))) <= int(str(r["unproven"]))
    # Each line is the seeded random game it names: its ply count replays.
    for r in rows[:20]:
        board = analysis_marks.board_of(r)
        record = random_record(board.game, board.size, int(str(r["seed"])))
        assert len(parse_record(record).history) == r["plies"]


def test_the_published_figures_are_the_committed_results_summary() -> None:
    """docs/analysis.md shows ``python bench/analysis_marks.py --summary`` of the committed
    results, so more games mean new figures and never stale ones."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "analysis.md").read_text()
    assert summary(read_rows(analysis_marks.RESULTS)) in docs


@pytest.mark.parametrize(
    ("name", "size", "empties", "last"),
    [("crosscut", 5, 25, (0, 0)), ("minefield", 7, 12, (6, 50_000))],
)
def test_a_verdict_read_off_the_move_played_is_the_solvers_own(
    name: str, size: int, empties: int, last: tuple[int, int]
) -> None:
    """The truth skips the solver where the move played wins (it won the game, or reached a
    position the truth already knows the player wins): on every position the solver, asked
    itself, agrees, and some positions were read off that way."""
    truth, asked = Truth(400_000), Truth(400_000)
    decided = 0
    for seed in range(8):
        record = random_record(name, size, seed)
        game, befores = positions(record)
        found = analysis_marks.verdicts(game, befores, empties, truth, last)
        for i, text in enumerate(befores):
            position = parse_record(text)
            expected = asked(position, empties)
            if expected is None and found[i] is not None:
                expected = asked.decide(position, last[1])
            assert found[i] == expected
        decided += sum(v is not None for v in found)
    # Fewer solver questions than positions decided: some were read off the moves played.
    questions = sum(e.questions for e in truth._solvers.values())
    assert 0 < questions < decided


def test_the_cost_left_counts_warm_games_and_names_boards_not_measured() -> None:
    board = Board("crosscut", 7, "late")
    rows = [row(board, 0, 4, cpu=100.0, warm=0), row(board, 1, 4, cpu=36.0, warm=1)]
    text = analysis_marks.cost(rows, target=30)
    # 30 games over 15 boards: 2 a board, both done on crosscut 7×7, none anywhere else.
    assert text.startswith("0.0 CPU h left to 30 games (2 a board); not measured yet: ")
    assert "crosscut 7×7" not in text and "minefield 4×4" in text
    text = analysis_marks.cost(rows, target=150)  # 10 a board: 8 more at the warm 36 s
    assert text.startswith("0.1 CPU h left to 150 games (10 a board)")
