"""Crosspath's rules engine: exact, pure and fast implementations of Mark Steere's games.

>>> from rules import new_game
>>> g = new_game("minefield", size=9)
>>> g.play("e5").player
'black'
"""

from __future__ import annotations

from . import clearcut, clearpath, crosscut, minefield, nakeddiagonal
from .base import Game, MoveRecord
from .errors import (
    GameOver,
    IllegalMove,
    InvalidNotation,
    InvalidOptions,
    InvalidRecord,
    OccupiedPoint,
    RuleViolation,
    UnknownGame,
)
from .notation import parse_point, point_name
from .record import format_record, parse_record
from .registry import game_class, game_names, new_game, split_variant, variant_title

__all__ = [
    "Game",
    "GameOver",
    "IllegalMove",
    "InvalidNotation",
    "InvalidOptions",
    "InvalidRecord",
    "MoveRecord",
    "OccupiedPoint",
    "RuleViolation",
    "UnknownGame",
    "clearcut",
    "clearpath",
    "crosscut",
    "format_record",
    "game_class",
    "game_names",
    "minefield",
    "nakeddiagonal",
    "new_game",
    "parse_point",
    "parse_record",
    "point_name",
    "split_variant",
    "variant_title",
]
