"""Helpers every flow shares: the bot, the ids, the game here, the game a button is for.

This module imports no other module of ``bot.discord`` but ``speech`` (which imports none), so
flows, buttons, cogs and the computer opponent can all import it without cycles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from bot.discord.speech import private
from bot.i18n import N_
from bot.service import GameInfo, NoGameHere, StaleAction

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

GAME_ID = "crosspath_game_id"
"""``interaction.extras`` key: the game the interaction turned out to be about, for its log
lines (see :func:`bot.discord.replies.context_of`)."""

NO_GAME = N_("There is no game running in this channel. Start one with /challenge.")
STALE = N_("This button is out of date: the game has moved on or ended, so nothing was changed.")


def bot_of(interaction: discord.Interaction[Any]) -> CrosspathBot:
    """The client of an interaction: always our :class:`CrosspathBot`."""
    return cast("CrosspathBot", interaction.client)


def ids(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    """(pool id, channel id).  The pool is the server; a DM or group DM has none, so its own
    channel id stands for it (its challenges, games and lists are that conversation's own).
    The command tree lets only the player commands run there (``installs.IN_DMS``)."""
    if interaction.channel_id is None:
        raise app_commands.NoPrivateMessage()
    if interaction.guild_id is None:
        return interaction.channel_id, interaction.channel_id
    return interaction.guild_id, interaction.channel_id


async def game_here(interaction: discord.Interaction[Any]) -> GameInfo:
    """The active game in this channel, or a refusal that points to the player's games."""
    guild_id, channel_id = ids(interaction)
    service = bot_of(interaction).service
    info = await service.get_game(channel_id)
    if info is None:
        # games often live in threads: point the player to theirs (answer Discord first: the
        # refusal then arrives as a private follow-up)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        page = await service.game_summaries(
            guild_id, player_id=interaction.user.id, active_only=True, limit=3
        )
        tr = private(interaction)
        where = ", ".join(
            tr.gettext("#{game} in {channel}", game=g.id, channel=f"<#{g.channel_id}>")
            for g in page.games
        )
        raise NoGameHere(
            tr.gettext("{no_game} Your games: {games}.", no_game=tr.gettext(NO_GAME), games=where)
            if where
            else tr.gettext(NO_GAME)
        )
    interaction.extras[GAME_ID] = info.id
    return info


async def current_game(interaction: discord.Interaction[Any], game_id: int) -> GameInfo:
    """The active game this button belongs to, or a :class:`StaleAction` refusal."""
    channel_id = interaction.channel_id
    info = await bot_of(interaction).service.get_game(channel_id) if channel_id else None
    interaction.extras[GAME_ID] = game_id
    if info is None or info.id != game_id or not info.is_active:
        raise StaleAction(private(interaction).gettext(STALE))
    return info
