"""Game threads: whether a game started here can have its own thread, and opening one.

Both people's challenges (Accept) and the computer's use :func:`open_game_thread`, and
``/challenge`` uses :func:`thread_possible` to refuse a challenge at once when the game would
have to be played in a channel that already has one.
"""

from __future__ import annotations

import logging
from typing import Any, Final, Literal

import discord

from bot.i18n import N_

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


THREAD_NOTE = N_(
    "Note for this server's admins: games here would each get their own thread, but I can't "
    "create one in this channel (I need Create Public Threads and Send Messages in Threads), "
    "so this game is played in the channel. Grant those permissions, or turn threads off "
    "with /admin settings set threads:False."
)
"""Said when a server wants game threads and the bot's permissions rule them out."""


def threads_refused(interaction: discord.Interaction[Any], use_threads: bool) -> bool:
    """True when the server wants threads and this is a text channel, but the bot lacks
    the permissions to create one (the admins can fix that; a thread can never hold one)."""
    return (
        use_threads
        and isinstance(interaction.channel, discord.TextChannel)
        and not thread_possible(interaction, use_threads)
    )


def may_thread_in(channel: object, me: discord.Member | None) -> bool:
    """The bot may open a game thread in ``channel`` (a channel other than the one an
    interaction came from, so its permissions are computed from the cached roles)."""
    if not isinstance(channel, discord.TextChannel) or me is None:
        return False
    perms = channel.permissions_for(me)
    return perms.create_public_threads and perms.send_messages_in_threads


async def open_thread_in(
    channel: discord.TextChannel, name: str, message_id: int | None
) -> discord.Thread | None:
    """A game thread in ``channel``, started from message ``message_id`` when known, or None
    (the game is played in the channel) when Discord refuses."""
    starter = None if message_id is None else channel.get_partial_message(message_id)
    return await _opened(starter or channel, name)


async def open_game_thread(
    interaction: discord.Interaction[Any], name: str, message: discord.Message | None
) -> discord.Thread | None:
    """A thread for the game, started from the challenge ``message`` when there is one, or
    None (the game is played in the channel) when Discord refuses."""
    if message is not None:
        return await _opened(message, name)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    return await _opened(channel, name)


async def _opened(
    source: discord.Message | discord.PartialMessage | discord.TextChannel, name: str
) -> discord.Thread | None:
    try:
        if isinstance(source, discord.TextChannel):
            return await source.create_thread(
                name=name[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        return await source.create_thread(
            name=name[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
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
