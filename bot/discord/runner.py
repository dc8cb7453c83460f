"""``crosspath run``: start the bot until SIGTERM or Ctrl-C, then close everything cleanly.

Start-up problems an operator can fix (no token, a rejected token, a bad setting) end with one
clear sentence and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot import logs
from bot.config import Settings, SettingsError, load_settings
from bot.discord.app import CrosspathBot
from bot.discord.heap import settle_heap
from bot.discord.instrument import shards_check

if TYPE_CHECKING:
    from bot.service import WebReads
    from bot.web.pages import GamePages
    from bot.web.server import WebServer

log = logging.getLogger("crosspath.discord")

EXIT_CONFIG = 2
EXIT_LOGIN = 3
EXIT_NETWORK = 4
EXIT_DATABASE = 5
# Message bodies shared by ``crosspath run`` and ``crosspath sync``; :func:`fail` adds the
# command's name.
NO_NETWORK = "cannot reach Discord; check the network and try again"
NO_TOKEN = (
    "DISCORD_TOKEN is not set. Put the bot token from the Discord developer "
    "portal in the environment or in a .env file (see docs/operations.md)."
)
BAD_TOKEN = (
    "Discord rejected the token in DISCORD_TOKEN. Copy a fresh one from the "
    "developer portal (Bot > Reset Token) and try again."
)


ONE_PROCESS_ONLY = (
    "CROSSPATH_SHARD_IDS={ids} runs only some of the {count} shards, so other processes must "
    "run the rest, and a SQLite database serves one process only. Set CROSSPATH_DATABASE to a "
    "postgresql:// URL (move the data with `crosspath db copy`; see docs/operations.md), or "
    "unset CROSSPATH_SHARD_IDS to run every shard in this process."
)


def fail(command: str, message: str, fmt: str | None = None) -> None:
    """One line on stderr, never a traceback: ``crosspath <command>: <message>``, as JSON when
    the log format ``fmt`` is JSON (None: as the environment says)."""
    logs.say(command, message, fmt)


def settings_with_token(command: str, env_file: str | None) -> Settings | None:
    """The settings for a command that talks to Discord, or None after saying what is wrong."""
    try:
        settings = load_settings(env_file)
    except SettingsError as exc:
        fail(command, str(exc))
        return None
    if not settings.has_token:
        fail(command, no_token(env_file), settings.log_format)
        return None
    return settings


def no_token(env_file: str | None) -> str:
    """What to do without a token: fill in the settings file when there is one (the README's
    quick start makes ``.env`` from ``.env.example`` and stops here on the first run)."""
    path = Path(env_file) if env_file is not None else Path(".env")
    if path.is_file():
        return (
            f"DISCORD_TOKEN is empty: put your bot's token (Discord developer portal, Bot tab) "
            f"after DISCORD_TOKEN= in {path}, then run this again (see docs/operations.md)."
        )
    return NO_TOKEN


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="crosspath run", description="Start the Discord bot.")
    parser.add_argument("--env-file", help="read settings from this file instead of ./.env")
    return parser.parse_args(argv)


async def serve(settings: Settings) -> int:
    """Run the bot over the database until it is closed; the store is always closed after.

    Over SQLite the process first takes the database's run lock, so a second ``crosspath run``
    on the same file stops with one sentence before it opens the store or logs in.
    """
    from bot.store import StoreError, one_bot_process

    with contextlib.ExitStack() as held:
        if not settings.is_postgres:
            try:
                held.enter_context(one_bot_process(Path(settings.database)))
            except StoreError as exc:
                log.error("the database is in use", extra={"database": settings.shown_database})
                fail("run", str(exc), settings.log_format)
                return EXIT_DATABASE
        return await _serve(settings)


async def _serve(settings: Settings) -> int:
    from bot.service import GameService
    from bot.store import StoreError, open_store
    from bot.web.metrics import Metrics, timed_store

    metrics = Metrics()
    try:
        # a URL's password stays in here; every call is timed for /metrics
        store = timed_store(await open_store(settings.database), metrics)
    except StoreError as exc:  # its messages name the target without a password
        log.error("cannot open the database", extra={"database": settings.shown_database})
        fail(
            "run", f"cannot open the database {settings.shown_database}: {exc}", settings.log_format
        )
        return EXIT_DATABASE
    bot = CrosspathBot(GameService(store), settings, metrics=metrics)
    try:
        web = await start_web(bot, store, settings)
    except OSError as exc:
        await store.close()
        where = f"{settings.web_host}:{settings.web_port}"
        log.error("cannot serve health and metrics", extra={"address": where})
        fail(
            "run",
            f"cannot serve health and metrics on {where}: {exc.strerror or exc}",
            settings.log_format,
        )
        return EXIT_CONFIG
    try:
        return await _run_bot(bot, settings)
    finally:
        if web is not None:
            await web.close()
        await store.close()
        log.info("database closed", extra={"database": settings.shown_database})


def game_pages(bot: CrosspathBot, settings: Settings | None = None) -> GamePages:
    """The public game pages, over the bot's own service (replays cached on disk as
    ``settings`` say)."""
    from bot.web.disk_cache import replay_cache
    from bot.web.pages import GamePages

    async def source() -> WebReads:
        return bot.service.web

    return GamePages(source, replays=None if settings is None else replay_cache(settings))


async def start_web(bot: CrosspathBot, store: Any, settings: Settings) -> WebServer | None:
    """Serve the public game pages, /healthz, /readyz (every shard connected, the database
    answering) and /metrics when ``CROSSPATH_WEB_PORT`` is set."""
    from bot.web.metrics import active_games_source
    from bot.web.server import WebServer, database_check

    if settings.web_port is None:
        return None
    bot.metrics.watch_games(active_games_source(store))
    web = WebServer(
        bot.metrics,
        [shards_check(bot), database_check(store)],
        settings.web_host,
        settings.web_port,
        pages=game_pages(bot, settings),
    )
    await web.start()
    log.info("serving health and metrics", extra={"host": web.host, "port": web.port})
    return web


async def _run_bot(bot: CrosspathBot, settings: Settings) -> int:
    """Log in and run until closed (by a signal, or by Discord), mapping start-up failures
    to exit codes."""
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []

    def stop(signame: str) -> None:
        log.info("shutting down", extra={"signal": signame})
        stopping.append(loop.create_task(bot.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # non-Unix loops
            loop.add_signal_handler(sig, stop, sig.name)
    settled: list[int] = []

    async def freeze_heap_once() -> None:
        # once the first READY filled the caches; a reconnect's READY changes little
        if not settled:
            settled.append(settle_heap())
            log.info("heap frozen after start-up", extra={"objects": settled[0]})

    bot.add_listener(freeze_heap_once, "on_ready")
    try:
        async with bot:
            await bot.start(settings.token)
        return 0
    except discord.LoginFailure:
        log.error("login failed: the token was rejected")
        fail("run", BAD_TOKEN, settings.log_format)
        return EXIT_LOGIN
    except (aiohttp.ClientError, OSError, discord.GatewayNotFound) as exc:
        log.error("cannot reach Discord", extra={"error": repr(exc)})
        fail("run", f"{NO_NETWORK} ({exc})", settings.log_format)
        return EXIT_NETWORK
    except discord.HTTPException as exc:
        log.error("Discord refused the start", extra={"status": exc.status, "code": exc.code})
        fail(
            "run", f"Discord refused to start the bot: {exc.status} {exc.text}", settings.log_format
        )
        return EXIT_NETWORK
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
        if stopping:
            await asyncio.gather(*stopping, return_exceptions=True)
        if not bot.is_closed():
            await bot.close()


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    settings = settings_with_token("run", args.env_file)
    if settings is None:
        return EXIT_CONFIG
    if not settings.is_postgres and not settings.runs_every_shard:
        shards = ONE_PROCESS_ONLY.format(ids=settings.shown_shard_ids, count=settings.shard_count)
        fail("run", shards, settings.log_format)
        return EXIT_CONFIG
    problem = settings.database_problem()
    if problem is not None:
        fail("run", problem, settings.log_format)
        return EXIT_CONFIG
    logs.configure(settings.log_level, settings.log_format, secret=settings.token)
    log.info(
        "starting",
        extra={
            "database": settings.shown_database,
            "shard_count": settings.shard_count,
            "shard_ids": list(settings.shard_ids) if settings.shard_ids else None,
        },
    )
    try:
        return asyncio.run(serve(settings))
    except KeyboardInterrupt:
        return 0
