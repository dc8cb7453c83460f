"""``crosspath run``'s own pages: served with CROSSPATH_WEB_PORT, refused cleanly when the
port is taken."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import discord_fakes as fakes
from web_probe import get

from bot.config import Settings
from bot.discord import runner

h = fakes.h
close_harnesses = fakes.close_harnesses


async def test_run_serves_readiness_for_its_shards_and_database(h: Any) -> None:
    web = await runner.start_web(h.bot, h.store, Settings(web_port=0))
    assert web is not None
    try:
        assert await get(web.port, "/readyz") == (200, "ready\n")
        status, text = await get(web.port, "/metrics")
        assert status == 200 and 'crosspath_active_games{game="minefield"}' not in text
        await fakes.challenge_and_accept(h)
        h.bot.metrics._counted_at = float("-inf")  # the count is cached; ask the store again
        _, text = await get(web.port, "/metrics")
        assert 'crosspath_active_games{game="minefield"} 1.0' in text
    finally:
        await web.close()


async def test_run_serves_the_game_pages_of_its_own_service(h: Any) -> None:
    web = await runner.start_web(h.bot, h.store, Settings(web_port=0))
    assert web is not None
    try:
        info = await fakes.challenge_and_accept(h)
        assert info.public and info.web_token is not None
        status, page = await get(web.port, f"/games/{info.web_token}")
        assert status == 200 and fakes.ALICE.name in page and fakes.BOB.name in page
        assert (await get(web.port, "/games/" + "A" * 22))[0] == 404
    finally:
        await web.close()


async def test_run_keeps_its_replays_in_the_cache_folder(h: Any, tmp_path: Path) -> None:
    import aiohttp

    web = await runner.start_web(h.bot, h.store, Settings(web_port=0, cache_dir=str(tmp_path)))
    assert web is not None
    try:
        info = await fakes.challenge_and_accept(h)
        url = f"http://127.0.0.1:{web.port}/games/{info.web_token}/replay.gif"
        async with aiohttp.ClientSession() as session, session.get(url) as answer:
            assert answer.status == 200 and (await answer.read())[:6] == b"GIF89a"
        assert len(list(tmp_path.glob("*.bin"))) == 1
    finally:
        await web.close()


async def test_without_a_port_run_serves_nothing(h: Any) -> None:
    assert await runner.start_web(h.bot, h.store, Settings()) is None


async def test_a_taken_port_stops_run_in_one_sentence(tmp_path: Path, capsys: Any) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = Settings(
            token="not-used",
            database=str(tmp_path / "db.sqlite3"),
            web_port=port,
            log_format="text",
        )
        code = await asyncio.wait_for(runner.serve(settings), 30)
    assert code == runner.EXIT_CONFIG
    err = capsys.readouterr().err
    assert err.startswith(f"crosspath run: cannot serve health and metrics on 127.0.0.1:{port}: ")
    assert "Traceback" not in err and err.count("\n") == 1
