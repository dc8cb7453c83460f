"""Naked Diagonal on large boards (10x10 to 19x19): every fast verdict against the complete search.

The engine's verdicts come from fast paths (the witness kept per area and replayed at the
placed point's neighbours, witness repair, striped sweeps, patched sweeps, greedy fills, window
refutations, memos).  Here each of them is compared, point by point, with a solver that has
only the complete search (``AreaSolver(size, shortcuts=False)``): on positions of random and
contested games (``bench/nd_slow_positions.py``'s players, which keep playing past a win so
the board gets crowded), and on the slowest positions its hunts found, kept as move lists.
Every "legal" verdict is also backed by a witness of each area the placement leaves, replayed
from scratch.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.nd_slow_positions import play_out
from rules import new_game
from rules.nakeddiagonal import NakedDiagonal
from rules.nd_area import AreaSolver, check_witness

COMPLETE_LIMIT = 80
"""Areas up to this size get the complete search on every point, legal or refused."""


def check_position(game: NakedDiagonal, complete: AreaSolver) -> tuple[int, int]:
    """Check every verdict of the mover's mask, and of its one-point verdicts from a cold
    memo, from the definition: (points checked, points refused for an area).

    A refused point must form a naked diagonal or leave an area next to it that the complete
    search proves unfillable.  A legal point must form none, and every area it leaves must
    have a witness from the engine's solver that replays from scratch (a proof by
    construction); where the areas next to it hold at most COMPLETE_LIMIT points the complete
    search must find them fillable too.  The one exception is only a matter of cost: on
    300-point open areas the complete search alone takes seconds a point, so there the
    replayed witness is the proof."""
    size = game.size
    player = game._turn
    stones = game._stones
    empty = game.grid.full & ~(stones[0] | stones[1])
    mask = game.legal_mask()

    def lazy_verdicts() -> list[bool]:
        """One point at a time, on a new thread: a solver whose memo knows nothing yet."""
        cold = game.copy()
        assert isinstance(cold, NakedDiagonal)
        cold._legal = None
        return [cold._point_legal(p, cold._turn) is True for p in range(game.grid.area)]

    with ThreadPoolExecutor(max_workers=1) as fresh:
        lazy = fresh.submit(lazy_verdicts).result()
    fast = game._solver
    refused = 0
    for p in range(game.grid.area):
        legal = bool(mask >> p & 1)
        assert lazy[p] == legal, (game.moves, p)
        if not empty >> p & 1:
            assert not legal
            continue
        if fast.forms_naked(p, stones[player]):
            assert not legal, (game.moves, p)
            continue
        after = [stones[0], stones[1]]
        after[player] |= 1 << p
        near = fast.dilate8(1 << p)
        parts = [part for part in fast.components(empty & ~(1 << p), diagonal=False) if part & near]
        if legal:
            for part in parts:
                witness = fast.solve(part, after[0], after[1])
                assert witness is not None
                assert check_witness(size, part, after[0], after[1], witness), (game.moves, p)
            if sum(part.bit_count() for part in parts) > COMPLETE_LIMIT:
                continue
        refused += not legal
        verdicts = [complete.solve(part, after[0], after[1]) is not None for part in parts]
        assert all(verdicts) == legal, (game.moves, p)
    return empty.bit_count(), refused


def positions(size: int, style: str, seed: int, fills: tuple[float, ...]) -> list[NakedDiagonal]:
    """Copies of one game of ``style`` when it first holds each fraction ``fills`` of stones."""
    rnd = random.Random(seed)
    out: list[NakedDiagonal] = []
    wanted = sorted(fills)
    for game, _ in play_out(size, style, rnd):
        if not wanted:
            break
        if game.is_over:
            continue
        if len(game.moves) >= wanted[0] * size * size:
            wanted.pop(0)
            copy = game.copy()
            assert isinstance(copy, NakedDiagonal)
            out.append(copy)
    return out


def check_games(sizes: tuple[int, ...], fills: tuple[float, ...], seed: int) -> int:
    """Check positions of a contested and a random game of each size: (empty points checked)."""
    checked = refused = 0
    for size in sizes:
        complete = AreaSolver(size, shortcuts=False)
        for k, style in enumerate(("contest", "fill")):
            for game in positions(size, style, seed * 100 + size * 2 + k, fills):
                points, bad = check_position(game, complete)
                checked += points
                refused += bad
    assert refused > 0, "no position had a refused point: the comparison would be hollow"
    return checked


def test_crowded_positions_on_ten_and_eleven_agree_with_the_complete_search() -> None:
    assert check_games((10, 11), (0.6, 0.85), seed=1) > 0


@pytest.mark.slow
@pytest.mark.parametrize("size", range(10, 20))
def test_random_and_contested_positions_ten_to_nineteen_agree_with_the_complete_search(
    size: int,
) -> None:
    """Two games a size (contested and random), checked at 70 and 90 % full; one case a size,
    so parallel workers share them (the larger boards take seconds each)."""
    assert check_games((size,), (0.7, 0.9), seed=2) > 0


SLOW_19 = (
    "p10 h6 k1 e13 i9 f19 h13 d15 r18 s8 c3 s15 k6 s13 i7 m18 n18 j2 j16 r4 f12 e4 c16 q7 a14 "
    "p14 a11 r5 k11 c5 f9 l3 n6 j18 e12 q5 e7 c19 b8 r19 n14 a9 e18 h18 s12 m6 g17 l13 e3 c17 "
    "k13 l15 e2 g3 s6 j13 k2 q11 p8 c4 q6 n12 d14 e10 n7 k8 q18"
)
"""The slowest ``play`` a hunt found on 19x19 (its last move, 5.7 s of CPU in the hunt and
4.8 s replayed before the patched sweeps, about 0.26 s after): a random game with scattered
stones, whose open areas' sweeps each stuck on a two- or three-point knot, so the complete
search ran on 300-point areas."""


@pytest.mark.slow
def test_the_slowest_hunted_position_is_fast_and_exact() -> None:
    def play_last() -> tuple[NakedDiagonal, float]:
        game = new_game("nakeddiagonal", 19)
        assert isinstance(game, NakedDiagonal)
        *moves, last = SLOW_19.split()
        for move in moves:
            game.play(move)
        started = time.process_time()
        game.play(last)
        return game, time.process_time() - started

    with ThreadPoolExecutor(max_workers=1) as fresh:  # a cold memo, as after a restart
        game, seconds = fresh.submit(play_last).result()
    assert seconds < 20  # generous for a busy machine: 4.8 s replayed before, now about 0.26 s
    check_position(game, AreaSolver(19, shortcuts=False))
