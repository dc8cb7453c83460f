"""Choice lists shared by several commands, built from the rules registry and the rule sheets,
and what a shared kind of choice does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from discord import app_commands
from discord.app_commands import locale_str

from bot.discord.translator import formatted
from bot.i18n import N_
from rules import game_class, game_names
from rules.base import PIE_OPTION


def playable_games() -> list[app_commands.Choice[str]]:
    """Games the engine can play now, by title, in the registry's order (the registry may
    grow); ``/rules`` offers the same list, so every command lists the games alike."""
    return [app_commands.Choice(name=game_class(n).title, value=n) for n in game_names()]


def rating_pools() -> list[app_commands.Choice[str]]:
    """What ``/leaderboard`` and the ratings reset offer: every game, then each game played
    with the pie rule chosen, which is rated apart (``minefield+pie``)."""
    pies = [n for n in game_names() if game_class(n).pie_rule == "option"]
    return playable_games() + [
        app_commands.Choice(
            name=formatted(N_("{game} (pie rule)"), game=game_class(n).title),
            value=f"{n}+{PIE_OPTION}",
        )
        for n in pies
    ]


FIRST_CHOICES = [
    app_commands.Choice(name=locale_str("me"), value="me"),
    app_commands.Choice(name=locale_str("them"), value="them"),
    app_commands.Choice(name=locale_str("random"), value="random"),
]


def edited_ids(
    current: Sequence[int], action: Literal["add", "remove", "clear"], target: int | None
) -> list[int]:
    """``current`` with ``target`` added (once) or removed, or emptied: how ``/admin settings
    channel`` edits the allowed channels and ``/tournament creators`` the creator roles, each
    under its own choice names.  No ``target`` adds or removes nothing."""
    if action == "clear":
        return []
    if action == "add" and target is not None and target not in current:
        return [*current, target]
    if action == "remove" and target is not None:
        return [i for i in current if i != target]
    return list(current)
