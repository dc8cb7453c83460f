"""Naked Diagonal's search fast paths give exactly the verdicts of the full legal mask.

``point_is_legal`` decides one point from the areas next to it, ``sample_legal_point`` draws
by rejection, and ``use_quick_turns`` applies the skip rule lazily.  Each is compared with the
whole-board ``_legal_mask`` computed by a separate solver (its own memo), on many positions
from random games, for both players.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import new_game
from rules.nakeddiagonal import NakedDiagonal


def reference_mask(game: NakedDiagonal, player: int) -> int:
    """The full-mask verdicts, from a copy whose solver shares no memo with the game's.

    Solvers are per thread, so a copy played on a thread of its own gets a fresh solver.
    """
    ref = game.copy()
    assert isinstance(ref, NakedDiagonal)
    with ThreadPoolExecutor(max_workers=1) as fresh:
        return fresh.submit(ref._legal_mask, player).result()


def random_game(size: int, rnd: random.Random) -> NakedDiagonal:
    game = new_game("nakeddiagonal", size)
    assert isinstance(game, NakedDiagonal)
    return game


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([5, 6, 7]))
def test_every_point_verdict_agrees_with_the_full_mask(seed: int, size: int) -> None:
    rnd = random.Random(seed)
    game = random_game(size, rnd)
    compared = refused = 0
    while not game.is_over:
        for player in (0, 1):
            mask = reference_mask(game, player)
            for p in range(game.grid.area):
                assert game._point_legal(p, player) == bool(mask >> p & 1), (game.moves, p)
                compared += 1
            empty = game.grid.full & ~(game._stones[0] | game._stones[1])
            refused += (empty & ~mask).bit_count()
        game.play(rnd.choice(game.legal_moves()))
    assert compared > 0 and refused > 0


def test_many_positions_on_a_seven_board_agree_including_area_refusals() -> None:
    """Positions where some point is refused for an area reason, not a naked diagonal."""
    rnd = random.Random(2024)
    area_refusals = 0
    for _ in range(12):
        game = random_game(7, rnd)
        while not game.is_over:
            player = game._turn
            mask = reference_mask(game, player)
            naked = game._solver.naked_mask(game._stones[player])
            empty = game.grid.full & ~(game._stones[0] | game._stones[1])
            area_refusals += (empty & ~naked & ~mask).bit_count()
            for p in range(game.grid.area):
                assert game.point_is_legal(p) == bool(mask >> p & 1), (game.moves, p)
            game.play(rnd.choice(game.legal_moves()))
    assert area_refusals > 0, "no position exercised the area check"


@pytest.mark.parametrize("size", [5, 7, 9])
def test_quick_turns_play_exactly_like_the_engine(size: int) -> None:
    rnd = random.Random(size)
    for _ in range(3 if size < 9 else 1):
        plain = random_game(size, rnd)
        quick = random_game(size, rnd)
        quick.use_quick_turns()
        while not plain.is_over:
            assert quick.legal_moves() == plain.legal_moves()
            move = rnd.choice(plain.legal_moves())
            assert plain.play(move) == quick.play(move)
            assert quick.state_key() == plain.state_key()
        assert quick.is_over and quick.winner == plain.winner
        assert quick.record() == plain.record()
        while quick.history:
            quick.pop()
            plain.pop()
            assert quick.state_key() == plain.state_key()


def test_sampling_returns_only_legal_points_and_reaches_all_of_them() -> None:
    rnd = random.Random(7)
    game = random_game(5, rnd)
    for move in ("c3", "b2", "c2", "d4"):
        game.play(move)
    game.use_quick_turns()
    game.play(game.legal_moves()[0])
    assert game._legal is None  # the quick skip check left the mask uncomputed
    legal = set(game.legal_points())
    game._legal = None
    seen = set()
    for _ in range(600):
        point = game.sample_legal_point(rnd.random)
        assert point in legal
        seen.add(point)
    assert seen == legal


def test_quick_turns_still_skip_a_player_without_placements(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Real skip positions are vanishingly rare, so red's placements are taken away by hand."""
    game = new_game("nakeddiagonal", 5)
    assert isinstance(game, NakedDiagonal)
    game.play("c3")
    real = NakedDiagonal._point_legal
    monkeypatch.setattr(
        NakedDiagonal,
        "_point_legal",
        lambda self, p, who, nodes=None: who != 0 and real(self, p, who),
    )
    real_mask = NakedDiagonal._legal_mask
    monkeypatch.setattr(
        NakedDiagonal, "_legal_mask", lambda self, who: 0 if who == 0 else real_mask(self, who)
    )
    game.use_quick_turns()
    record = game.play("a1")
    assert record.skipped == "red" and game.to_move == "blue"
    assert game.sample_legal_point(random.Random(1).random) is not None


def test_budgeted_verdicts_agree_with_exact_ones_whenever_they_decide() -> None:
    rnd = random.Random(99)
    decided = 0
    for _ in range(6):
        game = random_game(7, rnd)
        while not game.is_over:
            player = game._turn
            mask = reference_mask(game, player)
            for p in range(game.grid.area):
                verdict = game._point_legal(p, player, 5)
                if verdict is not None:
                    assert verdict == bool(mask >> p & 1), (game.moves, p)
                    decided += 1
            proven, complete = game.copy().proven_legal_mask(5)  # type: ignore[attr-defined]
            assert proven & ~mask == 0 and (not complete or proven == mask)
            game.play(rnd.choice(game.legal_moves()))
    assert decided > 0


def test_a_hard_area_proof_is_passed_over_quickly_by_searches() -> None:
    """After these moves, proving that red may not play e3 or e4 takes the complete area search
    minutes (the full legal mask is that slow too).  A search skips the two points instead."""
    game = new_game("nakeddiagonal", 7)
    assert isinstance(game, NakedDiagonal)
    game.use_quick_turns()
    for move in ["b2", "e5", "d6", "d3", "b3", "b4", "b5", "b6"]:
        game.play(move)
    names = game.grid.names
    hard = {names.index("e3"), names.index("e4")}
    started = time.perf_counter()
    proven, complete = game.proven_legal_mask(200)
    assert not complete and not proven & sum(1 << p for p in hard)
    assert all(game._point_legal(p, 0, 200) is None for p in hard)
    rnd = random.Random(1)
    for _ in range(50):
        assert game.sample_legal_point(rnd.random, 200) in set(_bits(proven))
    assert time.perf_counter() - started < 60  # generous: seconds here, minutes exactly


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]
