"""Helpers for the game-page tests: public and private games in a real store, and a real
``WebServer`` serving their pages."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from bot.service import GameInfo, GameService
from bot.web.metrics import Metrics
from bot.web.pages import GamePages
from bot.web.server import WebServer

GUILD = 1000
ALICE, BOB = 11, 22
XSS_NAME = "<img src=x onerror=alert(1)>"
"""A display name that is HTML: it must show as these characters and run nothing."""
UNDO_WEB_MIGRATION = (
    "DROP INDEX games_by_web_token",
    "DROP INDEX games_public_recent",
    *(
        f"ALTER TABLE {table} DROP COLUMN {column}"
        for table, column in (
            ("challenges", "public"),
            ("challenges", "challenger_name"),
            ("games", "public"),
            ("games", "web_token"),
            ("games", "first_name"),
            ("games", "second_name"),
            ("guild_settings", "web_listing"),
        )
    ),
)
"""Statements (valid on both engines) that undo the migration adding the web's columns, for
tests that take a database back to an older schema by hand."""
FINISHED_MOVES = ("c1", "a3", "c2", "b3", "c3", "d3", "c4", "e3", "c5")
"""A Minefield 5×5 game Black wins by a path down column c (9 plies)."""


async def start_public(
    service: GameService,
    channel: int,
    moves: Sequence[str] = (),
    *,
    public: bool = True,
    names: tuple[str, str] = ("Alice", "Bob"),
    game: str = "minefield",
    size: int = 5,
) -> GameInfo:
    """A game between Alice (first) and Bob in ``channel``, with ``moves`` played."""
    created = await service.create_challenge(
        GUILD, channel, ALICE, BOB, game, size, public=public, challenger_name=names[0]
    )
    info = (await service.accept_challenge(created.id, BOB, name=names[1])).game
    for move in moves:
        info = (await service.play_move(channel, info.to_move_id or 0, move)).game
    return info


@asynccontextmanager
async def pages_site(service: GameService, poll_seconds: float = 0.2) -> AsyncIterator[int]:
    """The pages over ``service`` on a free port of 127.0.0.1."""

    async def source() -> GameService:
        return service

    pages = GamePages(source, poll_seconds=poll_seconds)
    server = WebServer(Metrics(), [], pages=pages)
    try:
        yield await server.start()
    finally:
        await server.close()
