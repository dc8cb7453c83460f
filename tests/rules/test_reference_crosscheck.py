"""The engine agrees with the brute-force reference, move by move and perft-style.

The reference (tests/rules/reference.py) reads every ruling literally, including a plain
recursive search for Clear Path's never-stranded chain rule, so agreement here checks the
engine's shortcuts (bitboards, incremental reach, the monotone chain argument).
"""

from __future__ import annotations

import random

import pytest
from reference import Referee, minefield_glyphs
from rules_helpers import FOUR_GAMES

from rules import new_game

SIZES = {"clearpath": (4, 5), "minefield": (4, 5), "crosscut": (5, 6), "clearcut": (4, 5)}


def _board_of(game) -> dict[tuple[int, int], int]:
    n = game.size
    return {
        (i % n, i // n): game.players.index(owner)
        for i, owner in enumerate(game.cells())
        if owner is not None
    }


@pytest.mark.slow
@pytest.mark.parametrize("name", FOUR_GAMES)
def test_random_games_agree_with_the_reference(name: str) -> None:
    rnd = random.Random(f"crosscheck-{name}")
    games = 60 if name != "clearpath" else 40
    for index in range(games):
        n = SIZES[name][index % 2]
        game, ref = new_game(name, n), Referee(name, n)
        while True:
            assert set(game.legal_moves()) == ref.moves(), (game.history, ref.board)
            assert game.is_over == ref.over
            if game.is_over:
                assert game.winner == (None if ref.winner is None else game.players[ref.winner])
                break
            assert game.to_move == game.players[ref.turn]
            move = rnd.choice(sorted(ref.moves()))
            game.play(move)
            ref.play(move)
            assert _board_of(game) == ref.board


def _perft(game, depth: int) -> int:
    if depth == 0 or game.is_over:
        return 1
    total = 0
    for move in game.legal_moves():
        game.play(move)
        total += _perft(game, depth - 1)
        game.pop()
    return total


def _ref_perft(ref: Referee, depth: int) -> int:
    import copy

    if depth == 0 or ref.over:
        return 1
    total = 0
    for move in sorted(ref.moves()):
        child = copy.deepcopy(ref)
        child.play(move)
        total += _ref_perft(child, depth - 1)
    return total


@pytest.mark.parametrize(
    ("name", "size", "depth"),
    [("minefield", 4, 3), ("clearcut", 4, 3), ("crosscut", 5, 3), ("clearpath", 4, 3)],
)
@pytest.mark.slow
def test_perft_matches_the_reference(name: str, size: int, depth: int) -> None:
    game = new_game(name, size)
    before = game.state_key()
    assert _perft(game, depth) == _ref_perft(Referee(name, size), depth)
    assert game.state_key() == before  # push/pop left nothing behind


def test_perft_known_counts() -> None:
    """Hand-checkable counts: the first two plies are unrestricted except by the rules."""
    assert _perft(new_game("minefield", 4), 1) == 16
    assert _perft(new_game("minefield", 4), 2) == 16 * 15
    assert _perft(new_game("crosscut", 5), 1) == 9  # interior only
    assert _perft(new_game("clearpath", 4), 2) == 16 * 16  # 15 replies + swap


@pytest.mark.slow
def test_exhaustive_minefield_no_glyph_on_every_reachable_4x4_position_to_depth_5() -> None:
    seen: set[tuple[int, int]] = set()

    def walk(game, depth: int) -> None:
        key = (game._stones[0], game._stones[1])
        if key in seen:
            return
        seen.add(key)
        assert not minefield_glyphs(_board_of(game), 4)
        if depth == 0 or game.is_over:
            return
        for move in game.legal_moves():
            game.play(move)
            walk(game, depth - 1)
            game.pop()

    walk(new_game("minefield", 4), 5)
    assert len(seen) > 5000
