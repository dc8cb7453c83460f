"""PostgreSQL ending the bot's connections under load (a restart, a failover, an operator's
``pg_terminate_backend``): every command that fails says the connection was lost, nothing of
asyncpg's leaks out, and the store plays on with fresh connections once the drops stop.

asyncpg reads the server's FATAL message on a connection waiting in the pool (or between two
statements of a block) and leaves it in an error state; the next statement on it failed with
"cannot switch to state 12; another operation (2) is in progress", an asyncpg internal error
that is neither a ``PostgresError`` nor an ``InterfaceError``.  Nothing used the connection
twice: the store now closes such a connection, so the pool replaces it, and reports it as lost.
"""

from __future__ import annotations

import asyncio
import collections

import asyncpg
import pytest
from pg_server import PgServer

from bot.service import GameService
from bot.store import open_store

pytestmark = pytest.mark.slow  # PostgreSQL only: the quick loop runs the store on SQLite

CHANNELS = range(100, 110)


async def terminate_all(server: PgServer, url: str) -> None:
    name = url.split("?")[0].rsplit("/", 1)[1]
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
        )
    finally:
        await conn.close()


async def play_one(service: GameService, channel: int) -> None:
    info = await service.get_game(channel)
    assert info is not None and info.to_move_id is not None
    move = (await service.position(info.id)).legal_moves()[0]
    await service.play_move(channel, info.to_move_id, move)


async def test_dropped_connections_are_reported_as_lost_and_replaced(
    pg_server: PgServer, pg_url: str
) -> None:
    async with await open_store(pg_url) as store:
        service = GameService(store)
        for channel in CHANNELS:
            challenge = await service.create_challenge(1, channel, 11, 22, "minefield", size=9)
            await service.accept_challenge(challenge.id, 22)
        failures: collections.Counter[str] = collections.Counter()
        dropping = True

        async def player(channel: int) -> None:
            while dropping:
                try:
                    await play_one(service, channel)
                except Exception as exc:  # each kind is counted, then checked
                    failures[f"{type(exc).__module__}.{type(exc).__name__}: {exc}"] += 1
                await asyncio.sleep(0)

        players = [asyncio.create_task(player(channel)) for channel in CHANNELS]
        for _ in range(6):
            await asyncio.sleep(0.05)
            await terminate_all(pg_server, pg_url)
        dropping = False
        await asyncio.gather(*players)

        assert failures, "the drops were seen by some command"
        for text in failures:
            assert text.startswith("bot.store.errors.DatabaseFailure: "), text
            assert "lost the connection to PostgreSQL" in text, text
            assert "another operation" not in text and "cannot switch" not in text, text
        for channel in CHANNELS:  # the pool has replaced every dropped connection
            await play_one(service, channel)
