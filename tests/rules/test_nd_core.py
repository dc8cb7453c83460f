"""The compiled twins of Naked Diagonal's area loops (rules/_ndcore.c) answer exactly as the
pure-Python functions they replace.

Each compiled function is called side by side with its Python twin (an ``AreaSolver`` made
with ``compiled=False`` runs the pure code though the core is built) on many random inputs at
every board size from 4 to 19: random stone masks, which reach corners no game does, and the
positions of random games, whose areas, witnesses and timelines are the ones play meets.
A whole game compared both ways (``CROSSPATH_PURE_PYTHON=1`` in a child process) checks the
switch itself.  The pure code stays the reference.

Where the core is not built these tests are skipped with one line saying so, except under CI
(``CI`` set), where that is a failure: ``.ci/run`` installs with a compiler.
"""

from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules import geometry, new_game
from rules.nakeddiagonal import NakedDiagonal, _py_bits
from rules.nd_area import AreaSolver, Move, _py_pack, _py_unpack
from rules.nd_core import Core

ROOT = Path(__file__).resolve().parents[2]
SIZES = tuple(range(4, 20))


def _compiled() -> Core:
    try:
        from rules import _ndcore
    except ImportError as error:  # pragma: no cover - only where no compiler was present
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
            pytest.fail(f"Naked Diagonal's compiled core is not built under CI: {error}")
        pytest.skip(f"Naked Diagonal's compiled core is not built ({error})")
    return _ndcore


def _pair(size: int) -> tuple[AreaSolver, AreaSolver]:
    """A solver running the compiled twins and one running the pure code."""
    core = _compiled()
    fast, pure = AreaSolver(size), AreaSolver(size, compiled=False)
    fast._core = core  # compiled even when CROSSPATH_PURE_PYTHON switched the default off
    return fast, pure


def _mask(rnd: random.Random, area: int, density: float) -> int:
    return sum(1 << p for p in range(area) if rnd.random() < density)


def _stones(rnd: random.Random, area: int) -> tuple[int, int]:
    """Random red and blue stones, disjoint, at a random density."""
    density = rnd.choice((0.05, 0.2, 0.35, 0.5))
    red = _mask(rnd, area, density)
    blue = _mask(rnd, area, density) & ~red
    return red, blue


def _witness(rnd: random.Random, area_mask: int) -> tuple[Move, ...]:
    """The points of an area in a random order with random colours (legal or not: the
    functions compared only replay it)."""
    points = geometry.bits_list(area_mask)
    rnd.shuffle(points)
    return tuple((p, rnd.randrange(2)) for p in points)


def _positions(size: int, rnd: random.Random, count: int) -> list[tuple[int, int]]:
    """(red, blue) after random legal moves of real games, from the opening to the end."""
    found: list[tuple[int, int]] = []
    while len(found) < count:
        game = new_game("nakeddiagonal", size)
        assert isinstance(game, NakedDiagonal)
        while not game.is_over and len(found) < count:
            point = game.sample_legal_point(rnd.random)
            if point is None:
                break
            game.play_index(point)
            red, blue = game._stones
            if rnd.random() < 0.3:
                found.append((red, blue))
    return found


@pytest.mark.parametrize("size", SIZES)
def test_bits_keys_floods_and_components_match_their_twins(size: int) -> None:
    core = _compiled()
    fast, pure = _pair(size)
    rnd = random.Random(size)
    g = geometry.grid(size)
    for _ in range(300):
        cells = _mask(rnd, g.area, rnd.random())
        assert core.bits(cells) == geometry.bits_list(cells) == _py_bits(cells)
        seed = _mask(rnd, g.area, 0.02) or 1 << rnd.randrange(g.area)
        red, blue = _stones(rnd, g.area)
        wild = _mask(rnd, g.area, 0.1) if rnd.random() < 0.3 else 0
        assert fast.key(cells, red, blue, wild) == pure.key(cells, red, blue, wild)
        for diagonal in (False, True):
            assert fast.flood(seed, cells, diagonal) == pure.flood(seed, cells, diagonal)
            assert fast.components(cells, diagonal) == pure.components(cells, diagonal)
    assert core.bits(0) == [] and core.bits(g.full) == list(range(g.area))


def test_bits_list_takes_any_int_as_before() -> None:
    """geometry.bits_list hands board-sized masks to the core and any other int to the pure
    code, so every caller gets what it always got."""
    _compiled()
    rnd = random.Random(9)
    for mask in [
        0,
        1,
        1 << 383,
        1 << 384,
        (1 << 500) - 1,
        -5,
        *(rnd.getrandbits(400) for _ in range(50)),
    ]:
        assert geometry.bits_list(mask) == geometry._py_bits_list(mask)


