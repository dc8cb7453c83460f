"""Plain, frozen result objects of the game service's core: games, their results and records.

Everything a front end needs to word a message is here as ints, strings, tuples and aware UTC
datetimes: no Discord objects and no live rules engine.  Users are plain ints (Discord
snowflakes in the bot, 1 and 2 in the console); colours are the engine's names (``red``/``blue``,
``black``/``white`` in Minefield).  Each feature's own values live beside it:
:mod:`.clocks.types`, :mod:`.challenge_types`, :mod:`.play.types`, :mod:`.moderation_types`,
``ratings/``, ``tournaments/``, ``puzzles/`` and ``analysis/`` each have a ``types`` module, and
:class:`.hints.Hint` sits with the hints.  Front ends import all of them from
:mod:`bot.service`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .clocks.types import TimeControl
    from .play.types import TakebackRequest
    from .ratings.types import GameRating


VENUE_OPTION = "venue"
"""The option that says where a challenge and its game live, when not in a server."""


OUTSIDE_SERVERS = "dm"
"""Its value for a DM or group DM (``create_challenge(outside_servers=True)``): a channel the
front end can answer in but not post to on its own; such games are unrated and never public."""

GameStatus = Literal["active", "finished", "aborted"]


ResultReason = Literal["connection", "draw", "resign", "time", "abort", "award", "forfeit"]


@dataclass(frozen=True, slots=True)
class Seat:
    """Which user plays which colour right now (Clear Path's swap exchanges the users)."""

    user_id: int
    colour: str


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended.  ``winner_id`` is None for a draw or an abort."""

    reason: ResultReason
    winner_id: int | None
    winner_colour: str | None
    loser_id: int | None
    loser_colour: str | None
    actor_id: int | None = None
    """Who caused it when that is not the winner: the resigning player, or the admin."""
    rated: bool = False
    """Whether the game changed ratings (False after an admin reset them, too)."""
    unrated_reason: str | None = None
    """Why not, when it did not: see ``bot.service.ratings.types.UnratedReason``."""

    @property
    def is_draw(self) -> bool:
        return self.reason == "draw"


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A snapshot of one game as stored.

    ``seats`` are in engine order: the first colour (moves first, joins top and bottom), then
    the second (joins left and right).  ``version`` changes whenever the position or outcome
    changes; pass it back as ``expected_version`` to refuse actions from stale buttons.
    """

    id: int
    guild_id: int
    channel_id: int
    game: str
    title: str
    size: int
    status: GameStatus
    seats: tuple[Seat, Seat]
    to_move_colour: str | None
    to_move_id: int | None
    turn_number: int
    version: int
    record: str
    moves: tuple[str, ...]
    time_control: TimeControl
    turn_started_at: datetime
    deadline: datetime | None
    takeback: TakebackRequest | None
    result: GameResult | None
    created_at: datetime
    updated_at: datetime
    challenge_id: int | None = None
    options: dict[str, str] = field(default_factory=dict, hash=False)
    """The options of the challenge that started the game, kept across restarts (empty for
    games stored before options existed).  A fresh dict per snapshot."""
    rated: bool = True
    """While active: whether it was created rated.  Once over: whether it changed ratings
    (``result.unrated_reason`` says why not)."""
    tournament_id: int | None = None
    """The tournament this game belongs to, if any."""
    time_left: dict[int, int] | None = field(default=None, hash=False)
    """Each player's user id -> whole seconds left at the moment the service read the game
    (by its clock), or None when the game is untimed or over.  With a bank: the player to
    move has what is left of their bank, the other their whole bank.  Per move: the player
    to move has what is left of this turn, the other a whole turn.  Clocks stopped by a
    vacation show what was left when they stopped."""
    paused_until: datetime | None = None
    """While a player of the game is on vacation: when the clock starts again."""
    public: bool = False
    """Whether the game may be shown on the web: its channel could be read by everyone when
    it started (the front end said so when creating the challenge)."""
    web_token: str | None = None
    """The unguessable key of its web page (None for games started before pages existed)."""
    names: dict[int, str] = field(default_factory=dict, hash=False)
    """The players' display names when the game started, by user id (those the front end
    gave).  A fresh dict per snapshot."""
    hints: dict[int, int] | None = field(default=None, hash=False)
    """How many hints each player (by user id) asked for, in a game that allows hints (its
    challenge said so, or it is against the computer); None when it does not."""

    @property
    def is_active(self) -> bool:
        return self.status == "active"

    @property
    def outside_servers(self) -> bool:
        """Whether the game lives in a DM or group DM, where the front end can only answer
        the players' own commands and buttons, never post on its own (issue 47)."""
        return self.options.get(VENUE_OPTION) == OUTSIDE_SERVERS

    @property
    def player_ids(self) -> tuple[int, int]:
        return (self.seats[0].user_id, self.seats[1].user_id)

    def colour_of(self, user_id: int) -> str | None:
        """The colour ``user_id`` plays now, or None if they are not a player."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.colour
        return None

    def user_of(self, colour: str) -> int:
        for seat in self.seats:
            if seat.colour == colour:
                return seat.user_id
        raise KeyError(colour)

    def opponent_of(self, user_id: int) -> int:
        a, b = self.player_ids
        if user_id == a:
            return b
        if user_id == b:
            return a
        raise KeyError(user_id)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game as lists show it, read from stored columns only (no engine is built).

    ``first_id``/``second_id`` are who started with the first and second colour; after Clear
    Path's swap the user to move is still ``to_move_id``.  Use :class:`GameInfo` (``get_game``)
    for the position itself.
    """

    id: int
    guild_id: int
    channel_id: int
    game: str
    title: str
    size: int
    status: GameStatus
    first_id: int
    second_id: int
    to_move_id: int | None
    to_move_colour: str | None
    deadline: datetime | None
    updated_at: datetime
    result: GameResult | None
    version: int
    time_left: dict[int, int] | None = field(default=None, hash=False)
    """As :attr:`GameInfo.time_left`."""
    outside_servers: bool = False
    """As :attr:`GameInfo.outside_servers`: the game lives in a DM or group DM."""

    @property
    def is_active(self) -> bool:
        return self.status == "active"

    @property
    def player_ids(self) -> tuple[int, int]:
        return (self.first_id, self.second_id)


@dataclass(frozen=True, slots=True)
class SummaryPage:
    """One page of :class:`GameSummary`; pass ``next_cursor`` back for the next page (None:
    this was the last).  The cursor is short opaque text (fits a button's custom id)."""

    games: tuple[GameSummary, ...]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A game ended other than by a move: resignation, time, or a moderator."""

    game: GameInfo
    result: GameResult
    rating: GameRating | None = None
    """Each player's rating change, or unrated and why."""


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """One stored move of a game's full record."""

    ply: int
    move: str
    user_id: int
    colour: str
    played_at: datetime


@dataclass(frozen=True, slots=True)
class HistoryEvent:
    """Something that happened to a game besides a move (takebacks, endings, moderation)."""

    at: datetime
    kind: str
    user_id: int | None
    detail: str


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game's full record: the snapshot, every move with who and when, and other events."""

    game: GameInfo
    moves: tuple[PlayedMove, ...]
    history: tuple[HistoryEvent, ...]

    @property
    def text(self) -> str:
        """The one-line engine record, e.g. ``minefield 9: e5 d4``."""
        return self.game.record
