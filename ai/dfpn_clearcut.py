"""df-pn over Clearcut bitboards, sound where positions repeat (issue 49).

The search of :mod:`ai.dfpn_bits` (same 1+epsilon trick, edge-keeping symmetries, central
points first) over :class:`ai.clearcut_bits.ClearcutBits`, changed where Clearcut's
checkers leave the board (docs/solved.md, "Bitboard df-pn for Clearcut", gives the
arguments):

- **Repetitions.** A child whose key is on the current path is no win for the attacker (a
  line that repeats never ends). A disproof is path-free only if no such cut was used below
  it; otherwise it is kept apart, in ``tainted``, with the set of path keys it relied on,
  and is read back only while all of them are on the path again. Proofs never use a cut
  (a cut only ever counts against the attacker), so they go in the table for good, each
  with a serial number: a proven node's proof uses only children proven before it, which the
  export follows, so the exported strategy never repeats a position.
- **No cut-off.** A colour hemmed in can be freed by a crosscut, so that pruning is gone.
- **Threats after removals.** A child where the side to move has a legal winning point is a
  win in one for it; the points and their legality are those of the child, after any
  removals (which can take threats away, or open points).
"""

from __future__ import annotations

from .clearcut_bits import ClearcutBits
from .dfpn_board import BoardDfpn, skip_rule
from .dfpn_step import INF, LOSS, WIN, descend

FREE: frozenset[int] = frozenset()
"""The path keys a path-free value relies on: none."""

Child = tuple[int, int, int, tuple[int, ...], tuple[int, int] | None, int]
"""(first colour's checkers, second's, colour to move, symmetry keys, settled value or None,
canonical key)."""


