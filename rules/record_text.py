"""The words of a game record and how a played game is written as one.

Why a module of its own: :class:`rules.base.Game` writes its record (``Game.record()``) and
:mod:`rules.record` reads records back, and both need the same words.  When the writing lived
in ``record.py``, ``base.py`` had to import it late (``record.py`` imports ``base.py``), a cycle.
Here the writing depends only on what a game shows (its name, size, variant and history), so
``base.py`` and ``record.py`` both import this module and neither imports the other's users.
The format itself is described in :mod:`rules.record` and docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

SKIP_TOKEN = "-"
"""Written after a move that made the opponent skip a turn."""
PIE_OPTION = "pie"
"""The pie rule's name in records (``minefield 9 pie: ...``) and in a game's variant name."""


class _Move(Protocol):
    @property
    def move(self) -> str: ...

    @property
    def skipped(self) -> object: ...


class RecordedGame(Protocol):
    """What writing a record needs of a game (every :class:`rules.base.Game` has it)."""

    @property
    def name(self) -> str: ...

    @property
    def size(self) -> int: ...

    @property
    def variant(self) -> str: ...

    @property
    def history(self) -> Sequence[_Move]: ...


def header(game: RecordedGame) -> str:
    """The record's header without the colon: ``minefield 9``, or ``minefield 9 pie``."""
    option = f" {PIE_OPTION}" if game.variant != game.name else ""
    return f"{game.name} {game.size}{option}"


def format_record(game: RecordedGame) -> str:
    """The one-line record of ``game``: header, colon, then every move and skip mark."""
    tokens: list[str] = []
    for rec in game.history:
        tokens.append(rec.move)
        if rec.skipped is not None:
            tokens.append(SKIP_TOKEN)
    body = " ".join(tokens)
    return f"{header(game)}:" + (f" {body}" if body else "")
