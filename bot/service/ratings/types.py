"""Plain, frozen result objects for ratings: leaderboard rows and profile pieces.

Like the core types (:mod:`bot.service.types`) these are ints, floats, strings, tuples and aware
UTC datetimes, so a front end (the Discord adapter, the CLI's ``--json``) can word or serialise
them without knowing the rating model.  Ratings here are already on the display scale (about
1500 for a new player); the model's own numbers live in
:class:`bot.service.ratings.model.Rating`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from ..types import ResultReason

Outcome = Literal["win", "loss", "draw"]
"""A game's result seen from one side: the first player's in ``update``/``RatedGame``, the
profile owner's in :class:`RecentGame`."""

UnratedReason = Literal[
    "ratings_off", "unrated_game", "computer", "aborted", "too_short", "reset", "before_ratings"
]
"""Why a finished game changed no rating (see :func:`bot.service.ratings.model.rated_verdict`;
``reset``: an admin reset that game's ratings later; ``before_ratings``: it ended before the
bot had ratings)."""


@dataclass(frozen=True, slots=True)
class RatingLine:
    """One player's rating change in one game, on the display scale, for the game-over
    message: ``describe("Alice")`` gives ``Alice 1512 → 1528, +16``."""

    user_id: int
    before: int
    after: int
    rating: float
    uncertainty: float
    games: int
    provisional: bool

    @property
    def delta(self) -> int:
        """The difference of the two shown numbers, so the line always adds up."""
        return self.after - self.before

    def describe(self, name: str) -> str:
        label = name if len(name) <= 100 else name[:99] + "…"
        return f"{label} {self.before} → {self.after}, {self.delta:+d}"


@dataclass(frozen=True, slots=True)
class GameRating:
    """What a finished game did to ratings: both players' :class:`RatingLine` when it was
    rated, else ``unrated_reason`` (``text`` words it: ``rated`` / ``unrated: why``)."""

    rated: bool
    unrated_reason: UnratedReason | None
    text: str
    changes: tuple[RatingLine, ...] = ()

    def change_for(self, user_id: int) -> RatingLine | None:
        for line in self.changes:
            if line.user_id == user_id:
                return line
        return None


@dataclass(frozen=True, slots=True)
class Standing:
    """One leaderboard row: a player's rating in one game of one server.

    ``rating`` and ``uncertainty`` are on the display scale (new players start at 1500 ±
    about 246); ``rank`` is 1 for the highest rating in that server and game.
    """

    user_id: int
    rating: float
    uncertainty: float
    games: int
    wins: int
    losses: int
    draws: int
    provisional: bool
    rank: int

    @property
    def record(self) -> str:
        """Wins–losses–draws, e.g. ``12–3–1``."""
        return f"{self.wins}–{self.losses}–{self.draws}"


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating right after one rated game: one point of the history chart."""

    game_id: int
    at: datetime
    rating: float
    uncertainty: float


@dataclass(frozen=True, slots=True)
class RecentGame:
    """One finished game as a profile lists it, seen from the profile owner's side.

    ``change`` is the shown rating change (``None`` when the game was unrated, and then
    ``unrated_reason`` says why).  ``channel_id`` lets the front end link to the game.
    """

    game_id: int
    game: str
    channel_id: int
    opponent_id: int
    outcome: Outcome
    reason: ResultReason
    finished_at: datetime
    rated: bool
    rating_after: float | None = None
    change: int | None = None
    unrated_reason: UnratedReason | None = None


@dataclass(frozen=True, slots=True)
class GameProfile:
    """A player's standing in one game of one server, with streaks and rating history.

    ``history`` is oldest first, one point per rated game (the store may cap how many).
    """

    game: str
    standing: Standing
    longest_win_streak: int
    current_win_streak: int
    history: tuple[RatingPoint, ...] = ()


@dataclass(frozen=True, slots=True)
class Profile:
    """What ``/profile`` shows: every game the player is rated in, and their last games.

    ``games`` holds one entry per game with at least one rated game, best rating first;
    ``recent`` is newest first and includes unrated games.
    """

    guild_id: int
    user_id: int
    ratings_enabled: bool
    games: tuple[GameProfile, ...] = ()
    recent: tuple[RecentGame, ...] = ()
