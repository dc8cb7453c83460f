"""What the analysis sub-service is given and gives back."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from ai.analysis import Analysis


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who asks for an analysis, as the front end knows them.

    ``sees_channel``: the front end found that the caller may see the game's channel (the rule
    ``/board game:N`` follows: everyone can read it, or the caller can, or manages the
    server).  The service cannot ask Discord, so it trusts this flag; the game's players
    always see their own game, and a game of another server is never shown."""

    user_id: int
    guild_id: int
    sees_channel: bool = False


@dataclass(frozen=True, slots=True)
class StoredAnalysis:
    """A finished game's analysis as stored: computed once, seeded, reused by every front end."""

    game_id: int
    game_version: int
    playouts: int
    seed: int
    analysis: Analysis
    finished_at: datetime


Progress = Callable[[int, int], Awaitable[None]]
"""Told ``(positions judged, positions in all)`` as an analysis advances (to edit a message)."""
