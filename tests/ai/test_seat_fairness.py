"""The seat-fairness table (bench/seat_fairness.py): its interval, its seats, its table."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import pytest

from bench import seat_fairness
from bench.accumulate import cheapest_first, schedule
from bench.seat_fairness import Board, cost_lines, markdown_table, tally, wilson, winning_seat
from rules import new_game, parse_record


def row(game: str, size: int, pie: bool, seed: int, winner: str | None, **extra: object) -> dict:
    return {
        "game": game,
        "size": size,
        "pie": pie,
        "seed": seed,
        "winner": winner,
        "swapped": False,
        "plies": 30,
        "cpu": 10.0,
        "record": "",
    } | extra


# ----- the interval ----------------------------------------------------------------------------
@pytest.mark.parametrize(("wins", "n"), [(0, 1), (2, 2), (1, 2), (7, 10), (81, 263), (150, 200)])
def test_the_wilson_bounds_are_where_the_score_test_just_rejects(wins: int, n: int) -> None:
    """Each bound is a share p0 at which the observed share is exactly z standard errors of p0
    away: (p̂ − p0)² = z² p0 (1 − p0) / n, the definition of the Wilson interval."""
    z = 1.96
    low, high = wilson(wins, n)
    p = wins / n
    for bound in (low, high):
        if bound in (0.0, 1.0) and p == bound:
            continue  # 0 of n (or n of n): the interval reaches the edge itself
        assert (p - bound) ** 2 == pytest.approx(z * z * bound * (1 - bound) / n, abs=1e-12)
    assert low <= p <= high


def test_the_wilson_interval_matches_known_figures() -> None:
    # 2 of 2: 34 %–100 %, the figure the old table quoted; 0 games: anything.
    assert wilson(2, 2) == (pytest.approx(0.3424, abs=1e-4), 1.0)
    assert wilson(0, 0) == (0.0, 1.0)
    # Symmetric in the seats: the second seat's interval is the mirror of the first's.
    low, high = wilson(30, 200)
    assert wilson(170, 200) == (pytest.approx(1 - high), pytest.approx(1 - low))
    # 200 games at an even share: about ±7 points.
    low, high = wilson(100, 200)
    assert high - low == pytest.approx(2 * 1.96 * math.sqrt(0.25 / 200), abs=0.002)


# ----- who won, by seat ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("moves", "winner", "swapped", "seat"),
    [
        # No swap: the first seat kept black and connected.
        ("b1 a2 b2 a3 b3 a4 b4", "black", False, "first"),
        # The second player swapped: the first seat moved on as white and connected.
        ("b1 swap a2 d4 b2 d3 c2 d1 d2", "white", True, "first"),
        # The second player swapped and won with the first colour's stones.
        ("b1 swap a2 b2 a3 b3 d3 b4", "black", True, "second"),
    ],
)
def test_the_winning_seat_follows_the_person_through_a_swap(
    moves: str, winner: str, swapped: bool, seat: str
) -> None:
    game = new_game("minefield", 4, pie=True)
    first_colour = str(game.to_move)
    for move in moves.split():
        game.play(move)
    assert game.is_over and str(game.winner) == winner
    assert winning_seat(game, first_colour, swapped) == seat


# ----- boards and schedule ---------------------------------------------------------------------
def test_the_boards_are_both_sizes_of_every_game_with_each_pie_choice_offered() -> None:
    labels = [b.label for b in seat_fairness.all_boards()]
    assert labels[:8] == [
        "clearcut 7",
        "clearcut 7+pie",
        "clearpath 7+pie",  # Clear Path always plays with the pie rule
        "crosscut 8",  # Crosscut never offers it, and its own small board is 8×8
        "minefield 7",
        "minefield 7+pie",
        "nakeddiagonal 7",
        "nakeddiagonal 7+pie",
    ]
    assert labels[8:] == [label.replace(" 7", " 9").replace(" 8", " 9") for label in labels[:8]]


def test_a_board_is_named_as_players_would_and_a_wrong_one_is_refused() -> None:
    assert seat_fairness.parse_board("Minefield 7+pie") == Board("minefield", 7, True)
    assert seat_fairness.parse_board("crosscut:9") == Board("crosscut", 9, False)
    for bad in ("crosscut 8+pie", "clearpath 7", "minefield 11", "minefield", "chess 7"):
        with pytest.raises(argparse.ArgumentTypeError, match="choose among clearcut 7"):
            seat_fairness.parse_board(bad)


def test_the_schedule_goes_round_robin_and_skips_seeds_already_played() -> None:
    a, b = Board("minefield", 7, False), Board("clearcut", 9, True)
    done = {(a, 0), (b, 1)}
    assert list(schedule([a, b], 3, done)) == [(b, 0), (a, 1), (a, 2), (b, 2)]


def test_a_round_plays_unmeasured_boards_first_then_the_cheapest() -> None:
    boards = seat_fairness.all_boards()[:4]
    rows = [
        row("clearcut", 7, False, 0, "first", cpu=9.0),
        row("clearcut", 7, False, 1, "first", cpu=3.0),
        row("crosscut", 8, False, 0, "first", cpu=5.0),
    ]
    order = [b.label for b in cheapest_first(boards, rows, seat_fairness.board_of)]
    assert order == ["clearcut 7+pie", "clearpath 7+pie", "crosscut 8", "clearcut 7"]


def test_a_run_with_every_seed_played_plays_nothing_and_keeps_the_file(tmp_path: Path) -> None:
    out = tmp_path / "seats.jsonl"
    lines = [row("minefield", 7, False, seed, "first") for seed in range(2)]
    out.write_text("".join(json.dumps(r) + "\n" for r in lines))
    before = out.read_text()
    args = ["--out", str(out), "--games", "2", "--boards", "minefield 7"]
    assert seat_fairness.main(args) == 0
    assert out.read_text() == before


def test_bad_arguments_are_refused_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--workers", "0"], ["--games", "-1"], ["--hours", "0"]):
        with pytest.raises(SystemExit):
            seat_fairness.main(args)
        assert "--workers 1 or more" in capsys.readouterr().err


# ----- the table -------------------------------------------------------------------------------
def test_the_table_counts_each_board_and_marks_those_short_of_the_target() -> None:
    rows = [row("minefield", 9, True, s, "second", swapped=s < 2) for s in range(3)]
    rows += [row("clearcut", 7, False, s, "first" if s % 4 else "second") for s in range(8)]
    tallies = tally(rows)
    assert [(t.board.label, t.games, t.first_wins, t.swaps) for t in tallies] == [
        ("clearcut 7", 8, 6, 0),  # the table's order, not the file's
        ("minefield 9+pie", 3, 0, 2),
    ]
    table = markdown_table(tallies, target=8).splitlines()
    assert table[0] == ("| Game | Board | Pie rule | Games | First seat won | 95 % interval |")
    assert table[2] == "| clearcut | 7×7 | no | 8 | 6 (75%) | 41%–93% |"
    assert table[3] == "| minefield | 9×9 | yes, swapped 2 | 3 (in progress) | 0 (0%) | 0%–56% |"


def test_the_hours_left_are_priced_at_each_boards_recent_games() -> None:
    """Games got cheaper as the computer got faster: what is left costs what the board's last
    RECENT games cost, not the mean of all of them."""
    old = [row("crosscut", 8, False, s, "first", cpu=100.0) for s in range(10)]
    new = [row("crosscut", 8, False, 10 + s, "first", cpu=9.0) for s in range(seat_fairness.RECENT)]
    (t,) = tally(old + new)
    assert t.recent_cpu == 9.0
    assert t.cpu / t.games == pytest.approx((1000 + 9.0 * seat_fairness.RECENT) / t.games)
    lines = cost_lines([t], target=t.games + 400).splitlines()
    assert lines[2] == f"| crosscut 8 | {t.games} | {t.cpu / t.games:.1f} | 9.0 | 1.0 |"
    assert lines[-1] == "| all | | | | 1.0 |"  # 400 games at 9 s: one CPU hour
    (few,) = tally(old[:3])
    assert few.recent_cpu == 100.0  # fewer than RECENT games: all of them


def test_a_draw_counts_half_and_brings_its_own_column() -> None:
    rows = [row("crosscut", 8, False, 0, None), row("crosscut", 8, False, 1, "first")]
    (t,) = tally(rows)
    assert (t.games, t.first_wins, t.draws, t.rate) == (2, 1, 1, 0.75)
    table = markdown_table([t], target=200).splitlines()
    assert table[0].endswith("| Draws |")
    low, high = wilson(1.5, 2)
    assert table[2] == (
        f"| crosscut | 8×8 | no | 2 (in progress) | 1.5 (75%) | {low:.0%}–{high:.0%} | 1 |"
    )


def test_the_committed_results_are_well_formed_games_of_the_table() -> None:
    """Every line of the shipped results file is a board of the table, with its seed once, and
    its record replays to a finished game won by the seat the line names."""
    rows = seat_fairness.read_rows(seat_fairness.RESULTS)
    boards = set(seat_fairness.all_boards())
    keys = [(seat_fairness.board_of(r), r["seed"]) for r in rows]
    assert len(keys) == len(set(keys))
    for r in rows:
        assert seat_fairness.board_of(r) in boards
        assert r["winner"] in ("first", "second", None)
        game = parse_record(str(r["record"]))
        assert (game.name, game.size, game.pie) == (r["game"], r["size"], r["pie"])
        assert game.is_over and len(game.history) == r["plies"]
        swapped = "swap" in str(r["record"]).split()
        assert swapped == r["swapped"]
        first_colour = game.players[0]
        assert winning_seat(game, first_colour, swapped) == r["winner"]


def test_the_published_table_is_the_committed_results_table() -> None:
    """docs/rules.md shows the table of the committed results, so more games mean a new table
    (``python bench/seat_fairness.py --table``) and never a stale one."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    table = markdown_table(tally(seat_fairness.read_rows(seat_fairness.RESULTS)))
    assert table in docs
