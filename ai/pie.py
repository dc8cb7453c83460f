"""The pie rule's decision: swap, or play on, after the first player's first turn.

A swap leaves the stones where they are and the same colour to move; only the people change
colours.  So swapping is worth exactly what the first colour's position is worth, which is one
minus what the best placement is worth to the side to move.  The tree search could list
``swap`` as one more child, but that child holds the very position of the root: its visits
learn nothing the root's do not, and the few it gets make a noisy estimate of it.

Instead the search runs once, with the level's whole budget, on the same position without the
swap on offer (:meth:`rules.Game.without_swap`), and the computer swaps when the best
placement it found is a proven loss or is estimated to win less than half of the time;
otherwise it plays that placement.  Every game with the pie rule decides this way, Clear Path
included.
"""

from __future__ import annotations

from dataclasses import replace

from rules import Game
from rules.base import SWAP

from .moves import swap_offered
from .search import DEFAULT_CONFIG, Budget, SearchConfig, SearchResult, search

EVEN = 0.5
"""Below this estimated chance for the best placement, the computer takes the first colour."""


def should_swap(result: SearchResult) -> bool:
    """Swap rather than play ``result`` (the search of the position without the swap)?"""
    if result.proven:
        return result.proven < 0  # every placement proven lost, or one proven won
    return result.value < EVEN


def pie_search(
    game: Game,
    budget: Budget,
    seed: int | str | None = None,
    config: SearchConfig = DEFAULT_CONFIG,
) -> SearchResult:
    """:func:`ai.search.search`, deciding the pie rule's swap as the module notes say when it
    is on offer.  The value returned is the mover's estimated chance after the move chosen."""
    if not swap_offered(game):
        return search(game, budget, seed, config)
    result = search(game.without_swap(), budget, seed, config)
    if not should_swap(result):
        return result
    return replace(
        result,
        move=SWAP,
        value=1.0 - result.value,
        proven=1 if result.proven < 0 else 0,
        reason=f"pie rule: the best placement was rated {result.value:.2f}, so swap",
    )
