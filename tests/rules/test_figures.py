"""Every figure of the published rule sheets (decoded in tests/data/rule-figures.json) is a test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules import IllegalMove, game_class

FIGURES = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "rule-figures.json").read_text()
)["figures"]
OURS = [f for f in FIGURES if f["game"] in ("clearpath", "minefield", "crosscut", "clearcut")]


def test_every_figure_of_the_four_games_is_covered() -> None:
    assert {f["game"] for f in OURS} >= {"crosscut", "clearcut", "minefield"}
    assert len(OURS) == 12


def _setup(fig: dict):
    cls = game_class(fig["game"])
    return cls.from_position(fig["size"], fig["stones"], fig.get("to_move"))


@pytest.mark.parametrize(
    "fig", OURS, ids=[f"{f['game']}-fig{f['figure']}-{f.get('to_move', '')}" for f in OURS]
)
def test_figure(fig: dict) -> None:
    game = _setup(fig)
    expect = fig["expect"]
    before = game.state_key()
    if "move" not in fig:
        if "illegal_empty_points" in expect:
            assert sorted(game.illegal_points()) == sorted(expect["illegal_empty_points"])
            assert len(game.legal_moves()) == expect["legal_count"]
            for point in expect["illegal_empty_points"]:
                reason = game.explain(point)
                assert reason is not None
                assert "hard corner" in reason or "switch" in reason
        if "winner" in expect:
            player = game.players.index(expect["winner"])
            game._winner = player  # the figure shows a finished game: ask for the winning run
            assert sorted(game.winning_path) == sorted(expect["winning_run"])
        return
    if not expect["legal"]:
        assert fig["move"] not in game.legal_moves()
        with pytest.raises(IllegalMove):
            game.play(fig["move"])
        assert game.state_key() == before
        return
    assert fig["move"] in game.legal_moves()
    record = game.play(fig["move"])
    if "flipped" in expect:
        assert sorted(record.flipped) == sorted(expect["flipped"])
        for point in expect["flipped"]:
            assert game.at(point) == fig["to_move"]
    if "placed_disc_stays" in expect:
        assert record.stays is expect["placed_disc_stays"]
        assert (game.at(fig["move"]) == fig["to_move"]) is expect["placed_disc_stays"]
    if "removed" in expect:
        assert sorted(record.removed) == sorted(expect["removed"])
        for point in expect["removed"]:
            assert game.at(point) is None


def test_crosscut_figure_1_is_a_win_when_completed() -> None:
    """Remove one disc of Blue's winning run, let Blue place it back: Blue wins."""
    fig = next(f for f in OURS if f["game"] == "crosscut" and f["figure"] == "1")
    stones = {k: [p for p in v if p != "d4"] for k, v in fig["stones"].items()}
    game = game_class("crosscut").from_position(8, stones, "blue")
    record = game.play("d4")
    assert record.winner == "blue" and game.winner == "blue" and game.is_over
    assert sorted(game.winning_path) == sorted(fig["expect"]["winning_run"])
