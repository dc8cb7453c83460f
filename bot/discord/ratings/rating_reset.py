"""``/admin ratings reset game:``'s confirmation button.

The command only asks; the reset happens when the admin who asked clicks Confirm (and still
has Manage Server).  The button carries the game and that admin's id in its custom id, so it
works after a restart too.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.discord.persistent import PersistentButton
from bot.discord.ratings.leaderboards import pool_title
from bot.discord.speech import private
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import PermissionDenied

NOT_YOURS = N_("Only the admin who asked for this reset can confirm it.")


def confirm_view(game: str, actor_id: int, tr: Tongue = ENGLISH_TONGUE) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmResetButton(game, actor_id, tr))
    return view


def question(game: str, tr: Tongue = ENGLISH_TONGUE) -> str:
    return tr.gettext(
        "Reset every {game} rating in this server? Every player starts again at 1500 and the "
        "{game} games played so far stop counting. This can't be undone.",
        game=pool_title(game, tr),
    )


class ConfirmResetButton(
    PersistentButton, template=r"cp:rr:(?P<game>[a-z+]{1,40}):(?P<actor>[0-9]{1,20})"
):
    """Confirms a ratings reset; only the admin who asked may press it."""

    def __init__(self, game: str, actor_id: int, tr: Tongue = ENGLISH_TONGUE) -> None:
        label = tr.gettext("Confirm reset")
        super().__init__(f"cp:rr:{game}:{actor_id}", label, discord.ButtonStyle.danger)
        self.game = game
        self.actor_id = actor_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConfirmResetButton:
        return cls(match["game"], int(match["actor"]))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        tr = private(interaction)
        if interaction.user.id != self.actor_id:
            raise PermissionDenied(tr.gettext(NOT_YOURS))
        if not interaction.permissions.manage_guild:
            raise app_commands.MissingPermissions(["manage_guild"])
        assert interaction.guild_id is not None  # checked with the message
        players = await interaction.client.service.ratings.ratings_reset(
            interaction.guild_id, self.game, interaction.user.id
        )
        content = tr.ngettext(
            "Reset: {n} player's {game} ratings were cleared.",
            "Reset: {n} players' {game} ratings were cleared.",
            players,
            game=pool_title(self.game, tr),
        )
        await interaction.response.edit_message(content=content, view=None)
