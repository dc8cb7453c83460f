"""Plain, frozen result objects of the game service.

Everything a front end needs to word a message is here as ints, strings, tuples and aware UTC
datetimes: no Discord objects and no live rules engine.  Users are plain ints (Discord
snowflakes in the bot, 1 and 2 in the console); colours are the engine's names (``red``/``blue``,
``black``/``white`` in Minefield).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from rules.errors import N_, N_plural, Wording

from .errors import QUOTE_LIMIT, InvalidTimeControl, quote

if TYPE_CHECKING:
    from rules import Game

    from .notices import NoticePrefs
    from .ratings.types import GameRating

FirstChoice = Literal["me", "them", "random"]
"""Who moves first in a challenge: the challenger ("me"), the opponent ("them") or random."""

ChallengeStatus = Literal["open", "accepted", "declined", "cancelled", "expired"]
GameStatus = Literal["active", "finished", "aborted"]
ResultReason = Literal["connection", "draw", "resign", "time", "abort", "award", "forfeit"]
DueKind = Literal["reminder", "timeout", "challenge_expiry", "soft_time"]

_UNITS = {"m": 60, "h": 3600, "d": 86400}
_TIME_RE = re.compile(r"(\d+)\s*([mhd])")
MIN_PER_MOVE = 60
MAX_PER_MOVE = 30 * 86400
MAX_TIME_TEXT = QUOTE_LIMIT
"""Longer text is no time control: refused before it is parsed."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How long a player may think, and when to remind the player to move.

    Three kinds, told apart by which fields are set:

    * untimed (``per_move`` and ``bank`` None): nobody loses on time;
    * per move (``per_move`` seconds): each turn has the same time, unused time is lost;
    * a bank (``bank``, ``increment``, ``cap`` seconds): each player starts with ``bank``
      seconds, which count down only while it is their turn; after each of their turns
      ``increment`` is added, never above ``cap``.

    ``reminders`` are seconds after the turn started at which the player to move is reminded
    (untimed and per move; they work for untimed games too).  A bank reminds halfway through
    and at nine tenths of the time the player had when their turn began, so a short bank late
    in a game still gets its reminders; its ``reminders`` stay empty.
    """

    per_move: int | None = None
    reminders: tuple[int, ...] = ()
    bank: int | None = None
    increment: int = 0
    cap: int | None = None

    @classmethod
    def untimed(cls) -> TimeControl:
        return cls()

    @classmethod
    def per_move_of(cls, seconds: int) -> TimeControl:
        """A timed control with the default reminders: halfway, and at nine tenths."""
        if not MIN_PER_MOVE <= seconds <= MAX_PER_MOVE:
            raise InvalidTimeControl(
                "the time per move must be between 1 minute and 30 days"
                if seconds > 0
                else "the time per move must be positive"
            )
        return cls(seconds, tuple(sorted({seconds // 2, seconds * 9 // 10})))

    @classmethod
    def bank_of(cls, start: int, increment: int, cap: int | None = None) -> TimeControl:
        """A time bank: ``start`` seconds, ``increment`` after each turn, at most ``cap``
        (default: ``start``).  The start and the cap lie between 1 minute and 30 days, the
        increment between 0 and the cap, and the start is at most the cap."""
        cap = start if cap is None else cap
        if not MIN_PER_MOVE <= start <= MAX_PER_MOVE or not MIN_PER_MOVE <= cap <= MAX_PER_MOVE:
            raise InvalidTimeControl(
                N_("a time bank and its maximum must be between 1 minute and 30 days")
            )
        if start > cap:
            raise InvalidTimeControl(N_("a time bank can't start above its maximum"))
        if not 0 <= increment <= cap:
            raise InvalidTimeControl(N_("the increment must be between 0 and the maximum"))
        return cls(bank=start, increment=increment, cap=cap)

    @property
    def is_bank(self) -> bool:
        return self.bank is not None

    @property
    def is_timed(self) -> bool:
        return self.per_move is not None or self.bank is not None

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read ``none``; a time per move such as ``12h``, ``3d``, ``1d12h`` or ``90m``; or a
        bank such as ``3d+1d max 5d`` (start, increment after each turn, maximum; ``3d+1d``
        caps at the start, ``3d`` alone is per move).

        Front ends call this on what a player typed before the service checks anything, so
        text longer than any time control is refused unread, and a refusal quotes at most
        :data:`~bot.service.errors.QUOTE_LIMIT` characters of it.
        """
        if len(text) > MAX_TIME_TEXT:
            raise unreadable_time(text)
        cleaned = text.strip().lower().replace(" ", "")
        if cleaned in ("", "none", "off", "untimed", "no", "0"):
            return cls.untimed()
        if "+" in cleaned:
            return cls._parse_bank(text, cleaned)
        total = parse_duration(cleaned)
        if total is None or total == 0:
            raise unreadable_time(text)
        return cls.per_move_of(total)

    @classmethod
    def _parse_bank(cls, text: str, cleaned: str) -> TimeControl:
        start_text, _, rest = cleaned.partition("+")
        increment_text, found_max, cap_text = rest.partition("max")
        start = parse_duration(start_text)
        increment = (
            0
            if increment_text == "0"
            else parse_duration(increment_text)
            if increment_text
            else None
        )
        cap = parse_duration(cap_text) if found_max else start
        if not start or increment is None or not cap:
            raise unreadable_time(text)
        return cls.bank_of(start, increment, cap)

    def describe(self) -> str:
        """Short text such as ``3d per move``, ``3d+1d max 5d`` or ``no clock``."""
        if self.bank is not None:
            cap = self.cap if self.cap is not None else self.bank
            return (
                f"{format_duration(self.bank)}+{format_duration(self.increment)}"
                f" max {format_duration(cap)}"
            )
        if self.per_move is None:
            return "no clock"
        return f"{format_duration(self.per_move)} per move"

    def wording(self) -> Wording:
        """What a player reads: ``3 days + 1 day a turn, at most 5 days``, ``12 hours per
        move`` or ``no clock``, for a front end to translate (:meth:`describe` is the
        syntax a player types, which stays as it is in every language)."""
        if self.bank is not None:
            cap = self.cap if self.cap is not None else self.bank
            if self.increment == 0:
                return Wording(N_("{start} for the whole game"), {"start": duration(self.bank)})
            return Wording(
                N_("{start} + {increment} a turn, at most {cap}"),
                {
                    "start": duration(self.bank),
                    "increment": duration(self.increment),
                    "cap": duration(cap),
                },
            )
        if self.per_move is None:
            return Wording(N_("no clock"))
        return Wording(N_("{time} per move"), {"time": duration(self.per_move)})


