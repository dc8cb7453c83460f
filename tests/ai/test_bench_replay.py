"""``bench/ai_bench.py --show-losses`` prints a game's moves so a lost game can be studied
after a time-capped run, which its seed cannot reproduce.  The moves must replay to the same
end, including Clear Path's chains and swap and Naked Diagonal's skipped turns."""

from __future__ import annotations

import re

import pytest

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
