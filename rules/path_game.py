"""The base for games won by an orthogonal path between one's own two edges.

Minefield, Clearcut and Naked Diagonal all keep, per player, the stones joined to each edge
(:class:`~rules.connectivity.EdgeReach`) and must save, restore, copy and rebuild it the same
way; this class does that once.
"""

from __future__ import annotations

from .base import Game
from .connectivity import EdgeReach


class PathGame(Game):
    """A :class:`Game` that tracks each player's edge reach incrementally."""

    _reach: tuple[EdgeReach, EdgeReach]

    def _reset_extra(self) -> None:
        self._reach = (EdgeReach(self.grid, *self._edges(0)), EdgeReach(self.grid, *self._edges(1)))

    def _extra_state(self) -> tuple[object, ...]:
        return (self._reach[0].state(), self._reach[1].state())

    def _restore_extra(self, state: tuple[object, ...]) -> None:
        self._reach[0].restore(state[0])
        self._reach[1].restore(state[1])

    def _copy_extra_from(self, other: Game) -> None:
        self._reach = (self._reach[0].copy(), self._reach[1].copy())

    def _rebuild_extra(self) -> None:
        self._reach[0].rebuild(self._stones[0])
        self._reach[1].rebuild(self._stones[1])

    def _joins(self, point: int, player: int) -> bool:
        """Record ``player``'s new stone on ``point``; True if it joins their two edges."""
        return self._reach[player].add(point, self._stones[player])
