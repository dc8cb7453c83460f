"""Whole seat-fairness games replay move for move: the committed rows of
bench/results/seat_fairness.jsonl were played before the search tree was compiled (and the
pure pass of .ci/run replays them in pure Python), so the same record proves that every search
of a whole game computed the same thing."""

from __future__ import annotations

import pytest

from bench.seat_fairness import RESULTS, board_of, play_game, read_rows

REPLAYED = (("minefield", 7, False, 0), ("minefield", 7, False, 1), ("clearcut", 7, False, 0))
"""Cheap boards (a few CPU seconds a game with the compiled core), two games with the compiled
Minefield playouts and one with Clearcut's."""


@pytest.mark.slow
@pytest.mark.parametrize(("game", "size", "pie", "seed"), REPLAYED)
def test_a_committed_seat_game_replays_the_same(game: str, size: int, pie: bool, seed: int) -> None:
    rows = [
        r
        for r in read_rows(RESULTS)
        if (r["game"], r["size"], r["pie"], r["seed"]) == (game, size, pie, seed)
    ]
    assert len(rows) == 1, "the committed results hold this game once"
    replayed = play_game(board_of(rows[0]), seed)
    for key in ("record", "winner", "swapped", "plies"):
        assert replayed[key] == rows[0][key], key
