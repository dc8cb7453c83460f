"""Option transformers: typed values for commands, checked before the command runs.

A value that does not parse is refused with the service's own sentence (it names what was
typed), through the tree's error handler, and the command never runs.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.context import bot_of, ids
from bot.discord.speech import private
from bot.i18n import ENGLISH_TONGUE, Tongue
from bot.service import GameSummary, TimeControl


class TimeControlTransformer(app_commands.Transformer):
    """``12h``, ``3d``, ``1d12h``, ``90m`` or ``none`` -> :class:`TimeControl`."""

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return 20

    async def transform(self, interaction: discord.Interaction[Any], value: Any) -> TimeControl:
        return TimeControl.parse(str(value))  # InvalidTimeControl names the text


TimeOption = app_commands.Transform[TimeControl, TimeControlTransformer]


class PointTransformer(app_commands.Transformer):
    """A point as typed (``C3``, `` c3 ``) -> ``c3``; legality is the engine's to judge.

    The option keeps ``/move``'s autocomplete (the legal points, see ``PlayCog``)."""

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return 10

    async def transform(self, interaction: discord.Interaction[Any], value: Any) -> str:
        return str(value).strip().lower()


PointOption = app_commands.Transform[str, PointTransformer]


class GamePickTransformer(app_commands.Transformer):
    """A game number, autocompleted over the player's games in this server (newest first)."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return 1

    async def transform(self, interaction: discord.Interaction[Any], value: Any) -> int:
        return int(value)

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: int | float | str
    ) -> list[app_commands.Choice[int]]:
        if interaction.channel_id is None:
            return []
        page = await bot_of(interaction).service.game_summaries(
            ids(interaction)[0], player_id=interaction.user.id, limit=25
        )
        typed = str(value).strip().lstrip("#")
        return [
            app_commands.Choice(name=choice_name(g, private(interaction)), value=g.id)
            for g in page.games
            if str(g.id).startswith(typed)
        ]


GamePick = app_commands.Transform[int, GamePickTransformer]


def choice_name(game: GameSummary, tr: Tongue = ENGLISH_TONGUE) -> str:
    """A game in the player's autocomplete list, in their language."""
    if game.is_active:
        return tr.gettext(
            "#{id} {game} {size}×{size} (playing)", id=game.id, game=game.title, size=game.size
        )
    return tr.gettext(
        "#{id} {game} {size}×{size} (over)", id=game.id, game=game.title, size=game.size
    )