class ClearcutDfpn(BoardDfpn):
    """Can colour ``attacker`` (0 the first seat, 1 the second) force a win at Clearcut?"""

    def __init__(self, size: int, attacker: int, *, max_nodes: int | None = None) -> None:
        # Deeper than the others: a line of moves and removals can run long before it repeats.
        super().__init__("clearcut", size, attacker, max_nodes, depth=50_000)
        self.rules = ClearcutBits(size)
        # self.table holds the path-free values: proofs, disproofs, and the last (pn, dn)
        # seen otherwise.
        self.tainted: dict[int, frozenset[int]] = {}
        """Disproofs that relied on repetitions, with the path keys they relied on."""
        self.proven_at: dict[int, int] = {}
        """The serial number of each proof, in the order found."""
        self.path: set[int] = set()
        self.repetitions = 0
        """How often a child was found on the path (counted each time it is read)."""

    # ----- positions ------------------------------------------------------------------------
    def key(self, black: int, white: int, mover: int) -> int:
        """The canonical key, with the colour due to move before any skip."""
        return min(self.keys_of(black, white)) | (self.mover_bit if mover else 0)

    def evaluate(
        self, black: int, white: int, mover: int
    ) -> tuple[tuple[int, int] | None, int, int]:
        """(settled value or None, the colour to move after any skip, its legal points)."""
        rules = self.rules
        stones = (black, white)
        mover, legal = skip_rule(rules.legal, black, white, mover)
        if not legal:
            return LOSS, mover, 0  # neither can place: drawn, no win for the attacker
        empty = rules.grid.full & ~(black | white)
        if rules.winning_points(stones[mover], mover, empty) & legal:
            return (WIN if mover == self.attacker else LOSS), mover, legal
        return None, mover, legal

    def play(self, black: int, white: int, mover: int, point: int) -> tuple[int, int]:
        """The checkers after ``mover`` places on ``point`` (a legal point), removals made."""
        own, opp = (black, white) if mover == 0 else (white, black)
        bit = 1 << point
        gone = self.rules.removed(own, opp, point)
        own, opp = own | bit, opp & ~gone
        return (own, opp) if mover == 0 else (opp, own)

    # ----- the search -----------------------------------------------------------------------
    def _children(
        self, black: int, white: int, mover: int, legal: int, keys: tuple[int, ...]
    ) -> list[Child]:
        """Every child, settled at once where the side to move there wins in one."""
        rules = self.rules
        full = rules.grid.full
        other = mover ^ 1
        own, opp = (black, white) if mover == 0 else (white, black)
        won = WIN if mover == self.attacker else LOSS
        lost = LOSS if mover == self.attacker else WIN
        # The mover's own checkers only grow, so its winning points are the same in every
        # child; the other side's are recomputed only where a placement removes checkers.
        mover_wins = rules.winning_points(own, mover, full) & legal
        threats = rules.winning_points(opp, other, full)
        crosscutting = rules.crosscut_candidates(own, opp)
        delta_own = self.delta[mover]
        delta_opp = self.delta[other]
        mover_bit = self.mover_bit if other else 0
        out: list[Child] = []
        for p in self.order:
            bit = 1 << p
            if not legal & bit:
                continue
            gone = rules.removed(own, opp, p) if crosscutting & bit else 0
            own2, opp2 = own | bit, opp & ~gone
            b, w = (own2, opp2) if mover == 0 else (opp2, own2)
            if mover_wins & bit:
                return [(b, w, other, (), won, 0)]  # a winning placement settles this node
            empty = full & ~(own2 | opp2)
            open_threats = rules.winning_points(opp2, other, empty) if gone else threats & empty
            value: tuple[int, int] | None = None
            if open_threats and rules.legal_among(opp2, own2, open_threats):
                value = lost  # the other side wins in one
            k0, k1, k2, k3 = keys
            d0, d1, d2, d3 = delta_own[p]
            ckeys = [k0 + d0, k1 + d1, k2 + d2, k3 + d3]
            while gone:
                low = gone & -gone
                gone ^= low
                e0, e1, e2, e3 = delta_opp[low.bit_length() - 1]
                ckeys[0] -= e0
                ckeys[1] -= e1
                ckeys[2] -= e2
                ckeys[3] -= e3
            out.append((b, w, other, tuple(ckeys), value, min(ckeys) | mover_bit))
        return out

    def _values(self, children: list[Child]) -> list[tuple[int, int]]:
        """Each child's (pn, dn): settled, cut by a repetition, a tainted disproof whose
        path keys are all on the path, the table's, or (1, 1)."""
        path, tainted, get = self.path, self.tainted, self.table.get
        out = []
        for child in children:
            settled = child[4]
            if settled is not None:
                out.append(settled)
                continue
            k = child[5]
            if k in path:
                self.repetitions += 1
                out.append(LOSS)
                continue
            deps = tainted.get(k)
            if deps is not None and deps <= path:
                out.append(LOSS)
                continue
            out.append(get(k, (1, 1)))
        return out

    def _reliance(self, child: Child) -> frozenset[int]:
        """The path keys a disproved child's value relies on (called only on those)."""
        if child[4] is not None:
            return FREE
        k = child[5]
        if k in self.path:
            return frozenset((k,))
        known = self.table.get(k)
        if known is not None and known[1] == 0:
            return FREE
        return self.tainted[k]

    def _mid(
        self, black: int, white: int, mover: int, keys: tuple[int, ...], thpn: int, thdn: int
    ) -> tuple[int, int]:
        self._count_node()
        table = self.table
        key = min(keys) | (self.mover_bit if mover else 0)
        mover, legal = skip_rule(self.rules.legal, black, white, mover)
        if not legal:  # neither can place: a draw
            table[key] = LOSS
            return LOSS
        attacking = mover == self.attacker
        children = self._children(black, white, mover, legal, keys)
        self.path.add(key)
        try:
            while True:
                values = self._values(children)
                pn, dn, best, child_pn, child_dn = descend(values, attacking, thpn, thdn)
                if best < 0:
                    break
                b, w, cmover, ckeys, _, _ = children[best]
                self._mid(b, w, cmover, ckeys, child_pn, child_dn)
        finally:
            self.path.discard(key)
        if dn == 0:
            self._disproved(key, children, values, attacking)
        else:
            if pn == 0:
                self.proven_at[key] = len(self.proven_at)
            table[key] = (pn, dn)
        return pn, dn

    def _disproved(
        self,
        key: int,
        children: list[Child],
        values: list[tuple[int, int]],
        attacking: bool,
    ) -> None:
        """Store a disproof: path-free in the table, else in ``tainted`` with the path keys
        it relied on (every child's at an attacker node, the cleanest refutation's at a
        defender node), less this node's own key, which is off the path from here."""
        if attacking:
            deps: frozenset[int] = FREE.union(*(self._reliance(c) for c in children))
        else:
            refutations = [c for c, v in zip(children, values, strict=True) if v[1] == 0]
            deps = min((self._reliance(c) for c in refutations), key=len)
        deps = deps - {key}
        if deps:
            self.tainted[key] = deps
        else:
            self.tainted.pop(key, None)
            self.table[key] = LOSS

    # ----- the proof ------------------------------------------------------------------------
    def text(self, black: int, white: int, mover: int) -> str:
        cells = "".join(
            "x" if black >> p & 1 else "o" if white >> p & 1 else "." for p in range(self.area)
        )
        return f"{cells}/{'xo'[mover]}/-"

    def _serial(self, black: int, white: int, mover: int) -> int | None:
        """When the position (keyed by the colour due before any skip) was proven, if it
        was; -1 if it is a win in one for the attacker, which needs no search."""
        settled, _, _ = self.evaluate(black, white, mover)
        if settled is not None:
            return -1 if settled == WIN else None
        return self.proven_at.get(self.key(black, white, mover))

    def strategy(self, black: int = 0, white: int = 0, mover: int = 0) -> dict[str, str]:
        """Every attacker position the proof reaches with its move, as the proof files hold
        it. Each move goes to a position proven before the one it leaves, so no line of the
        strategy repeats a position."""
        out: dict[str, str] = {}
        seen: set[tuple[int, int, int]] = set()
        names = self.rules.grid.names
        rules = self.rules

        def walk(black: int, white: int, mover: int, serial: int) -> None:
            settled, mover, legal = self.evaluate(black, white, mover)
            if (black, white, mover) in seen:
                return
            seen.add((black, white, mover))
            if settled is not None and settled != WIN:
                raise AssertionError("the proof reaches a position the attacker does not win")
            attacking = mover == self.attacker
            moves = [p for p in self.order if legal >> p & 1]
            if attacking:
                move = self._proven_move(black, white, mover, moves, serial)
                out[self.text(black, white, mover)] = names[move]
                moves = [move]
            for p in moves:
                b, w = self.play(black, white, mover, p)
                if rules.joins((b, w)[mover], p, mover):
                    if not attacking:
                        raise AssertionError("the defender wins on a line of the proof")
                    continue
                child = self._serial(b, w, mover ^ 1)
                if child is None or child >= serial:
                    raise AssertionError("a line of the proof leaves the proven positions")
                walk(b, w, mover ^ 1, child)

        root = self._serial(black, white, mover)
        if root is None:
            raise AssertionError("the position is not proven")
        walk(black, white, mover, root if root >= 0 else INF)
        return out

    def _proven_move(
        self, black: int, white: int, mover: int, moves: list[int], serial: int
    ) -> int:
        for p in moves:  # a win in one first: the shortest line
            b, w = self.play(black, white, mover, p)
            if self.rules.joins((b, w)[mover], p, mover):
                return p
        for p in moves:
            child = self._serial(*self.play(black, white, mover, p), mover ^ 1)
            if child is not None and child < serial:
                return p
        raise AssertionError("an attacker position of the proof has no proven move")
