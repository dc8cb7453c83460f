"""The NDE area check against plain exhaustive search, plus the issue's two positions.

The reference here is written straight from the definition (try every empty point with either
colour, in every order, remembering dead states) and shares no code with the solver.
"""

from __future__ import annotations

import gc
import random
import time

import pytest

from rules.nd_area import NO_STEP, AreaSolver, area_solver, check_witness


def _naked(size: int, point: int, own: int, wild: int = 0) -> bool:
    """Would a stone at ``point`` make a naked diagonal with ``own`` (from the definition)?

    ``wild`` points (the window relaxation) count as protectors of either colour.
    """
    guard = own | wild
    c, r = point % size, point // size
    for dx in (1, -1):
        for dy in (1, -1):
            cc, rr = c + dx, r + dy
            inside = 0 <= cc < size and 0 <= rr < size
            if inside and own >> (rr * size + cc) & 1:
                protected = guard >> (r * size + cc) & 1 or guard >> (rr * size + c) & 1
                if not protected:
                    return True
    return False


def brute_fillable(size: int, area: int, red: int, blue: int, wild: int = 0) -> bool:
    """Exhaustive: every fill order and colouring, with a set of states already refuted."""
    cells = [i for i in range(size * size) if area >> i & 1]
    dead: set[tuple[int, int]] = set()

    def go(r: int, b: int) -> bool:
        filled = r | b
        if filled & area == area:
            return True
        if (r, b) in dead:
            return False
        for p in cells:
            if filled >> p & 1:
                continue
            if not _naked(size, p, r, wild) and go(r | 1 << p, b):
                return True
            if not _naked(size, p, b, wild) and go(r, b | 1 << p):
                return True
        dead.add((r, b))
        return False

    return go(red, blue)


def random_stones(rng: random.Random, size: int, count: int) -> tuple[int, int]:
    """Random stones with no naked diagonal (areas may well be NDE: that is the point)."""
    stones = [0, 0]
    for _ in range(count):
        empty = [i for i in range(size * size) if not (stones[0] | stones[1]) >> i & 1]
        rng.shuffle(empty)
        for p in empty:
            colour = rng.randrange(2)
            if not _naked(size, p, stones[colour]):
                stones[colour] |= 1 << p
                break
    return stones[0], stones[1]


def empty_areas(size: int, red: int, blue: int) -> list[int]:
    empty = ((1 << size * size) - 1) & ~(red | blue)
    return area_solver(size).components(empty, diagonal=False)


