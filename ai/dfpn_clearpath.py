"""df-pn over bare bitboards for Clear Path, chains and the pie rule included (issue 49).

:class:`ai.dfpn_bits.BitsDfpn` assumes the mover alternates and there is no pie.  Clear Path
needs more, and this module adds it on the base's machinery (its incremental symmetry keys,
its move order, its table and its 1+epsilon thresholds):

- a position is (red stones, blue stones, colour to move, pie state): the pie state is
  ``-`` (no swap on offer, none made), ``s`` (the swap is on offer: Blue's answer to Red's
  first stone) or ``w`` (the swap was made: the seats play the other colours from then on);
- a chain placement keeps the same colour to move.  No "chain under way" bit is needed: what
  is legal depends only on the stones (which points are surrounded, whether the mover has
  joined their edges diagonally, which a finished turn never leaves behind), as the exact
  solver keys it (ai/solver.py);
- the legal placements are the engine's (:mod:`rules.clearpath`): winning points; final
  placements that leave no ODIP; surrounded points only where the turn can still be
  finished (the engine's own closure argument, :meth:`ClearPathBits.can_finish_after`).

Every child is evaluated when its parent is expanded (soundness in docs/solved.md, "Bitboard
df-pn for Clear Path"):

- a placement that completes the mover's OIP wins at once, even mid-chain;
- a chain placement (same mover next) that joins the mover's edges diagonally is a win for
  the mover: it was legal, so the turn can still be finished, and with an ODIP in place only
  a win finishes it;
- a chain placement after which the mover has a winning point is a win for the mover;
- a placement that ends the turn and leaves the other colour a winning point loses (a
  winning point is always legal, so the other side plays it; a threat left open before a
  chain placement is *not* settled, since the chain may fill it);
- the skip rule at a node: a mover with no legal placement (and no swap) passes; if neither
  can place the game is drawn, which is no win for the attacker.
"""

from __future__ import annotations

from rules.clearpath import surrounded_mask
from rules.geometry import Grid, grid

from .dfpn_bits import BitsDfpn
from .dfpn_board import BoardDfpn
from .dfpn_step import INF, LOSS, WIN, descend

NO_PIE, OFFERED, SWAPPED = 0, 1, 2
"""The pie state: the proof files' flags ``-``, ``s`` and ``w``."""
FLAGS = "-sw"
SWAP = -1
"""The swap as a child's move (a point is 0 .. area-1)."""

CpChild = tuple[int, int, int, int, tuple[int, ...], tuple[int, int] | None, int, int]
"""(red, blue, colour to move, pie state, symmetry keys, settled value or None, canonical
key, move): one child of an expanded node."""


