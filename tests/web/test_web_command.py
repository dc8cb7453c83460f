"""``crosspath web`` as operators run it: a real process, real HTTP, SIGTERM to stop."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from web_games import start_public
from web_probe import get, samples

from bot.service import GameService
from bot.store import open_store

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow  # every test starts a crosspath process


def start(*args: str) -> tuple[subprocess.Popen[str], int]:
    """``crosspath web ARGS --port 0``, and the port it says it listens on."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "web", *args, "--port", "0"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "CROSSPATH_LOG_FORMAT": "text"},
    )
    assert process.stderr is not None
    for line in process.stderr:
        found = re.search(r"serving the game pages at http://127\.0\.0\.1:(\d+)/ ", line)
        if found:
            return process, int(found.group(1))
    process.wait(10)
    raise AssertionError(f"crosspath web did not start (exit {process.returncode})")


def stop(process: subprocess.Popen[str]) -> int:
    process.send_signal(signal.SIGTERM)
    return process.wait(10)


async def test_serves_health_readiness_and_metrics_for_a_database(db_path: Path) -> None:
    store = await open_store(db_path)  # the bot created and migrated it
    await store.close()
    process, port = start("--db", str(db_path))
    try:
        assert await get(port, "/healthz") == (200, "ok\n")
        assert await get(port, "/readyz") == (200, "ready\n")
        status, text = await get(port, "/metrics")
        assert status == 200
        found = samples(text)
        assert found[("crosspath_store_seconds_count", (("operation", "schema_version"),))] >= 1
    finally:
        assert stop(process) == 0


async def test_serves_the_public_game_pages_of_the_database(db_path: Path) -> None:
    async with await open_store(db_path) as store:
        service = GameService(store)
        shown = await start_public(service, 3000, ("c3",))
        private = await start_public(service, 3001, ("c3",), public=False)
    process, port = start("--db", str(db_path))
    try:
        status, page = await get(port, f"/games/{shown.web_token}")
        assert status == 200 and "1. c3" in page and "Alice" in page
        assert (await get(port, f"/games/{private.web_token}"))[0] == 404
        status, listing = await get(port, "/")
        assert status == 200 and shown.web_token in listing and private.web_token not in listing
        status, svg = await get(port, f"/games/{shown.web_token}/board.svg?ply=1")
        assert status == 200 and svg.startswith("<svg")
    finally:
        assert stop(process) == 0


async def test_a_database_that_is_not_there_yet_is_not_ready_until_it_is(tmp_path: Path) -> None:
    """It starts anyway (an orchestrator starts it beside the database) and says why."""
    target = tmp_path / "later" / "crosspath.sqlite3"
    process, port = start("--db", str(target))
    try:
        status, text = await get(port, "/readyz")
        assert status == 503 and text.startswith("not ready\nthe database is unavailable: ")
        assert (await get(port, "/healthz"))[0] == 200
        target.parent.mkdir()
        store = await open_store(target)
        await store.close()
        for _ in range(20):
            if (await get(port, "/readyz"))[0] == 200:
                break
            await asyncio.sleep(0.2)
        assert await get(port, "/readyz") == (200, "ready\n")
    finally:
        assert stop(process) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "http"], "crosspath web: --port must be a port number, not 'http'"),
        (["--port", "70000"], "crosspath web: --port must be a port from 1 to 65535, not 70000"),
        (["--db", "mysql://x"], "crosspath web: --db must be a SQLite file path or a postgresql"),
    ],
)
def test_bad_options_are_refused_in_one_sentence(args: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "web", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(message) and "Traceback" not in done.stderr


def test_a_port_in_use_is_a_configuration_error_like_runs(db_path: Path) -> None:
    """``crosspath web`` and ``crosspath run`` exit with the same code for a taken port, the
    one the systemd units name in ``RestartPreventExitStatus=``."""
    import socket

    from bot.discord.runner import EXIT_CONFIG

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", "web", "--db", str(db_path), "--port", str(port)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(ROOT), "CROSSPATH_LOG_FORMAT": "json"},
        )
    assert done.returncode == EXIT_CONFIG == 2
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]
    assert any(f"cannot listen on 127.0.0.1:{port}" in line["msg"] for line in lines)


