"""Clocks and the scheduler's work, as plain values: time controls, durations in words, and
what falls due (reminders, losses on time, expiring challenges, soft-time notices).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from rules.errors import N_, N_plural, Wording

from ..errors import QUOTE_LIMIT, InvalidTimeControl, quote

if TYPE_CHECKING:
    from ..challenge_types import Challenge
    from ..types import GameEnded, GameInfo


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
