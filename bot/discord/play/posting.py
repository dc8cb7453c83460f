"""Posting game messages to a game's channel, as new messages (never edits of old ones).

A move made hours after the last one must notify the player, so every turn is a fresh
``channel.send``.  Posting can fail after the move was committed: the move stands, the failure
is logged, and the player is told what happened in words that fit the cause.  A missing
permission needs a person (``/board`` re-posts once it is fixed); a Discord server error
(5xx, after discord.py's own retries) does not, so the game is remembered in :class:`Unposted`
and the clock re-posts its board once Discord answers again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.analysis.cog import analyse_button
from bot.discord.clocks.clock_text import caption_names
from bot.discord.notices.dms import Delivery, fallback_text, only, send_dm, turn_dm
from bot.discord.play.positions import position_of
from bot.discord.play.turns import (
    OutgoingMessage,
    challenge_embed,
    draw_board_async,
    mention,
    turn_message,
)
from bot.discord.play.venue import (
    answer_publicly,
    dm_players,
    others,
    reachable,
    tell_not_told,
)
from bot.discord.play.web_links import watch_view
from bot.discord.replies import send_ephemeral
from bot.discord.speech import of_guild, of_server, private, public
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import GameInfo, GameStarted, MoveResult, NoticePrefs

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

log = logging.getLogger("crosspath.discord")


@dataclass(frozen=True, slots=True)
class Posted:
    """What became of one post: the message, or Discord's refusal."""

    message: discord.Message | None
    error: discord.HTTPException | None = None

    @property
    def ok(self) -> bool:
        return self.message is not None

    @property
    def discord_failed(self) -> bool:
        """Discord itself failed (5xx): nothing for anyone here to fix."""
        return self.error is not None and self.error.status >= 500


