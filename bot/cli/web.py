"""``crosspath web``: the public game pages (:mod:`.pages`), with health, readiness and
metrics, over the database alone, without Discord.

For a deployment whose bot processes serve no HTTP themselves, or as the one address a load
balancer or an orchestrator probes in front of several shard processes.  Its ``/readyz``
checks only the database (a query answered within 1 s); ``/metrics`` reports the active games
and the latency of its own store calls.

The database is opened lazily and again after a failure, so the server starts (and says
"not ready" and why) while the database is still down, and is ready once it is up.  It never
migrates the schema: the bot does that on start.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from typing import TYPE_CHECKING, Any, cast

from bot import logs
from bot.config import SETTINGS, SettingsError, load_settings, web_port
from bot.web.disk_cache import DiskCache, replay_cache
from bot.web.metrics import Metrics, active_games_source, timed_store

if TYPE_CHECKING:
    from bot.web.pages import GamePages
from bot.web.server import WebServer, database_check

log = logging.getLogger("crosspath.web")

DEFAULT_PORT = 8080
EXIT_CONFIG = 2


class LazyStore:
    """The store, opened on first use and opened again after it failed to open."""

    def __init__(self, target: str, metrics: Metrics) -> None:
        self.target = target
        self.metrics = metrics
        self._store: Any = None
        self._lock = asyncio.Lock()

    async def store(self) -> Any:
        async with self._lock:
            if self._store is None:
                from bot.store import open_store

                opened = await open_store(self.target, migrate=False)
                self._store = timed_store(opened, self.metrics)
            return self._store

    async def schema_version(self) -> int:
        return int(await (await self.store()).schema_version())

    def read(self) -> Any:
        return _LazyRead(self)

    async def close(self) -> None:
        if self._store is not None:
            await self._store.close()


class _LazyRead:
    def __init__(self, lazy: LazyStore) -> None:
        self.lazy = lazy
        self._context: Any = None

    async def __aenter__(self) -> Any:
        self._context = (await self.lazy.store()).read()
        return await self._context.__aenter__()

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._context.__aexit__(*exc)


def lazy_pages(lazy: LazyStore, replays: DiskCache | None = None) -> GamePages:
    """The game pages over a service on the lazily opened store (only its reads are used),
    replays kept in ``replays`` when given."""
    from bot.service import GameService, WebReads
    from bot.web.pages import GamePages

    reads = GameService(cast(Any, lazy)).web

    async def source() -> WebReads:
        return reads

    return GamePages(source, replays=replays)


def _port_or_any(raw: str) -> int:
    """``--port``: a port, or 0 for any free one (it is printed once listening)."""
    return 0 if raw.strip() == "0" else web_port(raw, "--port") or DEFAULT_PORT


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="crosspath web",
        description="Serve the public game pages, /healthz, /readyz (the database answers)"
        " and /metrics.",
    )
    parser.add_argument("--db", help="the database (default: CROSSPATH_DATABASE)")
    parser.add_argument(
        "--host",
        help=f"address to listen on (default: CROSSPATH_WEB_HOST or "
        f"{SETTINGS['CROSSPATH_WEB_HOST'][0]})",
    )
    parser.add_argument(
        "--port", help=f"port to listen on (default: CROSSPATH_WEB_PORT or {DEFAULT_PORT})"
    )
    parser.add_argument("--env-file", help="read settings from this file instead of ./.env")
    return parser.parse_args(argv)


async def serve(
    target: str,
    host: str,
    port: int,
    shown: str,
    fmt: str = "text",
    replays: DiskCache | None = None,
) -> int:
    metrics = Metrics()
    lazy = LazyStore(target, metrics)
    metrics.watch_games(active_games_source(lazy))
    pages = lazy_pages(lazy, replays)
    web = WebServer(metrics, [database_check(lazy)], host, port, pages=pages)
    # Before the start-up line: whoever read it may stop the server at once.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await web.start()
    except OSError as exc:
        # A port in use or an address this machine lacks is a setting to change, not a fault
        # a restart fixes: the same status as every other configuration error.
        logs.say("web", f"cannot listen on {host}:{port}: {exc.strerror or exc}", fmt)
        return EXIT_CONFIG
    where = {"url": f"http://{host}:{web.port}/", "host": host, "port": web.port, "database": shown}
    log.info("serving game pages, health and metrics", extra=where)
    if fmt != "json":  # in JSON mode the log line above says it
        print(
            f"crosspath web: serving the game pages at http://{host}:{web.port}/ for {shown}",
            file=sys.stderr,
            flush=True,
        )
    try:
        await stop.wait()
    finally:
        await web.close()
        await lazy.close()
    return 0


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    try:
        settings = load_settings(args.env_file)
        port = settings.web_port if args.port is None else _port_or_any(args.port)
    except SettingsError as exc:
        logs.say("web", str(exc))
        return EXIT_CONFIG
    target = args.db or settings.database
    if "://" in target and not target.startswith(("postgresql://", "postgres://")):
        logs.say("web", "--db must be a SQLite file path or a postgresql:// URL")
        return EXIT_CONFIG
    from bot.config import shown_database

    logs.configure(settings.log_level, settings.log_format, secret=settings.token)
    host = args.host or settings.web_host
    port = DEFAULT_PORT if port is None else port
    replays = replay_cache(settings, target)  # beside the database served, even with --db
    shown = shown_database(target)
    return asyncio.run(serve(target, host, port, shown, settings.log_format, replays))
