"""Depth-first proof-number search (df-pn, Nagai 2002) with a transposition table.

Same question as :class:`ai.solver.Solver` ("can this seat force a win?"), same canonical
position keys (stones, mover, pie flags, reduced by the game's proven symmetries), same
pruning (a player cut off from their edges in a monotone path game never wins), but the
search goes where the proof is cheapest: it expands the most-proving node, kept in a
transposition table of (proof, disproof) numbers, with Pawlewicz and Lew's 1+epsilon
threshold trick so that it does not thrash between two near-equal children.

Only the games whose positions never repeat are searched (Clear Path, Minefield, Naked
Diagonal: stones are only ever added).  Crosscut and Clearcut can repeat positions, and a
df-pn table over a graph with cycles needs the graph-history-interaction fixes this module
does not have, so it refuses them and the old solver answers there.

A proof found here is exported through :meth:`Solver.strategy` (the proven winning move of
each attacker node is recorded in ``proven``), so the shipped file is checked by
``bench/verify_proof.py`` independently of this search.
"""

from __future__ import annotations

from rules import Game

from .dfpn_step import INF, descend
from .moves import Move, play
from .solver import (
    MONOTONE_PATH_GAMES,
    SEATS,
    Key,
    Seat,
    Solver,
    Symmetry,
    cut_off,
    seat_of,
    swapped,
    winner_seat,
)


class DfpnSolver(Solver):
    """df-pn over the rules engine for a seat; the tables are kept across calls."""

    def __init__(
        self,
        name: str,
        size: int,
        attacker: Seat,
        *,
        use_symmetry: bool = True,
        max_nodes: int | None = None,
    ) -> None:
        if name not in MONOTONE_PATH_GAMES:
            raise ValueError(f"{name} positions can repeat; df-pn here assumes they cannot")
        super().__init__(name, size, attacker, use_symmetry=use_symmetry, max_nodes=max_nodes)
        self.table: dict[Key, tuple[int, int]] = {}

    def wins(self, game: Game) -> bool:
        """Can the attacker force a win from ``game``?  (``game`` is left as it was.)"""
        pn, dn = self._leaf(game)
        if pn == 0:
            return True
        if dn == 0:
            return False
        key, sym = self.key(game)
        pn, dn = self._mid(game, key, sym, INF, INF)
        return pn == 0

    def _leaf(self, game: Game) -> tuple[int, int]:
        """(pn, dn) of a position from what is known without expanding it."""
        if game.is_over:
            return (0, INF) if winner_seat(game) == self.attacker else (INF, 0)
        if cut_off(game, SEATS.index(self.attacker) ^ swapped(game)):
            return INF, 0
        key, _ = self.key(game)
        if key in self.proven:
            return 0, INF
        return self.table.get(key, (1, 1))

    def _mid(self, game: Game, key: Key, sym: Symmetry, thpn: int, thdn: int) -> tuple[int, int]:
        self._count_node()
        assert game.to_move is not None
        attacking = seat_of(game, game.to_move) == self.attacker
        moves: list[Move] = self._order(self._moves(game), attacking)
        # Each child is played once: a settled child keeps its value, an open one its key,
        # whose (pn, dn) is read again from the table after every descent.
        fixed: list[tuple[int, int] | None] = []
        keys: list[tuple[Key, Symmetry] | None] = []
        for move in moves:
            play(game, move)
            if game.is_over:
                fixed.append((0, INF) if winner_seat(game) == self.attacker else (INF, 0))
                keys.append(None)
            elif cut_off(game, SEATS.index(self.attacker) ^ swapped(game)):
                fixed.append((INF, 0))
                keys.append(None)
            else:
                fixed.append(None)
                keys.append(self.key(game))
            game.pop()
        table = self.table
        proven = self.proven
        while True:
            values: list[tuple[int, int]] = []
            for value, entry in zip(fixed, keys, strict=True):
                if value is None:
                    assert entry is not None
                    child = entry[0]
                    value = (0, INF) if child in proven else table.get(child, (1, 1))
                values.append(value)
            pn, dn, best, child_pn, child_dn = descend(values, attacking, thpn, thdn)
            if best < 0:
                break
            move = moves[best]
            entry = keys[best]
            assert entry is not None, "a settled child is never the one to search"
            child_key, child_sym = entry
            play(game, move)
            self._mid(game, child_key, child_sym, child_pn, child_dn)
            game.pop()
        if pn == 0:
            if attacking:
                best = next(i for i, (p, _) in enumerate(values) if p == 0)
                self.proven[key] = sym.move(moves[best])
            else:
                self.proven[key] = None
        self.table[key] = (pn, dn)
        return pn, dn