class ClearPathBits:
    """Clear Path's rules on bare bitboards: legal placements, winning points, chains."""

    name = "clearpath"

    def __init__(self, size: int) -> None:
        self.size = size
        self.grid: Grid = grid(size)
        g = self.grid
        # Red (colour 0) joins rows 1 and n, Blue (colour 1) columns a and the last, as
        # rules.base.Game._edges.
        self.edges = ((g.bottom, g.top), (g.left, g.right))

    def winning_points(self, own: int, colour: int, empty: int) -> int:
        """Empty points whose placement completes ``colour``'s OIP through ``own``."""
        edge_a, edge_b = self.edges[colour]
        dilate4 = self.grid.dilate4
        reach_a = self.grid.flood(own & edge_a, own)
        reach_b = self.grid.flood(own & edge_b, own)
        return (dilate4(reach_a) | edge_a) & (dilate4(reach_b) | edge_b) & empty

    def odip_joined(self, own: int, colour: int) -> bool:
        edge_a, edge_b = self.edges[colour]
        return bool(self.grid.flood(own & edge_a, own, True) & edge_b)

    def legal(self, own: int, opp: int, colour: int) -> tuple[int, int, int]:
        """(legal placements, winning points, surrounded points) of ``colour`` (stones
        ``own``) to move; the last two are empty points, surrounded judged before placing."""
        g = self.grid
        occupied = own | opp
        empty = g.full & ~occupied
        edge_a, edge_b = self.edges[colour]
        dilate8 = g.dilate8
        wins = self.winning_points(own, colour, empty)
        odip_a = self.grid.flood(own & edge_a, own, True)
        odip_b = self.grid.flood(own & edge_b, own, True)
        front_a = dilate8(odip_a) | edge_a
        front_b = dilate8(odip_b) | edge_b
        surrounded = surrounded_mask(g, occupied) & empty
        # Joined diagonally earlier this turn (mid-chain): only a win can end it now.
        finals = 0 if odip_a & odip_b else empty & ~(front_a & front_b) & ~surrounded & ~wins
        legal = wins | finals
        chained = surrounded & ~wins
        if chained:
            touching = front_a | front_b
            orth = g.orth_bits
            while chained:
                low = chained & -chained
                chained ^= low
                p = low.bit_length() - 1
                # The engine's fast exact case (rules.clearpath.ClearPath._chain_legal): a
                # chain stone that touches neither edge's diagonal reach leaves every other
                # safe final placement safe, bar its own orthogonal neighbours.
                if (not touching & low and finals & ~(low | orth[p])) or self.can_finish_after(
                    p, own, opp, colour, odip_a, odip_b
                ):
                    legal |= low
        return legal, wins, surrounded

    def can_finish_after(
        self, point: int, own: int, opp: int, colour: int, odip_a: int, odip_b: int
    ) -> bool:
        """Can the turn still end legally after a non-winning chain placement on ``point``?
        :meth:`rules.clearpath.ClearPath._can_finish_after` on bare bitboards (the argument
        is there: the rules are monotone in added stones)."""
        g = self.grid
        bit = 1 << point
        own |= bit
        edge_a, edge_b = self.edges[colour]
        empty = g.full & ~(own | opp)
        around = g.ring_bits[point]
        if bit & edge_a or around & odip_a:
            odip_a |= self.grid.flood(bit, own, True)
        if bit & edge_b or around & odip_b:
            odip_b |= self.grid.flood(bit, own, True)
        if not odip_a & odip_b:
            creating = (g.dilate8(odip_a) | edge_a) & (g.dilate8(odip_b) | edge_b)
            if empty & ~surrounded_mask(g, own | opp) & ~creating:
                return True
        while True:
            add = surrounded_mask(g, own | opp) & g.full & ~(own | opp)
            if not add:
                break
            own |= add
        empty = g.full & ~(own | opp)
        oip_a = self.grid.flood(own & edge_a, own)
        if oip_a & edge_b:
            return True
        oip_b = self.grid.flood(own & edge_b, own)
        return bool(empty & (g.dilate4(oip_a) | edge_a) & (g.dilate4(oip_b) | edge_b))


