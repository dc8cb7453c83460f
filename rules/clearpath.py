"""Clear Path (Mark Steere, 2026): chain reactions and the clear-path rule, with the pie rule.

* Placing on a point surrounded on 3 or 4 orthogonal sides (by stones of either colour or the
  board edge, judged just before placing) makes the same player place again.
* After the final placement of a turn the mover must not have an 8-connected path (ODIP)
  between their edges unless they also have an orthogonal one (OIP), which wins.  Completing
  an OIP wins at once, even mid-chain.
* A chain placement is offered only if some continuation still ends the turn legally, so a
  player is never stranded mid-turn.
* The pie rule (:meth:`rules.base.Game._special_moves`) is always on: Blue may answer Red's
  whole first turn, chain and all, with ``swap``.

Edge reach is kept incrementally for both connectivities, so "would this point join my edges
diagonally?" is one bitboard expression over the whole board.
"""

from __future__ import annotations

from .base import Effects, Game
from .connectivity import EdgeReach
from .errors import N_, Wording
from .geometry import Grid, iter_bits
from .quick_turns import QuickTurns
from .registry import register


def surrounded_mask(g: Grid, occupied: int) -> int:
    """Points with at least 3 of 4 orthogonal sides off the board or holding a stone."""
    n = g.size
    east = (occupied >> 1 & g.not_right) | g.right
    west = (occupied << 1 & g.not_left) | g.left
    north = occupied >> n | g.top
    south = (occupied << n & g.full) | g.bottom
    return ((east & west & (north | south)) | (north & south & (east | west))) & g.full


