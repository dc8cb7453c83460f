"""How long ``/metrics`` and ``/readyz`` take, over real HTTP on 127.0.0.1.

The registry is filled the way a busy bot fills it (every command with every outcome, first
responses, store calls by operation, moves of every game, the computer's searches) and the
SQLite database holds ``--active`` active games of the five game types, so the scrape-time
count of active games reads a real page of rows.  Two kinds of ``/metrics`` scrape are timed:
``cached`` (the active-games count is reused, as for scrapes within 10 s of each other) and
``counting`` (every scrape asks the store again, the worst case).  ``/readyz`` runs the
database check (one query) each time.

Run: nice -n 10 python bench/web_bench.py [--active 200] [--scrapes 300]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from bot.service import GameService
from bot.store import open_store
from bot.web.metrics import Metrics, active_games_source, timed_store
from bot.web.server import WebServer, database_check
from rules import game_names

GUILD = 800000000000000001
COMMANDS = (
    "challenge", "move", "swap", "resign", "takeback", "board", "history", "replay", "games",
    "leaderboard", "profile", "rules", "help", "admin settings set", "admin active",
    "button cp:chal:accept", "button cp:chal:decline", "button cp:resign:yes",
    "button cp:lb", "move (autocomplete)",
)  # fmt: skip
OUTCOMES = ("ok", "refused", "database", "error")


async def fill_database(path: Path, active: int) -> None:
    store = await open_store(path)
    service = GameService(store, rng=random.Random(1))
    games = game_names()
    for number in range(active):
        channel = 810000000000000001 + number
        a, b = 310000000000000001 + 2 * number, 310000000000000002 + 2 * number
        game = games[number % len(games)]
        size = 8 if game == "crosscut" else 7
        challenge = await service.create_challenge(GUILD, channel, a, b, game, size)
        await service.accept_challenge(challenge.id, b)
    await store.close()


def fill_metrics(metrics: Metrics) -> None:
    rng = random.Random(2)
    for command in COMMANDS:
        for outcome in OUTCOMES:
            metrics.interactions.labels(command=command, outcome=outcome).inc(rng.randint(1, 999))
    for kind in ("application_command", "component", "autocomplete"):
        for _ in range(1000):
            metrics.first_response.labels(kind=kind).observe(rng.expovariate(1 / 0.02))
    for game in game_names():
        metrics.moves.labels(game=game).inc(rng.randint(100, 10_000))
    for _ in range(200):
        metrics.ai_thinking.observe(rng.uniform(0.5, 10))
    for kind in ("bug", "database", "ai"):
        metrics.errors.labels(kind=kind).inc()
    metrics.watch_gateway(lambda: [(shard, 0.04 + shard / 1000) for shard in range(4)])


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


async def timed_gets(
    session: aiohttp.ClientSession, url: str, count: int, before: object = None
) -> list[float]:
    times = []
    for _ in range(count):
        if callable(before):
            before()
        start = time.perf_counter()
        async with session.get(url) as answer:
            await answer.read()
            assert answer.status == 200, answer.status
        times.append((time.perf_counter() - start) * 1000)
    return times


async def bench(active: int, scrapes: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await fill_database(path, active)
        metrics = Metrics()
        fill_metrics(metrics)
        store = timed_store(await open_store(path), metrics)
        metrics.watch_games(active_games_source(store))
        server = WebServer(metrics, [database_check(store)])
        port = await server.start()
        base = f"http://127.0.0.1:{port}"
        try:
            async with aiohttp.ClientSession() as session:
                await timed_gets(session, f"{base}/metrics", 20)  # warm up

                def expire() -> None:
                    metrics._counted_at = -math.inf  # the next scrape counts again

                results = {
                    "/metrics cached": await timed_gets(session, f"{base}/metrics", scrapes),
                    "/metrics counting": await timed_gets(
                        session, f"{base}/metrics", scrapes, expire
                    ),
                    "/readyz": await timed_gets(session, f"{base}/readyz", scrapes),
                    "/healthz": await timed_gets(session, f"{base}/healthz", scrapes),
                }
                async with session.get(f"{base}/metrics") as answer:
                    size = len(await answer.read())
                results["render only (no HTTP)"] = []
                for _ in range(scrapes):
                    start = time.perf_counter()
                    metrics.render()
                    results["render only (no HTTP)"].append((time.perf_counter() - start) * 1000)
        finally:
            await server.close()
            await store.close()
    print(f"{active} active games, /metrics page {size / 1024:.1f} KiB, {scrapes} requests each")
    print(f"{'request':<22} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}")
    for name, values in results.items():
        print(
            f"{name:<22} {pct(values, 0.5):8.2f} {pct(values, 0.95):8.2f} "
            f"{statistics.fmean(values):8.2f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--active", type=int, default=200)
    parser.add_argument("--scrapes", type=int, default=300)
    args = parser.parse_args()
    asyncio.run(bench(args.active, args.scrapes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
