"""Exact endgame solving inside the tree search: the solver's verdicts as proven nodes.

Near the end of a game few points are empty and the exact solver (:class:`ai.solver.Solver`)
settles a position in a few hundred to a few thousand nodes, where sampling would need many
playouts to be sure and can still be wrong.  The search asks :class:`Endgame` about the root
and about each new tree node once the empty points are few enough (the levels set how few,
from what their time caps allow), within a node budget and the search's clock.  A verdict
becomes a proven node (``Node.proven``), which the search's MCTS-Solver backs up the tree: a
proven-won child is chosen, proven-lost children are avoided.

One :class:`ai.solver.Solver` per seat lives as long as the search, so what one question
proves or disproves answers later ones for free.  A question the budget cannot settle
leaves the node to sampling.
"""

from __future__ import annotations

from enum import Enum

from rules import Game

from .connection import stone_masks
from .moves import Move
from .solver import SEATS, SearchLimit, Seat, Solver, seat_of


class Verdict(Enum):
    MOVER_WINS = 1
    MOVER_LOSES = -1
    NEITHER = 0
    """Neither side can force a win (a draw, or a game that can go on for ever)."""


def empty_points(game: Game) -> int:
    first, second = stone_masks(game)
    return game.size * game.size - (first | second).bit_count()


class Endgame:
    """The exact solver for one search (``game`` is the search's start position)."""

    def __init__(self, game: Game, empties: int) -> None:
        self.name = game.name
        self.size = game.size
        self.empties = empties
        self._solvers: dict[Seat, Solver] = {}
        self.questions = 0
        self.settled = 0

    def applies(self, game: Game) -> bool:
        return empty_points(game) <= self.empties

    def solver(self, seat: Seat) -> Solver:
        found = self._solvers.get(seat)
        if found is None:
            found = self._solvers[seat] = Solver(self.name, self.size, seat)
        return found

    def verdict(self, game: Game, nodes: int, deadline: float | None) -> Verdict | None:
        """Who wins ``game`` (not over) with best play, or None if ``nodes`` solver nodes per
        side, or the clock, run out first.  ``game`` is left as it was."""
        assert game.to_move is not None
        self.questions += 1
        mover = seat_of(game, game.to_move)
        other = SEATS[1 - SEATS.index(mover)]
        for seat, verdict in ((mover, Verdict.MOVER_WINS), (other, Verdict.MOVER_LOSES)):
            solver = self.solver(seat)
            solver.max_nodes = solver.nodes + nodes
            solver.deadline = deadline
            try:
                # A copy: a search cut short leaves its position mid-line.
                won = solver.wins(game.copy())
            except SearchLimit:
                return None
            if won:
                self.settled += 1
                return verdict
        self.settled += 1
        return Verdict.NEITHER

    def winning_move(self, game: Game) -> Move:
        """The mover's winning move, once :meth:`verdict` has said MOVER_WINS."""
        assert game.to_move is not None
        return self.solver(seat_of(game, game.to_move)).winning_move(game.copy())
