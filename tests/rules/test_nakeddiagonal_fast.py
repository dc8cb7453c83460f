"""Naked Diagonal's search fast paths give exactly the verdicts of the full legal mask.

``point_is_legal`` decides one point from the areas next to it, ``sample_legal_point`` draws
by rejection, and ``use_quick_turns`` applies the skip rule lazily.  Each is compared with the
whole-board ``_legal_mask`` computed by a separate solver (its own memo), on many positions
from random games, for both players.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import end_alike, step_alike

from rules import new_game
from rules.geometry import bits_list
from rules.nakeddiagonal import NakedDiagonal
from rules.nd_area import AreaSolver, check_witness

T = TypeVar("T")


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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.parametrize("drawn", [False, True])
@pytest.mark.parametrize("size", [5, 7, 9])
def test_quick_turns_play_exactly_like_the_engine(size: int, drawn: bool) -> None:
    rnd = random.Random(size)
    for _ in range(3 if size < 9 else 1):
        plain = random_game(size, rnd)
        quick = random_game(size, rnd)
        quick.use_quick_turns(random.Random(size + 1).random if drawn else None)
        while not plain.is_over:
            if drawn:  # the skip check's draw is a legal point, handed out once
                first = quick.sample_legal_point(rnd.random)
                assert first in plain.legal_points()
                assert quick._drawn is None
            step_alike(plain, quick, rnd)
        end_alike(plain, quick)


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


def test_the_skip_checks_draw_is_uniform_over_the_legal_points() -> None:
    """With a random source, the point the lazy skip check finds becomes the next playout move;
    it must be as uniform as rejection sampling, or playouts would lean to some points."""
    base = random_game(7, random.Random(3))
    for move in ("b3", "d6", "f6", "b2", "b5", "g6"):
        base.play(move)
    base.use_quick_turns(random.Random(11).random)
    reply = "e1"
    after = base.copy()
    after.play(reply)
    legal = after.legal_points()
    assert 20 < len(legal) < 42  # some points are barred, so uniformity over them is tested
    counts = dict.fromkeys(legal, 0)
    trials = 40 * len(legal)
    for _ in range(trials):
        game = base.copy()
        game.play(reply)
        point = game.sample_legal_point(lambda: 0.0)  # takes the draw, never this source
        assert point is not None
        counts[point] += 1
    expected = trials / len(legal)
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    # Fixed seeds, so this never flakes; 2.0 x the degrees of freedom is far beyond p = 0.001
    # for 20-40 degrees of freedom (this draw scores 0.9 x); a fixed order scores 1,280 x.
    assert chi2 < 2.0 * (len(legal) - 1), (chi2, counts)


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


@pytest.mark.slow
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


@pytest.mark.slow
def test_candidates_hold_every_legal_point_and_verdicts_match_the_mask() -> None:
    """What a lazy search tree node lists (``candidate_mask``) and how it decides a point
    (``point_verdict``): the candidates are the empty points that form no naked diagonal, a
    superset of the legal mask, and a verdict is the mask's bit, or None only with a node
    budget too small to settle it (the knot position below shows one)."""
    rnd = random.Random(7)
    outside = 0
    for _ in range(6):
        game = random_game(7, rnd)
        while not game.is_over:
            player = game._turn
            mask = reference_mask(game, player)
            fresh = game.copy()
            fresh._legal = None  # as a search's copy holds it: no legal mask computed yet
            candidates = fresh.candidate_mask()  # type: ignore[attr-defined]
            empty = game.grid.full & ~(game._stones[0] | game._stones[1])
            naked = game._solver.naked_mask(game._stones[player])
            assert candidates == empty & ~naked, game.moves
            assert mask & ~candidates == 0, game.moves
            game.legal_mask()  # a play leaves it unknown: computed here, it is then known
            assert game.candidate_mask() == mask  # type: ignore[attr-defined]  # mask known
            outside += (candidates & ~mask).bit_count()
            for p in range(game.grid.area):
                assert fresh.point_verdict(p) == bool(mask >> p & 1), (game.moves, p)  # type: ignore[attr-defined]
                verdict = fresh.point_verdict(p, 5)  # type: ignore[attr-defined]
                assert verdict is None or verdict == bool(mask >> p & 1), (game.moves, p)
            game.play(rnd.choice(game.legal_moves()))
    assert outside > 0, "no candidate was refused for an area reason"


KNOT = ["b2", "e5", "d6", "d3", "b3", "b4", "b5", "b6"]
"""A 7x7 opening after which red e3 (or e4) leaves an NDE area whose cause is a small knot.

