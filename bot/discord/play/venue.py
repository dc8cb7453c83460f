"""Where a game lives decides how its news reaches the players (issue 47).

A game in a server's channel or thread is posted there by the bot on its own
(``posting.send``).  A game in a DM or group DM (``GameInfo.outside_servers``, kept with the
game from the challenge that started it) lives in a channel the bot reached only through a
user install: it may answer the interactions it is sent there (a response and at most five
follow-ups, for 15 minutes) but never post on its own.  So in such a game:

- the board after every action is the public answer to that action's interaction
  (:func:`answer_publicly`);
- the player who did not act hears of it by DM from the bot (``notices.dms.send_dm``), and
  when Discord refuses that DM (50007: their DMs are closed to the bot), the player who
  acted is told privately that the other will see it when they next open the conversation
  (:data:`NOT_TOLD`);
- what happens without an interaction (a clock's reminder, a loss on time) goes by DM to
  both players, never to the game's channel (:func:`dm_players`).

Nothing here posts to a game's channel: ``channel.send`` is never called for these games.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.notices.dms import Delivery, send_dm
from bot.discord.play.turns import OutgoingMessage, mention
from bot.discord.replies import PUBLIC_DEFER
from bot.discord.speech import private
from bot.i18n import N_, Tongue
from bot.service import GameInfo, NoticePrefs

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

log = logging.getLogger("crosspath.discord")

NOT_TOLD = N_(
    "I couldn't tell {who} by direct message (their DMs are closed to me). They will see the"
    " board when they next open this conversation, or you can let them know yourself."
)


def reachable(info: GameInfo) -> bool:
    """Whether the bot may post to the game's channel on its own (a server's channel)."""
    return not info.outside_servers


async def answer_publicly(
    interaction: discord.Interaction[Any], message: OutgoingMessage
) -> discord.Message:
    """``message`` as the public answer to ``interaction``: the reply, the follow-up that
    replaces a public "thinking…", or a further follow-up.  Raises what Discord raises."""
    kwargs: dict[str, Any] = message.send_kwargs()
    if not interaction.response.is_done():
        await interaction.response.send_message(**kwargs)
        return await interaction.original_response()
    interaction.extras.pop(PUBLIC_DEFER, None)  # this follow-up replaces the "thinking…"
    sent: discord.Message = await interaction.followup.send(wait=True, **kwargs)
    return sent


def others(info: GameInfo, acted_by: int | None, computer: Callable[[int], bool]) -> list[int]:
    """Who should hear of this state of the game by DM: the player to move while it goes
    on, both players once it is over; never the one who acted, nor the computer."""
    wanted: Iterable[int] = (
        info.player_ids if not info.is_active or info.to_move_id is None else (info.to_move_id,)
    )
    return [uid for uid in dict.fromkeys(wanted) if uid != acted_by and not computer(uid)]


async def dm_players(
    bot: CrosspathBot,
    info: GameInfo,
    user_ids: Iterable[int],
    build: Callable[[int, NoticePrefs], Awaitable[OutgoingMessage]],
) -> dict[int, Delivery]:
    """DM each of ``user_ids`` the message ``build`` makes for them (in their language),
    unless they turned notices off or their DMs are known to be closed; what became of each
    (a player not tried counts as ``CLOSED`` when their DMs are closed)."""
    deliveries: dict[int, Delivery] = {}
    for user_id in user_ids:
        prefs = await bot.service.notices.notice_prefs(user_id)
        if prefs.mode == "off":
            continue
        if prefs.dm_closed:  # Discord would refuse it: never attempt a post that must fail
            deliveries[user_id] = Delivery.CLOSED
            continue
        message = await build(user_id, prefs)
        deliveries[user_id] = await send_dm(bot, user_id, **message.send_kwargs())
    return deliveries


async def dm_text(
    bot: CrosspathBot, user_ids: Iterable[int], text: Callable[[Tongue], str]
) -> dict[int, Delivery]:
    """DM each of ``user_ids`` a short notice (a clock's reminder, an expired challenge, a
    vacation), ``text`` in their own language; players whose DMs are known to be closed are
    not tried (``CLOSED``)."""
    deliveries: dict[int, Delivery] = {}
    for user_id in dict.fromkeys(user_ids):
        if bot.computer.is_computer(user_id):
            continue
        prefs = await bot.service.notices.notice_prefs(user_id)
        if prefs.dm_closed:
            deliveries[user_id] = Delivery.CLOSED
            continue
        words = text(bot.locales.tongue_of(user_id, prefs.locale))
        none = discord.AllowedMentions.none()
        deliveries[user_id] = await send_dm(bot, user_id, content=words, allowed_mentions=none)
    return deliveries


async def tell_not_told(
    interaction: discord.Interaction[Any] | None, deliveries: dict[int, Delivery]
) -> None:
    """Tell the player who acted, privately, who could not be reached by DM."""
    missed = [uid for uid, delivery in deliveries.items() if delivery is not Delivery.SENT]
    if interaction is None or not missed:
        return
    tr = private(interaction)
    who = tr.listing([mention(uid) for uid in missed])
    try:
        await interaction.followup.send(
            tr.gettext(NOT_TOLD, who=who),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.warning("could not say a turn DM failed", exc_info=True)


__all__ = [
    "NOT_TOLD",
    "answer_publicly",
    "dm_players",
    "dm_text",
    "others",
    "reachable",
    "tell_not_told",
]
