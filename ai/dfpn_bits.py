"""df-pn over the solver's own bitboard position, for Minefield and Naked Diagonal (issue 49).

:class:`ai.dfpn.DfpnSolver` searches over the rules engine: every child costs a ``play``
(history, edge reach, undo records), a ``pop`` and a symmetry key recomputed from scratch.
Here a position is three Python ints (black stones, white stones, the colour to move) and
everything the search asks of it is a handful of shifts and masks:

- legal points: the rules engine's own glyph terms (:data:`rules.minefield.GLYPH_TERMS`)
  over the whole board, each term stopping at its first empty and (checked against
  :func:`rules.minefield.glyph_mask` and the engine's legal moves in the tests);
- a win: a point wins for its player when it lies on (or next to the stones joined to) each of
  that player's two edges, so the winning points are two flood fills and an and;
- keys: four incremental keys, one per edge-keeping symmetry, each updated by adding one
  precomputed bit per stone (a Zobrist key without collisions: the key *is* the position),
  the least of the four being the canonical key.

Every child is evaluated when its parent is expanded, which is where most of the pruning is
(all of it sound; the arguments are in docs/solved.md):

- a placement that wins ends the game and settles its parent;
- a child where the side to move has a legal winning point is settled for that side (a
  threat left open is a win in one);
- a defender's stone that joins an 8-connected chain of defender stones between the
  defender's edges cuts the attacker off for good (stones never leave a Minefield board), and
  settles its parent;
- the skip rule is applied when a node is expanded: a mover with no legal point passes, and
  if neither side can place the game is drawn, which is no win for the attacker.

The proof is not trusted: :meth:`BitsDfpn.strategy` writes it out in the proof-file format
and ``bench/verify_proof.py`` walks it with the rules engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rules.geometry import Grid, grid
from rules.minefield import GLYPH_TERMS

from .dfpn_board import BoardDfpn, skip_rule
from .dfpn_step import LOSS, WIN, descend

Child = tuple[int, int, int, tuple[int, ...], tuple[int, int] | None, int, tuple[int, int]]
"""(black, white, colour to move, symmetry keys, settled value or None, canonical key, first
guess at its numbers): one child of an expanded node."""


class BitsRules(Protocol):
    """What :class:`BitsDfpn` asks of a game's rules on bare bitboards.

    The search's pruning (docs/solved.md) holds for games whose stones never leave the board
    nor change colour, and whose win is an orthogonal path between a colour's two edges (black
    or red, colour 0: rows 1 and n; colour 1: the first and last columns).
    """

    name: str
    grid: Grid
    edges: tuple[tuple[int, int], tuple[int, int]]

    def legal(self, own: int, opp: int) -> int:
        """The empty points where an ``own`` stone may be placed."""
        ...

    def legal_among(self, own: int, opp: int, candidates: int) -> int:
        """The points of ``candidates`` (empty points) that are legal for ``own``: the same
        as ``legal(own, opp) & candidates``, and often much cheaper."""
        ...

    def winning_points(self, own: int, colour: int, empty: int) -> int: ...

    def cut_off(self, opp: int, colour: int) -> bool: ...

    def distance(self, own: int, opp: int, colour: int) -> int: ...

    def lines_missing(self, own: int, colour: int) -> int: ...


class PathBits:
    """What every game won by an orthogonal path between one's own edges shares on bare
    bitboards: edges, winning points, the cut-off and the distance guesses.  A game
    adds its placement rule (``legal`` and ``legal_among``)."""

    name = ""

    def __init__(self, size: int) -> None:
        self.size = size
        self.grid: Grid = grid(size)
        g = self.grid
        # Black or red (colour 0) joins rows 1 and n, white or blue (colour 1) columns a and
        # the last.
        self.edges = ((g.rows[0], g.rows[size - 1]), (g.cols[0], g.cols[size - 1]))
        self.lines = (tuple(g.rows), tuple(g.cols))

    def _dilate(self, m: int) -> int:
        g = self.grid
        return (
            m
            | (m >> 1 & g.not_right)
            | (m << 1 & g.not_left)
            | m >> g.size
            | (m << g.size & g.full)
        )

    def winning_points(self, own: int, colour: int, empty: int) -> int:
        """Empty points whose placement joins ``colour``'s two edges through ``own``."""
        edge_a, edge_b = self.edges[colour]
        reach_a = self.grid.flood(own & edge_a, own)
        reach_b = self.grid.flood(own & edge_b, own)
        return (self._dilate(reach_a) | edge_a) & (self._dilate(reach_b) | edge_b) & empty

    def distance(self, own: int, opp: int, colour: int) -> int:
        """How many empty points ``colour`` still needs to join its edges (at least 1; a big
        number when it cannot): a guess at how far the position is from a win, used only to
        start a position's proof numbers (df-pn stays exact whatever the guess)."""
        edge_a, edge_b = self.edges[colour]
        empty = self.grid.full & ~(own | opp)
        reach = self.grid.flood(own & edge_a, own)
        frontier = edge_a
        for k in range(1, self.grid.area + 1):
            grown = (self._dilate(reach) | frontier) & empty & ~reach
            if not grown:
                return 1000
            reach = self.grid.flood(reach | grown, reach | grown | own)
            if reach & edge_b:
                return k
            frontier = 0
        return 1000

    def lines_missing(self, own: int, colour: int) -> int:
        """How many of the rows (black) or columns (white) hold none of ``own``: a path
        between the edges crosses every one, so it needs at least that many more stones."""
        return sum(1 for line in self.lines[colour] if not own & line) or 1

    def cut_off(self, opp: int, colour: int) -> bool:
        """Can ``colour`` no longer join its edges (``opp`` being the other colour's stones)?"""
        open_points = self.grid.full & ~opp
        edge_a, edge_b = self.edges[colour]
        seed = open_points & edge_a
        return not (seed and self.grid.flood(seed, open_points) & edge_b)


