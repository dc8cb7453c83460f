"""Who may see a game asked for by number, and where: ``/board``, ``/history``, ``/replay``.

A game lives in one channel (or thread), and what it shows (the players, the board, every
move) is as private as that channel.  Shown by number somewhere else, it is shown publicly only
when everyone in the server can read its channel; otherwise only privately, to its players,
the server's managers and members who can read its channel, and refused to anyone else without
a word of its content.  Readability comes from discord.py's permission objects, built from the
guild, its roles and the channel's overwrites as Discord sent them (the guilds intent keeps
them cached); a channel the bot cannot find counts as unreadable.
"""

from __future__ import annotations

import enum
from typing import Any

import discord

from bot.service import GameInfo, PermissionDenied

from .context import bot_of

Interaction = discord.Interaction[Any]
HIDDEN = (
    "Game #{id} is in a channel you can't see, so I can't show it to you. "
    "Ask one of its players, or look in its channel."
)
GameChannel = discord.abc.GuildChannel | discord.Thread


class Audience(enum.Enum):
    """Who an answer showing a game may reach."""

    CHANNEL = "everyone in the channel where it was asked"
    CALLER = "only the member who asked"


async def game_channel(interaction: Interaction, info: GameInfo) -> GameChannel | None:
    """The game's channel or thread: from the cache, else asked of Discord (an archived
    thread is not cached); None when neither knows it in this server."""
    guild = interaction.guild
    if guild is None:
        return None
    found = guild.get_channel_or_thread(info.channel_id)
    if found is None:
        try:
            fetched = await bot_of(interaction).fetch_channel(info.channel_id)
        except discord.HTTPException:
            return None
        if not isinstance(fetched, discord.abc.GuildChannel | discord.Thread):
            return None
        found = fetched
    return found if found.guild.id == guild.id else None


def can_view(channel: GameChannel, who: discord.Member | discord.Role) -> bool:
    """Whether ``who`` may view ``channel`` (a private thread only by its members, which the
    bot cannot list without the members intent, so never here)."""
    if isinstance(channel, discord.Thread) and channel.is_private():
        return False
    try:
        return channel.permissions_for(who).view_channel
    except discord.ClientException:  # a thread whose parent channel is not cached
        return False


async def audience(interaction: Interaction, info: GameInfo) -> Audience:
    """Who may see ``info`` answered to this interaction; raises PermissionDenied when the
    caller may not see it at all."""
    if info.channel_id == interaction.channel_id:
        return Audience.CHANNEL
    channel = await game_channel(interaction, info)
    guild = interaction.guild
    if channel is not None and guild is not None and can_view(channel, guild.default_role):
        return Audience.CHANNEL
    user = interaction.user
    if user.id in info.player_ids or interaction.permissions.manage_guild:
        return Audience.CALLER
    if channel is not None and isinstance(user, discord.Member) and can_view(channel, user):
        return Audience.CALLER
    raise PermissionDenied(HIDDEN.format(id=info.id))


__all__ = ["HIDDEN", "Audience", "audience", "can_view", "game_channel"]
