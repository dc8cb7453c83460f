"""A compact, one-line text record of a game that round-trips exactly.

Format (documented in docs/rules.md)::

    <game> <size>[ pie]: <move> <move> ...

* ``<game>`` is a registry name (``clearpath``, ``minefield``, ``crosscut``, ``clearcut``,
  ``nakeddiagonal``) and ``<size>`` the board's side length.
* ``pie`` after the size: the game is played with the pie rule as an option (Minefield,
  Clearcut, Naked Diagonal).  Clear Path always has the pie rule, so its records never need
  the word (a reader accepts it there too); without it the other games have no swap.
* Moves are point names (``c3``) or ``swap``, in the order they were played.  A Clear Path
  chain is simply several placements by the same player in a row.
* ``-`` follows a move after which the opponent's turn was skipped.  Skips are forced by the
  rules, so readers accept records without them, but every ``-`` that is present must be
  right.  :func:`format_record` always writes them, so records show every skip.

Example: ``minefield 9: e5 d4 c3``, or with the pie rule ``minefield 9 pie: e5 swap d4``.
``parse_record(format_record(g))`` replays to a game whose :meth:`~rules.base.Game.state_key`
and history equal ``g``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import N_, IllegalMove, InvalidOptions, InvalidRecord, UnknownGame
from .record_text import PIE_OPTION, SKIP_TOKEN, format_record, header
from .registry import new_game

if TYPE_CHECKING:
    from .base import Game


__all__ = [
    "MAX_SHOWN",
    "Header",
    "format_record",
    "header",
    "parse_header",
    "parse_record",
    "replay",
]

MAX_SHOWN = 60
"""Characters of a bad header quoted back in a message."""


@dataclass(frozen=True, slots=True)
class Header:
    """What a record's header says: the game, the board size and whether the pie rule is
    on (None: not said, so the rule sheet's choice)."""

    name: str
    size: int
    pie: bool | None
    tokens: list[str]


def parse_header(text: str) -> Header:
    """Split a record into its header and move tokens without replaying it."""
    head, sep, body = text.strip().partition(":")
    if not sep:
        raise InvalidRecord(N_("a record looks like 'minefield 9: e5 d4' (the colon is missing)"))
    parts = head.split()
    if not 2 <= len(parts) <= 3:
        shown = head.strip()[:MAX_SHOWN]
        raise InvalidRecord(N_("a record starts with '<game> <size>:', not '{head}:'"), head=shown)
    name, size_text, *options = parts
    if not size_text.isdigit():
        raise InvalidRecord(
            N_("the board size must be a number, not '{size}'"), size=size_text[:MAX_SHOWN]
        )
    if options and options[0].lower() != PIE_OPTION:
        raise InvalidRecord(
            N_("'{option}' is not a game option: the only one is {pie}"),
            option=options[0][:MAX_SHOWN],
            pie=PIE_OPTION,
        )
    return Header(name, int(size_text), True if options else None, body.split())


def parse_record(text: str) -> Game:
    """Replay a record into a new game; :class:`InvalidRecord` names the first bad move."""
    head = parse_header(text)
    try:
        game = new_game(head.name, size=head.size, pie=head.pie)
    except (UnknownGame, InvalidOptions) as exc:
        raise InvalidRecord(exc.wording) from exc
    return replay(game, head.tokens)


def replay(game: Game, tokens: list[str]) -> Game:
    """Play ``tokens`` into ``game`` (validating ``-`` skip marks); returns ``game``."""
    move_no = 0
    for index, token in enumerate(tokens):
        if token == SKIP_TOKEN:
            last = game.last_move
            previous = tokens[index - 1] if index else ""
            if last is None or last.skipped is None or previous == SKIP_TOKEN:
                raise InvalidRecord(
                    N_("token {number} '-': no turn was skipped there"),
                    index,
                    token,
                    number=index + 1,
                )
            continue
        move_no += 1
        try:
            game.play(token)
        except IllegalMove as exc:
            raise InvalidRecord(
                N_("move {number} '{move}': {reason}"),
                index,
                token,
                number=move_no,
                move=token,
                reason=exc.wording,
            ) from exc
    return game
