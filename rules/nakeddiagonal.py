"""Naked Diagonal (Mark Steere, 2024): no naked diagonal and no naked diagonal-equivalent area.

A placement is illegal if the new stone forms a naked diagonal (a like-coloured diagonal pair
with neither common orthogonal neighbour of that colour), or if afterwards some empty area could
not be filled, in any order and with any colours, without a naked diagonal (an NDE area).

The first check is a handful of bitboard shifts.  The second is delegated to
:mod:`rules.nd_area`, which answers exactly and is called only for the areas a placement can
change: the area it lands in (possibly split in several) and any area diagonally next to it.
Every other area keeps its verdict, because a verdict depends only on the area and the stones
around it.

The largest board is capped at 13x13 (RULINGS allow a cap below 19): there the legal-move
timing targets of 9x9 (p95 <= 200 ms, max < 1 s) still hold, and at 15x15 they no longer do
(see docs/naked-diagonal.md for the figures).
"""

from __future__ import annotations

from .base import Effects
from .nd_area import AreaSolver, Move, area_solver
from .path_game import PathGame
from .registry import register

SHOWN_POINTS = 6


@register
class NakedDiagonal(PathGame):
    name = "nakeddiagonal"
    title = "Naked Diagonal"
    default_size = 7
    min_size = 4
    max_size = 13

    def _reset_extra(self) -> None:
        super()._reset_extra()
        self._solver: AreaSolver = area_solver(self.size)

    # ----- legality ---------------------------------------------------------------------------
    def _legal_mask(self, player: int) -> int:
        solver = self._solver
        red, blue = self._stones
        empty = self.grid.full & ~(red | blue)
        candidates = empty & ~solver.naked_mask(self._stones[player])
        areas = solver.components(empty, diagonal=False)
        hints = self._area_hints(areas)
        timelines = [
            (area, solver.timeline(red, blue, hints[area]) if hints[area] else None)
            for area in areas
        ]
        ring = self.grid.ring_bits
        legal = 0
        for p in _bits(candidates):
            near = ring[p] | 1 << p
            if (
                all(
                    timeline is not None and solver.still_fills(timeline, p, player)
                    for area, timeline in timelines
                    if area & near
                )
                or self._blocking_area(p, player, empty, areas, hints) is None
            ):
                legal |= 1 << p
        return legal

    def _area_hints(self, areas: list[int]) -> dict[int, tuple[Move, ...]]:
        """Witnesses of the current areas (() for an area that cannot be filled).

        The witnesses found for the previous position seed the search for new ones; they are
        only hints (repaired and checked), so a stale one can cost time but never a verdict.
        """
        red, blue = self._stones
        previous = self._solver.hint_pool
        hints: dict[int, tuple[Move, ...]] = {}
        for area in areas:
            hint = next((w for old, w in previous.items() if old & area), ())
            witness = self._solver.solve(area, red, blue, hint)
            hints[area] = witness if witness is not None else ()
        self._solver.hint_pool = hints
        return hints

    def _blocking_area(
        self,
        point: int,
        player: int,
        empty: int,
        areas: list[int],
        hints: dict[int, tuple[Move, ...]],
    ) -> int | None:
        """The first empty area placing on ``point`` would leave NDE, or None if there is none."""
        solver = self._solver
        bit = 1 << point
        stones = [self._stones[0], self._stones[1]]
        stones[player] |= bit
        red, blue = stones
        near = solver.dilate8(bit)
        rest = empty & ~bit
        for area in areas:
            if not area & near:
                continue
            hint = hints.get(area, ())
            if area & bit:
                left = area & ~bit
                while left:
                    seed = left & -left
                    part = solver.flood(seed, left, diagonal=False)
                    left &= ~part
                    if solver.solve(part, red, blue, hint) is None:
                        return part
            elif solver.solve(area & rest, red, blue, hint) is None:
                return area
        return None

    def _why_illegal(self, point: int, player: int) -> str:
        name = self.grid.names[point]
        if self._solver.forms_naked(point, self._stones[player]):
            return f"{name} would form a naked diagonal"
        empty = self.grid.full & ~(self._stones[0] | self._stones[1])
        areas = self._solver.components(empty, diagonal=False)
        bad = self._blocking_area(point, player, empty, areas, self._area_hints(areas))
        if bad is None:
            return f"{name} is not a legal placement"
        names = [self.grid.names[i] for i in _bits(bad)]
        shown = ", ".join(names[:SHOWN_POINTS]) + (", ..." if len(names) > SHOWN_POINTS else "")
        return f"{name} would leave an area that can't be filled without a naked diagonal ({shown})"

    # ----- placing ----------------------------------------------------------------------------
    def _place(self, point: int, player: int) -> Effects:
        self._stones[player] |= 1 << point
        return Effects(won=self._joins(point, player))


def _bits(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
