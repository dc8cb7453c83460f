"""Who may see a game or a tournament asked for by number, and where: ``/board``,
``/history``, ``/replay``, ``/tournament pairings|standings|info|list`` and ``/profile``.

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
from collections.abc import Collection
from typing import Any, Protocol

import discord

from bot.discord.context import bot_of, game_here, ids
from bot.discord.speech import private
from bot.i18n import N_
from bot.service import GameInfo, NoGameHere, PermissionDenied

Interaction = discord.Interaction[Any]
HIDDEN = N_(
    "Game #{id} is in a channel you can't see, so I can't show it to you. "
    "Ask one of its players, or look in its channel."
)
TOURNAMENT_HIDDEN = N_(
    "Tournament #{id} is in a channel you can't see, so I can't show it to you. "
    "Ask one of its players, or look in its channel."
)
GameChannel = discord.abc.GuildChannel | discord.Thread


class Shown(Protocol):
    """What lives in one channel and is as private as it: a game or a tournament."""

    @property
    def id(self) -> int: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def player_ids(self) -> Collection[int]: ...


class Audience(enum.Enum):
    """Who an answer showing a game may reach."""

    CHANNEL = "everyone in the channel where it was asked"
    CALLER = "only the member who asked"


async def game_channel(interaction: Interaction, info: Shown) -> GameChannel | None:
    """The game's channel or thread: from the cache, else asked of Discord (an archived
    thread is not cached); None when neither knows it in this server."""
    return await channel_of(interaction, info.channel_id)


async def channel_of(interaction: Interaction, channel_id: int) -> GameChannel | None:
    """Channel ``channel_id`` of the interaction's server, as :func:`game_channel` finds it."""
    guild = interaction.guild
    if guild is None:
        return None
    found = guild.get_channel_or_thread(channel_id)
    if found is None:
        try:
            fetched = await bot_of(interaction).fetch_channel(channel_id)
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


async def audience(interaction: Interaction, info: Shown, hidden: str = HIDDEN) -> Audience:
    """Who may see ``info`` (a game, or a tournament: the same rule) answered to this
    interaction; raises PermissionDenied, saying ``hidden``, when the caller may not see it."""
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
    raise PermissionDenied(private(interaction).gettext(hidden, id=info.id))


def public_where_asked(
    interaction: Interaction, channel: GameChannel | None, channel_id: int
) -> bool:
    """Whether something from ``channel_id`` may be posted publicly where ``interaction`` was
    asked: in that very channel, or when everyone in the server can read it."""
    if channel_id == interaction.channel_id:
        return True
    guild = interaction.guild
    return channel is not None and guild is not None and can_view(channel, guild.default_role)


async def public_channels(interaction: Interaction, channel_ids: Collection[int]) -> set[int]:
    """Those of ``channel_ids`` whose games may be posted publicly where ``interaction`` was
    asked (see :func:`public_where_asked`); a channel not found counts as private."""
    public = set()
    for channel_id in set(channel_ids):
        channel = None
        if channel_id != interaction.channel_id:
            channel = await channel_of(interaction, channel_id)
        if public_where_asked(interaction, channel, channel_id):
            public.add(channel_id)
    return public


__all__ = [
    "HIDDEN",
    "TOURNAMENT_HIDDEN",
    "Audience",
    "Shown",
    "audience",
    "can_view",
    "channel_of",
    "game_channel",
    "public_channels",
    "public_where_asked",
]


async def picked_game(interaction: Interaction, game_id: int | None) -> tuple[GameInfo, Audience]:
    """The game a command asked for (``game:N``), and who its answer may reach.

    Without a number: this channel's latest game, finished or not, for anyone here (so a
    command works in a thread after the game ended).  By number: a game of this server,
    shown to the channel or only to the caller as its channel allows (:func:`audience`)."""
    guild_id, channel_id = ids(interaction)
    service = bot_of(interaction).service
    if game_id is None:
        latest = await service.latest_game(channel_id)
        return (latest if latest is not None else await game_here(interaction)), Audience.CHANNEL
    info = await service.get_game_by_id(game_id)
    if info.guild_id != guild_id:
        raise NoGameHere(
            private(interaction).gettext("There is no game #{id} in this server.", id=game_id)
        )
    return info, await audience(interaction, info)
