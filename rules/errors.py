"""Precise exceptions, so callers can tell a typo from a rule violation without parsing text.

Every refusal of a move is an :class:`IllegalMove`, itself a :class:`ValueError`, and its
message is written for a player to read ("d4 is occupied").  The game is always left exactly as
it was before the refused move.

Each error also carries its sentence as a :class:`Wording`: an English template, marked with
:func:`N_` for ``pybabel extract``, and its parameters.  A front end translates the template and
fills it in the reader's language; ``str(exc)`` stays the English sentence, for logs, the
console and tests.  This package stays free of Babel and gettext: it only names its messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def N_(message: str) -> str:
    """Mark a message template for extraction (``pybabel extract`` knows ``N_``); a front end
    translates it where it is shown."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a template with a plural form (``pybabel extract -k N_plural:1,2``), for
    :meth:`Wording.counted`: each language picks its own form for the count."""
    return singular, plural


@dataclass(frozen=True)
class Wording:
    """A sentence to translate: its English ``template`` with named ``{placeholders}``, and
    their values.  A value may itself be a :class:`Wording` (a sentence quoted in another),
    translated before it is filled in.  Names, ids and points go in values, never in the
    template, so one translation serves them all."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    """The template's plural form, when the sentence counts ``params["n"]``."""

    @classmethod
    def counted(cls, forms: tuple[str, str], n: int, **params: Any) -> Wording:
        """A sentence counting ``n`` (``{n}``), from :func:`N_plural`'s two forms."""
        return cls(forms[0], {"n": n, **params}, forms[1])

    def __str__(self) -> str:
        template = self.template
        if self.plural is not None and self.params["n"] != 1:
            template = self.plural
        # Only a template with values is formatted: a plain sentence may hold a brace.
        return template.format(**self.params) if self.params else template


class Worded(ValueError):
    """An error whose ``str()`` is the English sentence of its :attr:`wording`."""

    wording: Wording

    def __init__(self, template: str | Wording, /, **params: Any) -> None:
        self.wording = template if isinstance(template, Wording) else Wording(template, params)
        super().__init__(str(self.wording))


class IllegalMove(Worded):
    """A move the game refuses.  ``str(exc)`` is a sentence meant for the player."""

    def __init__(self, template: str | Wording, /, move: str | None = None, **params: Any) -> None:
        super().__init__(template, **params)
        self.move = move


class InvalidNotation(IllegalMove):
    """The text does not name a point (or a special move) on this board."""


class OccupiedPoint(IllegalMove):
    """The point already holds a stone."""


class GameOver(IllegalMove):
    """The game has ended; no more moves are accepted."""


class RuleViolation(IllegalMove):
    """The point is empty and on the board, but the game's rules forbid the placement."""


class UnknownGame(Worded):
    """No game with that name is registered."""


class InvalidOptions(Worded):
    """A size or option is outside what the game allows."""


class InvalidRecord(Worded):
    """A text record could not be read or replayed; the message names the first bad token."""

    def __init__(
        self,
        template: str | Wording,
        /,
        index: int | None = None,
        token: str | None = None,
        **params: Any,
    ) -> None:
        super().__init__(template, **params)
        self.index = index
        self.token = token
