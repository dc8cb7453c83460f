"""Minefield (Mark Steere, 2024): no hard corner and no switch may ever stand on the board.

Legality is computed for the whole board at once with bitboard shifts.  Because no glyph can
exist before a placement, only glyphs containing the placed stone are tested: for each glyph
shape and each position the new stone could take in it, one and-expression over shifted
colour masks marks every empty point where that glyph would appear.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import ClassVar

from .base import Effects
from .errors import N_, Wording
from .geometry import DIAGONAL, Grid
from .nd_core import PURE_ENV
from .path_game import PathGame
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


def _relative(points: list[tuple[int, int]], cx: int, cy: int) -> tuple[tuple[int, int], ...]:
    return tuple((x - cx, y - cy) for x, y in points)


def _switch_terms() -> list[tuple[str, Term]]:
    terms: list[tuple[str, Term]] = []
    for w, h in SWITCH_SHAPES:
        corners = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)]
        middles = [(x, y) for x in range(w) for y in range(h) if (x, y) not in corners]
        for cx, cy in corners:
            ox, oy = (w - 1 - cx, h - 1 - cy)  # the diagonally opposite corner
            adjacent = [(x, y) for x, y in corners if (x, y) not in ((cx, cy), (ox, oy))]
            terms.append(
                (
                    "switch",
                    (
                        _relative([(ox, oy)], cx, cy),
                        _relative(adjacent, cx, cy),
                        _relative(middles, cx, cy),
                    ),
                )
            )
    return terms


GLYPH_TERMS: tuple[tuple[str, Term], ...] = tuple(_hard_corner_terms() + _switch_terms())


class _CompiledGlyphs:
    """The glyph terms for one board size, as indices into a list of shifted masks.

    Each distinct (colour, offset) shift is computed once per call and shared by every term
    that needs it, which is what makes whole-board legality cheap.
    """

    def __init__(self, g: Grid, kind: str | None) -> None:
        slots: dict[tuple[int, int, int], int] = {}
        self.terms: list[tuple[int, ...]] = []
        for name, groups in GLYPH_TERMS:
            if kind is not None and name != kind:
                continue
            term = []
            for which, offsets in enumerate(groups):
                for dx, dy in offsets:
                    term.append(slots.setdefault((which, dx, dy), len(slots)))
            self.terms.append(tuple(term))
        n = g.size
        self.shifts = [(which, dx + dy * n, g.shift(g.full, dx, dy)) for which, dx, dy in slots]


_COMPILED: dict[tuple[int, str | None], _CompiledGlyphs] = {}


def _load_core() -> ModuleType | None:
    """The compiled twin of :func:`glyph_mask` (``rules/_minecore.c``), given the terms, or
    None where it is not built or ``CROSSPATH_PURE_PYTHON`` is set (as :mod:`rules.nd_core`)."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    try:
        from rules import _minecore
    except ImportError:
        return None
    _minecore.set_glyph_terms(
        [
            [(which, dx, dy) for which, offsets in enumerate(groups) for dx, dy in offsets]
            for _, groups in GLYPH_TERMS
        ]
    )
    return _minecore


CORE = _load_core()
"""The extension module, or None (then :func:`py_glyph_mask` runs)."""


def glyph_mask(g: Grid, own: int, opp: int, empty: int, kind: str | None = None) -> int:
    """Empty points where placing an ``own`` stone would form a glyph (of ``kind`` if given).

    Every kind at once comes from the compiled twin where it is built: the engine asks after
    every placement, and it was a third of a Minefield search's CPU."""
    if kind is None and CORE is not None:
        found: int = CORE.glyph_mask(g.size, own, opp, empty)
        return found
    return py_glyph_mask(g, own, opp, empty, kind)


def py_glyph_mask(g: Grid, own: int, opp: int, empty: int, kind: str | None = None) -> int:
    """:func:`glyph_mask` in Python: the reference (``tests/rules/test_mine_core.py``)."""
    compiled = _COMPILED.get((g.size, kind))
    if compiled is None:
        compiled = _COMPILED[(g.size, kind)] = _CompiledGlyphs(g, kind)
    boards = (own, opp, empty)
    shifted = [
        (boards[which] >> off if off >= 0 else boards[which] << -off) & valid
        for which, off, valid in compiled.shifts
    ]
    found = 0
    for term in compiled.terms:
        acc = empty
        for slot in term:
            acc &= shifted[slot]
            if not acc:
                break
        else:
            found |= acc
    return found


@register
class Minefield(PathGame):
    name = "minefield"
    title = "Minefield"
    special_rules = N_(
        "No placement may form a hard corner (in a 2×2: two diagonal stones of one colour, one "
        "of the other and a gap) or a switch (two crossing diagonal pairs at the corners of an "
        "otherwise empty 2×3 or 2×4). A player with no legal point is skipped."
    )
    players: ClassVar[tuple[str, str]] = ("black", "white")
    default_size = 9
    pie_rule = "option"

    def _legal_mask(self, player: int) -> int:
        own, opp = self._stones[player], self._stones[1 - player]
        empty = self.grid.full & ~(own | opp)
        return empty & ~glyph_mask(self.grid, own, opp, empty)

    def _place(self, point: int, player: int) -> Effects:
        self._stones[player] |= 1 << point
        won = self._joins(point, player)
        return Effects(won=won)

    def _why_illegal(self, point: int, player: int) -> Wording:
        own, opp = self._stones[player], self._stones[1 - player]
        empty = self.grid.full & ~(own | opp)
        name = self.grid.names[point]
        if glyph_mask(self.grid, own, opp, empty, "hard corner") >> point & 1:
            return Wording(N_("{point} would form a hard corner"), {"point": name})
        if glyph_mask(self.grid, own, opp, empty, "switch") >> point & 1:
            return Wording(N_("{point} would form a switch"), {"point": name})
        return Wording(N_("{point} is not a legal placement"), {"point": name})