With red on e3: column b reads b2 R, b3 R, b4 B, b5 R, b6 B, and d3 B, e3 R, e5 B, d6 R stand
around column c.  c5 can take neither colour, whatever is placed first:

* blue c5 needs blue c4 and c6 first (pairs with b4, b6); blue c4 needs blue c3 or d4 (pair
  with d3), and blue c3 itself needs c4, so blue d4 comes before c4.  Blue d4 needs blue d5 or
  e4 (pair with e5), and blue e4 needs d4 first (pair with d3, e3 red), so blue d5 comes
  first.  Then d5 and c6, both blue and both before c5, form a naked pair (c5 empty, d6 red).
* red c5 needs red c6 or d5 first (pair with d6), and red c6 needs c5, so red d5.  d4/e4 then:
  blue d4 needs blue d5 or e4 first, so d4 is red only with e4 red before it, and red e4 with
  red d5 needs d4 red first, so e4, d4, d5 in that order.  c4 must be red (blue c4 needs blue
  c3 or d4) after c3 and c5; but red c3 and red d4 then form a naked pair (c4 empty, d3 blue).

The complete search took minutes to find that out (it hung ``play("b6")``); the 3x4 window
c3-e6 proves it (``AreaSolver._windows``).
"""


def _fresh(call: Callable[[], T]) -> T:
    """Run ``call`` on a new thread, with a new area solver whose memo knows nothing yet."""
    with ThreadPoolExecutor(max_workers=1) as fresh:
        return fresh.submit(call).result()


NINE = [
    "b2",
    "f6",
    "a7",
    "b6",
    "c6",
    "c9",
    "a9",
    "a8",
    "b4",
    "i9",
    "d9",
    "h5",
    "h4",
    "g8",
    "b3",
    "f8",
    "d8",
    "d5",
    "f7",
    "i5",
]
"""A 9x9 game between distance players after which red f5 leaves an NDE area whose cause is a
14-point knot in b5-e9: the complete search ran for minutes, and the rectangle windows of up to
12 points did not isolate it; a 4x5 window does (``LARGE_WINDOW_SHAPES``)."""


@pytest.mark.parametrize(
    ("size", "moves", "refused"),
    [(7, KNOT, ("e3", "e4")), (9, NINE, ("f5",))],
    ids=["7x7-knot", "9x9-knot"],
)
@pytest.mark.slow
def test_an_area_with_a_small_knot_is_refused_quickly_and_exactly(
    size: int, moves: list[str], refused: tuple[str, ...]
) -> None:
    def play_and_report() -> tuple[NakedDiagonal, float, int]:
        game = new_game("nakeddiagonal", size)
        assert isinstance(game, NakedDiagonal)
        started = time.perf_counter()
        for move in moves:
            game.play(move)  # computes red's whole legal mask for the skip rule
        return game, time.perf_counter() - started, game.legal_mask()

    game, seconds, mask = _fresh(play_and_report)
    names = game.grid.names
    assert game.to_move == "red"
    assert seconds < 60  # generous (about 0.1 s and 1 s): the complete search took minutes
    for name in refused:
        assert not mask >> names.index(name) & 1
        assert "can't be filled without a naked diagonal" in (game.explain(name) or "")
    _check_mask(game, mask)


def _check_mask(game: NakedDiagonal, mask: int) -> None:
    """Check every verdict of red's mask on its own: a legal point by a fill of every area it
    leaves (replayed from scratch), a refused one by a naked diagonal or a proof that an area
    it leaves is unfillable (a necessary test or a window relaxation, both checked against
    exhaustive search in test_nakeddiagonal_area.py)."""
    size = game.size
    solver = AreaSolver(size)
    stones = game._stones
    empty = game.grid.full & ~(stones[0] | stones[1])
    for p in range(game.grid.area):
        if not empty >> p & 1:
            continue
        after = [stones[0] | 1 << p, stones[1]]
        parts = solver.components(empty & ~(1 << p), diagonal=False)
        if mask >> p & 1:
            assert not solver.forms_naked(p, stones[0])
            for part in parts:
                witness = solver.solve(part, after[0], after[1])
                assert witness is not None
                assert check_witness(size, part, after[0], after[1], witness)
        elif not solver.forms_naked(p, stones[0]):
            near = solver.dilate8(1 << p)
            assert any(
                _proved_unfillable(solver, part, after[0], after[1])
                for part in parts
                if part & near
            ), game.grid.names[p]


def _proved_unfillable(solver: AreaSolver, area: int, red: int, blue: int) -> bool:
    if solver.refuted(area, red, blue) is None:
        return True
    n = solver.size
    for w in range(2, n + 1):
        for h in range(2, n + 1):
            for x0 in range(n - w + 1):
                for y0 in range(n - h + 1):
                    rect = sum(1 << ((y0 + dy) * n + x0 + dx) for dx in range(w) for dy in range(h))
                    window = rect & area
                    if not window or window == area or window.bit_count() > 18:
                        continue
                    wild = area & ~window & solver.dilate4(window)
                    if solver.solve_relaxed(window, red, blue, wild) is None:
                        return True
    return False


@pytest.mark.slow
def test_a_hard_area_proof_is_passed_over_quickly_by_searches() -> None:
    """Budgeted verdicts use the complete search alone (no rectangle windows, no restarts),
    which on the knot position above needs far more than 200 nodes: a search skips e3 and e4
    instead of waiting for the proof."""

    def check() -> None:
        game = new_game("nakeddiagonal", 7)
        assert isinstance(game, NakedDiagonal)
        game.use_quick_turns()
        for move in KNOT:
            game.play(move)
        names = game.grid.names
        hard = {names.index("e3"), names.index("e4")}
        started = time.perf_counter()
        proven, complete = game.proven_legal_mask(200)
        assert not complete and not proven & sum(1 << p for p in hard)
        assert all(game._point_legal(p, 0, 200) is None for p in hard)
        assert all(game.point_verdict(p, 200) is None for p in hard)
        assert all(game.candidate_mask() >> p & 1 for p in hard)  # listed, then passed over
        rnd = random.Random(1)
        for _ in range(50):
            assert game.sample_legal_point(rnd.random, 200) in set(_bits(proven))
        assert time.perf_counter() - started < 60  # generous: well under a second here

    _fresh(check)


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


@pytest.mark.parametrize("size", [5, 7, 9, 11, 13])
def test_trusted_repair_gives_the_full_replays_witness(size: int) -> None:
    # Also: every point fills_after_recolouring passes is fillable by the exact solver.
    """A repair told its hint is a known witness (``base``) skips re-checking the steps no
    change is next to; it must return exactly what the full replay returns, for every part a
    placement next to or inside an area leaves, both colours, at every size, including the
    failures (None), on positions of seeded random games played well past the opening."""
    rnd = random.Random(size)
    solver = AreaSolver(size)
    compared = differed_from_hint = recoloured = 0
    for _ in range(3):
        game = random_game(size, rnd)
        while not game.is_over:
            red, blue = game._stones
            empty = game.grid.full & ~(red | blue)
            for area in solver.components(empty, diagonal=False):
                witness = solver.solve(area, red, blue)
                if witness is None:
                    continue
                near = solver.dilate8(area) & empty
                for p in rnd.sample(bits_list(near), min(6, near.bit_count())):
                    for colour in (0, 1):
                        stones = [red, blue]
                        stones[colour] |= 1 << p
                        left = area & ~(1 << p)
                        timeline = solver.timeline(red, blue, witness)
                        if solver.fills_after_recolouring(timeline, p, colour, red, blue):
                            # Proven fillable: every part must be, by the exact solver too.
                            parts = solver.components(left, diagonal=False)
                            assert all(
                                solver.solve(part, stones[0], stones[1]) is not None
                                for part in parts
                            ), (game.moves, p, colour)
                            recoloured += not solver.still_fills(timeline, p, colour)
                        for part in solver.components(left, diagonal=False) or [0]:
                            for cut in (part, left):
                                plain = solver._repair(cut, stones[0], stones[1], witness)
                                trusted = solver._repair(
                                    cut, stones[0], stones[1], witness, (area, red, blue)
                                )
                                assert trusted == plain, (game.moves, p, colour, bin(cut))
                                compared += 1
                                differed_from_hint += plain is not None and plain != tuple(
                                    m for m in witness if cut >> m[0] & 1
                                )
            game.play(rnd.choice(game.legal_moves()))
    assert compared > 200
    assert differed_from_hint > 0  # some repairs re-coloured or postponed a step
    assert recoloured > 0  # some candidates were settled only by switching a step's colour
