"""``crosspath sync --guild ID | --global``: publish the slash commands, on purpose, not at
every start.

A guild sync shows changes instantly in that server (use it while developing; with
CROSSPATH_DEV_GUILD set, ``crosspath sync`` alone goes there); a global sync can take a while to
reach every client, so it happens only when ``--global`` asks for it.  Syncing too often is
rate limited by Discord.
"""

from __future__ import annotations

import argparse
import asyncio

import aiohttp
import discord

from bot.config import Settings
from bot.discord.app import CrosspathBot
from bot.discord.runner import (
    BAD_TOKEN,
    EXIT_CONFIG,
    EXIT_LOGIN,
    EXIT_NETWORK,
    NO_NETWORK,
    fail,
    settings_with_token,
)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="crosspath sync", description="Sync slash commands.")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--guild", type=int, help="sync to this server only (instant)")
    where.add_argument("--global", dest="everywhere", action="store_true", help="sync globally")
    parser.add_argument("--env-file", help="read settings from this file instead of ./.env")
    return parser.parse_args(argv)


async def sync(settings: Settings, guild_id: int | None) -> list[str]:
    bot = CrosspathBot(service=None, settings=settings, run_clock=False)
    async with bot:
        await bot.login(settings.token)  # HTTP only, no gateway; runs setup_hook (the cogs)
        guild = discord.Object(guild_id) if guild_id else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
    return [command.name for command in synced]


NOWHERE = (
    "say where to sync: --guild ID for one server (instant; or set CROSSPATH_DEV_GUILD), or "
    "--global for every server (clients may take a while to see it)"
)


def target(args: argparse.Namespace, settings: Settings) -> tuple[int | None, str] | None:
    """Where a sync goes (a guild id, or None for global) and a sentence saying so and why;
    None when nothing names a place, since a global sync must be asked for."""
    if args.everywhere:
        return None, "syncing globally (--global); clients may take a while to see it"
    if args.guild:
        return args.guild, f"syncing to server {args.guild} (--guild)"
    if settings.dev_guild:
        return settings.dev_guild, (
            f"syncing to server {settings.dev_guild} (CROSSPATH_DEV_GUILD; "
            "--global syncs everywhere)"
        )
    return None


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    settings = settings_with_token("sync", args.env_file)
    if settings is None:
        return EXIT_CONFIG
    chosen = target(args, settings)
    if chosen is None:
        fail("sync", NOWHERE)
        return EXIT_CONFIG
    guild_id, plan = chosen
    print(plan, flush=True)
    try:
        names = asyncio.run(sync(settings, guild_id))
    except discord.LoginFailure:
        fail("sync", BAD_TOKEN)
        return EXIT_LOGIN
    except (aiohttp.ClientError, OSError) as exc:
        fail("sync", f"{NO_NETWORK} ({exc})")
        return EXIT_NETWORK
    except discord.HTTPException as exc:
        fail("sync", f"Discord refused the sync: {exc.status} {exc.text}")
        return 1
    where = f"server {guild_id}" if guild_id else "all servers (global; may take a while)"
    print(f"synced {len(names)} commands to {where}: {', '.join(sorted(names))}")
    return 0
