"""Crosspath's computer opponent: Monte Carlo tree search over the rules engine only.

Entry points:

* ``choose_move(game, level=3, seed=None) -> str`` thinks in this process (blocks);
* ``await ai_move(record, level=3, seed=None) -> str`` thinks in a shared process pool so an
  event loop keeps running; call ``shutdown()`` when the program stops;
* ``AIPlayer(level, seed)`` bundles the settings, with ``.choose(game)`` and ``await .move(game)``;
* ``parse_level(text)`` turns "2", "hard", ... into a :class:`Level` (ValueError if unknown).

The returned move is text for :meth:`rules.Game.play` (a point such as ``"c3"``, or ``"swap"``).
"""

from __future__ import annotations

from rules import Game

from .levels import DEFAULT_LEVEL, LEVELS, Level, parse_level
from .player import AIPlayer
from .pool import ai_move, ai_result, get_pool, shutdown, think
from .search import Budget, SearchConfig, SearchResult, search


def choose_move(
    game: Game,
    level: int | str | Level | None = None,
    seed: int | None = None,
    budget: Budget | None = None,
) -> str:
    """The move the AI plays for the player to move in ``game`` (left unchanged)."""
    return think(game, level, seed, budget).move


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "AIPlayer",
    "Budget",
    "Level",
    "SearchConfig",
    "SearchResult",
    "ai_move",
    "ai_result",
    "choose_move",
    "get_pool",
    "parse_level",
    "search",
    "shutdown",
    "think",
]
