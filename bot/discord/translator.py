"""The slash commands in every player's language: discord.py's ``Translator`` over our catalogs.

Every command and option description and every choice name in the cogs is a ``locale_str``
(``pybabel extract -k locale_str`` finds them); at ``crosspath sync`` (and in ``crosspath
commands --json``) discord.py asks this translator for each string in each Discord locale,
and sends the answers as ``*_localizations``.  Discord then shows each player the text in their
client's language.

Command, group and option *names* stay English in every locale, on purpose: players in one
server share them in conversation ("type /move c3", "try /challenge"), /help and our replies
name them, and a localised name would make a German and a French player type different
commands for the same thing (docs/translating.md says more).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from bot.i18n import ENGLISH, language_for, tongue

NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
"""Where a string is a name that stays English (see the module's docstring)."""


def formatted(template: str, /, **params: Any) -> locale_str:
    """A description with values filled in: English is ``template`` formatted, and each
    locale formats its own translation of ``template`` with the same ``params`` (a param that
    is itself a ``locale_str`` is translated too)."""
    english = {key: str(value) for key, value in params.items()}
    return locale_str(template.format(**english), msgid=template, params=params)


def translated(string: locale_str, language: str) -> str:
    """``string`` in ``language`` (a catalog language), its params translated and filled in."""
    msgid: str = string.extras.get("msgid", string.message)
    params = {
        key: translated(value, language) if isinstance(value, locale_str) else value
        for key, value in string.extras.get("params", {}).items()
    }
    return tongue(language).gettext(msgid, **params)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The catalog's text for ``string`` in ``locale``; None (Discord then shows the
        English) for names, for English locales and for a string with no translation, such
        as a game's title (a proper name, never in the catalogs)."""
        if context.location in NAMES and not isinstance(context.data, app_commands.ContextMenu):
            return None  # a context menu's name is read from a menu, never typed: translated
        language = language_for(locale.value)
        if language == ENGLISH:
            return None
        text = translated(string, language)
        return None if text == string.message else text
