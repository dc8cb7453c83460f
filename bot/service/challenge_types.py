"""Challenges as plain values: who challenged whom to what, and the game an accepted one started."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from .clocks.types import TimeControl
from .types import OUTSIDE_SERVERS, VENUE_OPTION

if TYPE_CHECKING:
    from .types import GameInfo


FirstChoice = Literal["me", "them", "random"]
"""Who moves first in a challenge: the challenger ("me"), the opponent ("them") or random."""


ChallengeStatus = Literal["open", "accepted", "declined", "cancelled", "expired"]


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge; ``opponent_id`` None means open to anyone in the server."""

    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    opponent_id: int | None
    game: str
    title: str
    size: int
    first: FirstChoice
    time_control: TimeControl
    status: ChallengeStatus
    created_at: datetime
    expires_at: datetime
    game_id: int | None = None
    accepted_by: int | None = None
    options: dict[str, str] = field(default_factory=dict, hash=False)
    """Per-game options given by the front end (e.g. ``{"ai_level": "2"}``); copied to the
    game on acceptance.  A fresh dict per snapshot: changing it changes nothing stored."""
    rated: bool = True
    """Whether the game it starts is rated (``create_challenge(..., rated=False)``)."""

    @property
    def hints(self) -> bool:
        """Whether its game allows hints (``create_challenge(..., hints=True)``; unrated)."""
        return self.options.get("hints") == "on"

    @property
    def outside_servers(self) -> bool:
        """Whether it was made in a DM or group DM (its game is then unrated and private)."""
        return self.options.get(VENUE_OPTION) == OUTSIDE_SERVERS

    message_id: int | None = None
    """The front end's message showing it (``record_challenge_message``), None until then and
    for challenges posted before message ids were stored."""
    public: bool = False
    """Whether the game it starts may be shown on the web (``create_challenge(public=...)``)."""
    challenger_name: str | None = None
    """The challenger's display name when it was made, if the front end gave it."""

    @property
    def is_open(self) -> bool:
        """True for an open challenge anyone may take (not: the status)."""
        return self.opponent_id is None


@dataclass(frozen=True, slots=True)
class GameStarted:
    """An accepted challenge and the game it started (first player to move in ``game``)."""

    challenge: Challenge
    game: GameInfo
