"""Playing a game, as plain values: moves, takebacks and abort offers, and what each did."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules import Game

    from ..notices import NoticePrefs
    from ..ratings.types import GameRating
    from ..types import GameEnded, GameInfo, GameResult


@dataclass(frozen=True, slots=True)
class TakebackRequest:
    """A pending request by ``requester_id`` to undo their last turn."""

    requester_id: int
    requested_at: datetime
    version: int


@dataclass(frozen=True, slots=True)
class MoveEvent:
    """One engine placement (or swap) in player terms, with the user who made it.

    A Clear Path chain reaction yields several events with ``continues`` True on all but the
    last.  ``skipped_id`` is the user whose turn was skipped right after this move.
    """

    ply: int
    turn: int
    move: str
    colour: str
    user_id: int
    point: str | None
    swap: bool
    continues: bool
    flipped: tuple[str, ...]
    removed: tuple[str, ...]
    stays: bool
    skipped_colour: str | None
    skipped_id: int | None
    winner_colour: str | None
    draw: bool


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What one accepted move did and what comes next.

    ``next_id``/``next_colour`` are None once the game is over; then ``result`` says how.
    """

    game: GameInfo
    events: tuple[MoveEvent, ...]
    next_id: int | None
    next_colour: str | None
    deadline: datetime | None
    result: GameResult | None
    rating: GameRating | None = None
    """Once the move ended the game: each player's rating change, or unrated and why."""
    position: Game | None = field(default=None, compare=False, repr=False)
    """A private copy of the engine after the move, to draw (the caller's to mutate): the
    board follows a move without asking the service again."""
    waiting: NoticePrefs | None = None
    """How the player to move next hears of their turn (read in the move's own transaction);
    None once the game is over."""

    @property
    def is_over(self) -> bool:
        return self.result is not None


@dataclass(frozen=True, slots=True)
class TakebackAnswer:
    """The answer to a takeback request; ``undone`` lists the events removed if accepted."""

    accepted: bool
    requester_id: int
    answered_by: int
    undone: tuple[MoveEvent, ...]
    game: GameInfo


@dataclass(frozen=True, slots=True)
class AbortOffer:
    """A pending offer by ``offered_by`` to abort ``game`` at ``version``: a move (or any
    other change of position) since makes it stale."""

    offered_by: int
    version: int
    game: GameInfo


@dataclass(frozen=True, slots=True)
class AbortAnswer:
    """The opponent's answer to an abort offer; ``ended`` is set when they accepted."""

    accepted: bool
    offered_by: int
    answered_by: int
    game: GameInfo
    ended: GameEnded | None = None
