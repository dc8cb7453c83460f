"""The game pages' figures: a finished 19×19 game's page, and 500 live pages on one process.

``page``: a public Minefield 19×19 game is played to its end through the service (random
legal moves, fixed seed) into a SQLite file, and its page ``/games/<token>`` is fetched
``--requests`` times over real HTTP on 127.0.0.1 from the pages served in this process.  The
server time is measured around the page handler (the store reads, the engine from the cache,
the page from its cache); the round trip adds aiohttp's client and the socket; the page drawn
afresh (the template, as for the first view after each move) is timed on its own.  The first
request, with the engine replayed in the replay process, is reported apart, and so are the
board SVG of the final position (drawn, then from the cache).

``live``: ``--games`` public 9×9 games are started, and a real ``crosspath web`` process is
run on the file; ``--pages`` event streams (``/games/<token>/events``, as ``game.js`` opens
them) are spread evenly over the games; then ``--moves`` moves are played through the service
in this process (as a bot process would, into the same database), one every ``--gap``
seconds, round-robin over the games.  For every move and every page watching its game the
delay from the move's commit to the page receiving the new state is recorded; the web
process's resident memory is read from /proc before the pages open, once they are open, and
after the moves.

Run: nice -n 10 python bench/web_pages_bench.py [page|live|both] [--requests 300] [--games 100]
[--pages 500] [--moves 200] [--gap 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.i18n import ENGLISH_TONGUE
from bot.service import GameService, WebReads
from bot.store import open_store
from bot.web.language import PageLanguage
from bot.web.metrics import Metrics
from bot.web.pages import GamePages
from bot.web.server import WebServer

GUILD = 800000000000000001
ALICE, BOB = 310000000000000001, 320000000000000002
ROOT = Path(__file__).resolve().parents[1]


ENGLISH_PAGE = PageLanguage(ENGLISH_TONGUE, chosen=False)
"""The page drawn as an English reader without ?lang= gets it."""


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


def ms(values: list[float]) -> str:
    return (
        f"p50 {pct(values, 50) * 1000:.1f} ms, p95 {pct(values, 95) * 1000:.1f} ms, "
        f"max {max(values) * 1000:.1f} ms (n={len(values)})"
    )


async def play_to_the_end(service: GameService, channel: int, seed: int) -> str:
    created = await service.create_challenge(
        GUILD, channel, ALICE, BOB, "minefield", 19, public=True, challenger_name="Alice"
    )
    info = (await service.accept_challenge(created.id, BOB, name="Bob")).game
    rng = random.Random(seed)
    while info.is_active:
        game = await service.position(info.id)
        move = rng.choice([m for m in game.legal_moves() if m != "swap"])
        info = (await service.play_move(channel, info.to_move_id or 0, move)).game
    assert info.web_token is not None
    return info.web_token


class TimedPages(GamePages):
    """The pages, with the game page's handler timed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.handler_times: list[float] = []

    async def game(self, request: web.Request) -> web.Response:
        start = time.perf_counter()
        try:
            return await super().game(request)
        finally:
            self.handler_times.append(time.perf_counter() - start)


async def timed_get(session: aiohttp.ClientSession, url: str) -> tuple[float, int]:
    start = time.perf_counter()
    async with session.get(url) as answer:
        await answer.read()
        return time.perf_counter() - start, answer.status


async def bench_page(requests: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with await open_store(Path(folder) / "page.sqlite3") as store:
            service = GameService(store)
            token = await play_to_the_end(service, 810000000000000001, seed=19)
            record = await service.games.game_record(1)
            print(f"page: a finished Minefield 19×19 game of {len(record.moves)} moves")
            reader = GameService(store)  # a fresh service: its engine cache is cold

            async def source() -> WebReads:
                return reader.web

            pages = TimedPages(source)
            server = WebServer(Metrics(), [], pages=pages)
            port = await server.start()
            base = f"http://127.0.0.1:{port}/games/{token}"
            try:
                async with aiohttp.ClientSession() as session:
                    cold, status = await timed_get(session, base)
                    assert status == 200
                    print(f"  first request (engine replayed): {cold * 1000:.1f} ms")
                    pages.handler_times.clear()
                    trips = [(await timed_get(session, base))[0] for _ in range(requests)]
                    print(f"  page server time: {ms(pages.handler_times)}")
                    print(f"  page round trip:  {ms(trips)}")
                    served = await reader.web.served_game(token)
                    assert served is not None
                    drawing = []
                    for _ in range(50):
                        start = time.perf_counter()
                        pages._game_page(served[0], token, ENGLISH_PAGE)
                        drawing.append(time.perf_counter() - start)
                    print(f"  the page drawn afresh (first view of a version): {ms(drawing)}")
                    plies = len(record.moves)
                    drawn, _ = await timed_get(session, f"{base}/board.svg?ply={plies}")
                    cached = [
                        (await timed_get(session, f"{base}/board.svg?ply={plies}"))[0]
                        for _ in range(50)
                    ]
                    print(f"  final board SVG: drawn {drawn * 1000:.1f} ms; cached {ms(cached)}")
                    others = [
                        (await timed_get(session, f"{base}/board.svg?ply={p}"))[0]
                        for p in range(0, plies, max(1, plies // 50))
                    ]
                    print(f"  earlier positions' SVGs, each drawn once: {ms(others)}")
            finally:
                await server.close()


def rss_kib(pid: int) -> dict[str, int]:
    found: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0])
    return found


def start_web(db: Path) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "web", "--db", str(db), "--port", "0"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "CROSSPATH_LOG_FORMAT": "text"},
    )
    assert process.stderr is not None
    for line in process.stderr:
        found = re.search(r"serving http://127\.0\.0\.1:(\d+)/", line)
        if found:
            return process, int(found.group(1))
    raise SystemExit("crosspath web did not start")


