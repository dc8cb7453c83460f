"""Playing: ``/move`` (with autocomplete), ``/swap``, ``/resign``, ``/takeback`` and ``/hint``."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.discord.installs import everywhere
from bot.discord.play.flows import ask_resign, play, request_takeback
from bot.discord.play.hints import give_hint
from bot.discord.play.positions import legal_choices
from bot.discord.replies import log_failure
from bot.discord.transformers import PointOption

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot


AUTOCOMPLETE_BUDGET = 0.05
"""Seconds autocomplete waits for the legal moves before answering with what was typed."""


def _log_failure(lookup: asyncio.Future[list[str]]) -> None:
    """Autocomplete shows no errors: log one (also from a lookup that outlived its answer)."""
    error = None if lookup.cancelled() else lookup.exception()
    if error is not None:
        log_failure("autocomplete failed", error)


class PlayCog(commands.Cog):
    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot
        self.autocomplete_budget = AUTOCOMPLETE_BUDGET

    @app_commands.command(name="move", description=locale_str("Place a stone on a point, like c3"))
    @everywhere
    @app_commands.describe(
        point=locale_str("the point to place on, like c3 (pick from the legal moves)")
    )
    async def move(
        self, interaction: discord.Interaction[CrosspathBot], point: PointOption
    ) -> None:
        await play(interaction, point)

    @move.autocomplete("point")
    async def move_point(
        self, interaction: discord.Interaction[CrosspathBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal moves starting with what was typed; empty when there is nothing to offer.

        Autocomplete cannot be deferred, so it answers within :data:`AUTOCOMPLETE_BUDGET`: if
        the game is still being loaded (cold after a restart), it offers what was typed and
        lets the load finish in the background, so the next key press finds it ready.
        """
        lookup = asyncio.ensure_future(self._legal_choices(interaction, current))
        lookup.add_done_callback(_log_failure)
        try:
            moves = await asyncio.wait_for(asyncio.shield(lookup), self.autocomplete_budget)
        except TimeoutError:
            typed = current.strip().lower()[:10]
            moves = [typed] if typed else []
        return [app_commands.Choice(name=m, value=m) for m in moves]

    async def _legal_choices(
        self, interaction: discord.Interaction[CrosspathBot], typed: str
    ) -> list[str]:
        channel_id = interaction.channel_id
        info = await self.bot.service.get_game(channel_id) if channel_id else None
        if info is None or not info.is_active or info.to_move_id != interaction.user.id:
            return []
        return await legal_choices(self.bot.service, info, typed)

    @app_commands.command(
        name="swap",
        description=locale_str(
            "Pie rule: take over the first player's colour after their first turn"
        ),
    )
    @everywhere
    async def swap(self, interaction: discord.Interaction[CrosspathBot]) -> None:
        await play(interaction, "swap")

    @app_commands.command(
        name="resign", description=locale_str("Resign the game in this channel (asks first)")
    )
    @everywhere
    async def resign(self, interaction: discord.Interaction[CrosspathBot]) -> None:
        await ask_resign(interaction)

    @app_commands.command(
        name="takeback", description=locale_str("Ask your opponent to undo your last turn")
    )
    @everywhere
    async def takeback(self, interaction: discord.Interaction[CrosspathBot]) -> None:
        await request_takeback(interaction)

    @app_commands.command(
        name="hint",
        description=locale_str(
            "Ask the computer for a hint (games that allow hints; only you see it)"
        ),
    )
    @everywhere
    async def hint(self, interaction: discord.Interaction[CrosspathBot]) -> None:
        await give_hint(interaction)
