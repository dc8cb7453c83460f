"""Playouts: how the search finishes a game from a new tree node, and who it says won.

A :class:`Playout` is to :mod:`ai.search` what an evaluator is to OpenSpiel's MCTS: the tree
search asks it for each playout move and, if it stops early, for the verdict, and knows nothing
of how either is chosen.  The plain playout plays uniformly random legal moves to the end.  A
playout can also carry :class:`PlayoutRule` objects, each tried with its own chance before the
uniform draw, and stop after a few moves with the side closer to connecting as the winner.
A level's :class:`ai.search.SearchConfig` names the playout for each game; trying another way
to play out a game means writing a rule (or a :class:`Playout` subclass), here or in ``bench/``,
with no new switch inside the search.

Why the rules the levels use are these (the matches are in docs/ai-experiments.md): uniform
playouts rarely answer a threat, and in Clear Path the answer is usually next to the last stone
(:class:`NearLast`).  A random fill of a Minefield or Naked Diagonal board says little about
who was ahead, so there the playouts follow both sides' shortest paths and are cut short and
judged by distance (:class:`OnPaths` with ``cut_after``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from rules import Game

from .connection import BARRED_GAMES, distance_leader, path_points
from .moves import local_point, random_point

Random = Callable[[], float]


class PlayoutRule(ABC):
    """One way to pick a playout move, tried with probability ``chance`` before the uniform
    draw.  If it is tried and finds no legal point, the move is uniform (the next rules are
    not tried), so a rule's chance is exactly how often it decides a move it can decide."""

    chance: float

    def ready(self, last: int | None) -> bool:
        """Whether the rule can be tried now (checked before its chance is drawn)."""
        return True

    @abstractmethod
    def pick(self, game: Game, last: int | None, rand: Random) -> int | None:
        """A legal placement, or None if the rule finds none."""


@dataclass(frozen=True, slots=True)
class NearLast(PlayoutRule):
    """A legal point next to the previous placement (among its eight neighbours): answers to a
    threat are usually local, and uniform playouts overlook them."""

    chance: float

    def ready(self, last: int | None) -> bool:
        return last is not None

    def pick(self, game: Game, last: int | None, rand: Random) -> int | None:
        assert last is not None
        return local_point(game, game.grid.ring_bits[last], rand)


@dataclass(frozen=True, slots=True)
class OnPaths(PlayoutRule):
    """A legal point on either side's shortest path, the paths routed round the points each
    side may not take in the games of ``barred`` (:func:`ai.connection.path_points`)."""

    chance: float
    barred: frozenset[str] = BARRED_GAMES

    def pick(self, game: Game, last: int | None, rand: Random) -> int | None:
        return local_point(game, path_points(game, self.barred), rand)


@dataclass(frozen=True, slots=True)
class Playout:
    """Random legal moves, guided by ``rules``, to the end of the game or for ``cut_after``
    moves (0: to the end); a playout cut short goes to the side closer to connecting by
    legality-aware distance (bars modelled in the games of ``barred``).  Path games only for
    ``cut_after``: a distance means nothing in Crosscut, and in Clear Path chains and the swap
    make the side to move a poor tie-break."""

    rules: tuple[PlayoutRule, ...] = ()
    cut_after: int = 0
    barred: frozenset[str] = BARRED_GAMES

    def point(self, game: Game, last: int | None, rand: Random) -> int | None:
        """The next placement (``last``: the previous one in this iteration, if any), or None
        when no placement is legal (a special move such as Clear Path's swap may be)."""
        for rule in self.rules:
            if rule.ready(last) and rand() < rule.chance:
                point = rule.pick(game, last, rand)
                if point is not None:
                    return point
                break
        return random_point(game, rand)

    def verdict(self, game: Game) -> int:
        """The colour index that wins a playout cut short here."""
        return distance_leader(game, self.barred)


UNIFORM = Playout()
"""Uniformly random legal moves to the end: where no game-specific playout pays."""
NEAR_LAST = Playout(rules=(NearLast(0.5),))
"""Clear Path at every level: half the moves next to the previous stone."""
ON_PATHS = Playout(rules=(OnPaths(0.75),), cut_after=6)
"""Minefield and Naked Diagonal from level 3: three moves in four on a shortest path, judged
by distance after six moves."""
