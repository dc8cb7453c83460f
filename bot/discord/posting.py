"""Posting game messages to a game's channel, as new messages (never edits of old ones).

A move made hours after the last one must notify the player, so every turn is a fresh
``channel.send``.  Posting can fail after the move was committed (missing permission, Discord
down): the move stands, the failure is logged and reported, and ``/board`` re-posts.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.service import GameInfo

from .positions import position_of
from .turns import OutgoingMessage, colour_names, draw_board_async, turn_message

if TYPE_CHECKING:
    from .app import CrosspathBot

log = logging.getLogger("crosspath.discord")


def messageable(
    bot: CrosspathBot, channel_id: int, guild_id: int | None
) -> discord.abc.Messageable:
    """The channel or thread by id, from the cache or as a partial (no fetch needed to send)."""
    channel = bot.get_channel(channel_id)
    if isinstance(channel, discord.abc.Messageable):
        return channel
    return bot.get_partial_messageable(channel_id, guild_id=guild_id)


async def build_turn_message(
    bot: CrosspathBot, info: GameInfo, headline: str | None = None
) -> OutgoingMessage:
    guild = bot.get_guild(info.guild_id)
    names = await bot.fetch_names(info.player_ids, guild)
    game = position_of(info)
    board = await draw_board_async(game, colour_names(info, names))
    return turn_message(info, game, names, board, headline)


async def send(
    bot: CrosspathBot, channel_id: int, guild_id: int | None, message: OutgoingMessage
) -> discord.Message | None:
    """Send, or log and return None when Discord refuses (the caller tells the player)."""
    try:
        sent: discord.Message = await messageable(bot, channel_id, guild_id).send(  # type: ignore[call-overload]
            **message.send_kwargs()
        )
        return sent
    except discord.HTTPException as exc:
        log.warning(
            "could not post to a game channel",
            extra={
                "channel_id": channel_id,
                "guild_id": guild_id,
                "status": exc.status,
                "code": exc.code,
            },
        )
        return None


async def post_turn(
    bot: CrosspathBot, info: GameInfo, headline: str | None = None
) -> discord.Message | None:
    """Post the board and the turn embed for ``info`` in its channel."""
    message = await build_turn_message(bot, info, headline)
    return await send(bot, info.channel_id, info.guild_id, message)


NOT_POSTED = (
    "Your move counts, but I couldn't post the board in this channel "
    "(I may be missing the Send Messages or Attach Files permission). Use /board to show it."
)
