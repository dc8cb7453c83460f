"""The game registry: one name per game, and :func:`new_game` to start one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import PIE_OPTION, pie_title
from .errors import N_, UnknownGame

if TYPE_CHECKING:
    from .base import Game

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    _GAMES[cls.name] = cls
    return cls


def _normalise(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def game_class(name: str) -> type[Game]:
    found = _GAMES.get(_normalise(name))
    if found is None:
        known = ", ".join(sorted(_GAMES))
        raise UnknownGame(
            N_("unknown game '{name}': choose one of {known}"), name=name, known=known
        )
    return found


def game_names() -> list[str]:
    return list(_GAMES)


def new_game(name: str, size: int | None = None, *, pie: bool | None = None) -> Game:
    """Start a new game by registry name (case, spaces and hyphens are ignored); ``pie``
    as for :class:`~rules.base.Game` (None: the rule sheet's choice)."""
    return game_class(name)(size, pie=pie)


def split_variant(variant: str) -> tuple[type[Game], bool | None]:
    """The game class and pie choice a variant name (:attr:`Game.variant`) stands for:
    ``minefield+pie`` is Minefield with the pie rule chosen, ``minefield`` the rule sheet's
    own (pie None).  Raises :class:`UnknownGame` for an unknown game or a game that has no
    pie option."""
    name, plus, option = variant.partition("+")
    cls = game_class(name)
    if not plus:
        return cls, None
    if option.strip().lower() != PIE_OPTION or cls.pie_rule != "option":
        raise UnknownGame(N_("unknown game variant '{variant}'"), variant=variant[:60])
    return cls, True


def variant_title(variant: str) -> str:
    """The title players see for a variant name: ``Minefield (pie rule)``."""
    cls, pie = split_variant(variant)
    return pie_title(cls.title) if pie else cls.title
