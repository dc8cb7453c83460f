"""The web side of a game, as the Discord adapter decides it: is a game public, and the
"Watch on the web" link under its board posts.

A game is public when everyone in the server could read the channel it was challenged in:
the @everyone role's permissions there (the server's base permissions for @everyone, then the
channel's overwrite for that role, as discord.py computes them from the payloads Discord sent)
allow viewing it.  A private thread, or a channel the bot does not have cached, is never
public.  The service only stores the answer; the web shows public games alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.discord.access import can_view
from bot.discord.speech import of_server
from bot.i18n import N_
from bot.service import GameInfo

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

WATCH_LABEL = N_("Watch on the web")


def readable_by_everyone(interaction: discord.Interaction[Any]) -> bool:
    """Whether @everyone can view the channel (or thread) this interaction came from."""
    guild = interaction.guild
    channel_id = interaction.channel_id
    return guild is not None and channel_id is not None and everyone_can_view(guild, channel_id)


def everyone_can_view(guild: discord.Guild, channel_id: int) -> bool:
    """Whether @everyone can view the cached channel or thread ``channel_id`` of ``guild``."""
    channel = guild.get_channel_or_thread(channel_id)
    return channel is not None and can_view(channel, guild.default_role)


def display_name(user: discord.abc.User | None) -> str | None:
    """The name a member shows in this server (a nickname, else their global name)."""
    return None if user is None else user.display_name


def watch_url(public_url: str, info: GameInfo) -> str | None:
    """The game's page, when there is a public address and the game may be shown."""
    if not public_url or not info.public or info.web_token is None:
        return None
    return f"{public_url}/games/{info.web_token}"


async def watch_view(bot: CrosspathBot, info: GameInfo) -> discord.ui.View | None:
    """A "Watch on the web" link button for ``info``'s board posts, or None: no public
    address set, a private game, or a server that turned its web listing off."""
    url = watch_url(bot.settings.public_url, info)
    if url is None or not (await bot.service.moderation.get_settings(info.guild_id)).web_listing:
        return None
    label = of_server(bot, info.guild_id).gettext(WATCH_LABEL)
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label, url=url))
    return view
