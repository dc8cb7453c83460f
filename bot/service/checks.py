"""Checking what a front end hands the service, before anything is read or written.

Every public service call checks its arguments here first, so a bad id, an overlong text or a
malformed setting is refused with a specific :class:`~bot.service.errors.InvalidInput` (never
a ``TypeError`` from deep inside, an ``OverflowError`` from the driver, or a half-done write).
Messages quote at most :data:`~bot.service.errors.QUOTE_LIMIT` characters of what was given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..store import ShardFilter
from .clocks.types import MAX_PER_MOVE, MIN_PER_MOVE, TimeControl
from .errors import QUOTE_LIMIT as QUOTE_LIMIT  # re-exported: one way of quoting input
from .errors import InvalidId, InvalidInput, InvalidSettings, InvalidTimeControl
from .errors import quote as quote

MAX_ID = 2**63 - 1
"""Ids are Discord snowflakes (or small ints in the console): positive 64-bit signed ints."""
MAX_GAME_NAME = 40
MAX_MOVE_TEXT = 16
MAX_NOTE = 500
"""Moderators' reasons are stored in the audit log; a paragraph is plenty."""
MAX_REMINDERS = 10
MAX_ALLOWED_CHANNELS = 500
MAX_LIMIT = 10_000
MAX_SHARDS = 65_536
"""More shards than Discord would ever assign one bot (it recommends one per 1,000 servers)."""


