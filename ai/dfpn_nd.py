"""Naked Diagonal's rules on bare bitboards, for the bitboard df-pn (issue 49).

:class:`NakedDiagonalBits` is :class:`ai.dfpn_bits.BitsRules` for Naked Diagonal: a placement
is legal when it forms no naked diagonal and leaves no empty area that cannot be filled (NDE).
Both checks are the rules engine's own: :func:`rules.nakeddiagonal.point_legal` is the
function :class:`rules.nakeddiagonal.NakedDiagonal` asks for one point, over the same
per-thread area solver (:func:`rules.nd_area.area_solver`) and so the same memos and compiled
twins; nothing here decides an area.  What is added is a memo of whole legal masks by
position: a df-pn enters a position many times (each re-expansion asks for its legal points
again), and a mask costs one area verdict per candidate point.

The search's pruning holds for Naked Diagonal (docs/solved.md, "Bitboard df-pn for Naked
Diagonal"): its stones never leave the board nor change colour, and its win is an orthogonal
path between a colour's own edges (:class:`ai.dfpn_bits.PathBits`).
"""

from __future__ import annotations

from rules.nakeddiagonal import point_legal
from rules.nd_area import AreaSolver, area_solver
from rules.nd_core import CORE

from .dfpn_bits import PathBits

MEMO_LIMIT = 4_000_000
"""Legal masks kept; past it the memo is emptied and refills with the positions in use (a
mask is about 100 bytes, so this bounds it near 400 MB)."""


def _py_bits(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_bits = CORE.bits if CORE is not None else _py_bits


class NakedDiagonalBits(PathBits):
    """Naked Diagonal's legal points on bare bitboards, by the engine's own checks."""

    name = "nakeddiagonal"

    def __init__(self, size: int, memo_limit: int = MEMO_LIMIT) -> None:
        super().__init__(size)
        self.solver: AreaSolver = area_solver(size)
        self.memo: dict[int, int] = {}
        self.memo_limit = memo_limit

    def legal(self, own: int, opp: int) -> int:
        key = own | opp << self.grid.area
        mask = self.memo.get(key)
        if mask is None:
            mask = self._legal_among(own, opp, self.grid.full & ~(own | opp))
            if len(self.memo) >= self.memo_limit:
                self.memo.clear()
            self.memo[key] = mask
        return mask

    def legal_among(self, own: int, opp: int, candidates: int) -> int:
        mask = self.memo.get(own | opp << self.grid.area)
        if mask is not None:
            return mask & candidates
        return self._legal_among(own, opp, candidates)

    def _legal_among(self, own: int, opp: int, candidates: int) -> int:
        # Legality does not depend on which colour is which (a naked diagonal is of either
        # colour, an area may be filled with both), so the mover's stones are passed as
        # colour 0.
        solver = self.solver
        out = 0
        core = solver._core
        if core is None:
            for p in _bits(candidates & ~solver.naked_mask(own)):
                if point_legal(solver, p, 0, own, opp):
                    out |= 1 << p
            return out
        # point_legal's own first step, asked here without its call: most points are
        # settled by it from the memo of area timelines.
        quick, size, timelines = core.quick_verdict, self.size, solver.timelines
        for p in _bits(candidates & ~core.naked_mask(size, own, 0)):
            verdict = quick(size, p, 0, own, opp, timelines)
            if verdict is None:
                verdict = point_legal(solver, p, 0, own, opp, asked_core=True)
            if verdict:
                out |= 1 << p
        return out