class ClearPathDfpn(BitsDfpn):
    """Can seat ``attacker`` (0 the first seat, Red at the start; 1 the second) force a win?

    With the pie rule a seat is not a colour: after a swap the first seat plays Blue.
    """

    def __init__(self, size: int, attacker: int, *, max_nodes: int | None = None) -> None:
        # Not BitsDfpn.__init__: it looks the rules up in a registry whose protocol is
        # Minefield's (legality blind to colour), which Clear Path's rules do not fit.  The
        # attributes the base's helpers use are the same.
        BoardDfpn.__init__(self, "clearpath", size, attacker, max_nodes, depth=20_000)
        self.heuristic = None
        self.cp = ClearPathBits(size)
        self.flag_shift = 2 * size * size + 1

    # ----- positions ------------------------------------------------------------------------
    def key(self, keys: tuple[int, ...], mover: int, flag: int) -> int:
        return min(keys) | (self.mover_bit if mover else 0) | flag << self.flag_shift

    def attacking(self, mover: int, flag: int) -> bool:
        """Is the colour ``mover`` played by the attacker's seat?"""
        return (mover ^ (flag == SWAPPED)) == self.attacker

    def turn(self, red: int, blue: int, mover: int, flag: int) -> tuple[int, int, int, int]:
        """(colour to move after the skip rule, its legal placements, its winning points,
        surrounded points); legal 0 and the mover unchanged when neither can place."""
        stones = (red, blue)
        legal, wins, surrounded = self.cp.legal(stones[mover], stones[1 - mover], mover)
        if legal or flag == OFFERED:
            return mover, legal, wins, surrounded
        other = mover ^ 1
        legal, wins, surrounded = self.cp.legal(stones[other], stones[mover], other)
        if legal:
            return other, legal, wins, surrounded
        return mover, 0, 0, 0

    def evaluate(
        self, red: int, blue: int, mover: int, flag: int = NO_PIE
    ) -> tuple[tuple[int, int] | None, int, int]:
        """(settled value or None, the colour to move after any skip, its legal placements)."""
        mover, legal, wins, _ = self.turn(red, blue, mover, flag)
        if not legal and flag != OFFERED:
            return LOSS, mover, 0  # neither can place: drawn, no win for the attacker
        if wins:
            return (WIN if self.attacking(mover, flag) else LOSS), mover, legal
        return None, mover, legal

    # ----- the search -----------------------------------------------------------------------
    def wins(self, red: int = 0, blue: int = 0, mover: int = 0, flag: int = NO_PIE) -> bool:
        value, _, _ = self.evaluate(red, blue, mover, flag)
        if value is not None:
            return value == WIN
        keys = self.keys_of(red, blue)
        pn, _ = self._mid_cp(red, blue, mover, flag, keys, INF, INF)
        return pn == 0

    def cp_children(
        self,
        red: int,
        blue: int,
        mover: int,
        flag: int,
        legal: int,
        wins: int,
        surrounded: int,
        keys: tuple[int, ...],
    ) -> list[CpChild]:
        """Every child, each settled at once where that is cheap to see (see the module)."""
        cp = self.cp
        full = cp.grid.full
        other = mover ^ 1
        own, opp = (red, blue) if mover == 0 else (blue, red)
        won = WIN if self.attacking(mover, flag) else LOSS
        lost = LOSS if won == WIN else WIN
        win_now = wins & legal
        if win_now:
            p = (win_now & -win_now).bit_length() - 1
            b, w = (red | 1 << p, blue) if mover == 0 else (red, blue | 1 << p)
            return [(b, w, mover, flag, (), won, 0, p)]
        # The other colour's winning points: a placement removes one only by filling it.
        threats = cp.winning_points(opp, other, full & ~(own | opp))
        edge_a, edge_b = cp.edges[mover]
        flood = cp.grid.flood
        delta = self.delta[mover]
        # A turn ended on the empty board was Red's first: the swap is on offer next.  Any
        # placement of Blue's while it is on offer declines it.
        chain_flag = NO_PIE if flag == OFFERED else flag
        next_flag = OFFERED if not (red | blue) else chain_flag
        mover_bit = self.mover_bit
        shift = self.flag_shift
        out: list[CpChild] = []
        for p in self.order:
            bit = 1 << p
            if not legal & bit:
                continue
            b, w = (red | bit, blue) if mover == 0 else (red, blue | bit)
            value: tuple[int, int] | None = None
            k0, k1, k2, k3 = keys
            d0, d1, d2, d3 = delta[p]
            ckeys = (k0 + d0, k1 + d1, k2 + d2, k3 + d3)
            low = min(ckeys)
            if surrounded & bit:
                # A chain: the same colour places again (a chain of Blue's declines the swap).
                mine = own | bit
                group = flood(bit, mine, True)
                if group & edge_a and group & edge_b:
                    value = won  # joined diagonally: only a win can finish this turn
                elif cp.winning_points(mine, mover, full & ~(mine | opp)):
                    value = won
                cmover, cflag = mover, chain_flag
            else:
                if threats & ~bit:
                    value = lost  # the other side wins in one
                cmover, cflag = other, next_flag
            ckey = low | (mover_bit if cmover else 0) | cflag << shift
            out.append((b, w, cmover, cflag, ckeys, value, ckey, p))
        if flag == OFFERED:
            ckey = min(keys) | mover_bit | SWAPPED << shift
            out.append((red, blue, mover, SWAPPED, keys, None, ckey, SWAP))
        return out

    def _mid_cp(
        self,
        red: int,
        blue: int,
        mover: int,
        flag: int,
        keys: tuple[int, ...],
        thpn: int,
        thdn: int,
    ) -> tuple[int, int]:
        self._count_node()
        table = self.table
        # Keyed by the colour due to move before any skip, as the children key it.
        key = self.key(keys, mover, flag)
        mover, legal, wins, surrounded = self.turn(red, blue, mover, flag)
        if not legal and flag != OFFERED:
            table[key] = LOSS
            return LOSS
        attacking = self.attacking(mover, flag)
        children = self.cp_children(red, blue, mover, flag, legal, wins, surrounded, keys)
        get = table.get
        one = (1, 1)
        while True:
            values = [child[5] or get(child[6], one) for child in children]
            pn, dn, best, child_pn, child_dn = descend(values, attacking, thpn, thdn)
            if best < 0:
                break
            b, w, cmover, cflag, ckeys, _, _, _ = children[best]
            self._mid_cp(b, w, cmover, cflag, ckeys, child_pn, child_dn)
        table[key] = (pn, dn)
        return pn, dn

    # ----- the proof ------------------------------------------------------------------------
    def text(self, red: int, blue: int, mover: int, flag: int = NO_PIE) -> str:
        cells = "".join(
            "x" if red >> p & 1 else "o" if blue >> p & 1 else "." for p in range(self.area)
        )
        return f"{cells}/{'xo'[mover]}/{FLAGS[flag]}"

    def value(self, red: int, blue: int, mover: int, flag: int = NO_PIE) -> tuple[int, int]:
        """The position's (pn, dn): settled, from the table, or (1, 1) if never reached."""
        settled, _, _ = self.evaluate(red, blue, mover, flag)
        if settled is not None:
            return settled
        return self.table.get(self.key(self.keys_of(red, blue), mover, flag), (1, 1))

    def strategy(
        self, red: int = 0, blue: int = 0, mover: int = 0, flag: int = NO_PIE
    ) -> dict[str, str]:
        """Every attacker position the proof reaches with its move, as the proof files hold it
        (docs/solved.md): the move is a point name or ``swap``."""
        out: dict[str, str] = {}
        seen: set[tuple[int, int, int, int]] = set()
        names = self.cp.grid.names
        get = self.table.get

        def walk(red: int, blue: int, mover: int, flag: int) -> None:
            mover, legal, wins, surrounded = self.turn(red, blue, mover, flag)
            if (red, blue, mover, flag) in seen:
                return
            seen.add((red, blue, mover, flag))
            if not legal and flag != OFFERED:
                raise AssertionError("the proof reaches a drawn position")
            keys = self.keys_of(red, blue)
            children = self.cp_children(red, blue, mover, flag, legal, wins, surrounded, keys)
            if self.attacking(mover, flag):
                chosen = [c for c in children if (c[5] or get(c[6], (1, 1)))[0] == 0]
                if not chosen and self.cp.odip_joined((red, blue)[mover], mover):
                    # Mid-chain with the edges joined diagonally (a settled child, never
                    # searched): every legal placement keeps a way to finish the turn and
                    # only a win finishes it, so any one leads on to the win.
                    chosen = children
                if not chosen:
                    raise AssertionError("an attacker position of the proof has no proven move")
                child = chosen[0]
                move = child[7]
                out[self.text(red, blue, mover, flag)] = "swap" if move == SWAP else names[move]
                children = [child]
            for b, w, cmover, cflag, _, value, _, move in children:
                if move != SWAP and wins >> move & 1:
                    if not self.attacking(mover, flag):
                        raise AssertionError("the defender wins on a line of the proof")
                    continue
                if value == LOSS:
                    raise AssertionError("the proof reaches a position the attacker loses")
                walk(b, w, cmover, cflag)

        walk(red, blue, mover, flag)
        return out
