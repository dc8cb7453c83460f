"""``bench/ai_bench.py``: ``--show-losses`` prints a game's moves so a lost game can be studied
after a time-capped run, which its seed cannot reproduce.  The moves must replay to the same
end, including Clear Path's chains and swap and Naked Diagonal's skipped turns.  And
``--level N --config C`` plays level N's budget with config C, an A/B at a level's caps."""

from __future__ import annotations

import re
from argparse import Namespace

import pytest

from ai.levels import LEVELS
from ai.search import Budget
from bench import ai_bench
from rules import new_game


@pytest.mark.parametrize("name", ["clearpath", "nakeddiagonal", "clearcut"])
def test_recorded_moves_replay_to_the_same_end(name: str) -> None:
    size = 5
    for index in range(2):
        result = ai_bench.play_one(name, size, index, "random", Budget(playouts=8), seed=7)
        assert len(result.moves) == result.plies
        game = new_game(name, size)
        for move in result.moves:
            assert not game.is_over
            game.play(move)
        assert game.is_over
        assert len(game.history) == result.plies


def test_show_losses_prints_the_moves_of_lost_games_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ai_bench.main(
        [
            "--game",
            "minefield",
            "--games",
            "4",
            "--playouts",
            "1",
            "--opponent",
            "distance",
            "--show-losses",
            "--speed-seconds",
            "0",
            "--seed",
            "3",
        ]
    )
    lines = capsys.readouterr().out.splitlines()
    game_line = re.compile(r"^minefield 7x7 game +\d+: ")
    assert sum(bool(game_line.match(line)) for line in lines) == 4
    lost = [i for i, line in enumerate(lines) if game_line.match(line) and " lost " in line]
    assert lost, "one playout a move should lose to the distance player at least once"
    for i in lost:
        assert lines[i + 1].startswith("  moves: ")
        moves = lines[i + 1].split()[1:]
        game = new_game("minefield", 7)
        for move in moves:
            game.play(move)
        assert game.is_over and game.winner is not None
    won = [i for i, line in enumerate(lines) if game_line.match(line) and " WON " in line]
    assert len(won) + len(lost) == 4
    for i in won:
        assert not lines[i + 1].startswith("  moves: ")


def test_a_level_plays_its_own_config_unless_one_is_named() -> None:
    plain = Namespace(level=5, config=None, time_caps=True, playouts=None, seconds=None)
    assert ai_bench.ai_settings(plain) == (Budget(playouts=15_000, seconds=12.0), LEVELS[5].config)
    named = Namespace(level=5, config="explore-0.1", time_caps=True, playouts=None, seconds=None)
    budget, config = ai_bench.ai_settings(named)
    assert budget == Budget(playouts=15_000, seconds=12.0)
    assert config == ai_bench.CONFIGS["explore-0.1"] != LEVELS[5].config
    bare = Namespace(level=None, config=None, time_caps=False, playouts=300, seconds=None)
    assert ai_bench.ai_settings(bare) == (Budget(playouts=300), ai_bench.CONFIGS["default"])


def _game_lines(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[int, str]:
    """Each printed game's number and outcome, without its timings."""
    ai_bench.main(argv)
    found = re.findall(
        r"^clearcut 5x5 game +(\d+): (AI \w+ +\w+ +in +\d+ plies)", capsys.readouterr().out, re.M
    )
    return {int(number): outcome for number, outcome in found}


@pytest.mark.parametrize("seat", ["first", "second"])
def test_one_seat_plays_the_alternating_run_s_games_from_that_seat(
    seat: str, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--game", "clearcut", "--size", "5", "--playouts", "6", "--opponent", "greedy"]
    common += ["--speed-seconds", "0", "--seed", "11"]
    both = _game_lines([*common, "--games", "6"], capsys)
    alone = _game_lines([*common, "--games", "3", "--seat", seat], capsys)
    expected = {n: line for n, line in both.items() if (seat == "first") == (n % 2 == 1)}
    assert len(expected) == 3
    assert alone == expected
    assert all(line.startswith(f"AI {seat}") for line in alone.values())
