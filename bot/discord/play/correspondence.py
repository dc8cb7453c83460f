"""``/challenges`` and ``/abort``: finding challenges to answer, and ending a game with no
result (alone early on, else with the opponent's agreement)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.discord.challenges.challenge_list import show_challenges
from bot.discord.installs import everywhere
from bot.discord.play.aborts import abort

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot


class CorrespondenceCog(commands.Cog):
    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="challenges",
        description=locale_str(
            "Pending challenges to you, from you and open ones here, with buttons"
        ),
    )
    @everywhere
    async def challenges(self, interaction: discord.Interaction[CrosspathBot]) -> None:
        await show_challenges(interaction)

    @app_commands.command(
        name="abort",
        description=locale_str(
            "Abort this game: alone before you both made two turns, else ask your opponent"
        ),
    )
    @everywhere
    async def abort(self, interaction: discord.Interaction[CrosspathBot]) -> None:
        await abort(interaction)
