"""The time left as players read it: the board's caption, the turn message and ``/games``.

The service gives ``time_left`` (user id -> seconds, at the moment it read the game); these
turn it into short text such as ``Alice 2d 4h · Bob 3d``.  The renderer draws whatever names
it is given, so the caption's time comes from here, not from ``render``.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import ENGLISH_TONGUE, Tongue
from bot.service import GameInfo, GameSummary, short_duration_wording, time_left_text


def time_left_line(
    info: GameInfo, names: Mapping[int, str], tr: Tongue = ENGLISH_TONGUE
) -> str | None:
    """``Alice 2d 4h · Bob 3d`` in seat order (None: untimed or over); a clock a vacation
    stopped says so."""
    line = time_left_text(info, names, tr.say)
    if line is None:
        return None
    if info.paused_until is not None:
        until = f"<t:{int(info.paused_until.timestamp())}:f>"
        line = tr.gettext("{times} (stopped for a vacation until {until})", times=line, until=until)
    return line


def caption_names(
    info: GameInfo, names: Mapping[int, str], tr: Tongue = ENGLISH_TONGUE
) -> dict[str, str]:
    """colour -> the name the board's caption shows: the player's name and, in a timed game,
    their time left (``Alice 2d 4h``); in a game that allows hints, how many they used
    (``Alice 2d 4h · hints: 1``)."""
    shown = {}
    for seat in info.seats:
        name = names.get(seat.user_id, f"player {seat.colour}")
        left = None if info.time_left is None else info.time_left.get(seat.user_id)
        text = name if left is None else f"{name} {tr.say(short_duration_wording(left))}"
        if info.hints is not None:
            used = tr.gettext("hints: {count}", count=tr.number(info.hints.get(seat.user_id, 0)))
            text = f"{text} · {used}"
        shown[seat.colour] = text
    return shown


def my_time_left(game: GameSummary, user_id: int, tr: Tongue = ENGLISH_TONGUE) -> str:
    """`` · you 2d 4h, them 3d`` for a list line (empty when untimed or over)."""
    if game.time_left is None or user_id not in game.time_left:
        return ""
    other = game.second_id if game.first_id == user_id else game.first_id
    mine = tr.say(short_duration_wording(game.time_left[user_id]))
    theirs = game.time_left.get(other)
    if theirs is None:
        return tr.gettext(" · you {mine}", mine=mine)
    theirs_text = tr.say(short_duration_wording(theirs))
    return tr.gettext(" · you {mine}, them {theirs}", mine=mine, theirs=theirs_text)
