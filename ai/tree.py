"""The search tree's node, its UCT choice and its backup: the part of a search run per step.

:mod:`ai.search` walks the tree with these three and decides everything else itself.  They are
apart so that the compiled core (``ai/_fastcore_tree.h``) can replace them: with the playouts
compiled, a level-3 turn spent most of its time creating child nodes (about 80 per expansion,
most never visited) and scoring every child at every step in Python.  The compiled twins do
the same operations in the same order on the same doubles and draw the same random numbers, so
a search chooses the same move with the same statistics either way
(``tests/ai/test_tree_core.py``); the definitions here run where the core is not built or
``CROSSPATH_PURE_PYTHON`` is set, and stay the reference.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from rules.geometry import bits_list

from .evaluators import DRAW
from .fast import core
from .moves import Move


class Node:
    """One move in the tree, with statistics from the point of view of its ``person``."""

    __slots__ = (
        "amaf_visits",
        "amaf_wins",
        "by_point",
        "children",
        "complete",
        "move",
        "mover",
        "needs_prior",
        "person",
        "point_mask",
        "prior",
        "proven",
        "terminal",
        "unchecked",
        "visits",
        "wins",
    )

    def __init__(self, move: Move, person: int) -> None:
        self.move = move
        self.person = person
        self.children: list[Node] | None = None
        self.by_point: dict[int, Node] = {}
        self.point_mask = 0
        self.mover = 1 - person
        self.visits = 0
        self.wins = 0.0
        self.amaf_visits = 0
        self.amaf_wins = 0.0
        self.proven = 0
        self.terminal = False
        self.prior = 0.0
        self.needs_prior = False
        self.complete = True
        self.unchecked = 0
        """Points among the children not yet proven legal (Naked Diagonal; see
        ``Searcher._select``)."""

    def expand(self, moves: list[Move], mover: int, rng: random.Random) -> None:
        # Shuffled once so ties among unvisited moves do not favour one corner of the board.
        order = list(moves)
        rng.shuffle(order)
        self.mover = mover
        self.children = [Node(m, mover) for m in order]
        for child in self.children:
            if isinstance(child.move, int):
                self.by_point[child.move] = child
                self.point_mask |= 1 << child.move


def _reward(person: int, outcome: int) -> float:
    if outcome == DRAW:
        return 0.5
    return 1.0 if outcome == person else 0.0


def uct_choice(
    node: Node, exploration: float, rave_equivalence: float, rave: bool, fpu: float, bias: float
) -> Node:
    """The child of ``node`` to visit next: a proven win at once, else the best by UCT, with
    RAVE (``rave``) and a progressive bias (``bias`` times the prior) for the children not
    proven lost; ``fpu`` is an unvisited child's value."""
    children = node.children
    assert children is not None
    log_n = math.log(node.visits + 1)
    c_explore = exploration
    k = rave_equivalence
    best: Node | None = None
    best_value = -math.inf
    for c in children:
        proven = c.proven
        if proven:
            if proven == 1:
                return c
            continue
        n = c.visits
        q = c.wins / n if n else fpu
        if rave and c.amaf_visits:
            beta = math.sqrt(k / (3 * n + k))
            q = (1.0 - beta) * q + beta * (c.amaf_wins / c.amaf_visits)
        value = q + c_explore * math.sqrt(log_n / (n + 1))
        if bias:
            value += bias * c.prior / (n + 1)
        if value > best_value:
            best, best_value = c, value
    return best if best is not None else children[0]


def backup(path: list[Node], played: list[tuple[int, int]], outcome: int, rave: bool) -> None:
    """Count the outcome in every node of ``path`` and, with ``rave``, in the siblings whose
    point the same person took later in the iteration (``played``: the playout's placements
    and their persons)."""
    for node in path:
        node.visits += 1
        node.wins += _reward(node.person, outcome)
    if not rave:
        return
    # seen[p]: points person p placed on at or below the current depth of the walk.
    seen = [0, 0]
    for point, person in played:
        seen[person] |= 1 << point
    for i in range(len(path) - 1, -1, -1):
        node = path[i]
        if i + 1 < len(path):
            step = path[i + 1]
            if isinstance(step.move, int):
                seen[step.person] |= 1 << step.move
        if node.children is None:
            continue
        hits = seen[node.mover] & node.point_mask
        if not hits:
            continue
        reward = _reward(node.mover, outcome)
        by_point = node.by_point
        for point in bits_list(hits):
            child = by_point[point]
            child.amaf_visits += 1
            child.amaf_wins += reward


Choose = Callable[[Node, float, float, bool, float, float], Node]
Backup = Callable[[list[Node], list[tuple[int, int]], int, bool], None]


@dataclass(frozen=True, slots=True)
class Tree:
    """One implementation of the three: a search builds its whole tree with one."""

    node: type[Node]
    uct_choice: Choose
    backup: Backup
    name: str


PURE = Tree(Node, uct_choice, backup, "pure")
"""The reference, in Python."""
COMPILED: Tree | None = None
"""The compiled core's, where it is built and not switched off (:mod:`ai.fast.core`)."""
if core.CORE is not None and hasattr(core.CORE, "Node"):
    COMPILED = Tree(
        cast(type[Node], core.CORE.Node),
        cast(Choose, core.CORE.uct_choice),
        cast(Backup, core.CORE.backup),
        "compiled",
    )
ACTIVE = COMPILED or PURE
"""What a search uses unless told otherwise."""
