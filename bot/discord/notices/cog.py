"""``/notify``: how a player hears of their turn; and the loop that sends the daily digests.

The preference is the player's, for every server (the service stores one row per player).
The digest hour is a UTC hour; the answer shows it as a Discord timestamp too, which each
player's client shows in their own time zone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands, tasks

from bot.discord.installs import everywhere
from bot.discord.notices.dms import DigestRun, DigestSender
from bot.discord.replies import log_failure
from bot.discord.speech import private
from bot.i18n import ENGLISH_TONGUE, Tongue
from bot.service import NoticePrefs

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

Interaction = discord.Interaction["CrosspathBot"]

NOTICE_CHOICES = [
    app_commands.Choice(
        name=locale_str("mention: a mention in the game's channel (default)"), value="mention"
    ),
    app_commands.Choice(
        name=locale_str("dm: a direct message with the board on each turn"), value="dm"
    ),
    app_commands.Choice(
        name=locale_str("digest: one direct message a day listing your turns"), value="digest"
    ),
    app_commands.Choice(name=locale_str("off: no notice (the board is still posted)"), value="off"),
]
DIGEST_SECONDS = 60.0
"""How often the digest loop looks for due digests (the hour is what players choose)."""


def notify_answer(prefs: NoticePrefs, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The private confirmation of ``/notify``, saying what will happen from now on."""
    everywhere = tr.gettext("This holds in every server where you play Crosspath.")
    if prefs.mode == "mention":
        text = tr.gettext("On your turn I'll mention you in the game's channel.")
    elif prefs.mode == "dm":
        text = tr.gettext(
            "On your turn I'll send you a direct message with the board and a link to the "
            "game; the channel post no longer pings you. If your DMs are closed to me, I'll "
            "mention you in the channel instead."
        )
    elif prefs.mode == "digest":
        assert prefs.next_digest is not None
        stamp = int(prefs.next_digest.timestamp())
        text = tr.gettext(
            "Once a day at {hour} UTC ({local} your time) I'll send you a direct message "
            "listing every game waiting on your move, from every server; the first one "
            "{first}. Turn posts no longer ping you. Change the hour with /notify digest hour:",
            hour=f"{prefs.digest_hour:02d}:00",
            local=f"<t:{stamp}:t>",
            first=f"<t:{stamp}:R>",
        )
    else:
        text = tr.gettext(
            "No notices: each board is still posted in its game's channel, without a ping. "
            "/games shows where it is your move."
        )
    return f"{text} {everywhere}"


class NoticesCog(commands.Cog):
    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot
        self.digests = DigestSender(bot)
        self.tick.change_interval(seconds=DIGEST_SECONDS)

    async def cog_load(self) -> None:
        if self.bot.run_clock:
            self.tick.start()

    async def cog_unload(self) -> None:
        self.tick.cancel()

    @app_commands.command(name="notify", description=locale_str("How I tell you it's your move"))
    @everywhere
    @app_commands.describe(
        mode=locale_str("mention, a DM each turn, a daily digest by DM, or off"),
        hour=locale_str(
            "the digest's hour of the day in UTC, 0-23 (default 18, or your last choice)"
        ),
    )
    @app_commands.choices(mode=NOTICE_CHOICES)
    async def notify(
        self,
        interaction: Interaction,
        mode: app_commands.Choice[str],
        hour: app_commands.Range[int, 0, 23] | None = None,
    ) -> None:
        prefs = await self.bot.service.notices.set_notice(interaction.user.id, mode.value, hour)
        await interaction.response.send_message(
            notify_answer(prefs, private(interaction)), ephemeral=True
        )

    @tasks.loop(seconds=60)
    async def tick(self) -> None:
        try:
            await self.run_once()
        except Exception as exc:  # an outage must not stop the digests
            log_failure("digest pass failed; retrying at the next one", exc)

    @tick.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def run_once(self) -> DigestRun:
        """Send every digest due now; also called directly by tests and the benchmark."""
        return await self.digests.run_once()