def test_in_json_mode_web_writes_only_json_and_names_the_pages(db_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "web", "--db", str(db_path), "--port", "0"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "CROSSPATH_LOG_FORMAT": "json"},
    )
    assert process.stderr is not None
    first = json.loads(process.stderr.readline())
    assert first["msg"] == "serving game pages, health and metrics"
    assert first["url"] == f"http://127.0.0.1:{first['port']}/" and first["port"] > 0
    assert stop(process) == 0
    rest = process.stderr.read()
    for line in rest.splitlines():
        json.loads(line)


async def test_an_unusable_database_is_503_with_a_short_page_and_one_log_line(
    tmp_path: Path,
) -> None:
    process, port = start("--db", str(tmp_path / "missing.db"))
    try:
        for path in ("/", "/games/" + "A" * 22, "/games/" + "A" * 22 + "/events", "/"):
            status, page = await get(port, path)
            assert status == 503, path
            assert "The games are unavailable for now" in page
        assert (await get(port, "/readyz"))[0] == 503
    finally:
        assert stop(process) == 0
    assert process.stderr is not None
    err = process.stderr.read()
    assert "Traceback" not in err
    said = [line for line in err.splitlines() if "cannot read the database" in line]
    assert len(said) == 1, err[-2000:]


async def test_sigterm_with_200_live_pages_opening_exits_within_seconds(db_path: Path) -> None:
    """Streams still being opened while shutdown begins must not start the poller again (it
    kept aiohttp waiting out its 60 + 60 s timeouts): the process exits within a few
    seconds, loopback only, a bounded number of requests."""
    import time

    import aiohttp

    async with await open_store(db_path) as store:
        service = GameService(store)
        shown = await start_public(service, 3100, ("c3",))
    process, port = start("--db", str(db_path))
    url = f"http://127.0.0.1:{port}/games/{shown.web_token}/events"
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def open_one() -> None:
            try:
                async with session.get(url) as answer:
                    await answer.content.read()
            except aiohttp.ClientError:
                pass  # the server went away: what the test is about

        opening = [asyncio.create_task(open_one()) for _ in range(200)]
        await asyncio.sleep(0.3)  # many still reading the database as the stop begins
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        try:
            code = await asyncio.to_thread(process.wait, 30)
        finally:
            if process.poll() is None:
                process.kill()
        took = time.monotonic() - started
        await asyncio.wait(opening, timeout=10)
        for task in opening:
            task.cancel()
    assert code == 0
    assert took < 5, f"took {took:.1f} s to stop"


async def test_replays_are_kept_beside_the_sqlite_file_across_restarts(db_path: Path) -> None:
    """Issue 46: ``crosspath web`` keeps drawn replays in crosspath-cache beside the database
    (the default), and a restarted process serves the same bytes from there."""
    import aiohttp

    async with await open_store(db_path) as store:
        shown = await start_public(GameService(store), 3000, ("c3", "a3"))
    url = f"/games/{shown.web_token}/replay.gif"
    kept = db_path.parent / "crosspath-cache"
    served, inodes = [], []
    for _ in range(2):
        process, port = start("--db", str(db_path))
        try:
            async with (
                aiohttp.ClientSession() as session,
                session.get(f"http://127.0.0.1:{port}{url}") as answer,
            ):
                assert answer.status == 200 and answer.content_type == "image/gif"
                served.append(await answer.read())
        finally:
            assert stop(process) == 0
        (file,) = kept.glob("*.bin")
        inodes.append(file.stat().st_ino)
    assert served[0] == served[1] and served[0][:6] == b"GIF89a"
    assert inodes[0] == inodes[1]  # read after the restart, not drawn and written again
