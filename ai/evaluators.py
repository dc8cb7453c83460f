"""The search's evaluators: what :mod:`ai.search` asks about a position, in one protocol.

The tree search (``ai.search.Searcher``) learns about positions from three sources: random
playouts (:class:`ai.playouts.Playout`), connection priors (:func:`ai.connection.move_priors`)
and the exact endgame solver (:class:`ai.endgame.Endgame`).  Like OpenSpiel's MCTS
``Evaluator`` (``evaluate``, ``prior``), each is an object with the same two methods, so the
search holds a list of them and asks each the same questions, and a new source of knowledge
is one new class here rather than another branch inside the search loop.

* :meth:`Evaluator.evaluate` says who wins a position (a *person*, see ``ai.search``: the
  colour index, flipped once a Clear Path swap has exchanged colours), or None if it cannot
  tell.  An exact evaluator's answer is a proof; a sampling one's is one sample.
* :meth:`Evaluator.prior` gives each point a prior weight for the children of a node, or
  None if the evaluator has none.

The order and number of calls on the search's random generator are exactly those of the
search before this protocol existed: fixed-seed searches are byte-identical
(``tests/ai/test_fixed_seed.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from rules import Game

from .connection import move_priors
from .endgame import Endgame, Verdict
from .fast import kernel_for
from .playouts import Playout

DRAW = -1
"""The outcome of a drawn game, beside the winning persons 0 and 1."""


@dataclass(slots=True)
class Leaf:
    """What an evaluator is told about the position it evaluates, besides the position.

    ``mover``: the person to move; ``flip``: 1 once a swap has exchanged colours on the way
    here; ``last``: the placement that led here, if any; ``deadline``: the search's clock.
    A playout appends each placement it makes, with its person, to ``played`` (for RAVE) and
    leaves ``flip`` as it stands where the playout ended.
    """

    mover: int
    flip: int = 0
    last: int | None = None
    deadline: float | None = None
    played: list[tuple[int, int]] = field(default_factory=list)


class Evaluator(Protocol):
    """One source of knowledge about positions for the tree search."""

    def evaluate(self, game: Game, leaf: Leaf) -> int | None:
        """The winning person (or :data:`DRAW`) of ``game``, or None if this evaluator cannot
        tell.  ``game`` may be changed (the search passes its own copy)."""
        ...  # pragma: no cover

    def prior(self, game: Game) -> Sequence[float] | None:
        """A prior weight per point for the moves of ``game``, or None."""
        ...  # pragma: no cover


@dataclass(slots=True)
class PlayoutEvaluator:
    """Plays ``game`` out with ``playout`` and reports who won the sample; has no prior.

    None only when the deadline passes first, so that a slow engine cannot overrun a time
    budget by a playout."""

    playout: Playout
    rand: Callable[[], float]
    colour_index: dict[str, int]
    fast: bool = True
    """Play through the game's kernel in :mod:`ai.fast` where there is one (the same moves;
    False: always through the engine, for the tests that compare the two)."""

    def evaluate(self, game: Game, leaf: Leaf) -> int | None:
        rand = self.rand
        index = self.colour_index
        clock = time.perf_counter
        playout = self.playout
        choose = playout.point
        stop = playout.cut_after or -1
        deadline, played, last, flip = leaf.deadline, leaf.played, leaf.last, leaf.flip
        moves_made = 0
        kernel = kernel_for(game, playout) if self.fast and not game.is_over else None
        if kernel is not None:
            ran = kernel.run(game, leaf, rand, stop)
            if ran is None or isinstance(ran, int):
                return ran if ran is None else ran ^ flip
            # The kernel handed the rest to the engine: catch the engine up with its moves.
            for placed in ran.points:
                game.play_index(placed)
            moves_made, last = ran.moves, ran.last
        while not game.is_over:
            if deadline is not None and clock() > deadline:
                return None
            if moves_made == stop:
                leaf.flip = flip
                return playout.verdict(game) ^ flip
            moves_made += 1
            point = choose(game, last, rand)
            if point is not None:
                played.append((point, index[str(game.to_move)] ^ flip))
                game.play_index(point)
                last = point
            else:
                moves = game.legal_moves()
                if game.play(moves[int(rand() * len(moves))]).swap:
                    flip ^= 1
        leaf.flip = flip
        if game.winner is None:
            return DRAW
        return index[game.winner] ^ flip

    def prior(self, game: Game) -> Sequence[float] | None:
        return None


@dataclass(frozen=True, slots=True)
class ConnectionPrior:
    """The connection priors of :func:`ai.connection.move_priors`; evaluates nothing."""

    def evaluate(self, game: Game, leaf: Leaf) -> int | None:
        return None

    def prior(self, game: Game) -> Sequence[float] | None:
        return move_priors(game)


@dataclass(slots=True)
class SolverEvaluator:
    """The exact endgame solver: a proven winner once few enough points are empty and the
    solver settles the position within ``nodes`` solver nodes per side; otherwise None (and
    None for a position neither side can force).  Has no prior."""

    endgame: Endgame
    nodes: int

    def evaluate(self, game: Game, leaf: Leaf) -> int | None:
        endgame = self.endgame
        if not endgame.applies(game):
            return None
        verdict = endgame.verdict(game, self.nodes, leaf.deadline)
        if verdict is None or verdict is Verdict.NEITHER:
            return None
        return leaf.mover if verdict is Verdict.MOVER_WINS else 1 - leaf.mover

    def prior(self, game: Game) -> Sequence[float] | None:
        return None
