"""Soft time in Discord: ``/claim`` shows the waiting player two buttons, Claim the win and
Abort, on an untimed game that has waited on the opponent longer than the server's soft time.

The buttons are persistent (``cp:soft:yes|no:<game>:<version>``, yes claiming the win): they
work after a restart, act only from the game's own channel (``check_place``) and only on the
game at the version they were made for, so a move by the opponent in between makes them
stale.  The service decides everything else (``GameService.claim_soft_time``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import discord

from bot.discord.context import bot_of, current_game, game_here
from bot.discord.persistent import ConfirmButton, check_place
from bot.discord.play.posting import post_turn
from bot.discord.play.turns import relative_time
from bot.discord.replies import recorded, send_ephemeral
from bot.discord.speech import private
from bot.i18n import N_
from bot.service import StaleAction

Interaction = discord.Interaction[Any]


class SoftTimeButton(ConfirmButton, prefix="soft"):
    """The waiting player's choice on a stalled untimed game: Yes claims the win, No aborts
    (``cp:soft:yes|no:<game>:<version>``)."""

    LABELS: ClassVar[dict[bool, tuple[str, discord.ButtonStyle]]] = {
        True: (N_("Claim the win"), discord.ButtonStyle.danger),
        False: (N_("Abort the game"), discord.ButtonStyle.secondary),
    }

    async def act(self, interaction: Interaction) -> None:
        info = await current_game(interaction, self.game_id)
        check_place(interaction, info.guild_id, info.channel_id)
        if info.version != self.version:
            raise StaleAction(
                private(interaction).gettext(
                    "The game has moved on since; it is no longer waiting that long."
                )
            )
        bot = bot_of(interaction)
        ended = await bot.service.soft_time.claim_soft_time(
            info.channel_id,
            interaction.user.id,
            "win" if self.yes else "abort",
            expected_version=self.version,
            game_id=info.id,
        )
        recorded(interaction, N_("The claim counts"))
        tr = private(interaction)
        await interaction.response.edit_message(
            content=tr.gettext("You claimed the win.")
            if self.yes
            else tr.gettext("You aborted the game."),
            view=None,
        )
        await post_turn(bot, ended.game, via=interaction)


async def offer_claim(interaction: Interaction) -> None:
    """``/claim``: the buttons when the soft time has passed, else when it will."""
    info = await game_here(interaction)
    service = bot_of(interaction).service
    at = await service.soft_time.soft_time_at(info.channel_id)
    tr = private(interaction)
    if at is None:
        text = tr.gettext("This game has a clock: it ends on time by itself.")
        await send_ephemeral(interaction, text)
        return
    if interaction.user.id not in info.player_ids:
        await send_ephemeral(interaction, tr.gettext("You are not playing in this game."))
        return
    if info.to_move_id == interaction.user.id:
        text = tr.gettext("The game is waiting on you: make your move.")
        await send_ephemeral(interaction, text)
        return
    if at > service.core.clock():
        await send_ephemeral(
            interaction,
            tr.gettext(
                "Your opponent still has time: you can claim {when}.", when=relative_time(at)
            ),
        )
        return
    await interaction.response.send_message(
        tr.gettext(
            "Your opponent has not moved for a long time. Claim the win, or abort the game?"
        ),
        view=SoftTimeButton.pair(info.id, info.version, tr),
        ephemeral=True,
    )
