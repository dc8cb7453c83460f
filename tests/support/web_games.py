"""Helpers for the game-page tests: public and private games in a real store, and a real
``WebServer`` serving their pages."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from game_fixtures import ALICE, BOB

from bot.service import GameInfo, GameService, TournamentInfo, WebReads
from bot.web.disk_cache import DiskCache
from bot.web.metrics import Metrics
from bot.web.pages import GamePages
from bot.web.server import WebServer

GUILD = 1000
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


TOURNAMENT_PLAYERS = (101, 102, 103, 104)
ORGANISER = 7


async def start_tournament(
    service: GameService,
    channel: int,
    names: Sequence[str | None] = ("Ann", "Ben", "Cat", "Dan"),
    *,
    public: bool = True,
    resigned: int = 1,
) -> tuple[TournamentInfo, list[GameInfo]]:
    """A round robin of four in ``channel``, started, its first ``resigned`` games resigned
    by the player to move; the tournament and its games (in the order they were made)."""
    t = await service.create_tournament(
        GUILD, channel, ORGANISER, game="minefield", size=5, format="round_robin", public=public
    )
    for user, name in zip(TOURNAMENT_PLAYERS, names, strict=True):
        t = await service.join_tournament(t.id, user, name=name)
    t = await service.start_tournament(t.id, ORGANISER)
    for game in (await service.tournament_games(t.id))[:resigned]:
        assert game.to_move_id is not None
        await service.resign(game.channel_id, game.to_move_id)
    return t, await service.tournament_games(t.id)


@asynccontextmanager
async def pages_site(
    service: GameService, poll_seconds: float = 0.2, replays: DiskCache | None = None
) -> AsyncIterator[int]:
    """The pages over ``service`` on a free port of 127.0.0.1 (replays kept in ``replays``)."""

    async def source() -> WebReads:
        return service.web

    pages = GamePages(source, poll_seconds=poll_seconds, replays=replays)
    server = WebServer(Metrics(), [], pages=pages)
    try:
        yield await server.start()
    finally:
        await server.close()
