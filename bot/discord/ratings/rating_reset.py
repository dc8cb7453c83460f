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
from bot.service import PermissionDenied
from rules import variant_title

NOT_YOURS = "Only the admin who asked for this reset can confirm it."


def confirm_view(game: str, actor_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmResetButton(game, actor_id))
    return view


def question(game: str) -> str:
    title = variant_title(game)
    return (
        f"Reset every {title} rating in this server? Every player starts again at 1500 and the "
        f"{title} games played so far stop counting. This can't be undone."
    )


class ConfirmResetButton(
    PersistentButton, template=r"cp:rr:(?P<game>[a-z+]{1,40}):(?P<actor>[0-9]{1,20})"
):
    """Confirms a ratings reset; only the admin who asked may press it."""

    def __init__(self, game: str, actor_id: int) -> None:
        super().__init__(f"cp:rr:{game}:{actor_id}", "Confirm reset", discord.ButtonStyle.danger)
        self.game = game
        self.actor_id = actor_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConfirmResetButton:
        return cls(match["game"], int(match["actor"]))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.user.id != self.actor_id:
            raise PermissionDenied(NOT_YOURS)
        if not interaction.permissions.manage_guild:
            raise app_commands.MissingPermissions(["manage_guild"])
        assert interaction.guild_id is not None  # checked with the message
        players = await interaction.client.service.ratings.ratings_reset(
            interaction.guild_id, self.game, interaction.user.id
        )
        title = variant_title(self.game)
        await interaction.response.edit_message(
            content=f"Reset: {players} players' {title} ratings were cleared.", view=None
        )
