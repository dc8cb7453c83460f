"""What the puzzle sub-service hands front ends: plain values, no rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class PuzzleView:
    """A puzzle attempt as the solver sees it: the position, whose move it is, the time left.

    ``played`` are the puzzle's moves since its position (the solver's right answers and the
    bot's defences); the board to show is ``moves`` then ``played``."""

    attempt_id: int
    puzzle_id: str
    game: str
    size: int
    moves: tuple[str, ...]
    played: tuple[str, ...]
    to_move: str
    rating: int
    expires_at: datetime
    daily_day: str | None = None


@dataclass(frozen=True, slots=True)
class PuzzleAnswer:
    """The outcome of one answer (or of giving up, ``correct`` False and ``move`` None).

    A wrong move has ``reply``: the opponent's answer that wins by force (``connects``: at
    once), the reason shown to the player.  ``solution`` is given once the attempt is over."""

    view: PuzzleView
    move: str | None
    correct: bool
    solved: bool
    defence: str | None = None
    reply: str | None = None
    connects: bool = False
    solution: tuple[str, ...] = ()
    rating: int | None = None
    """The player's puzzle rating after a finished attempt."""
    streak: int = 0


@dataclass(frozen=True, slots=True)
class PuzzleStanding:
    """A player's puzzle record for /profile."""

    rating: int
    solved: int
    failed: int
    streak: int
    best_streak: int


@dataclass(frozen=True, slots=True)
class DailyPuzzle:
    """A server's puzzle of one UTC day, claimed by this process to post."""

    guild_id: int
    channel_id: int
    day: str
    puzzle_id: str
    game: str
    size: int
    moves: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DailySolution:
    """Yesterday's daily puzzle, claimed by this process to post its solution."""

    guild_id: int
    channel_id: int
    day: str
    puzzle_id: str
    game: str
    size: int
    moves: tuple[str, ...]
    solution: tuple[str, ...]
    solved: int
