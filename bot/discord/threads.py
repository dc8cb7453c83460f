"""Game threads: whether a game started here can have its own thread, and opening one.

Both people's challenges (Accept) and the computer's use :func:`open_game_thread`, and
``/challenge`` uses :func:`thread_possible` to refuse a challenge at once when the game would
have to be played in a channel that already has one.
"""

from __future__ import annotations

import logging
from typing import Any, Final, Literal

import discord

log = logging.getLogger("crosspath.discord")

THREAD_ARCHIVE_MINUTES: Final[Literal[10080]] = 10080  # a week: correspondence games are slow


def thread_possible(interaction: discord.Interaction[Any], use_threads: bool) -> bool:
    """True when the server wants game threads and one can be made from this channel.

    Threads cannot be made inside a thread, and need Create Public Threads and Send Messages
    in Threads; without them the game is played in the channel itself.
    """
    perms = interaction.app_permissions
    return (
        use_threads
        and isinstance(interaction.channel, discord.TextChannel)
        and perms.create_public_threads
        and perms.send_messages_in_threads
    )


async def open_game_thread(
    interaction: discord.Interaction[Any], name: str, message: discord.Message | None
) -> discord.Thread | None:
    """A thread for the game, started from the challenge ``message`` when there is one, or
    None (the game is played in the channel) when Discord refuses."""
    try:
        if message is not None:
            return await message.create_thread(
                name=name[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        return await channel.create_thread(
            name=name[:100],
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
    except discord.HTTPException:
        log.warning("could not create a game thread; playing in the channel", exc_info=True)
        return None


async def delete_unused_thread(thread: discord.Thread | None) -> None:
    """Remove a thread made for a game that then could not start."""
    if thread is None:
        return
    try:
        await thread.delete()
    except discord.HTTPException:
        log.warning("could not delete an unused game thread", exc_info=True)
