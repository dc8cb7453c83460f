"""Rule summaries and the full rule sheets players see through ``/rules``.

The games are Mark Steere's: every text shown to players names him, and the full sheets are his
own words, copied unchanged from the versions he publishes for free distribution.  A game's
title, goal and special rules are the rules engine's (:class:`rules.Game`), so ``/rules``, the
other commands and the console never disagree.
"""

from __future__ import annotations

from pathlib import Path

from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from rules import game_class

SHEETS_DIR = Path(__file__).parent / "rulesheets"
ATTRIBUTION = N_(
    "**{game}**, designed by Mark Steere and played under his published rules, unchanged; "
    "more at marksteeregames.com."
)


def sheet_file(game: str) -> Path:
    """The rule sheet of ``game`` (registry name), named after its title: ``clear-path.md``."""
    return SHEETS_DIR / (game_class(game).title.lower().replace(" ", "-") + ".md")


def sheet_text(game: str) -> str:
    """The full rule sheet of ``game`` (registry name) as Markdown."""
    return sheet_file(game).read_text(encoding="utf-8")


def summary(game: str, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The short summary of ``game`` in ``tr``'s language: the engine's goal and special rules
    (marked for the catalogs in rules/), and what this bot allows.  Mark Steere's rule sheet,
    attached beside it, stays his English: the authority."""
    cls = game_class(game)
    return (
        f"{tr.gettext(ATTRIBUTION, game=cls.title)}\n\n"
        f"{tr.gettext(GOAL, goal=tr.say(cls.goal_wording()))}\n\n"
        f"{tr.gettext(cls.special_rules)}\n\n{pie_option(game, tr)}{board_sizes(game, tr)}"
    )


GOAL = N_("Goal: {goal}.")


def pie_option(game: str, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The pie rule as players may choose it here, for the games where it is an option."""
    cls = game_class(game)
    if cls.pie_rule != "option":
        return ""
    text = tr.gettext(
        "Optional here (`/challenge pie:True`): {pie_rule}", pie_rule=tr.say(cls.pie_rule_wording())
    )
    return text + "\n\n"


def board_sizes(game: str, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The sizes this bot allows, read from the engine so the text can never drift."""
    cls = game_class(game)
    return tr.gettext(
        "Played here on boards from {low}×{low} to {high}×{high} (default {default}×{default}).",
        low=cls.min_size,
        high=cls.max_size,
        default=cls.default_size,
    )
