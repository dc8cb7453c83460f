"""Exact "naked diagonal-equivalent" (NDE) area check for Naked Diagonal.

An empty area is NDE when no order and colouring of its points fills it without some placement
forming a naked diagonal.  Deciding that is a search problem, so this module layers cheap
tests in front of a complete one and never guesses:

* The placement rule, seen per 2x2 block: placing colour X on p forms a naked diagonal exactly
  when some block holding p contains exactly one X stone and it is diagonally opposite p.
* **Sufficient test**: replaying (and repairing) a known witness, usually the witness of the area
  this one was cut from, then a plain greedy fill.  Success yields a witness, so a "fillable"
  verdict is always backed by an explicit fill.
* **Necessary tests**: the least fixpoint of (point, colour) pairs that could ever be placed,
  given the stones present (a point with no reachable colour proves the area unfillable: this
  catches pockets whose points wait on each other); a single-colour fill of the points forced
  to one colour; and small windows solved exactly with the rest of the area as "wild" helpers.
* **Decomposition**: empty points in parts that are not even diagonally adjacent share no 2x2
  block, so such parts are solved independently.
* **Complete search** over placements with memoisation keyed by (part, stones around it), a
  dominance rule ("safe moves" that can be made first without loss of generality) and the
  necessary tests as pruning at every node.

Verdicts are memoised across calls by (area, colours of the surrounding ring), which is all the
answer depends on, so consecutive positions of one game reuse most of their work.  Proof
sketches and measurements: docs/naked-diagonal.md.
"""

from __future__ import annotations

import random
import threading
from collections import deque
from collections.abc import Iterable
from typing import TypeVar

from . import geometry
from .geometry import DIAGONAL, Grid, grid
from .nd_core import CORE

Move = tuple[int, int]  # (point index, colour: 0 = first player, 1 = second)
Witness = tuple[Move, ...]
Base = tuple[int, int, int]
"""(area, red stones, blue stones) that a repair hint is known to fill (see ``_repair``)."""
CacheKey = int
"""An area and the stones on its ring, packed into one int (see :meth:`AreaSolver.key`)."""
V = TypeVar("V")

bits_list = CORE.bits if CORE is not None else geometry.bits_list
"""The set bits' indices, lowest first (the compiled twin where it is built; the masks here
are always board masks, so without :func:`geometry.bits_list`'s range check)."""


Timeline = str
"""A witness as two runs of one char a board point (see :meth:`AreaSolver.timeline`):
``ord(t[p])`` is the step at which the witness fills point ``p`` (:data:`NO_STEP` if it does
not), and ``ord(t[area + p])`` is that step's colour (bit 9) and, in the low nine bits, which
points of the 3x3 block around ``p`` held that colour just before the step (bit
``3 * (dy + 1) + dx + 1`` for the neighbour at ``(dx, dy)``).  That block is all a naked
diagonal at ``p`` depends on, so :meth:`AreaSolver.still_fills` reads one table per
neighbour instead of replaying stones.

Why one str and not a tuple: a memo whose keys and values are ints, strs and None holds no
object the garbage collector tracks, so the dict itself is never tracked and a collection
never walks it.  A search fills the memos (400,000 entries each) within one game; with tuple
keys and timelines every full collection walked them all, and collections took a sixth to a
quarter of a Naked Diagonal search's time (``bench/nd_memo_gc.py``)."""

NO_STEP = 0xFFFF
"""The step code of a point outside a timeline's witness (above any step on any board)."""


def _block_bit(dx: int, dy: int) -> int:
    """The bit of the neighbour at ``(dx, dy)`` in a 3x3 pattern (see :data:`Timeline`)."""
    return 1 << 3 * (dy + 1) + dx + 1


def _naked_table() -> bytes:
    """For each 3x3 pattern of like-coloured stones (as in :data:`Timeline`), whether a
    stone at its centre forms a naked diagonal: a diagonal neighbour with neither of the two
    points it shares with the centre.  Off-board points are never in a pattern, and a
    diagonal on the board has both shared points on the board, so one table serves every
    point of every board."""

    bit = _block_bit
    table = bytearray(512)
    for pattern in range(512):
        table[pattern] = any(
            pattern & bit(dx, dy) and not pattern & (bit(dx, 0) | bit(0, dy)) for dx, dy in DIAGONAL
        )
    return bytes(table)


NAKED = _naked_table()


class Undecided:
    """The verdict of a budgeted check that ran out of nodes (see ``solve_within``)."""

    def __repr__(self) -> str:
        return "UNDECIDED"


UNDECIDED = Undecided()


class _OutOfBudget(Exception):
    """A restart of the search ran out of nodes (never escapes the solver)."""


_MISSING = object()
CACHE_LIMIT = 400_000
"""Entries each memo keeps; past it the oldest are forgotten one at a time (see ``_store``)."""
SINGLE_COLOUR_LIMIT = 14
WINDOW_LIMIT = 12
SQUARE = ((5, 5),)
"""The window tried first: the square of radius 2 around a point next to a stone."""
WINDOW_SHAPES = ((3, 3), (3, 4), (4, 3), (4, 4), (3, 5), (5, 3), (2, 5), (5, 2), (2, 6), (6, 2))
"""Rectangles tried as windows, smallest first, when the short restarts of the complete search
could not settle an area (see ``_windows``): most areas that reach the search are fillable and
a short run finds their fill, so the many windows are paid for only by the rare hard area."""
LARGE_WINDOW_SHAPES = ((4, 5), (5, 4), (3, 6), (6, 3), (5, 5), (4, 6), (6, 4))
LARGE_WINDOW_LIMIT = 18
"""Larger rectangles, of up to 18 area points, tried when every short restart failed too."""
PATCH_STUCK = 6
"""Stuck points of a sweep that :meth:`AreaSolver._patched_stripes` still tries to patch."""
PATCH_NODES = 200
"""Search nodes the patch's window may take (it is a sufficient test only)."""
RESTART_LIMITS = (30, 60, 120, 240, 480, 960)
WINDOW_STAGES = {3: (WINDOW_SHAPES, WINDOW_LIMIT), 6: (LARGE_WINDOW_SHAPES, LARGE_WINDOW_LIMIT)}
"""After how many failed restarts of the search which rectangle windows are tried."""


