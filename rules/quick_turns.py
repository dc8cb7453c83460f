"""Search fast paths for games that can decide one placement far more cheaply than a mask.

After every placement the engine computes the next player's whole legal mask, because the
skip rule (a player with no legal placement is skipped) needs to know whether it is empty.
A random playout then uses the mask once, to draw one point.  In Clearcut, Clear Path and
Crosscut most of the mask is cheap bitboard work, but some points need a costly test each
(group sizes of a crosscut; whether a chain can still end the turn; whether a perimeter
placement flips), and the mask was a third to half of a search's time or more.

A game using :class:`QuickTurns` splits its legal placements into points that are surely
legal and points that need the costly test (:meth:`QuickTurns._quick_masks`).  After
:meth:`QuickTurns.use_quick_turns` (a search's private copy only), the skip rule is settled by
"some point is surely legal" whenever that holds, and the mask is left to be computed if
anyone asks for it; :meth:`QuickTurns.sample_legal_point` draws a uniformly random legal
point by rejection, testing only the points it draws.  Play is exactly the same: the same
moves are legal and the same turns are skipped (tests/rules/test_quick_turns.py compares
both with the full mask).  Naked Diagonal has its own, with area verdicts and node budgets.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable

from .base import Game
from .geometry import bits_list, iter_bits


class QuickTurns(Game):
    """A :class:`Game` whose legal mask is ``sure | {p in maybe: _maybe_legal(p)}``."""

    _quick_turns = False

    @abstractmethod
    def _quick_masks(self, player: int) -> tuple[int, int]:
        """(points surely legal for ``player``, points that are legal only if
        :meth:`_maybe_legal` says so): disjoint, both empty points, cheap to find."""

    @abstractmethod
    def _maybe_legal(self, point: int, player: int) -> bool:
        """The costly test, for a point of the second mask of :meth:`_quick_masks`."""

    def _legal_mask(self, player: int) -> int:
        sure, maybe = self._quick_masks(player)
        for p in iter_bits(maybe):
            if self._maybe_legal(p, player):
                sure |= 1 << p
        return sure

    def use_quick_turns(self, rand: Callable[[], float] | None = None) -> None:
        """Apply the skip rule lazily from now on (this game object and its copies only).

        ``rand`` is accepted for the search's sake (:func:`ai.moves.prepare`) and not needed:
        the lazy check asks only whether some point is surely legal.
        """
        self._quick_turns = True

    def point_is_legal(self, point: int, nodes: int | None = None) -> bool:
        """Exactly ``legal_mask() >> point & 1``, deciding only this point when the mask is not
        known yet (``nodes`` is for the search's sake: every verdict here is exact)."""
        if self._over:
            return False
        if self._legal is not None:
            return bool(self._legal >> point & 1)
        sure, maybe = self._quick_masks(self._turn)
        bit = 1 << point
        return bool(sure & bit) or (bool(maybe & bit) and self._maybe_legal(point, self._turn))

    def sample_legal_point(self, rand: Callable[[], float], nodes: int | None = None) -> int | None:
        """A uniformly random legal placement for the player to move (None if there is none).

        Points are drawn from the surely and maybe legal ones and a drawn point that fails its
        test is put aside: the first point kept is uniform among the legal points, and only
        the points drawn are tested.
        """
        if self._over:
            return None
        if self._legal is not None:
            points = bits_list(self._legal)
            return points[int(rand() * len(points))] if points else None
        player = self._turn
        sure, maybe = self._quick_masks(player)
        points = bits_list(sure | maybe)
        while points:
            i = int(rand() * len(points))
            p = points[i]
            if sure >> p & 1 or self._maybe_legal(p, player):
                return p
            points[i] = points[-1]
            points.pop()
        return None

    def _pass_turn(self, mover: int) -> tuple[int | None, bool]:
        if self._quick_turns and self._quick_masks(1 - mover)[0]:
            self._turn = 1 - mover
            self._legal = None
            return None, False
        return super()._pass_turn(mover)
