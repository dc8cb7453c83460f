"""Games as the web shows them: public games by their page's token, and nothing else.

A game is served only if it is public (its channel could be read by everyone when it started)
and its server has not turned the web listing off.  Every other game, and every token that is
not a game's, gives the same answer (None), so a page cannot tell a private game from one that
does not exist.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..types import GameSummary

TOKEN_LIMIT = 64
"""A token longer than this is no game's (they are 22 characters): refused unread."""
CATCH_UP = 16
"""The most new moves played onto a cached engine; more (or a takeback) replays the game."""
MAX_WATCHED = 1000
"""The most tokens one :meth:`WebGames.served_versions` call asks about."""


@dataclass(frozen=True, slots=True)
class ServedGame:
    """A listed game: its summary, its page's token and the players' names when it started."""

    summary: GameSummary
    web_token: str
    names: dict[int, str] = field(default_factory=dict, hash=False)


def is_token(value: object) -> bool:
    """Whether ``value`` could be a web token at all (short URL-safe text)."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= TOKEN_LIMIT
        and all(c.isascii() and (c.isalnum() or c in "-_") for c in value)
    )
