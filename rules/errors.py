"""Precise exceptions, so callers can tell a typo from a rule violation without parsing text.

Every refusal of a move is an :class:`IllegalMove`, itself a :class:`ValueError`, and its
message is written for a player to read ("d4 is occupied").  The game is always left exactly as
it was before the refused move.
"""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the game refuses.  ``str(exc)`` is a sentence meant for the player."""

    def __init__(self, message: str, move: str | None = None) -> None:
        super().__init__(message)
        self.move = move


class InvalidNotation(IllegalMove):
    """The text does not name a point (or a special move) on this board."""


class OccupiedPoint(IllegalMove):
    """The point already holds a stone."""


class GameOver(IllegalMove):
    """The game has ended; no more moves are accepted."""


class RuleViolation(IllegalMove):
    """The point is empty and on the board, but the game's rules forbid the placement."""


class UnknownGame(ValueError):
    """No game with that name is registered."""


class InvalidOptions(ValueError):
    """A size or option is outside what the game allows."""


class InvalidRecord(ValueError):
    """A text record could not be read or replayed; the message names the first bad token."""

    def __init__(self, message: str, index: int | None = None, token: str | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.token = token