async def watch(
    session: aiohttp.ClientSession,
    url: str,
    token: str,
    arrivals: dict[tuple[str, int], list[float]],
    opened: asyncio.Event,
    counter: list[int],
    total: int,
) -> None:
    async with session.get(url, timeout=aiohttp.ClientTimeout(total=None)) as answer:
        assert answer.status == 200
        counter[0] += 1
        if counter[0] == total:
            opened.set()
        async for raw in answer.content:
            line = raw.decode()
            if line.startswith("data: "):
                version = int(json.loads(line[6:])["version"])
                arrivals.setdefault((token, version), []).append(time.monotonic())


async def bench_live(games: int, pages: int, moves: int, gap: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "live.sqlite3"
        async with await open_store(db) as store:
            service = GameService(store)
            started = []
            for number in range(games):
                channel = 810000000000000001 + number
                created = await service.create_challenge(
                    GUILD, channel, ALICE, BOB, "minefield", 9, public=True
                )
                info = (await service.accept_challenge(created.id, BOB)).game
                started.append((channel, info.id, info.web_token or ""))
            process, port = start_web(db)
            try:
                await asyncio.sleep(1.0)
                idle = rss_kib(process.pid)
                arrivals: dict[tuple[str, int], list[float]] = {}
                opened = asyncio.Event()
                counter = [0]
                connector = aiohttp.TCPConnector(limit=0)
                async with aiohttp.ClientSession(connector=connector) as session:
                    readers = [
                        asyncio.create_task(
                            watch(
                                session,
                                f"http://127.0.0.1:{port}/games/{token}/events?v=0",
                                token,
                                arrivals,
                                opened,
                                counter,
                                pages,
                            )
                        )
                        for index in range(pages)
                        for _, _, token in [started[index % games]]
                    ]
                    await asyncio.wait_for(opened.wait(), 60)
                    await asyncio.sleep(1.0)
                    open_rss = rss_kib(process.pid)
                    committed: dict[tuple[str, int], float] = {}
                    rng = random.Random(5)
                    begin = time.monotonic()
                    for number in range(moves):
                        channel, game_id, token = started[number % games]
                        game = await service.position(game_id)
                        move = rng.choice([m for m in game.legal_moves() if m != "swap"])
                        current = await service.get_game(channel)
                        assert current is not None
                        mover = current.to_move_id or 0
                        played = await service.play_move(channel, mover, move)
                        committed[(token, played.game.version)] = time.monotonic()
                        await asyncio.sleep(max(0.0, begin + (number + 1) * gap - time.monotonic()))
                    await asyncio.sleep(3.0)
                    after = rss_kib(process.pid)
                    for reader in readers:
                        reader.cancel()
                    await asyncio.gather(*readers, return_exceptions=True)
                watchers_per_game = pages / games
                delays = [
                    arrival - at
                    for key, at in committed.items()
                    for arrival in arrivals.get(key, [])
                ]
                expected = round(len(committed) * watchers_per_game)
                print(
                    f"live: {pages} open pages on {games} games ({watchers_per_game:g} each), "
                    f"{moves} moves at one per {gap * 1000:.0f} ms"
                )
                print(f"  updates received {len(delays)} of {expected}")
                print(f"  update latency (commit to page): {ms(delays)}")
                print(
                    f"  crosspath web memory (RSS): {idle['VmRSS'] / 1024:.1f} MiB idle, "
                    f"{open_rss['VmRSS'] / 1024:.1f} MiB with {pages} pages open, "
                    f"{after['VmRSS'] / 1024:.1f} MiB after the moves "
                    f"(peak {after['VmHWM'] / 1024:.1f} MiB)"
                )
            finally:
                process.send_signal(signal.SIGTERM)
                process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", nargs="?", default="both", choices=("page", "live", "both"))
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--gap", type=float, default=0.05)
    args = parser.parse_args()
    if args.which in ("page", "both"):
        asyncio.run(bench_page(args.requests))
    if args.which in ("live", "both"):
        asyncio.run(bench_live(args.games, args.pages, args.moves, args.gap))


if __name__ == "__main__":
    main()
