"""Incremental edge reachability on bitboards, for games where stones are never removed.

``EdgeReach`` keeps, for one player, the stones connected to each of their two edges.  A new
stone only floods the stones it newly joins, so the cost per placement is the size of the
groups it merges, not the board.  Both orthogonal (win) and, optionally, 8-connected (Clear
Path's ODIP) reach are kept the same way.
"""

from __future__ import annotations

from .geometry import Grid


class EdgeReach:
    """Stones of one player connected to edge A and to edge B (orthogonally or 8-connected)."""

    __slots__ = ("a", "b", "diagonal", "edge_a", "edge_b", "grid")

    def __init__(self, grid: Grid, edge_a: int, edge_b: int, diagonal: bool = False) -> None:
        self.grid = grid
        self.edge_a = edge_a
        self.edge_b = edge_b
        self.diagonal = diagonal
        self.a = 0
        self.b = 0

    def state(self) -> tuple[int, int]:
        return (self.a, self.b)

    def restore(self, state: object) -> None:
        assert isinstance(state, tuple)
        self.a, self.b = state

    def copy(self) -> EdgeReach:
        clone = EdgeReach(self.grid, self.edge_a, self.edge_b, self.diagonal)
        clone.a, clone.b = self.a, self.b
        return clone

    @property
    def connected(self) -> bool:
        """True when one group touches both edges."""
        return bool(self.a & self.b)

    def add(self, point: int, stones: int) -> bool:
        """Record a new stone (already included in ``stones``); returns :attr:`connected`."""
        g = self.grid
        bit = 1 << point
        nbrs = g.ring_bits[point] if self.diagonal else g.orth_bits[point]
        touch_a = bool(bit & self.edge_a or nbrs & self.a)
        touch_b = bool(bit & self.edge_b or nbrs & self.b)
        if touch_a or touch_b:
            if touch_a:
                self.a |= g.flood(bit, stones & ~self.a, self.diagonal)
            if touch_b:
                self.b |= g.flood(bit, stones & ~self.b, self.diagonal)
        return bool(self.a & self.b)

    def rebuild(self, stones: int) -> None:
        """Recompute from scratch (after stones were removed or recoloured)."""
        g = self.grid
        self.a = g.flood(stones & self.edge_a, stones, self.diagonal)
        self.b = g.flood(stones & self.edge_b, stones, self.diagonal)

    def frontier_a(self) -> int:
        """Points where a new stone would touch edge A's reach (edge points included)."""
        grow = self.grid.dilate8 if self.diagonal else self.grid.dilate4
        return grow(self.a) | self.edge_a

    def frontier_b(self) -> int:
        grow = self.grid.dilate8 if self.diagonal else self.grid.dilate4
        return grow(self.b) | self.edge_b