DEFAULT_BANK = TimeControl(bank=3 * 86400, increment=86400, cap=5 * 86400)
"""A new server's clock: 3 days, a day more after each turn, at most 5 days."""


def parse_duration(text: str) -> int | None:
    """Seconds in lower-case, space-free text such as ``1d12h`` (None if it is not one)."""
    pos = 0
    total = 0
    for match in _TIME_RE.finditer(text):
        if match.start() != pos:
            return None
        total += int(match.group(1)) * _UNITS[match.group(2)]
        pos = match.end()
    return total if pos == len(text) else None


def unreadable_time(text: str) -> InvalidTimeControl:
    """The refusal for time control text that could not be read, quoting little of it."""
    return InvalidTimeControl(
        N_(
            "{text} is not a time control: write a time per move like 12h, 3d or "
            "1d12h, a bank like 3d+1d max 5d, or 'none' for no clock"
        ),
        text=quote(text.strip()),
    )


_DURATION_UNITS = (
    (86400, N_plural("{n} day", "{n} days")),
    (3600, N_plural("{n} hour", "{n} hours")),
    (60, N_plural("{n} minute", "{n} minutes")),
)


def duration(seconds: int) -> Wording:
    """``1 day 12 hours`` as a wording (each unit in the reader's plural), whole minutes."""
    parts: list[Wording] = []
    rest = int(seconds)
    for unit, forms in _DURATION_UNITS:
        count, rest = divmod(rest, unit)
        if count:
            parts.append(Wording.counted(forms, count))
    if not parts:
        return Wording.counted(N_plural("{n} minute", "{n} minutes"), 0)
    # "{larger} {smaller}": one pair at a time, so a language may join units its own way
    joined = parts[-1]
    for larger in reversed(parts[:-1]):
        joined = Wording(N_("{larger} {smaller}"), {"larger": larger, "smaller": joined})
    return joined


