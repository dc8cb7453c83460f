"""Turn engine move records into short sentences for the turn embed, in the channel's language.

Players read these on a phone between other messages, so each turn is one line that says what
happened in the order it happened: placements, flips, removals, chain placements, skips, swap.
Each sentence is one whole message per kind of piece (stone, checker, disc), so a translator
can inflect the noun as the language needs; points stay as they are (``c3``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.colour_words import colour_word
from bot.i18n import ENGLISH_TONGUE, Tongue
from rules import MoveRecord


def _who(colour: str, names: Mapping[str, str], tr: Tongue) -> str:
    name = names.get(colour)
    word = colour_word(colour, tr)
    return tr.gettext("{name} ({colour})", name=name, colour=word) if name else word.capitalize()


def _placed_chain(tr: Tongue, stone: str, n: int, who: str, points: str) -> str:
    if stone == "checker":
        return tr.ngettext(
            "{who} placed a chain of {n} checker: {points}.",
            "{who} placed a chain of {n} checkers: {points}.",
            n,
            who=who,
            points=points,
        )
    if stone == "disc":
        return tr.ngettext(
            "{who} placed a chain of {n} disc: {points}.",
            "{who} placed a chain of {n} discs: {points}.",
            n,
            who=who,
            points=points,
        )
    return tr.ngettext(
        "{who} placed a chain of {n} stone: {points}.",
        "{who} placed a chain of {n} stones: {points}.",
        n,
        who=who,
        points=points,
    )


def _flipped(tr: Tongue, stone: str, n: int, points: str) -> str:
    if stone == "checker":
        return tr.ngettext(
            "{n} checker flipped ({points}).", "{n} checkers flipped ({points}).", n, points=points
        )
    if stone == "disc":
        return tr.ngettext(
            "{n} disc flipped ({points}).", "{n} discs flipped ({points}).", n, points=points
        )
    return tr.ngettext(
        "{n} stone flipped ({points}).", "{n} stones flipped ({points}).", n, points=points
    )


def _removed(tr: Tongue, stone: str, n: int, points: str) -> str:
    if stone == "checker":
        return tr.ngettext(
            "{n} enemy checker removed ({points}).",
            "{n} enemy checkers removed ({points}).",
            n,
            points=points,
        )
    if stone == "disc":
        return tr.ngettext(
            "{n} enemy disc removed ({points}).",
            "{n} enemy discs removed ({points}).",
            n,
            points=points,
        )
    return tr.ngettext(
        "{n} enemy stone removed ({points}).",
        "{n} enemy stones removed ({points}).",
        n,
        points=points,
    )


def _taken_off(tr: Tongue, stone: str, point: str | None) -> str:
    if stone == "checker":
        return tr.gettext("The perimeter checker on {point} was taken off again.", point=point)
    if stone == "disc":
        return tr.gettext("The perimeter disc on {point} was taken off again.", point=point)
    return tr.gettext("The perimeter stone on {point} was taken off again.", point=point)


def _swapped(tr: Tongue, stone: str, who: str, colour: str) -> str:
    if stone == "checker":
        return tr.gettext(
            "{who} swapped: they now play {colour}, taking over the first checker.",
            who=who,
            colour=colour,
        )
    if stone == "disc":
        return tr.gettext(
            "{who} swapped: they now play {colour}, taking over the first disc.",
            who=who,
            colour=colour,
        )
    return tr.gettext(
        "{who} swapped: they now play {colour}, taking over the first stone.",
        who=who,
        colour=colour,
    )


def describe_turn(
    records: Sequence[MoveRecord],
    names: Mapping[str, str] | None = None,
    stone: str = "stone",
    players: tuple[str, str] = ("red", "blue"),
    tr: Tongue = ENGLISH_TONGUE,
) -> str:
    """One line for the records of one turn (several for a Clear Path chain), in ``tr``'s
    language.

    ``names`` maps colours to the players who hold them *now*; after a swap the swapper holds
    the first colour, which is why a swap is worded from ``players`` rather than the record.
    """
    names = names or {}
    if not records:
        return tr.gettext("No moves yet.")
    first = records[0]
    who = _who(first.player, names, tr)
    if first.swap:
        taken = players[0] if first.player == players[1] else players[1]
        text = _swapped(tr, stone, _who(taken, names, tr), colour_word(taken, tr))
        return _tail(text, records[-1], names, tr)
    placed = [r.point for r in records if r.point is not None]
    if len(placed) > 1:
        text = _placed_chain(tr, stone, len(placed), who, tr.listing(placed))
    else:
        text = tr.gettext("{who} placed on {point}.", who=who, point=placed[0])
    for record in records:
        if record.flipped:
            points = tr.listing(list(record.flipped))
            text += " " + _flipped(tr, stone, len(record.flipped), points)
        if record.removed:
            points = tr.listing(list(record.removed))
            text += " " + _removed(tr, stone, len(record.removed), points)
        if not record.stays:
            text += " " + _taken_off(tr, stone, record.point)
    return _tail(text, records[-1], names, tr)


def _tail(text: str, last: MoveRecord, names: Mapping[str, str], tr: Tongue) -> str:
    if last.continues:
        text += " " + tr.gettext("Chain reaction: they must place again.")
    if last.skipped:
        text += " " + tr.gettext(
            "{who} had no legal placement, so their turn was skipped.",
            who=_who(last.skipped, names, tr),
        )
    if last.winner:
        text += " " + tr.gettext("{who} wins!", who=_who(last.winner, names, tr))
    elif last.draw:
        text += " " + tr.gettext("Nobody can place any more: the game is a draw.")
    return text
