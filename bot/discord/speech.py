"""Which language an answer speaks (issue 47): a private answer speaks the player's client
language (``interaction.locale``), a post the whole channel reads speaks the server's
(``interaction.guild_locale``; a server setting can come later), and a DM or digest speaks the
player's language as last seen (:class:`SeenLocales`).  Unknown locales read English.
"""

from __future__ import annotations

from collections import OrderedDict
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


class SeenLocales:
    """Each player's Discord locale as last seen in one of their interactions, for the DMs and
    digests the bot sends on its own.

    Kept in memory, the most recent ``limit`` players: after a restart a player's DMs read
    English until they next use the bot (storing it per player needs a schema change).
    """

    def __init__(self, limit: int = 100_000) -> None:
        self.limit = limit
        self._seen: OrderedDict[int, str] = OrderedDict()

    def saw(self, user_id: int, locale: str) -> None:
        self._seen[user_id] = locale
        self._seen.move_to_end(user_id)
        if len(self._seen) > self.limit:
            self._seen.popitem(last=False)

    def tongue_of(self, user_id: int) -> Tongue:
        return for_discord(self._seen.get(user_id))
