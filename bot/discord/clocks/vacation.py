"""``/vacation start [days]``, ``/vacation end`` and ``/claim`` (soft time).

A vacation stops the clocks of all the player's games in every server (the service's rules);
the opponent of each game is told once, in that game's channel, with only them pinged.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.discord.clocks.soft_time import offer_claim
from bot.discord.installs import everywhere
from bot.discord.play.posting import messageable
from bot.discord.play.turns import mention
from bot.discord.play.venue import dm_text
from bot.discord.replies import log_failure, recorded
from bot.discord.speech import of_server, private
from bot.discord.translator import formatted
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import PausedGame, Vacation

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

Interaction = discord.Interaction["CrosspathBot"]
DEFAULT_DAYS = 7


def days_left(vacation: Vacation, tr: Tongue) -> str:
    return tr.ngettext(
        "{left} of {n} vacation day left in {year}.",
        "{left} of {n} vacation days left in {year}.",
        vacation.allowance,
        left=tr.number(vacation.days_left),
        year=vacation.year,
    )


def started_text(vacation: Vacation, tr: Tongue = ENGLISH_TONGUE) -> str:
    assert vacation.ends_at is not None
    stopped = tr.ngettext(
        "You are on vacation until {until}: the clocks of your {n} game are stopped.",
        "You are on vacation until {until}: the clocks of your {n} games are stopped.",
        len(vacation.games),
        until=f"<t:{int(vacation.ends_at.timestamp())}:f>",
    )
    return f"{stopped} {days_left(vacation, tr)}"


def ended_text(vacation: Vacation, tr: Tongue = ENGLISH_TONGUE) -> str:
    welcome = tr.gettext("Welcome back: your clocks run again.")
    return f"{welcome} {days_left(vacation, tr)}"


def notice_text(game: PausedGame, started: bool, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The opponent's notice in the game's channel (the server's language)."""
    who, opponent = mention(game.user_id), mention(game.opponent_id)
    if started and game.paused_until is not None:
        return tr.gettext(
            "{opponent}, {who} is on vacation: the clocks of game #{id} are stopped until {until}.",
            opponent=opponent,
            who=who,
            id=game.game_id,
            until=f"<t:{int(game.paused_until.timestamp())}:f>",
        )
    return tr.gettext(
        "{opponent}, {who} is back: the clocks of game #{id} run.",
        opponent=opponent,
        who=who,
        id=game.game_id,
    )


class VacationCog(commands.Cog):
    vacation = app_commands.Group(
        name="vacation",
        description=locale_str("Stop the clocks of all your games for a few days"),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
    )

    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot

    @vacation.command(
        name="start", description=locale_str("Stop your clocks in every game for whole days")
    )
    @app_commands.describe(days=formatted(N_("how many days (default {days})"), days=DEFAULT_DAYS))
    async def start(
        self, interaction: Interaction, days: app_commands.Range[int, 1, 366] = DEFAULT_DAYS
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        vacation = await self.bot.service.start_vacation(interaction.user.id, days)
        recorded(interaction, N_("Your vacation counts"))
        await interaction.followup.send(
            started_text(vacation, private(interaction)), ephemeral=True
        )
        await self.tell_opponents(vacation, started=True)

    @vacation.command(
        name="end", description=locale_str("End your vacation now; your clocks run again")
    )
    async def end(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        vacation = await self.bot.service.end_vacation(interaction.user.id)
        recorded(interaction, N_("Your return counts"))
        await interaction.followup.send(ended_text(vacation, private(interaction)), ephemeral=True)
        await self.tell_opponents(vacation, started=False)

    @app_commands.command(
        name="claim",
        description=locale_str("Claim the win or abort an untimed game your opponent left"),
    )
    @everywhere
    async def claim(self, interaction: Interaction) -> None:
        await offer_claim(interaction)

    async def tell_opponents(self, vacation: Vacation, started: bool) -> None:
        """One notice per game, in its channel (a failure is logged; the others still go)."""
        for game in vacation.games:
            if self.bot.computer.is_computer(game.opponent_id):
                continue
            if game.outside_servers:  # a DM game: the opponent hears of it by DM
                await dm_text(self.bot, [game.opponent_id], partial(notice_text, game, started))
                continue
            try:
                await messageable(self.bot, game.channel_id, game.guild_id).send(
                    notice_text(game, started, of_server(self.bot, game.guild_id)),
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(game.opponent_id)]
                    ),
                )
            except discord.HTTPException as exc:
                log_failure(
                    "could not tell an opponent about a vacation", exc, game_id=game.game_id
                )