@pytest.mark.parametrize("size", SIZES)
def test_timelines_their_witnesses_and_replays_match_their_twins(size: int) -> None:
    fast, pure = _pair(size)
    rnd = random.Random(100 + size)
    g = geometry.grid(size)
    outcomes = set()
    for _ in range(60):
        red, blue = _stones(rnd, g.area)
        empty = g.full & ~(red | blue)
        for area in pure.components(empty, diagonal=False)[:4]:
            witness = _witness(rnd, area)
            timeline = fast.timeline(red, blue, witness)
            assert timeline == pure.timeline(red, blue, witness)
            assert fast.timeline_witness(timeline) == pure.timeline_witness(timeline) == witness
            for point in rnd.sample(range(g.area), 12):
                colour = rnd.randrange(2)
                got = fast.fills_after_recolouring(timeline, point, colour, red, blue)
                assert got == pure.fills_after_recolouring(timeline, point, colour, red, blue)
                outcomes.add(got)
    assert outcomes == {True, False}


@pytest.mark.parametrize("size", SIZES)
def test_replays_of_real_witnesses_match_their_twins(size: int) -> None:
    """Timelines of the solver's own witnesses, replayed at every point next to their area
    with both colours: the cases ``_point_legal`` asks about."""
    fast, pure = _pair(size)
    rnd = random.Random(200 + size)
    outcomes = set()
    for red, blue in _positions(size, rnd, 6 if size > 13 else 12):
        empty = pure.grid.full & ~(red | blue)
        for area in pure.components(empty, diagonal=False):
            witness = pure.solve(area, red, blue)
            if witness is None:
                continue
            timeline = pure.timeline(red, blue, witness)
            assert fast.timeline(red, blue, witness) == timeline
            assert fast.timeline_witness(timeline) == witness
            near = pure.dilate8(area) & empty
            for point in rnd.sample(geometry.bits_list(near), min(10, near.bit_count())):
                for colour in (0, 1):
                    got = fast.fills_after_recolouring(timeline, point, colour, red, blue)
                    assert got == pure.fills_after_recolouring(timeline, point, colour, red, blue)
                    outcomes.add(got)
    assert True in outcomes


@pytest.mark.parametrize("size", SIZES)
def test_repairs_match_their_twin_with_and_without_a_base(size: int) -> None:
    fast, pure = _pair(size)
    rnd = random.Random(300 + size)
    g = geometry.grid(size)
    outcomes = {True: 0, False: 0}
    for _ in range(80):
        red, blue = _stones(rnd, g.area)
        empty = g.full & ~(red | blue)
        areas = pure.components(empty, diagonal=False)
        area = max(areas, key=int.bit_count) if areas else 0
        hint = _witness(rnd, area | _mask(rnd, g.area, 0.1))  # reaches past the area too
        if rnd.random() < 0.2:
            hint = hint + hint[:3]  # a repeated point: both keep both
        cut = area & ~_mask(rnd, g.area, 0.15)
        red2, blue2 = red | _mask(rnd, g.area, 0.03) & ~cut, blue
        for base in (None, (area, red, blue)):
            got = fast._repair(cut, red2, blue2, hint, base)
            assert got == pure._repair(cut, red2, blue2, hint, base), (bin(cut), base)
            outcomes[got is not None] += 1
        assert fast._repair(cut, red2, blue2, (), None) is None
    assert outcomes[True] and outcomes[False]


@pytest.mark.parametrize("size", SIZES)
def test_repairs_of_real_witnesses_match_their_twin(size: int) -> None:
    """The repairs ``_blocking_area`` asks for: a witness trusted as the base, one point
    taken by either colour."""
    fast, pure = _pair(size)
    rnd = random.Random(400 + size)
    for red, blue in _positions(size, rnd, 4 if size > 13 else 10):
        empty = pure.grid.full & ~(red | blue)
        for area in pure.components(empty, diagonal=False):
            witness = pure.solve(area, red, blue)
            if witness is None:
                continue
            for point in rnd.sample(geometry.bits_list(area), min(4, area.bit_count())):
                stones = [red, blue]
                stones[rnd.randrange(2)] |= 1 << point
                left = area & ~(1 << point)
                for base in (None, (area, red, blue)):
                    want = pure._repair(left, stones[0], stones[1], witness, base)
                    assert fast._repair(left, stones[0], stones[1], witness, base) == want


@pytest.mark.parametrize("size", SIZES)
def test_naked_masks_reachable_sets_and_sweeps_match_their_twins(size: int) -> None:
    fast, pure = _pair(size)
    rnd = random.Random(500 + size)
    g = geometry.grid(size)
    stuck = {True: 0, False: 0}
    for _ in range(100):
        red, blue = _stones(rnd, g.area)
        wild = _mask(rnd, g.area, rnd.choice((0.0, 0.1))) & ~(red | blue)
        for own in (red, blue):
            assert fast.naked_mask(own, wild) == pure.naked_mask(own, wild)
            for part in pure.components(g.full & ~(red | blue), diagonal=False)[:3]:
                assert fast.reachable(part, own, wild) == pure.reachable(part, own, wild)
        empty = g.full & ~(red | blue | wild)
        points = geometry.bits_list(empty)
        rnd.shuffle(points)
        start = pure._codes(red, blue, wild)
        for ranks, back in pure._sweep_ranks:
            order = sorted(points, key=ranks.__getitem__) if rnd.random() < 0.8 else points
            codes_fast, codes_pure = bytearray(start), bytearray(start)
            got = fast._sweep(codes_fast, list(order), back)
            assert got == pure._sweep(codes_pure, list(order), back)
            assert codes_fast == codes_pure
            stuck[bool(got[1])] += 1
    assert stuck[True] and stuck[False]


