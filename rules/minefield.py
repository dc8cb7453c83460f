"""Minefield (Mark Steere, 2024): no hard corner and no switch may ever stand on the board.

Legality is computed for the whole board at once with bitboard shifts.  Because no glyph can
exist before a placement, only glyphs containing the placed stone are tested: for each glyph
shape and each position the new stone could take in it, one and-expression over shifted
colour masks marks every empty point where that glyph would appear.
"""

from __future__ import annotations

from typing import ClassVar

from .base import Effects, Game
from .connectivity import EdgeReach
from .geometry import DIAGONAL, Grid
from .registry import register

# Switch rectangles (width, height): 2x3 and 2x4 in both orientations.
SWITCH_SHAPES = ((3, 2), (2, 3), (4, 2), (2, 4))

# One glyph seen from the placed stone: offsets that must hold the mover's colour, the
# opponent's colour, and stay empty.
Term = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


def _hard_corner_terms() -> list[tuple[str, Term]]:
    terms: list[tuple[str, Term]] = []
    for dx, dy in DIAGONAL:
        diag, horiz, vert = (dx, dy), (dx, 0), (0, dy)
        # The new stone is one of the like-coloured diagonal pair.
        terms.append(("hard corner", ((diag,), (horiz,), (vert,))))
        terms.append(("hard corner", ((diag,), (vert,), (horiz,))))
        # The new stone is the lone stone of its colour; the diagonal opposite stays empty.
        terms.append(("hard corner", ((), (horiz, vert), (diag,))))
    return terms


def _switch_terms() -> list[tuple[str, Term]]:
    terms: list[tuple[str, Term]] = []
    for w, h in SWITCH_SHAPES:
        corners = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)]
        middles = [(x, y) for x in range(w) for y in range(h) if (x, y) not in corners]
        for cx, cy in corners:
            ox, oy = (w - 1 - cx, h - 1 - cy)  # the diagonally opposite corner
            adjacent = [(x, y) for x, y in corners if (x, y) not in ((cx, cy), (ox, oy))]
            rel = lambda pts: tuple((x - cx, y - cy) for x, y in pts)  # noqa: E731
            terms.append(("switch", (rel([(ox, oy)]), rel(adjacent), rel(middles))))
    return terms


GLYPH_TERMS: tuple[tuple[str, Term], ...] = tuple(_hard_corner_terms() + _switch_terms())


def glyph_mask(g: Grid, own: int, opp: int, empty: int, kind: str | None = None) -> int:
    """Empty points where placing an ``own`` stone would form a glyph (of ``kind`` if given)."""
    shift = g.shift
    cache: dict[tuple[int, int, int], int] = {}

    def sh(which: int, mask: int, off: tuple[int, int]) -> int:
        key = (which, off[0], off[1])
        got = cache.get(key)
        if got is None:
            got = cache[key] = shift(mask, off[0], off[1])
        return got

    found = 0
    for name, (mine, theirs, blank) in GLYPH_TERMS:
        if kind is not None and name != kind:
            continue
        term = empty
        for off in mine:
            term &= sh(0, own, off)
            if not term:
                break
        else:
            for off in theirs:
                term &= sh(1, opp, off)
                if not term:
                    break
            else:
                for off in blank:
                    term &= sh(2, empty, off)
                    if not term:
                        break
        found |= term
    return found


@register
class Minefield(Game):
    name = "minefield"
    title = "Minefield"
    players: ClassVar[tuple[str, str]] = ("black", "white")
    default_size = 9

    def _reset_extra(self) -> None:
        self._reach = (EdgeReach(self.grid, *self._edges(0)), EdgeReach(self.grid, *self._edges(1)))

    def _extra_state(self) -> tuple[object, ...]:
        return (self._reach[0].state(), self._reach[1].state())

    def _restore_extra(self, state: tuple[object, ...]) -> None:
        self._reach[0].restore(state[0])
        self._reach[1].restore(state[1])

    def _copy_extra_from(self, other: Game) -> None:
        self._reach = (self._reach[0].copy(), self._reach[1].copy())

    def _legal_mask(self, player: int) -> int:
        own, opp = self._stones[player], self._stones[1 - player]
        empty = self.grid.full & ~(own | opp)
        return empty & ~glyph_mask(self.grid, own, opp, empty)

    def _place(self, point: int, player: int) -> Effects:
        self._stones[player] |= 1 << point
        won = self._reach[player].add(point, self._stones[player])
        return Effects(won=won)

    def _why_illegal(self, point: int, player: int) -> str:
        own, opp = self._stones[player], self._stones[1 - player]
        empty = self.grid.full & ~(own | opp)
        for kind in ("hard corner", "switch"):
            if glyph_mask(self.grid, own, opp, empty, kind) >> point & 1:
                return f"{self.grid.names[point]} would form a {kind}"
        return f"{self.grid.names[point]} is not a legal placement"
