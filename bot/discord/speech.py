"""Which language an answer speaks (issue 47): a private answer speaks the player's client
language (``interaction.locale``); a post the whole channel reads speaks the server's: the
language its managers chose (``/admin settings language``, :class:`ServerLanguages`), else
Discord's server locale (``interaction.guild_locale``, ``Guild.preferred_locale``); a DM or
digest speaks the player's language as last seen (:class:`SeenLocales`, stored per player).
Unknown locales read English.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import discord

from bot.i18n import Tongue, for_discord, tongue


class ServerLanguages:
    """The language each server's managers chose for its channel posts, as this process
    last read it (the servers that chose none follow Discord's server locale).  Loaded from
    the store when the bot starts, updated at once by ``/admin settings language`` here and
    re-read every few minutes, so other processes follow within that time."""

    def __init__(self) -> None:
        self._chosen: dict[int, str] = {}

    def chosen(self, guild_id: int | None) -> str | None:
        return None if guild_id is None else self._chosen.get(guild_id)

    def set(self, guild_id: int, language: str | None) -> None:
        if language is None:
            self._chosen.pop(guild_id, None)
        else:
            self._chosen[guild_id] = language

    def replace(self, chosen: Mapping[int, str]) -> None:
        self._chosen = dict(chosen)


def _chosen(client: Any, guild_id: int | None) -> str | None:
    languages = getattr(client, "languages", None)
    return languages.chosen(guild_id) if isinstance(languages, ServerLanguages) else None


def private(interaction: discord.Interaction[Any]) -> Tongue:
    """The language of an answer only the player sees (ephemeral)."""
    return for_discord(interaction.locale.value)


def public(interaction: discord.Interaction[Any]) -> Tongue:
    """The language of a post everybody in the channel reads: the server's chosen language,
    else Discord's server locale.  Outside a server (a DM or group DM, where the bot answers
    only the interaction) it is the player's own."""
    if interaction.guild_id is None:
        return private(interaction)
    chosen = _chosen(interaction.client, interaction.guild_id)
    if chosen is not None:
        return tongue(chosen)
    guild_locale = interaction.guild_locale
    return for_discord(guild_locale.value if guild_locale is not None else None)


def of_guild(guild: discord.Guild | None, client: Any = None) -> Tongue:
    """The language of a post made without an interaction (a clock, the computer's move):
    the server's chosen language (``client``: the bot, which knows it), else the server's
    locale as Discord reports it (``Guild.preferred_locale``, what ``guild_locale`` is for an
    interaction)."""
    if guild is None:
        return for_discord(None)
    chosen = _chosen(client, guild.id)
    if chosen is not None:
        return tongue(chosen)
    return for_discord(guild.preferred_locale.value)


def of_server(client: Any, guild_id: int | None) -> Tongue:
    """:func:`of_guild` for a server known by its id (its chosen language even when the
    server is not in the bot's cache)."""
    chosen = _chosen(client, guild_id)
    if chosen is not None:
        return tongue(chosen)
    return of_guild(None if guild_id is None else client.get_guild(guild_id))


class SeenLocales:
    """Each player's Discord locale as last seen in one of their interactions, for the DMs and
    digests the bot sends on its own.

    The most recent ``limit`` players are kept in memory.  The store keeps every player's
    (``service.notices.saw_locale``), so after a restart a DM reads the stored locale
    (``NoticePrefs.locale``, ``Digest.locale``); :meth:`to_store` says when it is worth
    storing: a locale this process has not stored for the player yet.
    """

    def __init__(self, limit: int = 100_000) -> None:
        self.limit = limit
        self._seen: OrderedDict[int, str] = OrderedDict()
        self._stored: OrderedDict[int, str] = OrderedDict()

    def saw(self, user_id: int, locale: str) -> None:
        """Remember ``locale`` for the player (every interaction, refused ones too)."""
        _keep(self._seen, user_id, locale, self.limit)

    def to_store(self, user_id: int, locale: str) -> bool:
        """True the first time this process meets ``locale`` for the player since it last
        stored one (then it is worth a read, and a write only if the store's differs)."""
        if self._stored.get(user_id) == locale:
            return False
        _keep(self._stored, user_id, locale, self.limit)
        return True

    def tongue_of(self, user_id: int, stored: str | None = None) -> Tongue:
        """The player's language: as last seen here, else as stored (``stored``)."""
        return for_discord(self._seen.get(user_id, stored))


def _keep(kept: OrderedDict[int, str], user_id: int, locale: str, limit: int) -> None:
    kept[user_id] = locale
    kept.move_to_end(user_id)
    if len(kept) > limit:
        kept.popitem(last=False)