@pytest.mark.parametrize("size", [4, 5, 7, 9, 13, 19])
def test_the_quick_verdict_is_the_pure_verdict_or_defers(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``quick_verdict`` answers a point from the timeline memo alone: whenever it answers,
    its answer is the pure ``_point_legal``'s, and it answers often, both ways."""
    core = _compiled()
    rnd = random.Random(600 + size)
    answered = {True: 0, False: 0, None: 0}
    for red, blue in _positions(size, rnd, 4 if size > 13 else 8):
        game = new_game("nakeddiagonal", size)
        assert isinstance(game, NakedDiagonal)
        game._stones = [red, blue]
        solver = game._solver
        monkeypatch.setattr(solver, "_core", None)  # the pure path fills the memo
        for point in rnd.sample(range(size * size), min(40, size * size)):
            for player in (0, 1):
                want = game._point_legal(point, player)
                got = core.quick_verdict(size, point, player, red, blue, solver.timelines)
                assert got in (None, want), (red, blue, point, player)
                answered[got] += 1
        monkeypatch.undo()
    assert answered[True] and answered[False] and answered[None]


def test_packed_witnesses_match_their_twins() -> None:
    core = _compiled()
    rnd = random.Random(5)
    for size in SIZES:
        area = size * size
        for _ in range(50):
            witness = _witness(rnd, _mask(rnd, area, rnd.random()))
            packed = core.pack(witness)
            assert packed == _py_pack(witness)
            assert core.unpack(packed) == _py_unpack(packed) == witness
    assert core.pack(()) == "" and core.unpack("") == ()


def test_ints_cross_into_c_and_back_exactly_at_every_word_boundary() -> None:
    """rules/_pyint_words.h, shared by both compiled cores: a flood of a set within itself is
    the set, so ``flood(n, v, v)`` carries ``v`` in and out unchanged."""
    core = _compiled()
    rnd = random.Random(7)
    values = [0, 1, (1 << 63), (1 << 64) - 1, 1 << 64, (1 << 64) + 1, (1 << 128) - 1]
    values += [1 << k for k in (127, 128, 191, 192, 255, 256, 360)]
    values += [rnd.getrandbits(361) for _ in range(200)]
    for value in values:
        assert core.flood(19, value, value, True) == value
        assert core.bits(value) == [i for i in range(value.bit_length()) if value >> i & 1]
    with pytest.raises(OverflowError):
        core.flood(19, -1, -1, False)
    with pytest.raises(OverflowError):
        core.flood(19, -(1 << 70), 1, False)
    with pytest.raises(TypeError, match="bitboard"):
        core.flood(19, 1.5, 1, False)  # type: ignore[arg-type]


def test_bad_input_is_refused_with_a_clear_error() -> None:
    core = _compiled()
    with pytest.raises(OverflowError):
        core.flood(19, 1 << 400, 1, False)
    with pytest.raises(ValueError, match="board size"):
        core.flood(20, 1, 1, False)
    with pytest.raises(ValueError, match="timeline"):
        core.fills_after_recolouring(5, "short", 0, 0, 0, 0)
    with pytest.raises(ValueError, match="move"):
        core.timeline(5, 0, 0, ((25, 0),))
    with pytest.raises(ValueError, match="pair"):
        core.repair(5, 1, 0, 0, ((0,),), None)  # type: ignore[arg-type]


def test_a_game_is_played_alike_with_and_without_the_core() -> None:
    """Legal moves at every turn of seeded random games at 5, 7 and 9, in this process (the
    core where built) and in one with CROSSPATH_PURE_PYTHON=1."""
    _compiled()
    script = (
        "import random\n"
        "from rules import new_game\n"
        "from rules.nd_core import CORE\n"
        "out = [CORE is not None]\n"
        "for size in (5, 7, 9):\n"
        "    rnd, game = random.Random(size), new_game('nakeddiagonal', size)\n"
        "    while not game.is_over:\n"
        "        moves = game.legal_moves()\n"
        "        out.append(moves)\n"
        "        game.play(rnd.choice(moves))\n"
        "print(repr(out))\n"
    )

    def run(pure: bool) -> list[object]:
        env = {k: v for k, v in os.environ.items() if k != "CROSSPATH_PURE_PYTHON"}
        if pure:
            env["CROSSPATH_PURE_PYTHON"] = "1"
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        result: list[object] = ast.literal_eval(done.stdout)
        return result

    compiled, pure = run(False), run(True)
    assert compiled[0] is True and pure[0] is False
    assert compiled[1:] == pure[1:] and len(compiled) > 40
