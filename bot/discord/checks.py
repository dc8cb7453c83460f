"""discord.py checks shared by commands: run before the command, refusals become replies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

T = TypeVar("T")


def missing_board_permissions(interaction: discord.Interaction[Any]) -> list[str]:
    """What the bot lacks here to post boards (Send Messages in Threads inside a thread)."""
    perms = interaction.app_permissions
    needed = {"embed_links": perms.embed_links, "attach_files": perms.attach_files}
    if isinstance(interaction.channel, discord.Thread):
        needed["send_messages_in_threads"] = perms.send_messages_in_threads
    else:
        needed["send_messages"] = perms.send_messages
    return [name for name, granted in needed.items() if not granted]


def can_post_boards() -> Callable[[T], T]:
    """``@can_post_boards()``: refuse a command (BotMissingPermissions) where no board could
    be posted, before anything is created.  ``checks.bot_has_permissions`` cannot say
    "Send Messages here, or Send Messages in Threads in a thread", so this is one small check.
    Outside servers there is nothing to post to: every board answers an interaction there.
    """

    def predicate(interaction: discord.Interaction[Any]) -> bool:
        if interaction.guild_id is None:
            return True  # a DM or group DM: the boards are the interactions' own answers
        missing = missing_board_permissions(interaction)
        if missing:
            raise app_commands.BotMissingPermissions(missing)
        return True

    return app_commands.check(predicate)
