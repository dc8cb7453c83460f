"""Which language an answer speaks (issue 47): a private answer speaks the player's client
language (``interaction.locale``), a post the whole channel reads speaks the server's
(``interaction.guild_locale``; a server setting can come later).  Unknown locales read English.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Tongue, for_discord


def private(interaction: discord.Interaction[Any]) -> Tongue:
    """The language of an answer only the player sees (ephemeral)."""
    return for_discord(interaction.locale.value)


def public(interaction: discord.Interaction[Any]) -> Tongue:
    """The language of a post everybody in the channel reads."""
    guild_locale = interaction.guild_locale
    return for_discord(guild_locale.value if guild_locale is not None else None)


def of_guild(guild: discord.Guild | None) -> Tongue:
    """The language of a post made without an interaction (a clock, the computer's move):
    the server's, as Discord reports it (``Guild.preferred_locale``, what ``guild_locale`` is
    for an interaction)."""
    return for_discord(guild.preferred_locale.value if guild is not None else None)
