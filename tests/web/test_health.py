"""Health, readiness and metrics over real HTTP: the real aiohttp server on 127.0.0.1 with an
ephemeral port, real stores (a SQLite file, the tests' PostgreSQL), real clients."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from pg_server import PgServer, set_connections
from prometheus_client.parser import text_string_to_metric_families
from web_probe import get, overwrite, samples

from bot.store import open_store
from bot.web.metrics import Metrics, active_games_source, timed_store
from bot.web.server import Check, WebServer, database_check


@asynccontextmanager
async def serving(metrics: Metrics, checks: list[Check]) -> AsyncIterator[int]:
    server = WebServer(metrics, checks, "127.0.0.1", 0)
    port = await server.start()
    try:
        yield port
    finally:
        await server.close()


@pytest.fixture
async def sqlite_site(db_path: Path) -> AsyncIterator[tuple[int, Metrics, object]]:
    metrics = Metrics()
    store = timed_store(await open_store(db_path), metrics)
    metrics.watch_games(active_games_source(store))
    try:
        async with serving(metrics, [database_check(store)]) as port:
            yield port, metrics, store
    finally:
        await store.close()


async def test_healthz_and_readyz_answer_200_over_a_working_database(
    sqlite_site: tuple[int, Metrics, object],
) -> None:
    port, _, _ = sqlite_site
    assert await get(port, "/healthz") == (200, "ok\n")
    assert await get(port, "/readyz") == (200, "ready\n")
    status, _ = await get(port, "/nothing-here")
    assert status == 404


async def test_an_unreadable_sqlite_database_is_not_ready_then_ready_again(
    sqlite_site: tuple[int, Metrics, object], db_path: Path
) -> None:
    port, _, _ = sqlite_site
    saved = overwrite(db_path)
    try:
        status, text = await get(port, "/readyz")
        assert status == 503
        assert text.startswith("not ready\nthe database is unavailable: ")
        assert "is not a SQLite database" in text
        assert str(db_path) not in text and db_path.name not in text  # where: in the log only
        assert (await get(port, "/healthz"))[0] == 200  # alive, only not ready
    finally:
        for part, content in saved.items():
            with part.open("r+b") as file:
                file.write(content)
    assert await get(port, "/readyz") == (200, "ready\n")


async def test_a_closed_store_is_not_ready_with_the_stores_reason(db_path: Path) -> None:
    metrics = Metrics()
    store = await open_store(db_path)
    await store.close()
    async with serving(metrics, [database_check(store)]) as port:
        status, text = await get(port, "/readyz")
        assert status == 503
        assert text.startswith("not ready\nthe database is unavailable: ")


async def test_postgresql_going_away_and_coming_back(pg_server: PgServer, pg_url: str) -> None:
    metrics = Metrics()
    store = timed_store(await open_store(pg_url), metrics)
    try:
        async with serving(metrics, [database_check(store)]) as port:
            assert await get(port, "/readyz") == (200, "ready\n")
            await set_connections(pg_server, pg_url, False)
            try:
                status, text = await get(port, "/readyz")
                assert status == 503
                assert "the database" in text and "password" not in text
            finally:
                await set_connections(pg_server, pg_url, True)
            for _ in range(50):
                status, text = await get(port, "/readyz")
                if status == 200:
                    break
                await asyncio.sleep(0.2)
            assert (status, text) == (200, "ready\n")
    finally:
        await store.close()


async def test_metrics_report_store_latency_and_active_games(
    sqlite_site: tuple[int, Metrics, object],
) -> None:
    port, _, _ = sqlite_site
    status, text = await get(port, "/metrics")
    assert status == 200
    found = samples(text)
    # the readiness probe and the active-games count went through the timed store
    assert found[("crosspath_store_seconds_count", (("operation", "read"),))] >= 1
    assert found[("crosspath_store_seconds_count", (("operation", "find_games"),))] >= 1
    names = {family.name for family in text_string_to_metric_families(text)}
    assert {
        "crosspath_interactions",
        "crosspath_first_response_seconds",
        "crosspath_moves",
        "crosspath_active_games",
        "crosspath_ai_queue_length",
        "crosspath_ai_thinking_seconds",
        "crosspath_store_seconds",
        "crosspath_gateway_latency_seconds",
        "crosspath_errors",
    } <= names
    assert all(name.startswith("crosspath_") for name in names)
