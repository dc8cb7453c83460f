"""A puzzle's seed difficulty: the effort the level-3 search needs to find its first move.

Issue 48 seeds a puzzle's rating "from the effort a level-3 search needs to find the move";
solvers' results then move it as they move players' ratings.  The effort is measured on a
ladder of playout budgets (:data:`RUNGS`, up to level 3's own cap on that board): the
smallest budget at which the level-3 search (its configuration, a fixed seed from the
puzzle's id, playouts only so the answer is the same on every machine) chooses
``solution[0]``.  A search that does not find it even at level 3's cap marks the puzzle
:data:`MISSED`, the hardest.  One playout means the search's root tactics saw it (a win at
once, or in two in the threat games) before any sampling.

:func:`seed_mu` maps the effort to an openskill mu: :data:`BASE_MU` at one playout, then
:data:`MU_PER_DECADE` more for each tenfold of playouts, :data:`MISSED_MU` when missed
(docs/analysis.md, "Puzzle difficulty", gives the table).  Pure CPU work: the miner and the
service's worker run it, never the event loop.
"""

from __future__ import annotations

import math

from ..levels import LEVELS
from ..search import Budget, search
from .puzzle import Puzzle

LEVEL = 3
RUNGS = (1, 3, 10, 30, 100, 300, 1000)
"""The playout budgets tried, cheapest first; those above level 3's cap on the board are
left out, and the cap itself is always the last rung."""
MISSED = -1
"""The effort of a puzzle whose move level 3 does not find at its cap."""
BASE_MU = 19.0
MU_PER_DECADE = 3.5
MISSED_MU = 32.0


def rungs(game: str, size: int) -> tuple[int, ...]:
    """The ladder on ``game``'s ``size`` board, ending at level 3's playout cap there."""
    cap = LEVELS[LEVEL].budget_for(game, size).playouts
    assert cap is not None  # every level caps playouts (ai.levels)
    return (*(r for r in RUNGS if r < cap), cap)


def level3_effort(puzzle: Puzzle) -> int:
    """The fewest playouts (a rung of the ladder) at which the level-3 search chooses the
    puzzle's move, or :data:`MISSED`."""
    game = puzzle.position()
    config = LEVELS[LEVEL].config
    for playouts in rungs(puzzle.game, puzzle.size):
        found = search(game, Budget(playouts=playouts), seed=puzzle.id, config=config)
        if found.move == puzzle.solution[0]:
            return playouts
    return MISSED


def seed_mu(effort: int) -> float:
    """The openskill mu a puzzle of ``effort`` (:func:`level3_effort`) starts with."""
    if effort == MISSED:
        return MISSED_MU
    if effort < 1:
        raise ValueError(f"an effort is a number of playouts or MISSED, not {effort}")
    return min(MISSED_MU, BASE_MU + MU_PER_DECADE * math.log10(effort))