def is_int(value: object) -> bool:
    """A real int (``True`` is an int to Python, never an id or a count to us)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_id(value: object, what: str) -> int:
    """A positive 64-bit id, else :class:`InvalidId` naming ``what`` it should have been."""
    if not is_int(value):
        raise InvalidId(f"The {what} must be a whole number, not {quote(value)}.")
    assert isinstance(value, int)
    if not 1 <= value <= MAX_ID:
        raise InvalidId(f"The {what} must be between 1 and 2^63-1, not {quote(value)}.")
    return value


def check_optional_id(value: object, what: str) -> int | None:
    return None if value is None else check_id(value, what)


def check_text(
    value: object, what: str, limit: int, error: type[InvalidInput] = InvalidInput
) -> str:
    """Text of at most ``limit`` characters."""
    if not isinstance(value, str):
        raise error(f"The {what} must be text, not {quote(value)}.")
    if len(value) > limit:
        raise error(
            f"The {what} is too long ({len(value)} characters; at most {limit}): {quote(value)}."
        )
    return value


def check_limit(value: object, what: str = "limit") -> int:
    if not is_int(value) or not 1 <= value <= MAX_LIMIT:  # type: ignore[operator]
        raise InvalidInput(f"The {what} must be a whole number from 1 to {MAX_LIMIT}.")
    assert isinstance(value, int)
    return value


def check_shards(value: object) -> None:
    """None, or a :class:`ShardFilter` naming distinct shard ids below a count of at least 1."""
    if value is None:
        return
    if not isinstance(value, ShardFilter):
        raise InvalidInput(f"The shards must be a ShardFilter, not {quote(value)}.")
    count, ids = value.count, value.ids
    if not is_int(count) or not 1 <= count <= MAX_SHARDS:
        raise InvalidInput(f"The shard count must be from 1 to {MAX_SHARDS}, not {quote(count)}.")
    if not ids or not all(is_int(i) and 0 <= i < count for i in ids) or len(set(ids)) != len(ids):
        raise InvalidInput(
            f"The shard ids must be distinct numbers from 0 to {count - 1}, not {quote(ids)}."
        )


def check_version(value: object) -> int | None:
    if value is None:
        return None
    if not is_int(value) or not 0 <= value <= MAX_ID:  # type: ignore[operator]
        raise InvalidInput(f"The expected game version must be a whole number, not {quote(value)}.")
    assert isinstance(value, int)
    return value


def check_bool(value: object, what: str, error: type[InvalidInput] = InvalidInput) -> bool:
    if not isinstance(value, bool):
        raise error(f"The {what} must be true or false, not {quote(value)}.")
    return value


def check_seconds(value: object, what: str, low: int, high: int) -> int:
    """A whole number of seconds in ``low..high`` (refuses 0, negatives, floats, booleans)."""
    if not is_int(value):
        raise InvalidTimeControl(
            f"The {what} must be a whole number of seconds, not {quote(value)}."
        )
    assert isinstance(value, int)
    if not low <= value <= high:
        raise InvalidTimeControl(
            f"The {what} must be between {low} and {high} seconds, not {quote(value)}."
        )
    return value


def check_time_control(value: object) -> TimeControl | None:
    """None, text such as ``3d`` (parsed), or a :class:`TimeControl` with sane numbers.

    Checked when a challenge or a default is made, so a value that could never work (zero,
    negative, fractional, or beyond :data:`MAX_PER_MOVE`) never reaches a game's clock.
    """
    if value is None:
        return None
    if isinstance(value, str):
        return TimeControl.parse(value)
    if not isinstance(value, TimeControl):
        raise InvalidTimeControl(
            f"A time control must be text like 3d or a TimeControl, not {quote(value)}."
        )
    if value.bank is not None:
        if value.per_move is not None or value.reminders:
            raise InvalidTimeControl("A time bank has no time per move and no reminder times.")
        for number in (value.bank, value.increment, value.cap):
            if number is not None and not is_int(number):
                raise InvalidTimeControl(f"Bank times are whole seconds, not {quote(number)}.")
        TimeControl.bank_of(value.bank, value.increment, value.cap)  # its range checks
        return value
    if value.per_move is not None:
        check_seconds(value.per_move, "time per move", MIN_PER_MOVE, MAX_PER_MOVE)
    reminders = value.reminders
    if not isinstance(reminders, tuple) or len(reminders) > MAX_REMINDERS:
        raise InvalidTimeControl(f"Reminders must be a tuple of at most {MAX_REMINDERS} times.")
    high = MAX_PER_MOVE if value.per_move is None else value.per_move - 1
    for after in reminders:
        check_seconds(after, "reminder time", 1, high)
    return value


def check_channels(value: object) -> tuple[int, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise InvalidSettings(
            f"Allowed channels must be a list of channel ids, not {quote(value)}."
        )
    if len(value) > MAX_ALLOWED_CHANNELS:
        raise InvalidSettings(f"At most {MAX_ALLOWED_CHANNELS} channels can be allowed.")
    return tuple(dict.fromkeys(check_id(c, "channel id") for c in value))


def check_sizes(value: object) -> Mapping[str, int | None]:
    if not isinstance(value, Mapping):
        raise InvalidSettings(f"Default sizes must map game names to sizes, not {quote(value)}.")
    for name, size in value.items():
        check_text(name, "game name", MAX_GAME_NAME, InvalidSettings)
        if size is not None and not is_int(size):
            raise InvalidSettings(
                f"The default size for {quote(name)} must be a whole number, not {quote(size)}."
            )
    return value


MAX_VACATION_SETTING = 365
MIN_SOFT_TIME = 86400
MAX_SOFT_TIME = 365 * 86400


def check_corr_settings(vacation_days: object, soft_time: object) -> None:
    """A server's vacation days a year and soft time, when given."""
    if vacation_days is not None and not (
        isinstance(vacation_days, int)
        and is_int(vacation_days)
        and 0 <= vacation_days <= MAX_VACATION_SETTING
    ):
        raise InvalidSettings(
            f"Vacation days a year must be a whole number from 0 to {MAX_VACATION_SETTING},"
            f" not {quote(vacation_days)}."
        )
    if soft_time is not None and not (
        isinstance(soft_time, int)
        and is_int(soft_time)
        and MIN_SOFT_TIME <= soft_time <= MAX_SOFT_TIME
    ):
        raise InvalidSettings(
            "Soft time must be a whole number of seconds from 1 day to 365 days,"
            f" not {quote(soft_time)}."
        )
