"""``/analyse [game]`` and the Analyse button on a finished game's final board (issue 48).

Both answer where the game may be shown (``/analyse`` as ``/board game:N`` does: publicly
where everyone can read the game's channel, else privately; the button privately, to whoever
pressed it), after the service said the game is finished and visible: a running game is
refused before anything is computed.  The message first shows progress, then the chart and
the summary.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.discord.access import Audience, picked_game
from bot.discord.analysis.flow import (
    Analyst,
    chart_file,
    pairs_file,
    run_analysis,
    seat_ids,
    summary_text,
)
from bot.discord.installs import everywhere
from bot.discord.persistent import PersistentButton, check_place
from bot.discord.replies import defer_public
from bot.discord.speech import private
from bot.discord.transformers import GamePick
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import AnalysisRefused, GameInfo

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

Interaction = discord.Interaction[Any]
ANALYSE_LABEL = N_("Analyse")
NO_PINGS = discord.AllowedMentions.none()
RUNNING = N_("Game #{id} is still being played: analysis is only for finished games.")


class AnalyseButton(PersistentButton, template=r"cp:analyse:(?P<game>[0-9]+)"):
    """Under a finished game's final board: its analysis, privately, for whoever presses."""

    def __init__(self, game_id: int, tr: Tongue = ENGLISH_TONGUE) -> None:
        super().__init__(
            f"cp:analyse:{game_id}", tr.gettext(ANALYSE_LABEL), discord.ButtonStyle.secondary
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AnalyseButton:
        return cls(int(match["game"]))

    async def act(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot: CrosspathBot = interaction.client
        info = await bot.service.get_game_by_id(self.game_id)
        # The button belongs to the game's own channel: pressed anywhere else, it is forged.
        check_place(interaction, info.guild_id, info.channel_id)
        tr = private(interaction)

        await deliver(
            bot, info, interaction, show_original(interaction), edit_original(interaction), tr
        )


def analyse_button(info: GameInfo, tr: Tongue) -> AnalyseButton | None:
    """The Analyse button for a finished game's final board, or None while it is played."""
    if info.status != "finished":
        return None
    return AnalyseButton(info.id, tr)


Show = Callable[[str], Awaitable[None]]
Finish = Callable[[str, list[discord.File]], Awaitable[None]]


async def deliver(
    bot: CrosspathBot,
    info: GameInfo,
    interaction: Interaction,
    show: Show,
    finish: Finish,
    tr: Tongue,
) -> None:
    """Analyse ``info`` for the caller: progress through ``show``, the answer through
    ``finish`` (the summary, which is also the chart's alt text, the chart, and the costliest
    moves drawn beside the better ones)."""
    if info.status == "active":
        raise AnalysisRefused(tr.gettext(RUNNING, id=info.id))
    cog = bot.get_cog("AnalysisCog")
    analyst = cog.analyst if isinstance(cog, AnalysisCog) else Analyst()
    stored = await run_analysis(bot, analyst, info, interaction.user.id, show, tr)
    seated = seat_ids(info, stored.analysis)
    names = await bot.fetch_names(seated, interaction.guild)
    text = summary_text(info, [names[user] for user in seated], stored.analysis, tr)
    files = [await chart_file(info, stored.analysis, text, tr)]
    moves = await pairs_file(info, stored.analysis, tr)
    if moves is not None:
        files.append(moves)
    await finish(text[:2000], files)


class AnalysisCog(commands.Cog):
    """``/analyse``; its button is registered with the others (``bot.discord.buttons``)."""

    def __init__(self, bot: CrosspathBot, analyst: Analyst | None = None) -> None:
        self.bot = bot
        self.analyst = analyst or Analyst()

    @app_commands.command(
        name="analyse", description=locale_str("The computer's analysis of a finished game")
    )
    @everywhere
    @app_commands.describe(game=locale_str("Game number (default: this channel's last game)"))
    async def analyse(self, interaction: Interaction, game: GamePick | None = None) -> None:
        await defer_public(interaction)
        info, shown = await picked_game(interaction, game)
        tr = private(interaction)
        if shown is Audience.CALLER:
            # The public "thinking…" goes; the private answer edits its own message.
            await interaction.delete_original_response()
            message = await interaction.followup.send(
                tr.gettext("Analysing game #{id}…", id=info.id), ephemeral=True, wait=True
            )

            async def show(text: str) -> None:
                await message.edit(content=text)

            async def finish(text: str, files: list[discord.File]) -> None:
                await message.edit(content=text, attachments=files, allowed_mentions=NO_PINGS)

            await deliver(self.bot, info, interaction, show, finish, tr)
            return
        await deliver(
            self.bot, info, interaction, show_original(interaction), edit_original(interaction), tr
        )


def show_original(interaction: Interaction) -> Show:
    async def show(text: str) -> None:
        await interaction.edit_original_response(content=text)

    return show


def edit_original(interaction: Interaction) -> Finish:
    async def finish(text: str, files: list[discord.File]) -> None:
        await interaction.edit_original_response(
            content=text, attachments=files, allowed_mentions=NO_PINGS
        )

    return finish
