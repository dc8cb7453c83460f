"""Rule summaries and the full rule sheets players see through ``/rules``.

The games are Mark Steere's: every text shown to players names him, and the full sheets are his
own words, copied unchanged from the versions he publishes for free distribution.  A game's
title, goal and special rules are the rules engine's (:class:`rules.Game`), so ``/rules``, the
other commands and the console never disagree.
"""

from __future__ import annotations

from pathlib import Path

from rules import game_class

SHEETS_DIR = Path(__file__).parent / "rulesheets"
ATTRIBUTION = (
    "designed by Mark Steere and played under his published rules, unchanged; "
    "more at marksteeregames.com"
)


def sheet_file(game: str) -> Path:
    """The rule sheet of ``game`` (registry name), named after its title: ``clear-path.md``."""
    return SHEETS_DIR / (game_class(game).title.lower().replace(" ", "-") + ".md")


def sheet_text(game: str) -> str:
    """The full rule sheet of ``game`` (registry name) as Markdown."""
    return sheet_file(game).read_text(encoding="utf-8")


def summary(game: str) -> str:
    cls = game_class(game)
    return (
        f"**{cls.title}**, {ATTRIBUTION}.\n\nGoal: {cls.goal()}.\n\n{cls.special_rules}\n\n"
        f"{pie_option(game)}{board_sizes(game)}"
    )


def pie_option(game: str) -> str:
    """The pie rule as players may choose it here, for the games where it is an option."""
    cls = game_class(game)
    if cls.pie_rule != "option":
        return ""
    return f"Optional here (`/challenge pie:True`): {cls.pie_rule_text()}\n\n"


def board_sizes(game: str) -> str:
    """The sizes this bot allows, read from the engine so the text can never drift."""
    cls = game_class(game)
    low, high, default = cls.min_size, cls.max_size, cls.default_size
    return f"Played here on boards from {low}×{low} to {high}×{high} (default {default}×{default})."