class Unposted:
    """Games whose latest board Discord failed to take (5xx), in memory until re-posted.

    Only the newest state matters: a later successful post of the same game clears it.  Kept
    in memory on purpose: after a restart nobody is waiting for a half-posted turn, and
    ``/board`` always shows the current one.
    """

    def __init__(self) -> None:
        self._games: dict[int, str | None] = {}

    def add(self, game_id: int, headline: str | None) -> None:
        self._games[game_id] = headline

    def discard(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def pending(self) -> list[tuple[int, str | None]]:
        return list(self._games.items())

    def __len__(self) -> int:
        return len(self._games)


def messageable(
    bot: CrosspathBot, channel_id: int, guild_id: int | None
) -> discord.abc.Messageable:
    """The channel or thread by id, from the cache or as a partial (no fetch needed to send)."""
    channel = bot.get_channel(channel_id)
    if isinstance(channel, discord.abc.Messageable):
        return channel
    return bot.get_partial_messageable(channel_id, guild_id=guild_id)


async def build_turn_message(
    bot: CrosspathBot,
    info: GameInfo,
    headline: str | None = None,
    ping: bool = True,
    moved: MoveResult | None = None,
    tr: Tongue | None = None,
) -> OutgoingMessage:
    """The turn message for ``info``, from the position the service holds (no replay);
    ``ping=False`` names the player to move without pinging them.  ``moved``: the move that
    led here, whose result already holds the position and the rating change (nothing is
    read again).  ``tr``: its language (default: the server's, for a post the channel
    reads)."""
    guild = bot.get_guild(info.guild_id)
    names = await bot.fetch_names(info.player_ids, guild)
    if moved is not None and moved.position is not None:
        game = moved.position
        rating = moved.rating
    else:
        game = await position_of(bot.service, info)
        rating = await bot.service.ratings.game_rating(info.id) if info.result else None
    tr = tr or of_guild(guild, bot)  # a post the channel reads: the server's language
    board = await draw_board_async(game, caption_names(info, names, tr), tr)
    message = turn_message(
        info, game, names, board, headline, bot.computer.user_id, rating, ping, tr
    )
    view = await watch_view(bot, info)
    # /analyse reports long after any interaction, so it is for server games only
    analyse = analyse_button(info, tr) if reachable(info) else None
    if analyse is not None:
        view = view or discord.ui.View(timeout=None)
        view.add_item(analyse)
    return replace(message, view=view)


async def send(
    bot: CrosspathBot, channel_id: int, guild_id: int | None, message: OutgoingMessage
) -> Posted:
    """Send; a refusal by Discord is logged and returned, never raised."""
    try:
        sent = await messageable(bot, channel_id, guild_id).send(**message.send_kwargs())  # type: ignore[call-overload]
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
        return Posted(None, exc)
    return Posted(sent)


async def post_turn(
    bot: CrosspathBot,
    info: GameInfo,
    headline: str | None = None,
    *,
    moved: MoveResult | None = None,
    via: discord.Interaction[Any] | None = None,
) -> Posted:
    """Post the board and the turn embed for ``info`` in its channel, then tell the player
    to move as they chose (``/notify``: the post pings them, or a DM follows it).  After a
    move, pass its result as ``moved``: it carries the position, the rating change and the
    waiting player's choice, so the post reads nothing from the store.  ``via``: the
    interaction that led here, if any; a game in a DM or group DM is shown as its public
    answer, never posted (:func:`post_outside_servers`)."""
    if not reachable(info):
        return await post_outside_servers(bot, info, headline, moved=moved, via=via)
    if moved is not None:
        prefs = moved.waiting if waits_for_a_person(bot, info) else None
    else:
        prefs = await notice_prefs_of(bot, info)
    message = await build_turn_message(
        bot, info, headline, ping=prefs is None or prefs.pings, moved=moved
    )
    posted = await send(bot, info.channel_id, info.guild_id, message)
    if posted.ok:
        bot.unposted.discard(info.id)
    elif posted.discord_failed:
        bot.unposted.add(info.id, headline)
    if posted.message is not None and prefs is not None and prefs.wants_dm:
        await dm_turn(bot, info, message, posted.message.id, prefs.locale)
    return posted


async def post_outside_servers(
    bot: CrosspathBot,
    info: GameInfo,
    headline: str | None = None,
    *,
    moved: MoveResult | None = None,
    via: discord.Interaction[Any] | None = None,
) -> Posted:
    """A game in a DM or group DM (see ``venue``): the board is the public answer to ``via``
    (when there is one), and the players who did not act hear of it by DM, in their own
    language; whoever acted is told privately of a DM Discord refused.  Without ``via``
    (a clock), both players get it by DM; the result is then not a post (never ``ok``)."""
    if moved is not None:
        prefs = moved.waiting if waits_for_a_person(bot, info) else None
    else:
        prefs = await notice_prefs_of(bot, info)
    posted = Posted(None)
    drawn: dict[str, OutgoingMessage] = {}  # by language: a board is drawn once per language
    if via is not None:
        tr = public(via)
        message = await build_turn_message(
            bot, info, headline, ping=prefs is None or prefs.pings, moved=moved, tr=tr
        )
        drawn[tr.language] = message
        try:
            posted = Posted(await answer_publicly(via, message))
        except discord.HTTPException as exc:
            log.warning("could not answer with a game's board", extra={"game_id": info.id})
            posted = Posted(None, exc)
    message_id = posted.message.id if posted.message is not None else None

    async def build(user_id: int, prefs: NoticePrefs) -> OutgoingMessage:
        tr = bot.locales.tongue_of(user_id, prefs.locale)
        board = drawn.get(tr.language)
        if board is None:
            board = await build_turn_message(bot, info, headline, ping=False, moved=moved, tr=tr)
            drawn[tr.language] = board
        if info.is_active and info.to_move_id == user_id:
            return turn_dm(info, board, message_id, tr)
        return board  # the end, or news that is not their turn: the board itself

    acted = via.user.id if via is not None else None
    told = await dm_players(bot, info, others(info, acted, bot.computer.is_computer), build)
    await tell_not_told(via, told)
    return posted


async def notice_prefs_of(bot: CrosspathBot, info: GameInfo) -> NoticePrefs | None:
    """The notice preference of the player to move; None when nobody is (the game is over)
    or it is the computer."""
    if not waits_for_a_person(bot, info):
        return None
    assert info.to_move_id is not None
    return await bot.service.notices.notice_prefs(info.to_move_id)


def waits_for_a_person(bot: CrosspathBot, info: GameInfo) -> bool:
    """Whether ``info``'s game waits for a person to move (not over, not the computer)."""
    user_id = info.to_move_id
    return info.is_active and user_id is not None and not bot.computer.is_computer(user_id)


async def dm_turn(
    bot: CrosspathBot,
    info: GameInfo,
    message: OutgoingMessage,
    message_id: int,
    stored_locale: str | None = None,
) -> Delivery:
    """The turn by DM, with the board and a link to the post; if Discord refuses it, the
    player is mentioned in the channel instead (told how to fix closed DMs, once)."""
    assert info.to_move_id is not None
    dm = turn_dm(info, message, message_id, bot.locales.tongue_of(info.to_move_id, stored_locale))
    delivery = await send_dm(bot, info.to_move_id, **dm.send_kwargs())
    if delivery is not Delivery.SENT:
        channel_tr = of_server(bot, info.guild_id)
        try:
            await messageable(bot, info.channel_id, info.guild_id).send(
                fallback_text(info, delivery, channel_tr), allowed_mentions=only(info.to_move_id)
            )
        except discord.HTTPException:
            log.warning("could not post a DM's fallback mention", extra={"game_id": info.id})
    return delivery


async def repost_unposted(bot: CrosspathBot) -> int:
    """Post again every board Discord failed to take; returns how many went through."""
    done = 0
    for game_id, headline in bot.unposted.pending():
        info = await bot.service.get_game_by_id(game_id)
        if (await post_turn(bot, info, headline)).ok:
            done += 1
            log.info("re-posted a board after a Discord error", extra={"game_id": game_id})
    return done


async def announce_start(
    bot: CrosspathBot,
    interaction: discord.Interaction[Any],
    started: GameStarted,
    accepted_by: str,
    versus: str = "",
    *,
    note: str = "",
) -> Posted:
    """A game began: mark its challenge message accepted and post the first board.

    Used by both people's challenges (Accept) and the computer's; a board Discord did not
    take is reported to the player who acted.  ``note`` is a line under the headline (the
    admins' note when a wanted thread could not be made).
    """
    game = started.game
    tr = public(interaction)
    note_text = (
        tr.gettext(
            "Accepted by {who}: game #{id} in {channel}.",
            who=accepted_by,
            id=game.id,
            channel=f"<#{game.channel_id}>",
        )
        if game.channel_id != interaction.channel_id
        else tr.gettext("Accepted by {who}: game #{id}.", who=accepted_by, id=game.id)
    )
    embed = challenge_embed(started.challenge, note_text, tr)
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=embed, view=None)
        else:
            await interaction.response.edit_message(embed=embed, view=None)
    except discord.HTTPException:
        log.warning("could not update a challenge message", exc_info=True)
    return await post_start(bot, interaction, game, versus, note=note)


