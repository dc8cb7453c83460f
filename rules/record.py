"""A compact, one-line text record of a game that round-trips exactly.

Format (documented in docs/rules.md)::

    <game> <size>: <move> <move> ...

* ``<game>`` is a registry name (``clearpath``, ``minefield``, ``crosscut``, ``clearcut``,
  ``nakeddiagonal``) and ``<size>`` the board's side length.
* Moves are point names (``c3``) or ``swap``, in the order they were played.  A Clear Path
  chain is simply several placements by the same player in a row.
* ``-`` follows a move after which the opponent's turn was skipped.  Skips are forced by the
  rules, so readers accept records without them, but every ``-`` that is present must be
  right.  :func:`format_record` always writes them, so records show every skip.

Example: ``minefield 9: e5 d4 c3``.  ``parse_record(format_record(g))`` replays to a game whose
:meth:`~rules.base.Game.state_key` and history equal ``g``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import SKIP_TOKEN
from .errors import IllegalMove, InvalidOptions, InvalidRecord, UnknownGame

if TYPE_CHECKING:
    from .base import Game


def format_record(game: Game) -> str:
    tokens: list[str] = []
    for rec in game.history:
        tokens.append(rec.move)
        if rec.skipped is not None:
            tokens.append(SKIP_TOKEN)
    body = " ".join(tokens)
    return f"{game.name} {game.size}:" + (f" {body}" if body else "")


def parse_header(text: str) -> tuple[str, int, list[str]]:
    """Split a record into (game name, size, move tokens) without replaying it."""
    head, sep, body = text.strip().partition(":")
    if not sep:
        raise InvalidRecord("a record looks like 'minefield 9: e5 d4' (the colon is missing)")
    parts = head.split()
    if len(parts) != 2:
        raise InvalidRecord(f"a record starts with '<game> <size>:', not '{head.strip()}:'")
    name, size_text = parts
    if not size_text.isdigit():
        raise InvalidRecord(f"the board size must be a number, not '{size_text}'")
    return name, int(size_text), body.split()


def parse_record(text: str) -> Game:
    """Replay a record into a new game; :class:`InvalidRecord` names the first bad move."""
    from .registry import new_game

    name, size, tokens = parse_header(text)
    try:
        game = new_game(name, size=size)
    except (UnknownGame, InvalidOptions) as exc:
        raise InvalidRecord(str(exc)) from exc
    return replay(game, tokens)


def replay(game: Game, tokens: list[str]) -> Game:
    """Play ``tokens`` into ``game`` (validating ``-`` skip marks); returns ``game``."""
    move_no = 0
    for index, token in enumerate(tokens):
        if token == SKIP_TOKEN:
            last = game.last_move
            previous = tokens[index - 1] if index else ""
            if last is None or last.skipped is None or previous == SKIP_TOKEN:
                raise InvalidRecord(
                    f"token {index + 1} '-': no turn was skipped there", index, token
                )
            continue
        move_no += 1
        try:
            game.play(token)
        except IllegalMove as exc:
            raise InvalidRecord(f"move {move_no} '{token}': {exc}", index, token) from exc
    return game
