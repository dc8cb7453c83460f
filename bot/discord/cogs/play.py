"""Playing: ``/move`` (with autocomplete), ``/swap``, ``/resign`` and ``/takeback``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from ..flows import ask_resign, play, request_takeback
from ..positions import legal_choices

if TYPE_CHECKING:
    from ..app import CrosspathBot

log = logging.getLogger("crosspath.discord")


class PlayCog(commands.Cog):
    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot

    @app_commands.command(name="move", description="Place a stone on a point, like c3")
    @app_commands.guild_only()
    @app_commands.describe(point="the point to place on, like c3 (pick from the legal moves)")
    async def move(
        self, interaction: discord.Interaction[Any], point: app_commands.Range[str, 1, 10]
    ) -> None:
        await play(interaction, point)

    @move.autocomplete("point")
    async def move_point(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal moves starting with what was typed; empty when there is nothing to offer."""
        try:
            channel_id = interaction.channel_id
            info = await self.bot.service.get_game(channel_id) if channel_id else None
            if info is None or not info.is_active or info.to_move_id != interaction.user.id:
                return []
            return [
                app_commands.Choice(name=m, value=m)
                for m in await legal_choices(self.bot.service, info, current)
            ]
        except Exception:
            log.exception("autocomplete failed", extra={"channel_id": interaction.channel_id})
            return []

    @app_commands.command(
        name="swap", description="Clear Path pie rule: take over Red's first stone"
    )
    @app_commands.guild_only()
    async def swap(self, interaction: discord.Interaction[Any]) -> None:
        await play(interaction, "swap")

    @app_commands.command(name="resign", description="Resign the game in this channel (asks first)")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        await ask_resign(interaction)

    @app_commands.command(name="takeback", description="Ask your opponent to undo your last turn")
    @app_commands.guild_only()
    async def takeback(self, interaction: discord.Interaction[Any]) -> None:
        await request_takeback(interaction)
