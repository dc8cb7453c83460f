"""The shipped Naked Diagonal engine against a frozen copy of the engine as it was before the
19x19 speed work (tests/support/nd_reference.py and nd_reference_area.py).

Games are played through both side by side, at sizes 5 to 19, with and without the pie rule,
in three styles: random, *contest* (each player places next to the other's stones) and
*crowded* (a winning move is taken back with ``pop`` and another tried, so the board fills).
At every ply both must agree on whether sampled points are legal (the shipped engine decides
them one at a time, the reference from its whole mask), on every move record (skips, wins,
draws), on the state after each move and after each undo, and on sampled ``explain`` texts;
every few plies the whole legal-move lists are compared too.  The reference computes its whole
mask at every ply, so the slow large-board games are marked ``slow``.
"""

from __future__ import annotations

import random

import pytest
from nd_reference import ReferenceNakedDiagonal

from rules import Game, new_game
from rules.geometry import bits_list

TRIES = 8
"""Moves tried before a winning move is accepted in crowded games."""


def _same_state(game: Game, ref: Game) -> None:
    assert game.state_key()[1:] == ref.state_key()[1:]
    assert list(game.history) == list(ref.history)
    assert game.is_over == ref.is_over


def _check_points(game: Game, ref: Game, rng: random.Random, samples: int) -> None:
    """Sampled empty points: the same legality and the same refusal text."""
    if game.is_over:
        assert game.legal_moves() == [] and ref.legal_moves() == []
        return
    empty = bits_list(game.grid.full & ~(game._stones[0] | game._stones[1]))
    names = game.grid.names
    for p in rng.sample(empty, min(samples, len(empty))):
        probe = game.copy()  # the copy decides the point alone, the mask still unknown
        assert probe.explain(names[p]) == ref.explain(names[p]), (game.record(), names[p])


def _pick(ref: Game, style: str, rng: random.Random) -> list[str]:
    """The reference's legal moves in the order a style tries them."""
    moves = ref.legal_moves()
    rng.shuffle(moves)
    if style == "contest" and ref.history:
        theirs = ref._stones[1 - ref._turn]
        near = ref.grid.dilate8(theirs)
        index = {name: i for i, name in enumerate(ref.grid.names)}
        close = [m for m in moves if m in index and near >> index[m] & 1]
        if close and rng.random() < 0.8:
            return close + [m for m in moves if m not in close]
    return moves


def play_pair(size: int, pie: bool, style: str, seed: int, plies: int, full_every: int) -> int:
    """Play one game through both engines, checking as described above; plies played."""
    rng = random.Random(seed)
    game = new_game("nakeddiagonal", size, pie=pie)
    ref = ReferenceNakedDiagonal(size, pie=pie)
    played = 0
    while not ref.is_over and played < plies:
        if played % full_every == 0:
            assert game.legal_moves() == ref.legal_moves(), game.record()
        _check_points(game, ref, rng, 3)
        for attempt, move in enumerate(_pick(ref, style, rng)[:TRIES]):
            got = game.play(move)
            want = ref.play(move)
            assert got == want, game.record()
            _same_state(game, ref)
            if style != "crowded" or not ref.is_over or attempt == TRIES - 1:
                break
            assert game.pop() == ref.pop()
            _same_state(game, ref)
        played += 1
        if rng.random() < 0.1 and ref.history:  # undo and replay: the same position again
            move = ref.history[-1].move
            assert game.pop() == ref.pop()
            _same_state(game, ref)
            _check_points(game, ref, rng, 2)
            assert game.play(move) == ref.play(move)
            _same_state(game, ref)
    assert game.legal_moves() == ref.legal_moves()
    assert game.record() == ref.record()
    return played


@pytest.mark.parametrize("size", [5, 6, 7, 8, 9])
@pytest.mark.parametrize("pie", [False, True])
@pytest.mark.parametrize("style", ["random", "contest", "crowded"])
def test_small_boards_agree(size: int, pie: bool, style: str) -> None:
    for seed in range(3):
        play_pair(size, pie, style, seed * 100 + size, plies=size * size, full_every=3)


@pytest.mark.slow
@pytest.mark.parametrize("size", [10, 11, 13])
@pytest.mark.parametrize("style", ["random", "contest", "crowded"])
def test_middle_boards_agree(size: int, style: str) -> None:
    play_pair(size, size % 2 == 0, style, size, plies=size * size, full_every=5)


@pytest.mark.slow
@pytest.mark.parametrize("size", [15, 17, 19])
@pytest.mark.parametrize("style", ["random", "contest", "crowded"])
def test_large_boards_agree(size: int, style: str) -> None:
    pie = style == "contest"
    plies = 60 if size == 19 else 50
    played = play_pair(size, pie, style, size * 7, plies=plies, full_every=10)
    assert played > 10
