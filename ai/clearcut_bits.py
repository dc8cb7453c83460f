"""Clearcut's rules on bare bitboards, for the bitboard df-pn (ai/dfpn_clearcut.py, issue 49).

A position is two ints (the first colour's checkers, the second's) and the colour to move.
Everything the search asks is shifts, masks and small floods, following the engine
(:mod:`rules.clearcut`) rule for rule, and checked against it in
tests/ai/test_dfpn_clearcut.py:

- a placement forms a crosscut on each 2×2 square where it has an own checker diagonally
  opposite and enemy checkers on the two other corners;
- such a placement is legal only if the placed checker's new group is larger than the enemy
  group of every enemy checker of every crosscut it forms;
- the two enemy checkers of every crosscut formed are removed, then the turn ends, then the
  win is checked: an orthogonal path of the mover's checkers between the mover's two edges
  (the first colour rows 1 and n, the second the first and last columns). Only the mover's
  checkers grow, so only the mover can have just won, and only through the placed checker.
"""

from __future__ import annotations

from rules.geometry import Grid, grid


class ClearcutBits:
    """Legal placements, their removals and the winning points of Clearcut on bitboards."""

    name = "clearcut"

    def __init__(self, size: int) -> None:
        self.size = size
        self.grid: Grid = grid(size)
        g = self.grid
        self.edges = ((g.bottom, g.top), (g.left, g.right))
        # Per point, its 2x2 squares as (own diagonal bit, enemy bit, enemy bit, both enemy
        # bits): a placement forms a crosscut where the first is own and the two others enemy.
        self.squares = tuple(
            tuple((1 << q, 1 << r, 1 << s, 1 << r | 1 << s) for q, r, s in squares)
            for squares in g.squares
        )

    def _dilate(self, m: int) -> int:
        g = self.grid
        return (
            m
            | (m >> 1 & g.not_right)
            | (m << 1 & g.not_left)
            | m >> g.size
            | (m << g.size & g.full)
        )

    # ----- placements -----------------------------------------------------------------------
    def crosscut_candidates(self, own: int, opp: int) -> int:
        """Empty points where an ``own`` checker would form at least one crosscut (the
        engine's ``_crosscut_candidates``)."""
        g = self.grid
        n, full, not_left, not_right = g.size, g.full, g.not_left, g.not_right
        east = opp >> 1 & not_right
        west = opp << 1 & not_left
        north = opp >> n
        south = opp << n & full
        found = (
            (own >> (n + 1) & not_right & east & north)
            | (own << (n - 1) & not_right & east & south)
            | (own >> (n - 1) & not_left & west & north)
            | (own << (n + 1) & not_left & west & south)
        )
        return found & full & ~(own | opp)

    def allowed(self, own: int, opp: int, point: int) -> bool:
        """May ``own`` place on ``point``, a crosscut candidate? Its new group must be larger
        than every enemy group of every crosscut it forms."""
        bit = 1 << point
        new_size = self.grid.flood(bit, own | bit).bit_count()
        for q, r, s, _ in self.squares[point]:
            if own & q and opp & r and opp & s:
                group = self.grid.flood(r, opp)
                if group.bit_count() >= new_size:
                    return False
                if not group & s and self.grid.flood(s, opp).bit_count() >= new_size:
                    return False
        return True

    def legal_among(self, own: int, opp: int, candidates: int) -> int:
        """The points of ``candidates`` (empty points) where ``own`` may place."""
        crosscutting = self.crosscut_candidates(own, opp) & candidates
        out = candidates & ~crosscutting
        while crosscutting:
            low = crosscutting & -crosscutting
            crosscutting ^= low
            if self.allowed(own, opp, low.bit_length() - 1):
                out |= low
        return out

    def legal(self, own: int, opp: int) -> int:
        return self.legal_among(own, opp, self.grid.full & ~(own | opp))

    def removed(self, own: int, opp: int, point: int) -> int:
        """The enemy checkers an ``own`` placement on ``point`` removes (0 for most)."""
        out = 0
        for q, r, s, rs in self.squares[point]:
            if own & q and opp & r and opp & s:
                out |= rs
        return out

    # ----- wins -----------------------------------------------------------------------------
    def winning_points(self, own: int, colour: int, empty: int) -> int:
        """Points of ``empty`` whose placement joins ``colour``'s two edges through ``own``
        (whether the placement is legal is asked separately)."""
        edge_a, edge_b = self.edges[colour]
        reach_a = self.grid.flood(own & edge_a, own)
        reach_b = self.grid.flood(own & edge_b, own)
        return (self._dilate(reach_a) | edge_a) & (self._dilate(reach_b) | edge_b) & empty

    def joins(self, own: int, point: int, colour: int) -> bool:
        """Does the checker on ``point`` join ``colour``'s two edges through ``own``?"""
        edge_a, edge_b = self.edges[colour]
        group = self.grid.flood(1 << point, own)
        return bool(group & edge_a and group & edge_b)