async def post_start(
    bot: CrosspathBot,
    interaction: discord.Interaction[Any],
    game: GameInfo,
    versus: str = "",
    *,
    note: str = "",
) -> Posted:
    """Post a new game's first board under its "starts" headline (and ``note``), in the
    channel's language (``versus`` and ``note`` are the caller's text)."""
    a, b = game.player_ids
    headline = public(interaction).gettext(
        "Game #{id} starts: {first} vs {second}{versus}. Good luck!",
        id=game.id,
        first=mention(a),
        second=mention(b),
        versus=versus,
    )
    if note:
        headline = f"{headline}\n{note}"
    posted = await post_turn(bot, game, headline, via=interaction)
    if not posted.ok:
        await send_ephemeral(interaction, not_posted(START_DONE, posted, private(interaction)))
    return posted


# What was done, for the first words of a "not posted" notice (translated where shown).
MOVE_DONE = N_("Your move counts")
START_DONE = N_("The game has started")
RESIGN_DONE = N_("You resigned")
TAKEBACK_DONE = N_("The last turn was taken back")
ENDED_DONE = N_("The game has ended")


def not_posted(done: str, posted: Posted, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The private notice after ``done`` (one of the ``*_DONE`` messages) when its board was
    not posted, worded per cause, in ``tr``'s language."""
    error = posted.error
    done = tr.gettext(done)
    if posted.discord_failed:
        return tr.gettext(
            "{done}, but Discord had an error, the board will be re-posted when it recovers.",
            done=done,
        )
    if isinstance(error, discord.Forbidden):
        return tr.gettext(
            "{done}, but I couldn't post the board in this channel: I'm missing the Send "
            "Messages, Embed Links or Attach Files permission here. Once that is fixed, "
            "/board shows it.",
            done=done,
        )
    if error is not None:
        return tr.gettext(
            "{done}, but Discord refused the board ({status}). Use /board to show it.",
            done=done,
            status=error.status,
        )
    return tr.gettext("{done}, but Discord refused the board. Use /board to show it.", done=done)