@register
class ClearPath(QuickTurns):
    name = "clearpath"
    title = "Clear Path"
    special_rules = N_(
        "You may never cut your opponent off completely (with a diagonal-only link between your "
        "edges) unless that same turn completes your orthogonal path and wins (clear-path "
        "rule). Placing on a point closed in on 3 or 4 sides by stones or the edge makes you "
        "place again (chain reaction). After Red's first turn, Blue may answer swap to take "
        "over Red's colour (pie rule)."
    )
    default_size = 9
    pie_rule = "always"

    def _reset_extra(self) -> None:
        edges = (self._edges(0), self._edges(1))
        self._oip = tuple(EdgeReach(self.grid, *edges[p]) for p in (0, 1))
        self._odip = tuple(EdgeReach(self.grid, *edges[p], diagonal=True) for p in (0, 1))

    def _extra_state(self) -> tuple[object, ...]:
        return (
            self._oip[0].state(),
            self._oip[1].state(),
            self._odip[0].state(),
            self._odip[1].state(),
        )

    def _restore_extra(self, state: tuple[object, ...]) -> None:
        for reach, saved in zip((*self._oip, *self._odip), state, strict=True):
            reach.restore(saved)

    def _copy_extra_from(self, other: Game) -> None:
        self._oip = tuple(r.copy() for r in self._oip)
        self._odip = tuple(r.copy() for r in self._odip)

    def _rebuild_extra(self) -> None:
        for p in (0, 1):
            self._oip[p].rebuild(self._stones[p])
            self._odip[p].rebuild(self._stones[p])

    # ----- legality -----------------------------------------------------------------------
    def _classify(self, player: int) -> tuple[int, int, int]:
        """(winning points, legal final placements, surrounded non-winning empty points)."""
        g = self.grid
        occupied = self._stones[0] | self._stones[1]
        empty = g.full & ~occupied
        oip, odip = self._oip[player], self._odip[player]
        wins = empty & oip.frontier_a() & oip.frontier_b()
        # Joined diagonally earlier this turn: only a win can end it now.
        finals = 0 if odip.connected else empty & ~(odip.frontier_a() & odip.frontier_b())
        surrounded = surrounded_mask(g, occupied) & empty
        return wins, finals & ~surrounded & ~wins, surrounded & ~wins

    def _legal_mask(self, player: int) -> int:
        wins, finals, chained = self._classify(player)
        legal = wins | finals
        if chained:
            touching = self._odip_touching(player)
            for p in iter_bits(chained):
                if self._chain_legal(p, player, finals, touching):
                    legal |= 1 << p
        return legal

    def _odip_touching(self, player: int) -> int:
        odip = self._odip[player]
        return odip.frontier_a() | odip.frontier_b()

    def _chain_legal(self, point: int, player: int, finals: int, touching: int) -> bool:
        """Is a surrounded, non-winning ``point`` legal: can the turn still end after it?"""
        # Fast exact case: a chain stone that joins neither edge's 8-connected reach leaves
        # the ODIP picture unchanged, and only makes its own orthogonal neighbours more
        # surrounded, so any other safe final placement still ends the turn.
        if not touching >> point & 1 and finals & ~(1 << point | self.grid.orth_bits[point]):
            return True
        return self._can_finish_after(point, player)

    def _quick_masks(self, player: int) -> tuple[int, int]:
        """Winning points and safe final placements are legal; a surrounded point is legal
        only if the turn can still end after it (:meth:`_chain_legal`)."""
        wins, finals, chained = self._classify(player)
        return wins | finals, chained

    def _maybe_legal(self, point: int, player: int) -> bool:
        _, finals, _ = self._classify(player)
        return self._chain_legal(point, player, finals, self._odip_touching(player))

    def _can_finish_after(self, point: int, player: int) -> bool:
        """Can the turn still end legally after a (non-winning) chain placement on ``point``?

        Exact without search, because the rules are monotone in added stones: more stones
        only make points surrounded and only join paths.  So the safe final placements can
        only shrink as a chain goes on (if there is none now, there never will be), and a win
        is reachable by some chain iff it is reachable after filling every point that is or
        becomes surrounded (the closure), followed by at most one more placement.
        """
        g = self.grid
        own = self._stones[player] | 1 << point
        opp = self._stones[1 - player]
        edge_a, edge_b = self._edges(player)
        empty = g.full & ~(own | opp)
        # A safe final placement right now?  Extend the kept 8-connected reach by the new stone.
        bit, around = 1 << point, g.ring_bits[point]
        odip = self._odip[player]
        odip_a, odip_b = odip.a, odip.b
        if bit & edge_a or around & odip_a:
            odip_a |= g.flood(bit, own & ~odip_a, diagonal=True)
        if bit & edge_b or around & odip_b:
            odip_b |= g.flood(bit, own & ~odip_b, diagonal=True)
        if not odip_a & odip_b:
            creating = (g.dilate8(odip_a) | edge_a) & (g.dilate8(odip_b) | edge_b)
            if empty & ~surrounded_mask(g, own | opp) & ~creating:
                return True
        # Otherwise only a win can end the turn: fill the surrounded closure, then try once more.
        while True:
            add = surrounded_mask(g, own | opp) & g.full & ~(own | opp)
            if not add:
                break
            own |= add
        empty = g.full & ~(own | opp)
        oip_a = g.flood(own & edge_a, own)
        if oip_a & edge_b:
            return True
        oip_b = g.flood(own & edge_b, own)
        return bool(empty & (g.dilate4(oip_a) | edge_a) & (g.dilate4(oip_b) | edge_b))

    # ----- moves -------------------------------------------------------------------------
    def _place(self, point: int, player: int) -> Effects:
        occupied = self._stones[0] | self._stones[1]
        chained = bool(surrounded_mask(self.grid, occupied) >> point & 1)
        self._stones[player] |= 1 << point
        won = self._oip[player].add(point, self._stones[player])
        self._odip[player].add(point, self._stones[player])
        return Effects(won=won, continues=chained and not won)

    def _why_illegal(self, point: int, player: int) -> Wording:
        name = self.grid.names[point]
        occupied = self._stones[0] | self._stones[1]
        if surrounded_mask(self.grid, occupied) >> point & 1:
            return Wording(
                N_(
                    "{point} is surrounded, so you would have to place again, and no way to "
                    "finish the turn legally would remain"
                ),
                {"point": name},
            )
        if self._odip[player].connected:
            return Wording(
                N_(
                    "you have joined your edges diagonally this turn, so your final placement "
                    "must complete an orthogonal path, and {point} does not"
                ),
                {"point": name},
            )
        return Wording(
            N_(
                "{point} would join your edges with a diagonal path (ODIP) but no orthogonal "
                "path (OIP), blocking your opponent completely"
            ),
            {"point": name},
        )
