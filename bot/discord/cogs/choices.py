"""Choice lists shared by several commands, built from the rules registry and the rule sheets."""

from __future__ import annotations

from discord import app_commands

from rules import game_class, game_names


def playable_games() -> list[app_commands.Choice[str]]:
    """Games the engine can play now, by title, in the registry's order (the registry may
    grow); ``/rules`` offers the same list, so every command lists the games alike."""
    return [app_commands.Choice(name=game_class(n).title, value=n) for n in game_names()]


FIRST_CHOICES = [
    app_commands.Choice(name="me", value="me"),
    app_commands.Choice(name="them", value="them"),
    app_commands.Choice(name="random", value="random"),
]
