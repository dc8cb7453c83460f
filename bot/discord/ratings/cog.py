"""``/leaderboard game:`` and ``/profile [user]``: a server's ratings (see ``leaderboards``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.discord.choices import rating_pools
from bot.discord.context import ids
from bot.discord.installs import everywhere, servers_only
from bot.discord.ratings.leaderboards import leaderboard_page, profile_reply
from bot.discord.speech import public

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

Interaction = discord.Interaction["CrosspathBot"]


class RatingsCog(commands.Cog):
    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="leaderboard", description=locale_str("This server's top players in a game")
    )
    @servers_only
    @app_commands.describe(game=locale_str("which game's ratings"))
    @app_commands.choices(game=rating_pools())
    async def leaderboard(self, interaction: Interaction, game: app_commands.Choice[str]) -> None:
        guild_id, _ = ids(interaction)
        await interaction.response.defer(thinking=True)
        embed, file, view = await leaderboard_page(
            self.bot, guild_id, game.value, 0, public(interaction)
        )
        await interaction.followup.send(
            embed=embed,
            file=file or discord.utils.MISSING,
            view=view or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name="profile", description=locale_str("A player's ratings, record and history")
    )
    @everywhere
    @app_commands.describe(user=locale_str("whose profile (default: yours)"))
    async def profile(self, interaction: Interaction, user: discord.Member | None = None) -> None:
        guild_id, _ = ids(interaction)
        who = user or interaction.user
        await interaction.response.defer(thinking=True)
        embed, file = await profile_reply(interaction, guild_id, who.id, who.display_name)
        await interaction.followup.send(
            embed=embed,
            file=file or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions.none(),
        )
