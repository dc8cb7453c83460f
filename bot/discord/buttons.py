"""Persistent buttons: their custom ids carry what they act on, so they survive restarts.

Each button is a :class:`discord.ui.DynamicItem`; discord.py matches a clicked custom id
against the template and rebuilds the item, even in a new process.  What a click may do is
decided by the service from the current state: a button for a finished game or an older
position (its version no longer matches) is answered ephemerally and changes nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from .context import STALE, bot_of, current_game
from .game_lists import NextPageButton
from .replies import handle_error, send_ephemeral

if TYPE_CHECKING:
    pass

Interaction = discord.Interaction[Any]


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cp:chal:(?P<action>accept|decline|cancel):(?P<id>[0-9]+)",
):
    """Accept (challenged player, or anyone if open), Decline (challenged), Cancel (challenger)."""

    STYLES: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "accept": ("Accept", discord.ButtonStyle.success),
        "decline": ("Decline", discord.ButtonStyle.danger),
        "cancel": ("Cancel", discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, challenge_id: int) -> None:
        label, style = self.STYLES[action]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"cp:chal:{action}:{challenge_id}"
            )
        )
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ChallengeButton:
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: Interaction) -> None:
        from .flows import accept_challenge, close_challenge

        try:
            bot_of(interaction).remember(interaction.user)
            if self.action == "accept":
                await accept_challenge(interaction, self.challenge_id)
            else:
                await close_challenge(interaction, self.challenge_id, self.action)
        except Exception as exc:
            await handle_error(interaction, exc)


def challenge_view(challenge_id: int, is_open: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    actions = ("accept", "cancel") if is_open else ("accept", "decline", "cancel")
    for action in actions:
        view.add_item(ChallengeButton(action, challenge_id))
    return view


class ResignButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cp:resign:(?P<action>yes|no):(?P<game>[0-9]+):(?P<version>[0-9]+)",
):
    """The confirmation shown (privately) after ``/resign``."""

    def __init__(self, action: str, game_id: int, version: int) -> None:
        label, style = (
            ("Yes, resign", discord.ButtonStyle.danger)
            if action == "yes"
            else ("No, keep playing", discord.ButtonStyle.secondary)
        )
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"cp:resign:{action}:{game_id}:{version}"
            )
        )
        self.action = action
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ResignButton:
        return cls(match["action"], int(match["game"]), int(match["version"]))

    async def callback(self, interaction: Interaction) -> None:
        from .flows import confirm_resign

        try:
            if self.action == "no":
                await interaction.response.edit_message(
                    content="Not resigning. Play on!", view=None
                )
                return
            await confirm_resign(interaction, self.game_id, self.version)
        except Exception as exc:
            await handle_error(interaction, exc)


def resign_view(game_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton("yes", game_id, version))
    view.add_item(ResignButton("no", game_id, version))
    return view


class TakebackButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"cp:takeback:(?P<action>yes|no):(?P<game>[0-9]+):(?P<version>[0-9]+)",
):
    """The opponent's answer to a takeback request."""

    def __init__(self, action: str, game_id: int, version: int) -> None:
        label, style = (
            ("Allow takeback", discord.ButtonStyle.success)
            if action == "yes"
            else ("Refuse", discord.ButtonStyle.danger)
        )
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"cp:takeback:{action}:{game_id}:{version}"
            )
        )
        self.action = action
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> TakebackButton:
        return cls(match["action"], int(match["game"]), int(match["version"]))

    async def callback(self, interaction: Interaction) -> None:
        from .flows import answer_takeback

        try:
            await answer_takeback(interaction, self.game_id, self.version, self.action == "yes")
        except Exception as exc:
            await handle_error(interaction, exc)


def takeback_view(game_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TakebackButton("yes", game_id, version))
    view.add_item(TakebackButton("no", game_id, version))
    return view


_KNOWN = (ChallengeButton, ResignButton, TakebackButton, NextPageButton)


def _retired_template() -> str:
    """``cp:`` ids that none of the current buttons accept (from an older or newer version)."""
    known = "|".join(
        re.sub(r"\(\?P<\w+>", "(?:", item.__discord_ui_compiled_template__.pattern) + "$"
        for item in _KNOWN
    )
    return rf"(?!(?:{known}))cp:.*"


class RetiredButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=_retired_template()
):
    """Answers buttons this version no longer understands, instead of letting them fail."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="retired", custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RetiredButton:
        return cls(match.string)

    async def callback(self, interaction: Interaction) -> None:
        await send_ephemeral(
            interaction, "This button is from an older version of the bot and no longer works."
        )


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (*_KNOWN, RetiredButton)

__all__ = [
    "DYNAMIC_ITEMS",
    "STALE",
    "ChallengeButton",
    "ResignButton",
    "TakebackButton",
    "challenge_view",
    "current_game",
    "resign_view",
    "send_ephemeral",
    "takeback_view",
]