def format_duration(seconds: int) -> str:
    """``1d12h``-style text for a number of seconds (whole minutes shown)."""
    days, rest = divmod(int(seconds), 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [
        f"{days}d" if days else "",
        f"{hours}h" if hours else "",
        f"{minutes}m" if minutes else "",
    ]
    return "".join(parts) or f"{int(seconds)}s"


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-server settings.  Empty ``allowed_channels`` means games may run in any channel."""

    guild_id: int
    allowed_channels: tuple[int, ...] = ()
    use_threads: bool = True
    default_time_control: TimeControl = DEFAULT_BANK
    """A server that never saved settings plays with a bank (``3d+1d max 5d``)."""
    default_sizes: tuple[tuple[str, int], ...] = ()
    challenge_expiry: int = 86400
    """Seconds an unanswered challenge stays open."""
    ratings_enabled: bool = True
    """Whether finished games change ratings in this server."""
    vacation_days: int = 30
    """Vacation days a year a player may take (see ``Vacations.start_vacation`` for how the
    allowances of several servers combine)."""
    soft_time: int = 14 * 86400
    """Seconds an untimed game may wait on one player before the other may claim the win
    or abort it (soft time)."""
    web_listing: bool = True
    """Whether this server's public games are shown on the web (off: none of them is)."""
    language: str | None = None
    """The language of the server's channel posts: a shipped catalog (``de``, ``en``, ...),
    or None for Discord's server locale."""

    def size_for(self, game: str) -> int | None:
        """The server's default size for ``game`` (registry name), if it set one."""
        for name, size in self.default_sizes:
            if name == game:
                return size
        return None

    def allows(self, channel_id: int) -> bool:
        return not self.allowed_channels or channel_id in self.allowed_channels


VENUE_OPTION = "venue"
"""The option that says where a challenge and its game live, when not in a server."""
OUTSIDE_SERVERS = "dm"
"""Its value for a DM or group DM (``create_challenge(outside_servers=True)``): a channel the
front end can answer in but not post to on its own; such games are unrated and never public."""


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
class TakebackRequest:
    """A pending request by ``requester_id`` to undo their last turn."""

    requester_id: int
    requested_at: datetime
    version: int


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
class GameStarted:
    """An accepted challenge and the game it started (first player to move in ``game``)."""

    challenge: Challenge
    game: GameInfo


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A game ended other than by a move: resignation, time, or a moderator."""

    game: GameInfo
    result: GameResult
    rating: GameRating | None = None
    """Each player's rating change, or unrated and why."""


@dataclass(frozen=True, slots=True)
class TakebackAnswer:
    """The answer to a takeback request; ``undone`` lists the events removed if accepted."""

    accepted: bool
    requester_id: int
    answered_by: int
    undone: tuple[MoveEvent, ...]
    game: GameInfo


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


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One moderator action, with who did it."""

    id: int
    guild_id: int
    actor_id: int
    action: str
    game_id: int | None
    target_id: int | None
    detail: str
    at: datetime


@dataclass(frozen=True, slots=True)
class DueAction:
    """Something the scheduler should do now; pass it back to ``GameService.apply_due``.

    ``user_id`` is the player to remind, the player who would lose on time, the challenger
    of an expiring challenge, or (``soft_time``) the player an untimed game waits for.
    ``version`` is the game version it was computed for, so applying it after a move does
    nothing.
    """

    kind: DueKind
    at: datetime
    guild_id: int
    channel_id: int
    user_id: int
    game_id: int | None = None
    challenge_id: int | None = None
    version: int = 0
    reminder_index: int = 0


@dataclass(frozen=True, slots=True)
class Reminder:
    """A reminder to send: ``user_id`` should move in ``game`` before ``deadline`` (if any)."""

    game: GameInfo
    user_id: int
    deadline: datetime | None
    waiting_since: datetime


@dataclass(frozen=True, slots=True)
class SoftTimeNotice:
    """An untimed ``game`` has waited on ``to_move_id`` since ``waiting_since``, past the
    server's soft time: tell ``user_id`` (the player waiting) once that they may claim it."""

    game: GameInfo
    user_id: int
    to_move_id: int
    waiting_since: datetime


@dataclass(frozen=True, slots=True)
class DueOutcome:
    """What applying a :class:`DueAction` did; exactly one of the optional fields is set."""

    action: DueAction
    reminder: Reminder | None = None
    ended: GameEnded | None = None
    expired: Challenge | None = None
    soft_time: SoftTimeNotice | None = None


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


@dataclass(frozen=True, slots=True)
class Hint:
    """The computer's advice for the player to move (``service.hints.hint``).

    ``move`` is the suggested move; ``win_chance`` (0..1) is the asking player's chance after
    it, as the search estimates it, or exactly 1.0/0.0 when ``proven`` says the position is a
    proven ``"win"`` or ``"loss"`` for them (a shipped proof or the endgame solver).  ``used``
    is the asking player's hint count in this game, this one included."""

    game_id: int
    user_id: int
    move: str
    win_chance: float
    proven: str | None
    used: int