class MinefieldBits(PathBits):
    """Minefield's rules on bare bitboards: legal points by the glyph terms."""

    name = "minefield"

    def __init__(self, size: int) -> None:
        super().__init__(size)
        g = self.grid
        # The rules engine's glyph terms (rules.minefield.GLYPH_TERMS), each slot a shift of
        # one board: stones first, empties last, since stones are sparse and a term stops at
        # its first empty and.
        n = size
        self.terms: list[tuple[tuple[int, int, int], ...]] = []
        for _, groups in GLYPH_TERMS:
            slots = [
                (which, dx + dy * n, g.shift(g.full, dx, dy))
                for which in (1, 0, 2)
                for dx, dy in groups[which]
            ]
            self.terms.append(tuple(slots))

    def glyphs(self, own: int, opp: int, empty: int, candidates: int) -> int:
        """The points of ``candidates`` (empty points) where an ``own`` stone forms a glyph:
        :func:`rules.minefield.glyph_mask` restricted to the candidates, which lets each
        term stop at its first empty and."""
        boards = (own, opp, empty)
        found = 0
        for term in self.terms:
            acc = candidates
            for which, off, valid in term:
                board = boards[which]
                acc &= (board >> off if off >= 0 else board << -off) & valid
                if not acc:
                    break
            else:
                found |= acc
        return found

    def legal(self, own: int, opp: int) -> int:
        empty = self.grid.full & ~(own | opp)
        return empty & ~self.glyphs(own, opp, empty, empty)

    def legal_among(self, own: int, opp: int, candidates: int) -> int:
        empty = self.grid.full & ~(own | opp)
        return candidates & ~self.glyphs(own, opp, empty, candidates)


def _nakeddiagonal(size: int) -> BitsRules:
    # Imported on first use: Minefield's searches need none of Naked Diagonal's area machinery.
    from .dfpn_nd import NakedDiagonalBits

    return NakedDiagonalBits(size)