def corpus(seed: int, count: int, max_cells: int) -> list[tuple[int, int, int, int]]:
    """``count`` areas (size, area, red, blue) from random positions on 4x4 and 5x5 boards."""
    rng = random.Random(seed)
    out: list[tuple[int, int, int, int]] = []
    while len(out) < count:
        size = rng.choice((4, 5))
        red, blue = random_stones(rng, size, rng.randrange(size * size // 4, size * size))
        for area in empty_areas(size, red, blue):
            if area.bit_count() <= max_cells:
                out.append((size, area, red, blue))
    return out[:count]


def board(rows: str) -> tuple[int, int, int]:
    """Parse "...R. / B.... / ..." (top row first, row 1 last): size, red, blue."""
    lines = [line.strip() for line in rows.split("/")]
    size = len(lines)
    red = blue = 0
    for k, line in enumerate(lines):
        row = size - 1 - k
        assert len(line) == size
        for col, ch in enumerate(line):
            if ch == "R":
                red |= 1 << (row * size + col)
            elif ch == "B":
                blue |= 1 << (row * size + col)
    return size, red, blue


@pytest.mark.slow
def test_ten_thousand_random_areas_agree_with_exhaustive_search() -> None:
    areas = corpus(seed=20241, count=10_000, max_cells=14)
    started = time.perf_counter()
    verdicts = {True: 0, False: 0}
    disagreements = []
    for size, area, red, blue in areas:
        solver = area_solver(size)
        witness = solver.solve(area, red, blue)
        truth = brute_fillable(size, area, red, blue)
        verdicts[truth] += 1
        if (witness is not None) != truth:
            disagreements.append((size, area, red, blue, truth))
        if witness is not None:
            assert check_witness(size, area, red, blue, witness), (size, area, red, blue)
    assert disagreements == []
    assert len(areas) == 10_000
    # The corpus must exercise both verdicts seriously, and multi-point areas.
    assert verdicts[False] >= 500 and verdicts[True] >= 5_000
    assert sum(1 for _, area, _, _ in areas if area.bit_count() >= 8) >= 1_000
    assert time.perf_counter() - started < 600  # a hang is a bug, not slowness


@pytest.mark.slow
def test_complete_search_alone_agrees_with_exhaustive_search() -> None:
    """Without heuristics or windows, the search itself (safe moves, pruning) must be exact."""
    solvers = {4: AreaSolver(4, shortcuts=False), 5: AreaSolver(5, shortcuts=False)}
    checked = 0
    for size, area, red, blue in corpus(seed=777, count=2_500, max_cells=12):
        witness = solvers[size].solve(area, red, blue)
        assert (witness is not None) == brute_fillable(size, area, red, blue), (area, red, blue)
        if witness is not None:
            assert check_witness(size, area, red, blue, witness)
        checked += 1
    assert checked == 2_500
    assert solvers[4].stats["nodes"] + solvers[5].stats["nodes"] > 500


def _replays_with_help(size: int, area: int, red: int, blue: int, wild: int, witness) -> bool:
    stones, filled = [red, blue], 0
    for p, colour in witness:
        if not area >> p & 1 or filled >> p & 1 or _naked(size, p, stones[colour], wild):
            return False
        stones[colour] |= 1 << p
        filled |= 1 << p
    return filled == area


@pytest.mark.slow
def test_window_relaxation_is_exact_for_its_own_question_and_sound() -> None:
    """Windows with "wild" helpers: exact against exhaustive search, and never over-refute.

    Sound means: a window that cannot be filled even with help proves its whole area NDE.
    """
    rng = random.Random(99)
    relaxed = {4: AreaSolver(4, shortcuts=False), 5: AreaSolver(5, shortcuts=False)}
    refutations = checked = 0
    for size, area, red, blue in corpus(seed=4242, count=4_000, max_cells=12):
        cells = [i for i in range(size * size) if area >> i & 1]
        if len(cells) < 3:
            continue
        geometry = area_solver(size)
        window = 1 << rng.choice(cells)
        for _ in range(rng.choice((1, 2))):
            window = geometry.dilate8(window) & area
        if window == area:
            window = sum(1 << i for i in rng.sample(cells, len(cells) - 1))
        wild = area & ~window & geometry.dilate4(window)
        truth = brute_fillable(size, window, red, blue, wild)
        for solver in (relaxed[size], area_solver(size)):
            witness = solver.solve_relaxed(window, red, blue, wild)
            assert (witness is not None) == truth, (size, window, red, blue, wild)
            if witness is not None:
                assert _replays_with_help(size, window, red, blue, wild, witness)
        if not truth:
            refutations += 1
            assert not brute_fillable(size, area, red, blue)
        checked += 1
    assert checked > 1_500 and refutations > 60


def test_issue_position_one_two_point_pocket() -> None:
    """Red c1 leaves b1/b2 waiting on each other, so the big area is NDE."""
    size, red, blue = board("...R. / ...R. / B.... / R.B.. / B.R..")
    (area,) = [a for a in empty_areas(size, red, blue) if a.bit_count() > 1]
    solver = AreaSolver(size)
    assert solver.solve(area, red, blue) is None
    assert AreaSolver(size, shortcuts=False).solve(area, red, blue) is None
    # The necessary test alone already refutes it, without any search.
    assert solver.refuted(area, red, blue) is None
    # Before red c1 the same area (plus c1) is fillable, with a witness.
    size, red, blue = board("...R. / ...R. / B.... / R.B.. / B....")
    (area,) = empty_areas(size, red, blue)
    witness = solver.solve(area, red, blue)
    assert witness is not None and check_witness(size, area, red, blue, witness)


def test_issue_position_two_needs_a_careful_fill() -> None:
    size, red, blue = board("...R.. / B..... / B..... / .R.B.. / ....R. / .BR.RB")
    (area,) = empty_areas(size, red, blue)
    assert area.bit_count() == 26
    for solver in (AreaSolver(size), AreaSolver(size, shortcuts=False)):
        started = time.perf_counter()
        witness = solver.solve(area, red, blue)
        assert witness is not None
        assert check_witness(size, area, red, blue, witness)
        assert time.perf_counter() - started < 5


def test_witness_replay_rejects_bad_witnesses() -> None:
    size, red, blue = board("...R. / ...R. / B.... / R.B.. / B....")
    (area,) = empty_areas(size, red, blue)
    witness = area_solver(size).solve(area, red, blue)
    assert witness is not None
    assert not check_witness(size, area, red, blue, witness[:-1])  # leaves a point empty
    assert not check_witness(size, area, red, blue, witness + witness[:1])  # fills twice
    c3 = 2 * size + 2
    # A red stone at c3 next to red... forms a naked diagonal with d4: refused on replay.
    assert not check_witness(size, 1 << c3, red | 1 << (3 * size + 3), blue, [(c3, 0)])


@pytest.mark.parametrize(
    "rows",
    [
        # Blue staircase: red is banned from the pocket and blue cannot fill it alone.
        "R.B.. / .B.B. / B.R.B / .B.B. / ..B..",
        "..... / .RBR. / .B.B. / .RBR. / .....",
    ],
)
def test_layers_agree_on_hand_made_positions(rows: str) -> None:
    size, red, blue = board(rows)
    for area in empty_areas(size, red, blue):
        truth = brute_fillable(size, area, red, blue)
        for solver in (AreaSolver(size), AreaSolver(size, shortcuts=False)):
            assert (solver.solve(area, red, blue) is not None) == truth


def test_a_full_memo_forgets_its_oldest_entries_one_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past CACHE_LIMIT the memo drops its oldest entries, never the whole memo at once (which
    took 0.74 s with the GIL held at 400,000 entries), and verdicts stay exact."""
    import rules.nd_area as nd

    monkeypatch.setattr(nd, "CACHE_LIMIT", 40)
    small = AreaSolver(5)
    keys: list[int] = []
    sizes: list[int] = []
    for size, area, red, blue in corpus(8, 150, 12):
        if size != 5:
            continue
        got = small.solve(area, red, blue)
        assert (got is not None) == brute_fillable(5, area, red, blue)
        if got is not None:
            assert check_witness(5, area, red, blue, got)
        small.area_timeline(area, red, blue)
        keys.append(small.key(area, red, blue))
        assert len(small.cache) <= 40 and len(small.timelines) <= 40
        sizes.append(len(small.cache))
    assert len(set(keys)) >= 45
    assert sizes == sorted(sizes) and sizes[-1] == 40  # it fills up and never drops at once
    # The newest entry is still there; the first one, many stores ago, is not.
    assert keys[-1] in small.cache and keys[-1] in small.timelines
    assert keys[0] not in small.cache and keys[0] not in small.timelines
    small.forget()
    assert not small.cache and not small.timelines and not small.hint_pool


def test_the_memos_are_never_tracked_by_the_garbage_collector() -> None:
    """Memo keys are ints and values strs or None, so the memo dicts are never tracked and a
    collection never walks them.  With tuple keys and values (even once untracked) every full
    collection walked all 800,000 entries: 0.2-0.5 s each, and a sixth to a quarter of a
    Naked Diagonal search's time (bench/nd_memo_gc.py).  No collection runs in this test: the
    dicts must stay untracked as they fill, not only become so after a collection."""
    gc.disable()
    try:
        solver = AreaSolver(5)
        for size, area, red, blue in corpus(21, 120, 14):
            if size == 5:
                solver.area_timeline(area, red, blue)
        timelines = [t for t in solver.timelines.values() if t is not None]
        packed = [w for w in solver.cache.values() if w is not None]
        assert len(timelines) >= 30 and len(packed) >= 30
        assert not gc.is_tracked(solver.cache) and not gc.is_tracked(solver.timelines)
        assert all(type(k) is int for k in (*solver.cache, *solver.timelines))
        assert all(type(v) is str for v in (*timelines, *packed))
    finally:
        gc.enable()


def _replay_still_works(
    size: int, witness: tuple[tuple[int, int], ...], red: int, blue: int, point: int, colour: int
) -> bool:
    """still_fills from its definition: with ``point`` held by ``colour``, does every other
    step of the witness, in order, avoid a naked diagonal?"""
    stones = [red, blue]
    stones[colour] |= 1 << point
    for p, c in witness:
        if p == point:
            continue
        if _naked(size, p, stones[c]):
            return False
        stones[c] |= 1 << p
    return True


def test_still_fills_answers_as_replaying_the_witness_does() -> None:
    """The 3x3 patterns a timeline stores give exactly what replaying the witness gives, for
    every point of the area and both colours, on boards of several sizes."""
    checked = {True: 0, False: 0}
    rng = random.Random(34)
    larger = []
    for size in (7, 9, 7, 9):
        red, blue = random_stones(rng, size, size * size // 3)
        larger += [(size, area, red, blue) for area in empty_areas(size, red, blue)]
    for size, area, red, blue in corpus(33, 160, 16) + larger:
        solver = area_solver(size)
        witness = solver.solve(area, red, blue)
        if witness is None:
            continue
        timeline = solver.timeline(red, blue, witness)
        assert solver.timeline_witness(timeline) == witness
        for point in range(size * size):
            if not area >> point & 1:
                continue
            for colour in (0, 1):
                want = _replay_still_works(size, witness, red, blue, point, colour)
                assert solver.still_fills(timeline, point, colour) == want
                checked[want] += 1
    assert checked[True] >= 100 and checked[False] >= 100


def test_a_memoised_timeline_serves_every_position_with_the_same_key() -> None:
    """The memo shares a timeline between positions that differ only beyond the area's ring
    (same key); its answers must hold for all of them, so every block it keeps must lie
    within the area and its ring."""
    rng = random.Random(35)
    shared = 0
    for size in (5, 6, 7) * 6:
        solver = AreaSolver(size)
        red, blue = random_stones(rng, size, size * size // 3)
        for area in empty_areas(size, red, blue):
            ring = solver.dilate8(area) & ~area
            outside = solver.full & ~(solver.dilate8(area) | red | blue)
            if not outside or solver.solve(area, red, blue) is None:
                continue
            far = [i for i in range(size * size) if outside >> i & 1]
            extra = [rng.choice(far) for _ in range(3)]
            red2 = red | 1 << extra[0] | 1 << extra[1]
            blue2 = blue | ((1 << extra[2]) & ~red2)
            assert solver.key(area, red, blue) == solver.key(area, red2, blue2)
            assert red2 & ring == red & ring
            first = solver.area_timeline(area, red, blue)
            assert first is not None
            assert solver.area_timeline(area, red2, blue2) is first
            witness = solver.timeline_witness(first)
            for point in range(size * size):
                if area >> point & 1:
                    for colour in (0, 1):
                        want = _replay_still_works(size, witness, red2, blue2, point, colour)
                        assert solver.still_fills(first, point, colour) == want
            shared += 1
    assert shared >= 10


def test_timeline_steps_reach_past_255_points_on_large_boards() -> None:
    """A timeline maps points to steps in a str, one char a point: on a 17x17 board an empty
    area has 289 points, so step numbers pass 255 and the code must not wrap or collide."""
    size = 17
    solver = AreaSolver(size)
    full = (1 << size * size) - 1
    red = 1 << 0  # one stone, so the area is not the whole board
    area = full & ~red
    timeline = solver.area_timeline(area, red, 0)
    assert timeline is not None
    witness = solver.timeline_witness(timeline)
    assert len(witness) == 288 and len(timeline) == 2 * 289
    assert [ord(timeline[p]) for p, _ in witness] == list(range(288))
    assert ord(timeline[0]) == NO_STEP
    # still_fills is a sufficient test: whenever it says the rest of the area still fills, it
    # does.  Points late in the witness (steps past 255) are the ones the encoding could break.
    checked = 0
    for p, _ in witness[250:]:
        for colour in (0, 1):
            if solver.still_fills(timeline, p, colour):
                stones = [red, 0]
                stones[colour] |= 1 << p
                rest = area & ~(1 << p)
                assert AreaSolver(size).solve(rest, stones[0], stones[1]) is not None
                checked += 1
    assert checked >= 10  # the check above ran, not only the "does not fill" answers
