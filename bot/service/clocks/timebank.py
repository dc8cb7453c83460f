"""Turn clocks of all three kinds (untimed, per move, bank) over stored rows, and vacations'
pauses: pure functions of a row and the time, so the play, clock and vacation code share one
arithmetic.

A turn's clock is its deadline: the moment the player to move loses on time.  A bank keeps
each player's time in the game row (``first_bank``/``second_bank``): the player waiting has
their whole bank there; the player to move has there what they had when the turn began, and
what is left is the deadline minus now.  When the turn ends, that rest plus the increment
(never above the maximum) goes back into their bank.

A vacation stops a clock without touching its turn: ``paused_until`` says when it starts
again, and the deadline and the next reminder are moved past it by the time the clock stands
still.  So the timeout sweep needs no notion of vacation (a deadline is simply later), and
a vacation ended early moves them back.  Every time here is integer microseconds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.errors import N_, Wording

from ...store import ClockRow, GameRow
from ..types import GameInfo
from .types import TimeControl

US = 1_000_000


def time_control_from(row: Any) -> TimeControl:
    """The time control stored in a settings, challenge or game row."""
    if row.bank_start is not None:
        return TimeControl(
            bank=row.bank_start,
            increment=row.bank_increment,
            cap=row.bank_cap if row.bank_cap is not None else row.bank_start,
        )
    return TimeControl(row.per_move, tuple(row.reminders))


def stored(tc: TimeControl) -> dict[str, Any]:
    """The five columns a time control is stored in."""
    return {
        "per_move": tc.per_move,
        "reminders": tc.reminders,
        "bank_start": tc.bank,
        "bank_increment": tc.increment,
        "bank_cap": tc.cap,
    }


def clock_start(now: int, paused_until: int | None) -> int:
    """When the clock of a turn at ``now`` really runs from (after a running vacation)."""
    return now if paused_until is None else max(now, paused_until)


def live_pause(paused_until: int | None, now: int) -> int | None:
    """``paused_until`` if it is still ahead of ``now`` (a past pause means nothing)."""
    return paused_until if paused_until is not None and paused_until > now else None


def reminder_at(
    tc: TimeControl,
    turn_started: int,
    deadline: int | None,
    allowance: int | None,
    sent: int,
    paused_until: int | None = None,
) -> int | None:
    """When reminder number ``sent`` of a turn is due (None: no further one before the end).

    A timed turn's reminders are measured back from its deadline (so a vacation that moved
    the deadline moved them too): per move at the control's ``reminders``, with a bank
    halfway and at nine tenths of ``allowance``, the time the player had as the turn began.
    An untimed turn's come after its start, never before a pause ends."""
    if deadline is None or allowance is None:
        offsets = sorted(r * US for r in tc.reminders)
        base = turn_started
    else:
        offsets = (
            sorted({allowance // 2, allowance * 9 // 10})
            if tc.is_bank
            else sorted(r * US for r in tc.reminders)
        )
        base = deadline - allowance
    if sent >= len(offsets):
        return None
    at = base + offsets[sent]
    if deadline is None:
        return at if paused_until is None else max(at, paused_until)
    return at if at < deadline else None


def first_clock(tc: TimeControl, now: int, paused_until: int | None = None) -> ClockRow:
    """The clock of a new game's first turn: both banks full."""
    bank = None if tc.bank is None else tc.bank * US
    return _turn(tc, now, paused_until, bank, bank, bank)


def next_clock(row: GameRow, now: int, mover_id: int | None, next_id: int | None) -> ClockRow:
    """The clock of the turn starting at ``now``: ``mover_id`` (if given) has just ended
    their turn and gets what was left plus the increment (at most the maximum); ``next_id``
    moves next.  Without ``mover_id`` (a takeback) the banks stay as they are."""
    tc = time_control_from(row)
    pause = live_pause(row.paused_until, now)
    first, second = row.first_bank, row.second_bank
    if tc.bank is not None:
        cap = (tc.cap if tc.cap is not None else tc.bank) * US
        if first is None or second is None:  # a bank game stored without banks: start full
            first = tc.bank * US if first is None else first
            second = tc.bank * US if second is None else second
        if mover_id is not None and row.deadline_at is not None:
            left = max(0, row.deadline_at - clock_start(now, pause))
            refilled = min(cap, left + tc.increment * US)
            if mover_id == row.first_id:
                first = refilled
            else:
                second = refilled
    allowance = first if next_id == row.first_id else second
    return _turn(tc, now, pause, allowance, first, second)


def _turn(
    tc: TimeControl,
    now: int,
    pause: int | None,
    bank: int | None,
    first: int | None,
    second: int | None,
) -> ClockRow:
    allowance = bank if tc.is_bank else None if tc.per_move is None else tc.per_move * US
    deadline = None if allowance is None else clock_start(now, pause) + allowance
    remind = reminder_at(tc, now, deadline, allowance, 0, pause)
    return ClockRow(now, deadline, remind, 0, first, second, pause)


def allowance_of(row: GameRow) -> int | None:
    """The time the player to move had as their turn began (None: untimed)."""
    tc = time_control_from(row)
    if tc.is_bank:
        return row.first_bank if row.to_move_id == row.first_id else row.second_bank
    return None if tc.per_move is None else tc.per_move * US


def next_reminder_of(row: GameRow, sent: int) -> int | None:
    """When reminder number ``sent`` of the row's turn is due."""
    return reminder_at(
        time_control_from(row),
        row.turn_started_at,
        row.deadline_at,
        allowance_of(row),
        sent,
        row.paused_until,
    )


def time_left(row: GameRow, now: int) -> dict[int, int] | None:
    """Each player's whole seconds left at ``now`` (see ``GameInfo.time_left``)."""
    tc = time_control_from(row)
    if row.status != "active" or not tc.is_timed or row.to_move_id is None:
        return None
    mover = row.to_move_id
    other = row.second_id if mover == row.first_id else row.first_id
    if row.deadline_at is None:
        mine = allowance_of(row) or 0
    else:
        mine = max(0, row.deadline_at - clock_start(now, row.paused_until))
    if tc.is_bank:
        theirs = row.second_bank if other == row.second_id else row.first_bank
    else:
        theirs = (tc.per_move or 0) * US
    return {mover: mine // US, other: (theirs or 0) // US}


def shifted(row: GameRow, now: int, paused_until: int | None) -> tuple[int | None, int | None]:
    """The deadline and next reminder once the pause ends at ``paused_until`` (None: no
    pause) instead of the row's: moved by the change in when the clock starts again."""
    delta = clock_start(now, live_pause(paused_until, now)) - clock_start(
        now, live_pause(row.paused_until, now)
    )
    deadline = None if row.deadline_at is None else row.deadline_at + delta
    remind = None if row.remind_at is None else row.remind_at + delta
    return deadline, remind


SHORT_UNITS = {"d": N_("{n}d"), "h": N_("{n}h"), "m": N_("{n}m"), "s": N_("{n}s")}
"""A unit of time left as a caption shows it, for each front end to write its language's way
(``5d``, ``5 T``, ``5日``)."""


def short_duration_wording(seconds: int) -> Wording:
    """Time left as a caption shows it: the two largest units, the second rounded to the
    nearest (``2d 4h``, ``5h 12m``, ``40s``; a bank just started reads ``3d``, not
    ``2d 23h``), for a front end to translate (``str()`` is the English)."""
    seconds = max(0, int(seconds))
    units = (86400, 3600, 60, 1)
    first = next((i for i, unit in enumerate(units) if seconds >= unit), len(units) - 1)
    step = units[min(first + 1, len(units) - 1)]
    seconds = (seconds + step // 2) // step * step
    parts: list[tuple[int, str]] = []
    for unit, name in zip(units, "dhms", strict=True):
        count, seconds = divmod(seconds, unit)
        if count or parts:
            parts.append((count, name))
    shown = [Wording(SHORT_UNITS[name], {"n": n}) for n, name in parts[:2] if n]
    if not shown:
        return Wording(SHORT_UNITS["s"], {"n": 0})
    if len(shown) == 1:
        return shown[0]
    # joined by a space in every language: the template is not a message to translate
    return Wording("{first} {second}", {"first": shown[0], "second": shown[1]})


def short_duration(seconds: int) -> str:
    """:func:`short_duration_wording` in English (``2d 4h``)."""
    return str(short_duration_wording(seconds))


def time_left_text(
    info: GameInfo, names: Mapping[int, str], say: Callable[[Wording], str] = str
) -> str | None:
    """``Alice 2d 4h · Bob 3d`` in seat order (None: untimed or over), for any front end;
    ``say`` words the times (a front end's ``Tongue.say``; English by default)."""
    if info.time_left is None:
        return None
    parts = []
    for seat in info.seats:
        left = info.time_left.get(seat.user_id)
        if left is not None:
            name = names.get(seat.user_id, f"player {seat.colour}")
            parts.append(f"{name} {say(short_duration_wording(left))}")
    return " · ".join(parts)
