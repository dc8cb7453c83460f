"""The paired ladder (bench/ai_ladder.py): its games, its fit, its intervals."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bench import ai_ladder
from bench.ai_ladder import Count, fit_model

ELO = 400 / math.log(10)


def first_wins(first: float, second: float, seat: float, games: int) -> float:
    return games / (1 + 10 ** (-(first - second + seat) / 400))


def test_the_fit_recovers_ratings_and_seat_terms() -> None:
    """Counts made exactly from known ratings and seat advantages (so many games that the
    virtual draws and the seat prior hardly pull) give those parameters back."""
    truth = {"distance": 1000.0, "level 1": 700.0, "level 2": 1150.0}
    seats = {("minefield", 7): -250.0, ("clearcut", 7): 300.0}
    n = 1_000_000
    counts = []
    for board, s in seats.items():
        for a, b in (("level 1", "distance"), ("level 2", "level 1"), ("level 2", "distance")):
            counts.append(Count(board, a, b, n, first_wins(truth[a], truth[b], s, n)))
            counts.append(Count(board, b, a, n, first_wins(truth[b], truth[a], s, n)))
    fit = fit_model(counts, alternating=[])
    for name, rating in truth.items():
        assert fit.rating[name] == pytest.approx(rating, abs=1.0)
    for board, s in seats.items():
        assert fit.seat[board] == pytest.approx(s, abs=1.0)
    diff, se = fit.difference("level 2", "level 1")
    assert diff == pytest.approx(450, abs=1.0)
    assert 0 < se < 2  # a million games a cell: a narrow interval


def test_the_interval_matches_the_binomial_for_one_pairing() -> None:
    """One pairing, one board, seats balanced and no seat advantage: the fitted difference's
    standard error is the delta-method one, 1 / sqrt(n p (1 - p)) in natural units."""
    n, p = 400, 0.75
    counts = [
        Count(("crosscut", 7), "level 1", "distance", n // 2, p * n / 2),
        Count(("crosscut", 7), "distance", "level 1", n // 2, (1 - p) * n / 2),
    ]
    fit = fit_model(counts, alternating=[])
    diff, se = fit.difference("level 1", "distance")
    # The virtual draw pulls slightly towards even; the seat term is estimated alongside.
    assert diff == pytest.approx(400 * math.log10(p / (1 - p)), rel=0.02)
    assert se == pytest.approx(ELO / math.sqrt(n * p * (1 - p)), rel=0.05)


def test_alternating_rows_inform_the_ratings_not_the_seat() -> None:
    """An alternating-seat match alone says who is stronger; its seat term stays at the
    prior's centre."""
    fit = fit_model([], alternating=[("level 1", "distance", ("clearcut", 7), 100, 80.0)])
    assert fit.rating["level 1"] > 1150
    assert fit.seat[("clearcut", 7)] == pytest.approx(0.0, abs=1.0)


def test_a_pair_plays_one_opening_from_both_seats(tmp_path: Path) -> None:
    tasks = list(ai_ladder.tasks([("crosscut", 5)], 0, 1, 1, seed=3, time_caps=False))
    assert [(t.first, t.second) for t in tasks] == [(1, 0), (0, 1)]
    assert tasks[0].seed == tasks[1].seed
    rows = [ai_ladder.play_game(t) for t in tasks]
    opening = ai_ladder.opening("crosscut", 5, tasks[0].seed)
    assert len(opening) == ai_ladder.OPENING_PLIES
    for row in rows:
        moves = str(row["record"]).split()
        assert all(move in moves for move in opening)
        assert row["winner"] in ("first", "second", None)
    out = tmp_path / "ladder.jsonl"
    out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    counts = ai_ladder.counts_from_rows(ai_ladder.read_rows([out]))
    assert sum(c.games for c in counts) == 2
    assert {(c.first, c.second) for c in counts} == {
        ("level 1", "distance"),
        ("distance", "level 1"),
    }


def test_self_play_is_one_game_per_seed_and_lands_in_the_seat_table() -> None:
    tasks = list(ai_ladder.tasks([("minefield", 7)], 4, 4, 3, seed=1, time_caps=True))
    assert len(tasks) == 3 and len({t.seed for t in tasks}) == 3
    rows: list[dict[str, object]] = [
        {
            "game": "minefield",
            "size": 7,
            "first": "level 4",
            "second": "level 4",
            "winner": w,
            "time_caps": True,
        }
        for w in ("first", "first", "second")
    ]
    table = ai_ladder.seat_table(rows)
    assert table[2].startswith("| minefield | 7×7 | level 4 v level 4 (time caps) | 3 | 2 (67%) |")


def test_play_refuses_more_than_two_workers() -> None:
    with pytest.raises(SystemExit):
        ai_ladder.main(["play", "--step", "1", "2", "--workers", "3", "--out", "x.jsonl"])
