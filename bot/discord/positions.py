"""Rules-engine positions for stored games, cached by their record text.

The service stores the move list; the adapter needs a live engine for autocomplete, images and
the words of the last turn.  Replaying a record is cheap, but autocomplete fires on every key
press, so positions are cached.  The key is the record itself (game, size and moves), which
determines the position exactly, so no stale entry can ever be served.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.service import GameInfo
from rules import Game, parse_record

_CACHE_SIZE = 256
_cache: OrderedDict[str, Game] = OrderedDict()


def position_of(info: GameInfo) -> Game:
    """A private copy of the engine at ``info``'s position (callers may mutate it)."""
    return _cached(info).copy()


def _cached(info: GameInfo) -> Game:
    key = info.record
    game = _cache.get(key)
    if game is None:
        game = parse_record(info.record)
        _cache[key] = game
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    else:
        _cache.move_to_end(key)
    return game


def legal_choices(info: GameInfo, typed: str, limit: int = 25) -> list[str]:
    """Legal moves that start with what the player typed, at most ``limit`` of them."""
    prefix = typed.strip().lower()
    moves = _cached(info).legal_moves()
    return [m for m in moves if m.startswith(prefix)][:limit]
