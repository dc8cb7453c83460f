"""Rules-engine positions for stored games, never replayed on the event loop.

The service keeps a live engine for every game it has just touched (a move, an ending, a
lookup), so the adapter asks it for that position (``service.position``: one read and a copy,
well under a millisecond) instead of replaying the record.  If the game moved on in between
(the stored record no longer matches the snapshot the caller holds), the caller's record is
replayed in a worker thread, so even a full 19×19 Naked Diagonal game (seconds of CPU to
replay cold) never holds the loop.
"""

from __future__ import annotations

import asyncio

from bot.service import GameInfo, GameService
from rules import Game, parse_record


async def position_of(service: GameService, info: GameInfo) -> Game:
    """A private copy of the engine at exactly ``info``'s position (callers may mutate it)."""
    game = await service.position(info.id)
    if game.record() == info.record:
        return game
    return await asyncio.to_thread(parse_record, info.record)


async def legal_choices(
    service: GameService, info: GameInfo, typed: str, limit: int = 25
) -> list[str]:
    """Legal moves at ``info`` that start with what the player typed (autocomplete)."""
    return matching_moves(await position_of(service, info), typed, limit)


def matching_moves(game: Game, typed: str, limit: int = 25) -> list[str]:
    """Legal moves that start with what the player typed, at most ``limit`` of them."""
    prefix = typed.strip().lower()
    return [m for m in game.legal_moves() if m.startswith(prefix)][:limit]
