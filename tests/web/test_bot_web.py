"""The bot's own pages, with the real bot connected to the wire-level fake of Discord.

``/readyz`` is ready only once the shard is connected and the database answers; ``/metrics``
counts what the players did; JSON log lines carry the interaction, server and game, and
never the token.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord_fakes as fakes
from discord_fakes import ALICE, BOB
from web_probe import get, overwrite, samples

from bot import logs
from bot.config import Settings
from bot.discord.app import CrosspathBot
from bot.discord.instrument import shards_check
from bot.discord.play.ai_opponent import in_process_move
from bot.web.metrics import active_games_source
from bot.web.server import WebServer, database_check

h = fakes.h
close_harnesses = fakes.close_harnesses


@asynccontextmanager
async def bot_site(h: Any) -> AsyncIterator[int]:
    h.bot.metrics.watch_games(active_games_source(h.store))
    server = WebServer(h.bot.metrics, [shards_check(h.bot), database_check(h.store)])
    try:
        yield await server.start()
    finally:
        await server.close()


async def test_a_bot_that_has_not_connected_is_not_ready() -> None:
    bot = CrosspathBot(None, Settings())
    server = WebServer(bot.metrics, [shards_check(bot)])
    port = await server.start()
    try:
        assert await get(port, "/readyz") == (503, "not ready\nnot connected to Discord yet\n")
        assert (await get(port, "/healthz"))[0] == 200
    finally:
        await server.close()  # the bot never started: there is nothing of it to close


async def test_ready_once_connected_and_not_when_the_gateway_or_database_is_lost(
    h: Any, db_path: Any
) -> None:
    async with bot_site(h) as port:
        assert await get(port, "/readyz") == (200, "ready\n")
        saved = overwrite(db_path)
        try:
            status, text = await get(port, "/readyz")
            assert status == 503 and "the database is unavailable" in text
            assert "shards" not in text  # the gateway is fine: only the database is named
        finally:
            for part, content in saved.items():
                part.write_bytes(content)
        assert await get(port, "/readyz") == (200, "ready\n")
        await h.bot.close()
        status, text = await get(port, "/readyz")
        assert (status, text) == (503, "not ready\nthe Discord client is closed\n")


async def test_metrics_count_interactions_moves_and_first_responses(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    mover = ALICE if info.to_move_id == ALICE.id else BOB
    other = BOB if mover is ALICE else ALICE
    await h.command("move", other, point="a1")  # not their turn: refused
    await h.command("move", mover, point="c3")
    async with bot_site(h) as port:
        status, text = await get(port, "/metrics")
    assert status == 200
    found = samples(text)

    def value(name: str, **labels: str) -> float:
        return found.get((name, tuple(sorted(labels.items()))), 0.0)

    assert value("crosspath_interactions_total", command="challenge", outcome="ok") == 1
    assert value("crosspath_interactions_total", command="button cp:chal:accept", outcome="ok") == 1
    assert value("crosspath_interactions_total", command="move", outcome="refused") == 1
    assert value("crosspath_interactions_total", command="move", outcome="ok") == 1
    assert value("crosspath_moves_total", game="minefield") == 1
    assert value("crosspath_active_games", game="minefield") == 1
    commands = value("crosspath_first_response_seconds_count", kind="application_command")
    assert commands == 3
    assert value("crosspath_first_response_seconds_count", kind="component") == 1
    # every first answer came well within Discord's 3 s
    in_time = value("crosspath_first_response_seconds_bucket", kind="application_command", le="3.0")
    assert in_time == 3


async def test_json_log_lines_carry_interaction_guild_and_game_but_never_the_token(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    mover = ALICE if info.to_move_id == ALICE.id else BOB
    stream = io.StringIO()
    root = logging.getLogger()
    before = (list(root.handlers), root.level)
    logs.configure("INFO", "json", secret=fakes.TOKEN, stream=stream)
    try:
        logging.getLogger("discord.test").info("a library logged %s", fakes.TOKEN)
        await h.command("move", mover, point="c3")
    finally:
        root.handlers[:] = before[0]
        root.setLevel(before[1])
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert fakes.TOKEN not in stream.getvalue()
    assert any("[redacted token]" in line["msg"] for line in lines)
    [handled] = [line for line in lines if line["msg"] == "command handled"]
    assert handled["command"] == "move"
    assert handled["game_id"] == info.id
    assert handled["guild_id"] == fakes.GUILD
    assert isinstance(handled["interaction_id"], int)


COMPUTER = fakes.Player(fakes.APP_ID, "crosspath")


async def test_metrics_time_the_computer_and_count_its_moves(h: Any) -> None:
    h.bot.computer.choose = in_process_move  # thinks in a thread: quick and deterministic
    await h.command("challenge", ALICE, game="minefield", opponent=COMPUTER, size=5, level=1)
    info = await h.service.get_game(fakes.CHANNEL)
    move = (await h.service.position(info.id)).legal_moves()[0]
    await h.command("move", ALICE, point=move)
    await h.bot.computer.idle()
    async with bot_site(h) as port:
        found = samples((await get(port, "/metrics"))[1])
    assert found[("crosspath_ai_thinking_seconds_count", ())] == 1
    assert found[("crosspath_ai_queue_length", ())] == 0  # back to zero once it answered
    assert found[("crosspath_moves_total", (("game", "minefield"),))] == 2  # Alice's and its own


async def test_a_database_fault_counts_as_such(h: Any, db_path: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    mover = ALICE if info.to_move_id == ALICE.id else BOB
    saved = overwrite(db_path)
    try:
        await h.command("move", mover, point="c3")
    finally:
        for part, content in saved.items():
            part.write_bytes(content)
    async with bot_site(h) as port:
        found = samples((await get(port, "/metrics"))[1])
    outcome = (("command", "move"), ("outcome", "database"))
    assert found[("crosspath_interactions_total", outcome)] == 1
    assert found[("crosspath_errors_total", (("kind", "database"),))] == 1
    assert ("crosspath_errors_total", (("kind", "bug"),)) not in found
