"""The engines' colour names in the reader's language, lower case, as sentences use them: one
set of messages for the Discord adapter and the console, so a translator words each colour
once.  The web pages show colours capitalised, from their own messages
(:func:`bot.web.game_words.colour_word`), since some languages capitalise a colour standing
alone differently from one inside a sentence."""

from __future__ import annotations

from bot.i18n import ENGLISH_TONGUE, N_, Tongue

COLOURS = {"red": N_("red"), "blue": N_("blue"), "black": N_("black"), "white": N_("white")}
"""The engines' colour names, for extraction (a colour not listed stays as the engine says)."""


def colour_word(colour: str, tr: Tongue = ENGLISH_TONGUE) -> str:
    return tr.gettext(COLOURS[colour]) if colour in COLOURS else colour