BITS_GAMES: dict[str, Callable[[int], BitsRules]] = {
    "minefield": MinefieldBits,
    "nakeddiagonal": _nakeddiagonal,
}


class BitsDfpn(BoardDfpn):
    """Can colour ``attacker`` (0 black, the first seat; 1 white) force a win?"""

    def __init__(
        self,
        name: str,
        size: int,
        attacker: int,
        *,
        max_nodes: int | None = None,
        heuristic: str | None = None,
    ) -> None:
        super().__init__(name, size, attacker, max_nodes, depth=20_000)
        self.heuristic = heuristic
        """Start unexpanded positions' (pn, dn) at each side's distance to a win, not (1, 1)."""
        self.rules = BITS_GAMES[name](size)

    # ----- positions ------------------------------------------------------------------------
    def evaluate(
        self, black: int, white: int, mover: int
    ) -> tuple[tuple[int, int] | None, int, int]:
        """(settled value or None, the colour to move after any skip, its legal points)."""
        rules = self.rules
        stones = (black, white)
        empty = rules.grid.full & ~(black | white)
        if rules.cut_off(stones[1 - self.attacker], self.attacker):
            return LOSS, mover, 0
        mover, legal = skip_rule(rules.legal, black, white, mover)
        if not legal:
            return LOSS, mover, 0  # neither can place: drawn, no win for the attacker
        if rules.winning_points(stones[mover], mover, empty) & legal:
            return (WIN if mover == self.attacker else LOSS), mover, legal
        return None, mover, legal

    # ----- the search -----------------------------------------------------------------------
    def _children(
        self, black: int, white: int, mover: int, legal: int, keys: tuple[int, ...]
    ) -> list[Child]:
        """Every child, each settled at once where that is cheap to see (see the module)."""
        rules = self.rules
        full = rules.grid.full
        attacker = self.attacker
        other = mover ^ 1
        own, opp = (black, white) if mover == 0 else (white, black)
        won = WIN if mover == attacker else LOSS
        lost = LOSS if mover == attacker else WIN
        # The points that would win for each side now; a placement only removes one of the
        # other side's (by filling it, or by a glyph), so these are computed once per node.
        mover_wins = rules.winning_points(own, mover, full) & legal
        threats = rules.winning_points(opp, other, full)
        # A defender stone cuts the attacker off exactly when it joins an 8-connected chain
        # of defender stones between the defender's own two edges (the duality of the
        # square grid, docs/solved.md); the position before was not cut off, so any such
        # chain runs through the new stone and its group is all that needs looking at.
        check_cut = mover != attacker
        cut_a, cut_b = rules.edges[mover]
        flood = rules.grid.flood
        delta = self.delta[mover]
        mover_bit = self.mover_bit if other else 0
        heuristic = self.heuristic
        out: list[Child] = []
        for p in self.order:
            bit = 1 << p
            if not legal & bit:
                continue
            b, w = (black | bit, white) if mover == 0 else (black, white | bit)
            if mover_wins & bit:
                # A placement that wins ends the game, and settles this node.
                return [(b, w, 0, (), won, 0, won)]
            value: tuple[int, int] | None = None
            if check_cut:
                group = flood(bit, own | bit, True)
                if group & cut_a and group & cut_b:
                    return [(b, w, other, (), LOSS, 0, LOSS)]  # the defender's move wins here
            open_threats = threats & ~bit & ~(own | opp)
            if open_threats and rules.legal_among(opp, own | bit, open_threats):
                value = lost  # the other side wins in one
            k0, k1, k2, k3 = keys
            d0, d1, d2, d3 = delta[p]
            ckeys = (k0 + d0, k1 + d1, k2 + d2, k3 + d3)
            ckey = min(ckeys) | mover_bit
            guess = self._guess(b, w, ckey) if value is None and heuristic else (1, 1)
            out.append((b, w, other, ckeys, value, ckey, guess))
        return out

    def _guess(self, black: int, white: int, key: int) -> tuple[int, int]:
        """The position's numbers from the table, else a first guess from the distances."""
        known = self.table.get(key)
        if known is not None:
            return known
        a = self.attacker
        stones = (black, white)
        rules = self.rules
        if self.heuristic == "lines":
            return rules.lines_missing(stones[a], a), rules.lines_missing(stones[1 - a], 1 - a)
        return (
            rules.distance(stones[a], stones[1 - a], a),
            rules.distance(stones[1 - a], stones[a], 1 - a),
        )

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
        get = table.get
        while True:
            # A settled child's value is a tuple, so ``or`` reads the table for open ones.
            values = [child[4] or get(child[5], child[6]) for child in children]
            pn, dn, best, child_pn, child_dn = descend(values, attacking, thpn, thdn)
            if best < 0:
                break
            b, w, cmover, ckeys, _, _, _ = children[best]
            self._mid(b, w, cmover, ckeys, child_pn, child_dn)
        table[key] = (pn, dn)
        return pn, dn

    def _joins(self, own: int, p: int, colour: int) -> bool:
        """Does the stone on ``p`` join ``colour``'s two edges through ``own``?"""
        rules = self.rules
        edge_a, edge_b = rules.edges[colour]
        group = rules.grid.flood(1 << p, own)
        return bool(group & edge_a and group & edge_b)

    # ----- the proof ------------------------------------------------------------------------
    def value(self, black: int, white: int, mover: int) -> tuple[int, int]:
        settled, _, _ = self.evaluate(black, white, mover)
        if settled is not None:
            return settled
        # Keyed by the colour due to move before any skip, as the search keys it.
        key = min(self.keys_of(black, white)) | (self.mover_bit if mover else 0)
        return self.table.get(key, (1, 1))

    def text(self, black: int, white: int, mover: int) -> str:
        cells = "".join(
            "x" if black >> p & 1 else "o" if white >> p & 1 else "." for p in range(self.area)
        )
        return f"{cells}/{'xo'[mover]}/-"

    def strategy(self, black: int = 0, white: int = 0, mover: int = 0) -> dict[str, str]:
        """Every attacker position the proof reaches with its move, as the proof files hold it
        (the position text of docs/solved.md; the move as a point name)."""
        out: dict[str, str] = {}
        seen: set[tuple[int, int, int]] = set()
        names = self.rules.grid.names

        def walk(black: int, white: int, mover: int) -> None:
            settled, mover, legal = self.evaluate(black, white, mover)
            if (black, white, mover) in seen:
                return
            seen.add((black, white, mover))
            if settled is not None and not legal:
                if settled != WIN:
                    raise AssertionError("the proof reaches a position the attacker does not win")
                return
            attacking = mover == self.attacker
            moves = [p for p in self.order if legal >> p & 1]
            if attacking:
                move = self._proven_move(black, white, mover, moves)
                out[self.text(black, white, mover)] = names[move]
                moves = [move]
            for p in moves:
                b = black | 1 << p if mover == 0 else black
                w = white | 1 << p if mover == 1 else white
                if self._joins(b if mover == 0 else w, p, mover):
                    if mover != self.attacker:
                        raise AssertionError("the defender wins on a line of the proof")
                    continue
                walk(b, w, mover ^ 1)

        walk(black, white, mover)
        return out

    def _proven_move(self, black: int, white: int, mover: int, moves: list[int]) -> int:
        for p in moves:  # a win in one first: the shortest line
            own = (black, white)[mover] | 1 << p
            if self._joins(own, p, mover):
                return p
        for p in moves:
            b = black | 1 << p if mover == 0 else black
            w = white | 1 << p if mover == 1 else white
            if self.value(b, w, mover ^ 1)[0] == 0:
                return p
        raise AssertionError("an attacker position of the proof has no proven move")
