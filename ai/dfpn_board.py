"""What every bitboard df-pn here shares besides its rules: budget, keys, order, skip rule.

:class:`ai.dfpn_bits.BitsDfpn` (Minefield and Naked Diagonal), its Clear Path subclass and
:class:`ai.dfpn_clearcut.ClearcutDfpn` make and value children each their own way, but they
count expansions against one budget, key a position by the least of its symmetric images, try
central points first, start a search and apply the skip rule in the same way, so that is
written once here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Self

from .dfpn_step import INF, WIN
from .solver import GAME_SYMMETRIES, SearchLimit, symmetry


class BoardDfpn:
    """The budget, symmetry keys and move order of a df-pn over ``name``'s ``size`` board."""

    def __init__(
        self, name: str, size: int, attacker: int, max_nodes: int | None, depth: int
    ) -> None:
        self.every = 1 if max_nodes is not None else 1 << 20
        """How often (in expansions) the budget is checked and ``progress`` called."""
        self.progress: Callable[[Self], None] | None = None
        self.name = name
        self.size = size
        self.attacker = attacker
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[int, tuple[int, int]] = {}
        area = size * size
        self.area = area
        syms = [symmetry(s, size) for s in GAME_SYMMETRIES[name]]
        # delta[colour][point] is the tuple of what one stone adds to each symmetry's key.
        self.delta = tuple(
            tuple(tuple(1 << (sym.perm[p] + colour * area) for sym in syms) for p in range(area))
            for colour in (0, 1)
        )
        self.mover_bit = 1 << (2 * area)
        centre = (size - 1) / 2
        # Central points first: among children with equal numbers, the first is searched.
        self.order = sorted(
            range(area), key=lambda i: abs(i % size - centre) + abs(i // size - centre)
        )
        # ``depth``: the longest line the search can follow, one Python frame a ply.
        sys.setrecursionlimit(max(sys.getrecursionlimit(), depth))

    def wins(self, black: int = 0, white: int = 0, mover: int = 0) -> bool:
        """Can the attacker force a win from this position, ``mover`` to place?"""
        value, _, _ = self.evaluate(black, white, mover)
        if value is not None:
            return value == WIN
        keys = self.keys_of(black, white)
        pn, _ = self._mid(black, white, mover, keys, INF, INF)
        return pn == 0

    def evaluate(
        self, black: int, white: int, mover: int
    ) -> tuple[tuple[int, int] | None, int, int]:
        """(settled value or None, the colour to move after any skip, its legal points)."""
        raise NotImplementedError

    def _mid(
        self, black: int, white: int, mover: int, keys: tuple[int, ...], thpn: int, thdn: int
    ) -> tuple[int, int]:
        """Search the position under the thresholds; its (pn, dn) when it returns."""
        raise NotImplementedError

    def keys_of(self, black: int, white: int) -> tuple[int, ...]:
        """The position's key under each symmetry (built incrementally during the search)."""
        keys = [0] * len(self.delta[0][0])
        for colour, stones in ((0, black), (1, white)):
            for p in range(self.area):
                if stones >> p & 1:
                    for s, d in enumerate(self.delta[colour][p]):
                        keys[s] += d
        return tuple(keys)

    def _count_node(self: Self) -> None:
        """One more expansion: past the budget, stop; every ``every``, report progress."""
        self.nodes += 1
        if self.nodes % self.every == 0:
            if self.max_nodes is not None and self.nodes > self.max_nodes:
                raise SearchLimit(f"passed {self.max_nodes} nodes")
            if self.progress is not None:
                self.progress(self)


def skip_rule(
    legal: Callable[[int, int], int], black: int, white: int, mover: int
) -> tuple[int, int]:
    """(the colour that places, its legal points) under the skip rule: ``mover``, or the other
    colour when ``mover`` has no legal point (``legal(own, opp)`` gives them); no points when
    neither can place, which ends the game drawn, no win for either attacker."""
    stones = (black, white)
    points = legal(stones[mover], stones[1 - mover])
    if not points:
        mover ^= 1
        points = legal(stones[mover], stones[1 - mover])
    return mover, points
