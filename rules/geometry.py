"""Square-grid geometry and Python-int bitboards, shared by every game.

A board of ``size`` × ``size`` points maps point ``(col, row)`` to bit ``row * size + col``.
Whole-board questions ("which empty points would form a glyph?") become a handful of shifts and
ands on ints, which is what keeps legal-move generation cheap enough for random playouts.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from functools import cache

from .nd_core import CORE
from .notation import point_names

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
RING = ORTHOGONAL + DIAGONAL


def iter_bits(mask: int) -> Iterator[int]:
    """Indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _py_bits_list(mask: int) -> list[int]:
    """Indices of the set bits, lowest first (via the binary string: fast for dense masks)."""
    return [i for i, ch in enumerate(reversed(bin(mask))) if ch == "1"]


_CORE_BITS = CORE.bits if CORE is not None else None
_CORE_LIMIT = 1 << 384
"""The compiled twin reads bitboards of up to 384 bits (19x19 and some to spare)."""


def bits_list(mask: int) -> list[int]:
    """Indices of the set bits, lowest first (the compiled twin of :func:`_py_bits_list`
    where it is built: a search lists points at every move of every playout)."""
    if _CORE_BITS is not None and 0 <= mask < _CORE_LIMIT:
        return _CORE_BITS(mask)
    return _py_bits_list(mask)


class Grid:
    """Precomputed tables for one board size.  Obtain through :func:`grid` (cached)."""

    def __init__(self, size: int) -> None:
        n = size
        self.size = n
        self.area = n * n
        self.full = (1 << self.area) - 1
        self.names = point_names(n)
        self.rows = tuple(((1 << n) - 1) << (r * n) for r in range(n))
        self.cols = tuple(sum(1 << (r * n + c) for r in range(n)) for c in range(n))
        self.bottom = self.rows[0]
        self.top = self.rows[n - 1]
        self.left = self.cols[0]
        self.right = self.cols[n - 1]
        self.perimeter = self.bottom | self.top | self.left | self.right
        self.interior = self.full & ~self.perimeter
        self.not_left = self.full & ~self.left
        self.not_right = self.full & ~self.right
        # _valid[(dx, dy)]: points p whose neighbour p + (dx, dy) is on the board.
        self._valid: dict[tuple[int, int], int] = {}
        self.orth = tuple(self._neighbours(i, ORTHOGONAL) for i in range(self.area))
        self.diag = tuple(self._neighbours(i, DIAGONAL) for i in range(self.area))
        self.ring = tuple(self._neighbours(i, RING) for i in range(self.area))
        self.orth_bits = tuple(sum(1 << j for j in nb) for nb in self.orth)
        self.ring_bits = tuple(sum(1 << j for j in nb) for nb in self.ring)
        # The 2x2 squares around each point, as (diagonal, horizontal, vertical) neighbours.
        self.squares = tuple(
            tuple(
                (i + dx + dy * n, i + dx, i + dy * n)
                for dx, dy in DIAGONAL
                if 0 <= i % n + dx < n and 0 <= i // n + dy < n
            )
            for i in range(self.area)
        )

    def _neighbours(self, i: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        n = self.size
        c, r = i % n, i // n
        return tuple(
            (r + dy) * n + c + dx for dx, dy in steps if 0 <= c + dx < n and 0 <= r + dy < n
        )

    def coords(self, i: int) -> tuple[int, int]:
        """``(col, row)`` of an index, both from 0, row 0 at the bottom."""
        return i % self.size, i // self.size

    def index(self, col: int, row: int) -> int:
        return row * self.size + col

    def on_board(self, col: int, row: int) -> bool:
        return 0 <= col < self.size and 0 <= row < self.size

    def shift(self, mask: int, dx: int, dy: int) -> int:
        """Bit p of the result is bit ``p + (dx, dy)`` of ``mask``; 0 where that is off-board."""
        off = dx + dy * self.size
        moved = mask >> off if off >= 0 else mask << -off
        valid = self._valid.get((dx, dy))
        if valid is None:
            valid = self._valid_mask(dx, dy)
        return moved & valid

    def _valid_mask(self, dx: int, dy: int) -> int:
        n = self.size
        cols = 0
        for c in range(max(0, -dx), min(n, n - dx)):
            cols |= self.cols[c]
        rows = 0
        for r in range(max(0, -dy), min(n, n - dy)):
            rows |= self.rows[r]
        self._valid[(dx, dy)] = cols & rows
        return cols & rows

    def dilate4(self, m: int) -> int:
        n, full = self.size, self.full
        return m | (m >> 1 & self.not_right) | (m << 1 & self.not_left) | m >> n | (m << n & full)

    def dilate8(self, m: int) -> int:
        n = self.size
        h = m | (m >> 1 & self.not_right) | (m << 1 & self.not_left)
        return h | h >> n | (h << n & self.full)

    def flood(self, seed: int, within: int, diagonal: bool = False) -> int:
        """The part of ``within`` connected to ``seed`` (seed bits are kept even if outside).

        The engine and the bitboard solvers (ai/dfpn_*.py) flood at nearly every step, so the
        dilation is written out in the loop rather than called once a step."""
        n, full, not_left, not_right = self.size, self.full, self.not_left, self.not_right
        region = seed
        if diagonal:
            while True:
                h = region | (region >> 1 & not_right) | (region << 1 & not_left)
                nxt = ((h | h >> n | (h << n & full)) & within) | seed
                if nxt == region:
                    return region
                region = nxt
        while True:
            m = region
            nxt = (
                (m | (m >> 1 & not_right) | (m << 1 & not_left) | m >> n | (m << n & full)) & within
            ) | seed
            if nxt == region:
                return region
            region = nxt

    def shortest_path(self, stones: int, start: int, goal: int) -> tuple[int, ...]:
        """A shortest orthogonal path through ``stones`` from any bit of ``start`` to ``goal``.

        Used to show the winning path; returns () when there is none.
        """
        starts = stones & start
        if not starts:
            return ()
        prev: dict[int, int] = {}
        queue: deque[int] = deque()
        for i in iter_bits(starts):
            prev[i] = -1
            queue.append(i)
        while queue:
            i = queue.popleft()
            if goal >> i & 1:
                path = [i]
                while prev[path[-1]] != -1:
                    path.append(prev[path[-1]])
                return tuple(reversed(path))
            for j in self.orth[i]:
                if j not in prev and stones >> j & 1:
                    prev[j] = i
                    queue.append(j)
        return ()


@cache
def grid(size: int) -> Grid:
    return Grid(size)
