"""Turn engine move records into short sentences for the turn embed.

Players read these on a phone between other messages, so each turn is one line that says what
happened in the order it happened: placements, flips, removals, chain placements, skips, swap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules import MoveRecord


def _who(colour: str, names: Mapping[str, str]) -> str:
    name = names.get(colour)
    return f"{name} ({colour})" if name else colour.capitalize()


def _list(points: Sequence[str]) -> str:
    if len(points) == 1:
        return points[0]
    return ", ".join(points[:-1]) + " and " + points[-1]


def describe_turn(
    records: Sequence[MoveRecord],
    names: Mapping[str, str] | None = None,
    stone: str = "stone",
    players: tuple[str, str] = ("red", "blue"),
) -> str:
    """One line for the records of one turn (several for a Clear Path chain).

    ``names`` maps colours to the players who hold them *now*; after a swap the swapper holds
    the first colour, which is why a swap is worded from ``players`` rather than the record.
    """
    names = names or {}
    if not records:
        return "No moves yet."
    first = records[0]
    who = _who(first.player, names)
    if first.swap:
        taken = players[0] if first.player == players[1] else players[1]
        text = (
            f"{_who(taken, names)} swapped: they now play {taken}, taking over the first {stone}."
        )
        return _tail(text, records[-1], names)
    placed = [r.point for r in records if r.point is not None]
    if len(placed) > 1:
        text = f"{who} placed a chain of {len(placed)} {stone}s: {_list(placed)}."
    else:
        text = f"{who} placed on {placed[0]}."
    for record in records:
        if record.flipped:
            n = len(record.flipped)
            text += f" {_count(n, stone)} flipped ({_list(list(record.flipped))})."
        if record.removed:
            n = len(record.removed)
            text += f" {_count(n, 'enemy ' + stone)} removed ({_list(list(record.removed))})."
        if not record.stays:
            text += f" The perimeter {stone} on {record.point} was taken off again."
    return _tail(text, records[-1], names)


def _count(n: int, noun: str) -> str:
    return f"1 {noun}" if n == 1 else f"{n} {noun}s"


def _tail(text: str, last: MoveRecord, names: Mapping[str, str]) -> str:
    if last.continues:
        text += " Chain reaction: they must place again."
    if last.skipped:
        text += f" {_who(last.skipped, names)} had no legal placement, so their turn was skipped."
    if last.winner:
        text += f" {_who(last.winner, names)} wins!"
    elif last.draw:
        text += " Nobody can place any more: the game is a draw."
    return text
