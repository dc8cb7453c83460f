"""The game registry: one name per game, and :func:`new_game` to start one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import UnknownGame

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
        raise UnknownGame(f"unknown game '{name}': choose one of {known}")
    return found


def game_names() -> list[str]:
    return list(_GAMES)


def new_game(name: str, size: int | None = None, *, pie: bool | None = None) -> Game:
    """Start a new game by registry name (case, spaces and hyphens are ignored); ``pie``
    as for :class:`~rules.base.Game` (None: the rule sheet's choice)."""
    return game_class(name)(size, pie=pie)