def _shift(mask: int, off: int, valid: int) -> int:
    """Bit p of the result is bit p + off of ``mask`` (0 where p + step is off the board)."""
    return (mask >> off if off >= 0 else mask << -off) & valid


class AreaSolver:
    """Decides whether areas of one board size can be filled; shared by every game of a size."""

    def __init__(self, size: int, shortcuts: bool = True, compiled: bool = True) -> None:
        """``shortcuts=False`` keeps only the complete search (tests cross-check each layer);
        ``compiled=False`` runs the pure-Python twins though the compiled core is built (tests
        compare the two)."""
        self.shortcuts = shortcuts
        self._core = CORE if compiled else None
        g: Grid = grid(size)
        self.grid = g
        self.size = size
        self.area = g.area
        # Per point p: (neighbour q, the bit of p in q's 3x3 pattern), for still_fills.
        self.ring_bits_of: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((q, _block_bit(p % size - q % size, p // size - q // size)) for q in g.ring[p])
            for p in range(g.area)
        )
        self._no_steps = chr(NO_STEP) * g.area
        self.full = g.full
        n = size

        def step(dx: int, dy: int) -> tuple[int, int]:
            return dx + dy * n, g.shift(g.full, dx, dy)

        # Orthogonal steps E, W, N, S, then each diagonal as (diag, horizontal, vertical).
        self.orth = (step(1, 0), step(-1, 0), step(0, 1), step(0, -1))
        orth_index = {(1, 0): 0, (-1, 0): 1, (0, 1): 2, (0, -1): 3}
        self.diags: tuple[tuple[int, int, int, int], ...] = tuple(
            (*step(dx, dy), orth_index[(dx, 0)], orth_index[(0, dy)]) for dx, dy in DIAGONAL
        )
        # Per point: (diagonal neighbour bit, its two common orthogonal neighbours) on the board.
        checks: list[tuple[tuple[int, int], ...]] = []
        for i in range(g.area):
            c, r = g.coords(i)
            pairs = []
            for dx, dy in DIAGONAL:
                if g.on_board(c + dx, r + dy):
                    d = 1 << g.index(c + dx, r + dy)
                    prot = (1 << g.index(c + dx, r)) | (1 << g.index(c, r + dy))
                    pairs.append((d, prot))
            checks.append(tuple(pairs))
        self.checks = tuple(checks)
        # Sweeps for striped fills: (points in sweep order, step back to the reference point).
        rows = [[r * n + c for c in range(n)] for r in range(n)]
        cols = [[r * n + c for r in range(n)] for c in range(n)]
        self.sweeps: tuple[tuple[tuple[int, ...], int], ...] = (
            (tuple(p for row in rows for p in row), -n),
            (tuple(p for row in reversed(rows) for p in row), n),
            (tuple(p for col in cols for p in col), -1),
            (tuple(p for col in reversed(cols) for p in col), 1),
        )
        # Each sweep's rank of every point (sorting an area's points by it gives the sweep's
        # order without scanning the whole board), and the step back to the reference point.
        self._sweep_ranks: tuple[tuple[list[int], int], ...] = tuple(
            (_ranks(order), back) for order, back in self.sweeps
        )
        # Per point: (diagonal neighbour, its two common orthogonal neighbours) as indices, for
        # the fills that keep the board as one colour code a point (see ``_codes``).
        self.blocks = g.squares
        # Rectangles by shape, then by the index of their lower-left point (window tests).
        self._rects: dict[tuple[int, int], dict[int, int]] = {}
        for w, h in (*SQUARE, *WINDOW_SHAPES, *LARGE_WINDOW_SHAPES):
            rects: dict[int, int] = {}
            for x0 in range(n - w + 1):
                for y0 in range(n - h + 1):
                    rects[x0 + y0 * n] = sum(
                        1 << g.index(x0 + dx, y0 + dy) for dx in range(w) for dy in range(h)
                    )
            self._rects[(w, h)] = rects
        self.cache: dict[CacheKey, str | None] = {}  # witnesses packed by _pack
        self._cache_order: deque[CacheKey] = deque()
        # Timelines of solved areas, by the same key: searches ask about one area many times.
        self.timelines: dict[CacheKey, Timeline | None] = {}
        self._timeline_order: deque[CacheKey] = deque()
        # Witnesses of the areas of the last position a game asked about: repair hints only.
        self.hint_pool: dict[int, Witness] = {}
        self.stats = {"hits": 0, "hint": 0, "greedy": 0, "search": 0, "nodes": 0, "restarts": 0}
        # Node budget of the current restart of the search (None: unlimited) and its RNG.
        self._budget: int | None = None
        self._rng = random.Random(0)

    # ----- single placements ----------------------------------------------------------------
    def forms_naked(self, point: int, own: int, wild: int = 0) -> bool:
        """Would a stone on ``point`` form a naked diagonal with the stones ``own``?

        ``wild`` points (used only by relaxations) protect every pair and block nothing.
        """
        guard = own | wild
        for d, prot in self.checks[point]:  # noqa: SIM110 (a plain loop is faster here)
            if own & d and not guard & prot:
                return True
        return False

    def naked_mask(self, own: int, wild: int = 0) -> int:
        """Every point where a stone of the colour ``own`` would form a naked diagonal."""
        if self._core is not None:
            return self._core.naked_mask(self.size, own, wild)
        guard = own | wild
        o = [_shift(guard, off, valid) for off, valid in self.orth]
        out = 0
        for off, valid, h, v in self.diags:
            d = _shift(own, off, valid)
            if d:
                out |= d & ~o[h] & ~o[v]
        return out & self.full

    def naked_beside_mask(self, own: int, other: int) -> int:
        """Every point where a stone of the colour ``own`` would form a naked diagonal one of
        whose two shared points holds a stone of ``other``: a bar that its player can lift
        only by first taking the other shared point, a move the opponent can take first."""
        o = [_shift(own, off, valid) for off, valid in self.orth]
        e = [_shift(other, off, valid) for off, valid in self.orth]
        out = 0
        for off, valid, h, v in self.diags:
            d = _shift(own, off, valid)
            if d:
                out |= d & ~o[h] & ~o[v] & (e[h] | e[v])
        return out & self.full

    # ----- area helpers -----------------------------------------------------------------------
    def dilate8(self, m: int) -> int:
        return self.grid.dilate8(m)

    def dilate4(self, m: int) -> int:
        return self.grid.dilate4(m)

    def flood(self, seed: int, within: int, diagonal: bool) -> int:
        if self._core is not None:
            return self._core.flood(self.size, seed, within, diagonal)
        grow = self.grid.dilate8 if diagonal else self.grid.dilate4
        region = seed
        while True:
            nxt = grow(region) & within
            if nxt == region:
                return region
            region = nxt

    def components(self, cells: int, diagonal: bool) -> list[int]:
        """Connected parts of ``cells`` (8-connected when ``diagonal``)."""
        if self._core is not None:
            return self._core.components(self.size, cells, diagonal)
        parts: list[int] = []
        while cells:
            seed = cells & -cells
            part = self.flood(seed, cells, diagonal)
            parts.append(part)
            cells &= ~part
        return parts

    def key(self, area: int, red: int, blue: int, wild: int = 0) -> CacheKey:
        """The area and the stones on its ring (all that decides its verdict) as one int."""
        if self._core is not None:
            return self._core.key(self.size, area, red, blue, wild)
        ring = self.dilate8(area) & ~area
        a = self.area
        return area | (red & ring) << a | (blue & ring) << 2 * a | (wild & ring) << 3 * a

    # ----- public entry -----------------------------------------------------------------------
    def solve(self, area: int, red: int, blue: int, hint: Iterable[Move] = ()) -> Witness | None:
        """A witness filling ``area`` given the stones ``red``/``blue``, or None if it is NDE.

        Empty points outside ``area`` stay empty throughout (stones there could never help).
        ``hint`` is an earlier witness worth repairing first (e.g. the enclosing area's).
        """
        result = self.solve_within(area, red, blue, hint, None)
        assert not isinstance(result, Undecided)  # no budget: the verdict is always exact
        return result

    def solve_within(
        self,
        area: int,
        red: int,
        blue: int,
        hint: Iterable[Move],
        nodes: int | None,
        base: Base | None = None,
    ) -> Witness | Undecided | None:
        """Like :meth:`solve`, but give up after ``nodes`` nodes of the complete search
        (``None``: never give up).

        Returns :data:`UNDECIDED` then (nothing wrong is stored: a search cut short stores no
        verdict, and every part it did settle is exact).  ``base`` says the hint is a witness
        known to fill an area under given stones, which lets the repair skip re-checking the
        steps that nothing changed around (see :meth:`_repair`).  Searches use this so a rare area
        whose proof is expensive costs them one skipped candidate instead of seconds.
        """
        key = self.key(area, red, blue)
        got = self.cache.get(key, _MISSING)
        if got is not _MISSING:
            self.stats["hits"] += 1
            return None if got is None else _unpack(got)  # type: ignore[arg-type]
        result = self._repair(area, red, blue, hint, base) if self.shortcuts else None
        if result is not None:
            self.stats["hint"] += 1
        else:
            self._budget = nodes
            try:
                result = self._solve_set(area, red, blue, 0, 0)
            except _OutOfBudget:
                return UNDECIDED
            finally:
                self._budget = None
        self._store(key, result)
        return result

    def area_timeline(
        self, area: int, red: int, blue: int, hint: Iterable[Move] | None = ()
    ) -> Timeline | None:
        """The timeline of a witness for ``area`` (None if it is NDE), memoised.

        Only stones next to the area affect :meth:`still_fills` on its points, so the timeline
        is keyed like the verdict: the 3x3 blocks it keeps lie within the area and its ring.
        ``hint=None`` takes the hint from the pool (the first witness of an area overlapping
        this one), looked up only when the memo misses: most calls hit, and a search asked
        the pool at every call, which was a tenth of a playout's time.
        """
        key = self.key(area, red, blue)
        got = self.timelines.get(key, _MISSING)
        if got is not _MISSING:
            return got  # type: ignore[return-value]
        if hint is None:
            hint = next((w for old, w in self.hint_pool.items() if old & area), ())
        witness = self.solve(area, red, blue, hint)
        if witness is not None:
            # Keep the pool of hints to the areas of recent positions.
            pool = self.hint_pool
            for old in [old for old in pool if old & area]:
                del pool[old]
            pool[area] = witness
        result = None if witness is None else self.timeline(red, blue, witness)
        _remember(self.timelines, self._timeline_order, key, result)
        return result

    def timeline(self, red: int, blue: int, witness: Witness) -> Timeline:
        """The :data:`Timeline` of a witness: each point's step, and its colour and 3x3
        pattern of like-coloured stones just before that step."""
        if self._core is not None:
            return self._core.timeline(self.size, red, blue, witness)
        steps = list(self._no_steps)
        codes = ["\0"] * self.area
        stones = [red, blue]
        ring_bits = self.grid.ring_bits
        n = self.size
        for k, (p, c) in enumerate(witness):
            steps[p] = chr(k)
            near = stones[c] & ring_bits[p]
            low = p - n - 1
            b = near >> low if low >= 0 else near << -low
            codes[p] = chr(c << 9 | b & 7 | (b >> n & 7) << 3 | (b >> 2 * n & 7) << 6)
            stones[c] |= 1 << p
        return "".join(steps) + "".join(codes)

    def timeline_witness(self, timeline: Timeline) -> Witness:
        """The witness a timeline was made from (its steps in order, with their colours)."""
        if self._core is not None:
            return self._core.timeline_witness(self.size, timeline)
        a = self.area
        order = sorted((ord(timeline[p]), p) for p in range(a) if ord(timeline[p]) != NO_STEP)
        return tuple((p, ord(timeline[a + p]) >> 9) for _, p in order)

    def still_fills(self, timeline: Timeline, point: int, colour: int) -> bool:
        """Does the witness, minus ``point``, still work once ``colour`` holds ``point``?

        Only placements sharing a 2x2 block with ``point`` can change legality, so only the
        witness steps on its (up to 8) neighbours are checked, each from its 3x3 pattern with
        ``point`` changed.  When this holds, every part the area splits into is fillable too:
        a part's own steps stay legal when the other parts stay empty, since empty points
        never protect and never block.
        """
        a = self.area
        own_step = ord(timeline[point])
        old_colour = ord(timeline[a + point]) >> 9 if own_step != NO_STEP else -1
        for q, here in self.ring_bits_of[point]:
            k = ord(timeline[q])
            if k == NO_STEP:
                continue
            code = ord(timeline[a + q])
            c = code >> 9
            if c == old_colour and own_step < k:
                code &= ~here
            if c == colour:
                code |= here
            if NAKED[code & 0x1FF]:
                return False
        return True

    def fills_after_recolouring(
        self, timeline: Timeline, point: int, colour: int, red: int, blue: int
    ) -> bool:
        """:meth:`still_fills`, but a step next to ``point`` that fails may switch colour.

        ``timeline`` is a witness of an area under the stones ``red``/``blue``; ``colour`` now
        holds ``point``.  The witness is replayed only where something changed: a step whose
        3x3 block holds no changed point sees what it saw in the witness's own run and stays
        legal, so only ``point``'s neighbours, and then the later neighbours of any step that
        had to switch colour, are checked (in step order, from their blocks at that moment).
        True means the replay with those switches fills the area (less ``point``), so every
        part it splits into is fillable (a fill restricted to a part stays legal); False only
        means a step fitted neither colour, and the caller falls back to the full check.
        Where :meth:`still_fills` holds this holds too, and it settles the cases where one
        neighbour's colour must change, which otherwise cost a replay of the whole witness
        (often 300 steps on 19x19) for each such candidate.
        """
        if self._core is not None:
            return self._core.fills_after_recolouring(self.size, timeline, point, colour, red, blue)
        a = self.area
        ring = self.grid.ring
        blocks = self.blocks
        t = timeline
        switched: dict[int, int] = {}

        def state(r: int, at: int) -> int:
            """The colour on ``r`` just before step ``at`` of the new replay (-1: empty)."""
            if r == point:
                return colour
            k = ord(t[r])
            if k != NO_STEP:
                if k >= at:
                    return -1
                return switched.get(r, ord(t[a + r]) >> 9)
            if red >> r & 1:
                return 0
            if blue >> r & 1:
                return 1
            return -1

        todo = sorted({ord(t[q]) for q in ring[point]} - {NO_STEP})
        done: set[int] = set()
        order = {ord(t[q]): q for q in ring[point] if ord(t[q]) != NO_STEP}
        while todo:
            k = todo.pop(0)
            if k in done:
                continue
            done.add(k)
            q = order[k]
            c = ord(t[a + q]) >> 9
            for want in (c, 1 - c):
                for d, h, v in blocks[q]:
                    if state(d, k) == want and state(h, k) != want and state(v, k) != want:
                        break  # a naked diagonal
                else:
                    break
            else:
                return False
            if want != c:
                switched[q] = want
                for r in ring[q]:
                    kr = ord(t[r])
                    if kr != NO_STEP and kr > k and kr not in done:
                        order[kr] = r
                        todo.append(kr)
                todo.sort()
        return True

    def _store(self, key: CacheKey, result: Witness | None) -> None:
        _remember(self.cache, self._cache_order, key, None if result is None else _pack(result))

    def forget(self) -> None:
        """Empty every memo (benchmarks measure cold starts with it)."""
        self.cache.clear()
        self._cache_order.clear()
        self.timelines.clear()
        self._timeline_order.clear()
        self.hint_pool.clear()

    # ----- sufficient tests -----------------------------------------------------------------
    def _codes(self, red: int, blue: int, wild: int) -> bytearray:
        """The board as one code a point: 1 red, 2 blue, 4 wild, 0 empty.

        Why not bitboards here: the repair and striped fills decide one point at a time, and a
        point's verdict reads its eight neighbours.  Indexing a bytearray is cheaper than
        masking a 361-bit int (a new int each time), which on 19x19 made these fills most of
        the slowest legality checks' time.  A colour-c stone (code ``c + 1``) on p forms a
        naked diagonal exactly when some block of p has code ``c + 1`` at its diagonal point
        and neither shared point holds that code or wild (the loops below).
        """
        codes = bytearray(self.area)
        for mask, code in ((red, 1), (blue, 2), (wild, 4)):
            for p in bits_list(mask):
                codes[p] = code
        return codes

    def _repair(
        self, area: int, red: int, blue: int, hint: Iterable[Move], base: Base | None = None
    ) -> Witness | None:
        """Replay a hint's order and colours, switching colour or postponing where it fails.

        With ``base`` = (hint_area, red0, blue0), the caller vouches that ``hint`` fills
        ``hint_area`` under the stones ``red0``/``blue0`` (a witness the solver made).  Then a
        step whose 3x3 block holds no *changed* point (one whose state at that moment may
        differ from the hint's own run: a stone added or gone, a point of one area and not the
        other, or a step this replay re-coloured or postponed) sees exactly the block it saw
        in the hint's run, where it was legal, so it is placed without checking.  The result
        is the same witness the full replay gives (tests/rules/test_nakeddiagonal_fast.py
        compares them), at a fraction of the cost: one index per untouched step instead of
        up to eight block checks.  Checking every step of a 300-point witness for each
        candidate near an area was most of a 19x19 ``legal_moves()``.
        """
        if self._core is not None:
            return self._core.repair(self.size, area, red, blue, hint, base)
        inside = set(bits_list(area))
        order: list[Move] = [(p, c) for p, c in hint if p in inside]
        if not order:
            return None
        for p, _ in order:
            inside.discard(p)
        order.extend((p, 0) for p in sorted(inside))
        codes = self._codes(red, blue, 0)
        blocks = self.blocks
        out: list[Move] = []
        pending = order
        tainted: bytearray | None = None
        if base is not None:
            hint_area, red0, blue0 = base
            tainted = bytearray(self.area)
            changed = (red ^ red0) | (blue ^ blue0) | (hint_area ^ area)
            for q in bits_list(self.dilate8(changed)):
                tainted[q] = 1
            ring = self.grid.ring
            deferred = []
            for p, c in pending:
                if not tainted[p]:
                    codes[p] = c + 1
                    out.append((p, c))
                    continue
                for colour in (c, 1 - c):
                    own = colour + 1
                    guard = own | 4
                    for q, h, v in blocks[p]:
                        if codes[q] == own and not codes[h] & guard and not codes[v] & guard:
                            break  # a naked diagonal
                    else:
                        codes[p] = own
                        out.append((p, colour))
                        break
                else:
                    deferred.append((p, c))
                    colour = -1
                if colour != c:  # re-coloured or postponed: its neighbours may see a change
                    tainted[p] = 1
                    for q in ring[p]:
                        tainted[q] = 1
            if len(deferred) == len(pending):
                return None
            pending = deferred
        while pending:
            deferred = []
            for p, c in pending:
                for colour in (c, 1 - c):
                    own = colour + 1
                    guard = own | 4
                    for q, h, v in blocks[p]:
                        if codes[q] == own and not codes[h] & guard and not codes[v] & guard:
                            break  # a naked diagonal
                    else:
                        codes[p] = own
                        out.append((p, colour))
                        break
                else:
                    deferred.append((p, c))
            if len(deferred) == len(pending):
                return None
            pending = deferred
        return tuple(out)

    def _striped(self, area: int, red: int, blue: int, wild: int) -> Witness | None:
        """Sweep the area row by row (or column by column) copying the colour just behind.

        A point taking the colour of the point behind it is protected against both diagonal
        stones behind it, so open space fills as stripes; points that fail are retried after
        the sweep.  Cheap (one check per point) and good on large open areas.
        """
        start = self._codes(red, blue, wild)
        points = bits_list(area)
        for ranks, back in self._sweep_ranks:
            out, stuck = self._sweep(bytearray(start), sorted(points, key=ranks.__getitem__), back)
            if not stuck:
                return tuple(out)
        return None

    def _sweep(
        self, codes: bytearray, pending: list[int], back: int
    ) -> tuple[list[Move], list[int]]:
        """One striped sweep over ``pending`` (in sweep order) on the board ``codes``, retrying
        the points that fail until a pass places none: (the placements, the points left)."""
        if self._core is not None:
            return self._core.sweep(self.size, codes, pending, back)
        blocks = self.blocks
        size = self.area
        out: list[Move] = []
        while pending:
            deferred: list[int] = []
            for p in pending:
                ref = p + back
                first = 1 if 0 <= ref < size and codes[ref] == 2 else 0
                for colour in (first, 1 - first):
                    own = colour + 1
                    guard = own | 4
                    for q, h, v in blocks[p]:
                        if codes[q] == own and not codes[h] & guard and not codes[v] & guard:
                            break  # a naked diagonal
                    else:
                        codes[p] = own
                        out.append((p, colour))
                        break
                else:
                    deferred.append(p)
            if len(deferred) == len(pending):
                return out, pending
            pending = deferred
        return out, []

    def _patched_stripes(self, area: int, red: int, blue: int) -> Witness | None:
        """A striped sweep that got stuck on a few points, with the knot around them refilled.

        On large boards an open area's sweeps often fill all but two or three points, stuck
        in a local knot of stones that the sweep's earlier colours made worse; without this
        the complete search then runs on the whole area, every node of it sweeping 300
        points again.  Here the knot's window (the stuck points and every point within two
        steps) is emptied: the rest of the sweep is replayed without it (by :meth:`_repair`,
        which re-colours or postpones a step whose protector was in the window), then the
        window alone is solved with the complete search, every stone around it in place.
        Both halves are checked placement by placement, and the window's points are empty
        while the rest is placed (empty points never protect nor block), so the two make a
        witness.  The window's search gets a small node budget: this is a sufficient test
        only, and a failure falls through to the complete search of the whole area.
        """
        start = self._codes(red, blue, 0)
        points = bits_list(area)
        for ranks, back in self._sweep_ranks:
            out, stuck = self._sweep(bytearray(start), sorted(points, key=ranks.__getitem__), back)
            if not stuck:
                return tuple(out)
            if len(stuck) > PATCH_STUCK:
                continue
            knot = sum(1 << p for p in stuck)
            window = self.dilate8(self.dilate8(knot)) & area
            if window == area:
                continue
            rest = self._repair(area & ~window, red, blue, out)
            if rest is None:
                continue
            stones = [red, blue]
            for p, c in rest:
                stones[c] |= 1 << p
            saved = self._budget
            self._budget = PATCH_NODES
            try:
                tail = self._solve_set(window, stones[0], stones[1], 0, 1)
            except _OutOfBudget:
                tail = None
            finally:
                self._budget = saved
            if tail is not None:
                return rest + tail
        return None

    def _greedy(self, area: int, red: int, blue: int, wild: int) -> Witness | None:
        """Grow colours along like-coloured neighbours, points with one colour left first."""
        stones = [red, blue]
        left = area
        out: list[Move] = []
        while left:
            legal = [
                left & ~self.naked_mask(stones[0], wild),
                left & ~self.naked_mask(stones[1], wild),
            ]
            if not legal[0] | legal[1]:
                return None
            only = (legal[0] ^ legal[1]) & left
            best: Move | None = None
            for c in (0, 1):
                grow = legal[c] & self.dilate4(stones[c])
                pick = grow & only or grow or (legal[c] & only)
                if pick:
                    best = ((pick & -pick).bit_length() - 1, c)
                    break
            if best is None:
                c = 0 if legal[0] else 1
                best = ((legal[c] & -legal[c]).bit_length() - 1, c)
            p, c = best
            stones[c] |= 1 << p
            left &= ~(1 << p)
            out.append(best)
        return tuple(out)

    # ----- necessary tests ----------------------------------------------------------------------
    def reachable(self, area: int, own: int, wild: int = 0) -> int:
        """Points of ``area`` where a stone of colour ``own`` could ever be placed.

        Least fixpoint: a point can take the colour if every like-coloured diagonal neighbour
        already on the board has a common neighbour that holds, or could first receive, that
        colour.  Sound: every placement in any real fill is in the result (by induction on time).
        """
        if self._core is not None:
            return self._core.reachable(self.size, area, own, wild)
        diag_hits = []
        for off, valid, h, v in self.diags:
            d = _shift(own, off, valid) & area
            if d:
                diag_hits.append((d, h, v))
        if not diag_hits:
            return area
        reach = 0
        orth = self.orth
        while True:
            present = own | reach | wild
            o = [_shift(present, off, valid) for off, valid in orth]
            blocked = 0
            for d, h, v in diag_hits:
                blocked |= d & ~o[h] & ~o[v]
            nxt = area & ~blocked
            if nxt == reach:
                return reach
            reach = nxt

    def refuted(self, area: int, red: int, blue: int, wild: int = 0) -> tuple[int, int] | None:
        """Run the cheap necessary tests; None proves ``area`` unfillable, else reachable sets.

        Besides the reachability fixpoint: points that can only ever take colour X must all
        receive X, so a single-colour fill of them (other points of the area standing in as
        possible protectors, never as blockers) must exist.  That relaxation is sound and finds
        pockets whose forced points wait on each other in a cycle.
        """
        reach = (self.reachable(area, red, wild), self.reachable(area, blue, wild))
        if area & ~(reach[0] | reach[1]):
            return None
        stones = (red, blue)
        for c in (0, 1):
            forced = area & ~reach[1 - c]
            if not forced:
                continue
            helpers = (area & reach[c] & ~forced) | wild
            for part in self.components(forced, diagonal=True):
                if part.bit_count() <= SINGLE_COLOUR_LIMIT and not self._single_colour(
                    part, stones[c], helpers
                ):
                    return None
        return reach

    def _single_colour(self, cells: int, own: int, helpers: int) -> bool:
        """Can ``cells`` all receive one colour (stones ``own``), helpers protecting at will?"""
        checks = self.checks
        dead: set[int] = set()

        def go(placed: int, left: int) -> bool:
            if not left:
                return True
            if placed in dead:
                return False
            stones = own | placed
            guards = stones | helpers
            rest = left
            while rest:
                low = rest & -rest
                rest ^= low
                p = low.bit_length() - 1
                for d, prot in checks[p]:
                    if stones & d and not guards & prot:
                        break
                else:
                    if go(placed | low, left ^ low):  # noqa: F821 (bound until the del below)
                        return True
            dead.add(placed)
            return False

        try:
            return go(0, cells)
        finally:
            # ``go`` calls itself through its closure, a reference cycle; clearing the name
            # breaks it, so reference counting frees ``go`` and ``dead`` at once instead of
            # leaving them to the cyclic collector, which a caller may have paused.
            del go

    def _window_refutes(
        self,
        area: int,
        red: int,
        blue: int,
        shapes: Iterable[tuple[int, int]],
        limit: int = WINDOW_LIMIT,
    ) -> bool:
        """Look for a small window of the area that cannot be filled even with help.

        Points of the area outside the window become ``wild``: they protect any pair at any
        time and never block.  Every real fill restricted to the window is a fill of that
        relaxation, so an unfillable window proves the whole area unfillable.  Unfillable
        areas seen in play almost always have such a local cause (the designer's "BAD"
        formations), which is found here far faster than by searching the whole area.
        """
        stones = red | blue
        seeds = bits_list(area & self.dilate8(stones))
        done: set[int] = set()
        for p in seeds:
            for window in self._windows(p, shapes, area):
                if window in done or window == area or window.bit_count() > limit:
                    continue
                done.add(window)
                wild = area & ~window & self.dilate4(window)
                if self.solve_relaxed(window, red, blue, wild) is None:
                    return True
        return False

    def _windows(self, point: int, shapes: Iterable[tuple[int, int]], area: int) -> list[int]:
        """The parts of ``area`` inside each rectangle of the given shapes that holds ``point``.

        Why rectangles of several shapes and not only the square around ``point``: in an open
        area the 5x5 square holds more than WINDOW_LIMIT points and is skipped, while the cause
        of an NDE area can be a 3x4 knot of points (a column squeezed between alternating
        stones, next to a crossing) that only a window the knot's shape isolates refutes.
        """
        col, row = self.grid.coords(point)
        n = self.size
        out: list[int] = []
        for w, h in shapes:
            for x0 in range(max(0, col - w + 1), min(col, n - w) + 1):
                for y0 in range(max(0, row - h + 1), min(row, n - h) + 1):
                    out.append(self._rects[(w, h)][x0 + y0 * n] & area)
        return out

    def solve_relaxed(self, area: int, red: int, blue: int, wild: int) -> Witness | None:
        """Fill ``area`` where the ``wild`` points protect any pair and never block.

        This is the relaxation behind the window test; exposed so tests can check it against
        exhaustive search.  No randomised fills or nested windows are used here.
        """
        return self._solve_set(area, red, blue, wild, 1)

    # ----- complete search ----------------------------------------------------------------------
    def _solve_set(self, cells: int, red: int, blue: int, wild: int, depth: int) -> Witness | None:
        out: list[Move] = []
        for part in self.components(cells, diagonal=True):
            got = self._solve_part(part, red, blue, wild, depth)
            if got is None:
                return None
            out.extend(got)
        return tuple(out)

    def _solve_part(self, part: int, red: int, blue: int, wild: int, depth: int) -> Witness | None:
        key = self.key(part, red, blue, wild)
        got = self.cache.get(key, _MISSING)
        if got is not _MISSING:
            return None if got is None else _unpack(got)  # type: ignore[arg-type]
        result: Witness | None = None
        if part & (part - 1) == 0:
            p = part.bit_length() - 1
            if not self.forms_naked(p, red, wild):
                result = ((p, 0),)
            elif not self.forms_naked(p, blue, wild):
                result = ((p, 1),)
        elif self.refuted(part, red, blue, wild) is not None:
            if self.shortcuts:
                result = self._striped(part, red, blue, wild)
                if result is None and depth == 0:
                    result = self._greedy(part, red, blue, wild)
                    if result is None and self._window_refutes(part, red, blue, SQUARE):
                        self._store(key, None)
                        return None
                    if result is None:
                        result = self._patched_stripes(part, red, blue)
            if result is None:
                self.stats["search"] += 1
                if depth == 0 and self._budget is None:
                    result = self._search_with_restarts(part, red, blue, wild)
                else:
                    result = self._search(part, red, blue, wild, depth)
            else:
                self.stats["greedy"] += 1
        self._store(key, result)
        return result

    def _search_with_restarts(self, part: int, red: int, blue: int, wild: int) -> Witness | None:
        """The complete search, first as short randomised runs, then without any limit.

        A depth-first search that takes a wrong turn early can spend a long time below it;
        restarting with another move order (as SAT solvers do) escapes that.  Runs cut short
        store nothing, while every part they did settle is exact and stays memoised, and the
        last run has no limit, so the verdict is exact whichever run finds it.
        """
        self._rng = random.Random(part ^ red ^ (blue << 1) ^ (wild << 2))
        try:
            for k, limit in enumerate((*RESTART_LIMITS, None)):
                stage = WINDOW_STAGES.get(k) if self.shortcuts else None
                if stage is not None:
                    self._budget = None
                    if self._window_refutes(part, red, blue, *stage):
                        return None
                self._budget = limit
                try:
                    return self._search(part, red, blue, wild, 0)
                except _OutOfBudget:
                    self.stats["restarts"] += 1
            raise AssertionError("the last run has no limit")  # pragma: no cover
        finally:
            self._budget = None

    def _search(self, part: int, red: int, blue: int, wild: int, depth: int) -> Witness | None:
        """Complete search on one 8-connected part (its cache entry is written by the caller)."""
        self.stats["nodes"] += 1
        if self._budget is not None:
            self._budget -= 1
            if self._budget < 0:
                raise _OutOfBudget
        stones = [red, blue]
        forced: list[Move] = []
        while True:
            got = self.refuted(part, stones[0], stones[1], wild)
            if got is None:
                return None
            reach = got
            move = self._safe_move(part, stones, reach, wild)
            if move is None:
                break
            p, c = move
            stones[c] |= 1 << p
            part &= ~(1 << p)
            forced.append(move)
            if not part:
                return tuple(forced)
        if forced:
            rest = self._solve_set(part, stones[0], stones[1], wild, depth + 1)
            return None if rest is None else tuple(forced) + rest
        for p, c in self._ordered_moves(part, stones, reach, wild):
            st = [stones[0], stones[1]]
            st[c] |= 1 << p
            rest = self._solve_set(part & ~(1 << p), st[0], st[1], wild, depth + 1)
            if rest is not None:
                return ((p, c), *rest)
        return None

    def _safe_move(
        self, part: int, stones: list[int], reach: tuple[int, int], wild: int
    ) -> Move | None:
        """A placement that some fill (if any exists) can make first: no branching needed.

        Placing X on p first is harmless to every fill of the part when, in each 2x2 block
        holding p with diagonal point q and other points r1, r2:
          (i) the block already holds X (or a wild point next to q), or q can never receive X,
              so p cannot strand q;
          (ii) p can never be Y, or p is not needed as a Y protector of r1/r2: q holds Y (or is
               wild), one of r1, r2 can never be Y, or neither r1 nor r2 is still to be placed.
        Then moving p to the front (and colouring it X) keeps every later placement legal.
        """
        sh = _shift
        o_part = [sh(part, off, valid) for off, valid in self.orth]
        o_wild = [sh(wild, off, valid) for off, valid in self.orth]
        for c in (0, 1):
            own, other = stones[c], stones[1 - c]
            legal = part & reach[c] & ~self.naked_mask(own, wild)
            if not legal:
                continue
            fut_own = part & reach[c]
            can_other = other | (part & reach[1 - c])
            never_other = part & ~reach[1 - c]
            ok = legal
            o_own = [sh(own, off, valid) for off, valid in self.orth]
            o_can = [sh(can_other, off, valid) for off, valid in self.orth]
            for off, valid, h, v in self.diags:
                cond_i = (
                    sh(own, off, valid)
                    | o_own[h]
                    | o_own[v]
                    | o_wild[h]
                    | o_wild[v]
                    | ~sh(fut_own, off, valid)
                )
                cond_ii = (
                    sh(other | wild, off, valid)
                    | ~o_can[h]
                    | ~o_can[v]
                    | (~o_part[h] & ~o_part[v])
                    | never_other
                )
                ok &= ~valid | (cond_i & cond_ii)
                if not ok:
                    break
            if ok:
                return ((ok & -ok).bit_length() - 1, c)
        return None

    def _ordered_moves(
        self, part: int, stones: list[int], reach: tuple[int, int], wild: int
    ) -> list[Move]:
        """Every legal placement, likeliest to succeed first (order affects speed only)."""
        scored: list[tuple[int, float, int, int]] = []
        rnd = self._rng.random
        for c in (0, 1):
            own = stones[c]
            legal = part & ~self.naked_mask(own, wild)
            grow = self.dilate4(own)
            only = legal & ~reach[1 - c]
            for p in bits_list(legal):
                bit = 1 << p
                score = 0
                if only & bit:
                    score += 4
                if grow & bit:
                    score += 2
                scored.append((-score, rnd(), p, c))
        scored.sort()
        return [(p, c) for _, _, p, c in scored]


def _ranks(order: tuple[int, ...]) -> list[int]:
    """Each point's position in ``order`` (a permutation of the board's points)."""
    ranks = [0] * len(order)
    for i, p in enumerate(order):
        ranks[p] = i
    return ranks


def _py_pack(witness: Witness) -> str:
    """A witness as a str, one char a move (point times two plus colour), for the memo."""
    return "".join([chr(p << 1 | c) for p, c in witness])


def _py_unpack(packed: str) -> Witness:
    """The witness :func:`_pack` packed."""
    return tuple([(o >> 1, o & 1) for o in map(ord, packed)])


_pack = CORE.pack if CORE is not None else _py_pack
_unpack = CORE.unpack if CORE is not None else _py_unpack


def _remember(memo: dict[CacheKey, V], order: deque[CacheKey], key: CacheKey, value: V) -> None:
    """Store ``value`` and forget the oldest entries past CACHE_LIMIT, one at a time.

    Why not clear the memo when it is full: freeing 400,000 entries at once took 0.74 s,
    holding the GIL, and the bot checks Naked Diagonal moves on a thread beside its event loop,
    which would stall that long every thousand games or so.  Forgetting one old entry per new
    one spreads that cost evenly (a microsecond or two each) and keeps the recent entries,
    which are the useful ones.
    """
    if key not in memo:
        order.append(key)
    memo[key] = value
    while len(memo) > CACHE_LIMIT and order:
        memo.pop(order.popleft(), None)


_PER_THREAD = threading.local()


def area_solver(size: int) -> AreaSolver:
    """The calling thread's solver for ``size`` boards, made on first use and then kept.

    Why per thread and not one per process: besides its caches, a solver carries the state of
    the search in progress (the node budget of the current restart, its RNG, the hint pool).
    The service replays cold games on worker threads while the event loop's thread checks
    moves, so one shared solver let one search's budget cut another's short (an internal
    ``_OutOfBudget`` escaped from ``Game.play``).  Games look their solver up at each use,
    so a game made on one thread and played on another uses the right one.
    """
    solvers: dict[int, AreaSolver] | None = getattr(_PER_THREAD, "solvers", None)
    if solvers is None:
        solvers = {}
        _PER_THREAD.solvers = solvers
    solver = solvers.get(size)
    if solver is None:
        solver = solvers[size] = AreaSolver(size)
    return solver


def forget_memos() -> None:
    """Empty the memos of every solver the calling thread has made (tests use it so one
    module's searches do not leave hundreds of thousands of entries to the next)."""
    solvers: dict[int, AreaSolver] = getattr(_PER_THREAD, "solvers", {})
    for solver in solvers.values():
        solver.forget()


def check_witness(size: int, area: int, red: int, blue: int, witness: Iterable[Move]) -> bool:
    """Replay a witness from scratch: it must fill exactly ``area`` without a naked diagonal."""
    solver = area_solver(size)
    stones = [red, blue]
    filled = 0
    for p, c in witness:
        bit = 1 << p
        if not area & bit or filled & bit or (red | blue) & bit:
            return False
        if solver.forms_naked(p, stones[c]):
            return False
        stones[c] |= bit
        filled |= bit
    return filled == area
