"""``/challenges``: the pending challenges a player can act on, each with its buttons.

The list (sent privately) shows the challenges to the player, from the player, and the open
ones in this server (``service.challenges.pending_challenges``), with Accept, Decline or
Cancel where each
applies.  The buttons are persistent (``cp:chals:<action>:<challenge id>``) and check, before
anything else, that the message they sit on is a list naming that challenge and that the
challenge belongs to the server pressed from: challenge ids are sequential, so a doctored id
alone must reach nothing.  What the player may do is then the service's decision, as for the
buttons on the challenge itself.  After each action the list is re-read, so it is current.

A list shows :data:`LIST_LIMIT` challenges; Previous and Next buttons
(``cp:chalpage:<user>:prev|next:<challenge id>``) page through the rest, re-reading the list
before or after the challenge named, so they work after a restart and show what is current.

Accepting from the list starts the game where the challenge was made: in a thread there (from
the challenge's own message when its id is known) when the server wants threads and the bot
may make one, else in that channel.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import discord

from bot.discord.context import bot_of, ids
from bot.discord.persistent import ELSEWHERE, PersistentButton, refuse_origin
from bot.discord.play.flows import acceptable, thread_name
from bot.discord.play.posting import START_DONE, post_start
from bot.discord.play.threads import (
    THREAD_NOTE,
    delete_unused_thread,
    may_thread_in,
    open_thread_in,
    thread_possible,
    threads_refused,
)
from bot.discord.play.turns import challenge_embed, mention, relative_time
from bot.discord.replies import recorded
from bot.discord.speech import private, public
from bot.i18n import ENGLISH_TONGUE, N_, Tongue, languages, tongue
from bot.service import Challenge, GameStarted, PermissionDenied

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

log = logging.getLogger("crosspath.discord")
Interaction = discord.Interaction["CrosspathBot"]
PageDirection = Literal["prev", "next"]

LIST_LIMIT = 10
"""Challenges shown at once: each has up to two buttons, and a message holds 25."""
NONE_PENDING = N_(
    "No pending challenges for you here. Use /challenge to make one; leave out the opponent "
    "and anyone in the server may accept it."
)
NOT_YOUR_LIST = N_("This list belongs to someone else: use /challenges for your own.")
NOT_ON_MESSAGE = N_("That button belongs to another list, so nothing was changed.")
LISTED = N_("Challenge #{id}:")
"""How each line of a list begins, in every language: a button's check finds its challenge by
it (:func:`lists_challenge`)."""
NO_PINGS = discord.AllowedMentions.none()


def challenge_line(challenge: Challenge, user_id: int, tr: Tongue = ENGLISH_TONGUE) -> str:
    """One challenge as the player sees it: number, game, who, where and when it lapses (the
    clock's description is the service's English)."""
    challenger = mention(challenge.challenger_id)
    if challenge.challenger_id == user_id:
        who = (
            tr.gettext("from you to anyone")
            if challenge.opponent_id is None
            else tr.gettext("from you to {opponent}", opponent=mention(challenge.opponent_id))
        )
    elif challenge.opponent_id == user_id:
        who = tr.gettext("from {challenger} to you", challenger=challenger)
    else:
        who = tr.gettext("from {challenger}, open to anyone", challenger=challenger)
    rest = tr.gettext(
        "{game} {size}×{size} {who} in {channel}, {clock}, expires {when}",
        game=challenge.title,
        size=challenge.size,
        who=who,
        channel=f"<#{challenge.channel_id}>",
        clock=tr.say(challenge.time_control.wording()),
        when=relative_time(challenge.expires_at),
    )
    return f"{tr.gettext(LISTED, id=challenge.id)} {rest}"


def actions_for(challenge: Challenge, user_id: int) -> tuple[str, ...]:
    if challenge.challenger_id == user_id:
        return ("cancel",)
    if challenge.opponent_id == user_id:
        return ("accept", "decline")
    return ("accept",)


@dataclass(frozen=True, slots=True)
class ListPage:
    """One page of the list, and whether there are challenges before and after it."""

    challenges: list[Challenge]
    earlier: bool = False
    later: bool = False


def list_text(page: ListPage, user_id: int, heading: str = "", tr: Tongue = ENGLISH_TONGUE) -> str:
    lines = [heading] if heading else []
    if not page.challenges:
        lines.append(tr.gettext(NONE_PENDING))
    else:
        lines.append(tr.gettext("Pending challenges:"))
        lines.extend(challenge_line(c, user_id, tr) for c in page.challenges)
        if page.earlier or page.later:
            lines.append(tr.gettext("More with the buttons below."))
    return "\n".join(lines)[:2000]


def list_view(page: ListPage, user_id: int, tr: Tongue = ENGLISH_TONGUE) -> discord.ui.View | None:
    if not page.challenges:
        return None
    view = discord.ui.View(timeout=None)
    for challenge in page.challenges:
        for action in actions_for(challenge, user_id):
            view.add_item(ListedChallengeButton(action, challenge.id, tr))
    if page.earlier:
        view.add_item(ChallengePageButton(user_id, "prev", page.challenges[0].id, tr))
    if page.later:
        view.add_item(ChallengePageButton(user_id, "next", page.challenges[-1].id, tr))
    return view


async def pending(
    interaction: Interaction, direction: PageDirection | None = None, anchor: int = 0
) -> ListPage:
    """The page after (``next``) or before (``prev``) the challenge ``anchor``, or the first
    page; one more is read to know whether more follow.  A page found empty (its challenges
    were taken meanwhile) gives the first page."""
    service = bot_of(interaction).service
    guild_id, user_id = ids(interaction)[0], interaction.user.id
    read = LIST_LIMIT + 1
    if direction == "next":
        found = await service.challenges.pending_challenges(
            guild_id, user_id, read, after_id=anchor
        )
        if found:
            return ListPage(found[:LIST_LIMIT], earlier=True, later=len(found) > LIST_LIMIT)
    elif direction == "prev":
        found = await service.challenges.pending_challenges(
            guild_id, user_id, read, before_id=anchor
        )
        if found:
            return ListPage(found[-LIST_LIMIT:], earlier=len(found) > LIST_LIMIT, later=True)
    found = await service.challenges.pending_challenges(guild_id, user_id, read)
    return ListPage(found[:LIST_LIMIT], later=len(found) > LIST_LIMIT)


async def show_challenges(interaction: Interaction) -> None:
    """``/challenges``: the list, privately (it names the player's own challenges)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    page = await pending(interaction)
    tr = private(interaction)
    view = list_view(page, interaction.user.id, tr)
    await interaction.followup.send(
        list_text(page, interaction.user.id, tr=tr),
        view=view or discord.utils.MISSING,
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )


@cache
def _listed_patterns(served: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """The beginning of a list's line (:data:`LISTED`) in each language served."""
    patterns = []
    for language in served:
        prefix = tongue(language).gettext(LISTED, id="\x00")
        body = re.escape(prefix).replace("\x00", "([0-9]+)")
        patterns.append(re.compile(f"^{body} ", re.MULTILINE))
    return tuple(patterns)


def lists_challenge(message: discord.Message | None, challenge_id: int) -> bool:
    """The message the button sits on is a challenge list that names this challenge (each
    line starts ``Challenge #<id>: ``, see :func:`challenge_line`; other lists of the bot
    number games, whose ids are not challenge ids)."""
    if message is None:
        return False
    text = message.content or ""
    return any(
        int(found) == challenge_id
        for pattern in _listed_patterns(languages())
        for found in pattern.findall(text)
    )


async def refresh(interaction: Interaction, heading: str) -> None:
    """Show the list as it now is, under ``heading`` (what was just done, in the player's
    language already)."""
    page = await pending(interaction)
    tr = private(interaction)
    try:
        await interaction.edit_original_response(
            content=list_text(page, interaction.user.id, heading, tr),
            view=list_view(page, interaction.user.id, tr),
            allowed_mentions=NO_PINGS,
        )
    except discord.HTTPException:
        log.warning("could not refresh a challenge list", exc_info=True)


async def mark_challenge_message(
    bot: CrosspathBot, challenge: Challenge, note: str, tr: Tongue = ENGLISH_TONGUE
) -> None:
    """Update the challenge's own message (its buttons go), when its id is known; best effort:
    a press there later is refused by the service anyway.  ``tr``: its channel's language."""
    if challenge.message_id is None:
        return
    channel = bot.get_partial_messageable(challenge.channel_id, guild_id=challenge.guild_id)
    try:
        await channel.get_partial_message(challenge.message_id).edit(
            embed=challenge_embed(challenge, note, tr), view=None
        )
    except discord.HTTPException:
        log.warning("could not update a challenge message", exc_info=True)


async def accept_listed(interaction: Interaction, challenge: Challenge) -> None:
    bot = bot_of(interaction)
    await interaction.response.defer()  # a thread, then the game: slower than 3 seconds may be
    thread = None
    refused = False
    if acceptable(interaction, challenge):
        settings = await bot.service.moderation.get_settings(challenge.guild_id)
        here = interaction.channel_id == challenge.channel_id
        channel = bot.get_channel(challenge.channel_id)
        guild = interaction.guild
        if here:
            make = thread_possible(interaction, settings.use_threads)
            refused = threads_refused(interaction, settings.use_threads)
        else:
            me = guild.me if guild is not None else None
            make = settings.use_threads and may_thread_in(channel, me)
        if make and isinstance(channel, discord.TextChannel):
            name = await thread_name(challenge, bot, interaction.user.id, guild)
            thread = await open_thread_in(channel, name, challenge.message_id)
    try:
        started: GameStarted = await bot.service.accept_challenge(
            challenge.id, interaction.user.id, thread.id if thread else None
        )
    except Exception:
        await delete_unused_thread(thread)
        raise
    recorded(interaction, START_DONE)
    game = started.game
    where = {"id": game.id, "channel": f"<#{game.channel_id}>"}
    channel_tr = public(interaction)
    accepted = channel_tr.gettext(
        "Accepted by {who}: game #{id} in {channel}.", who=mention(interaction.user.id), **where
    )
    await mark_challenge_message(bot, started.challenge, accepted, channel_tr)
    await refresh(
        interaction,
        private(interaction).gettext(
            "You accepted challenge #{challenge}: game #{id} in {channel}.",
            challenge=challenge.id,
            **where,
        ),
    )
    note = public(interaction).gettext(THREAD_NOTE) if refused else ""
    await post_start(bot, interaction, game, note=note)


async def close_listed(interaction: Interaction, challenge: Challenge, action: str) -> None:
    service = bot_of(interaction).service
    user_id = interaction.user.id
    await interaction.response.defer()
    channel_tr, tr = public(interaction), private(interaction)
    who = mention(user_id)
    if action == "decline":
        closed = await service.challenges.decline_challenge(challenge.id, user_id)
        note = channel_tr.gettext("Declined by {who}.", who=who)
        done = tr.gettext("You declined challenge #{id}.", id=challenge.id)
    else:
        closed = await service.cancel_challenge(challenge.id, user_id)
        note = channel_tr.gettext("Cancelled by {who}.", who=who)
        done = tr.gettext("You cancelled challenge #{id}.", id=challenge.id)
    recorded(interaction, done.removesuffix("."))
    await mark_challenge_message(bot_of(interaction), closed, note, channel_tr)
    await refresh(interaction, done)


class ListedChallengeButton(
    PersistentButton, template=r"cp:chals:(?P<action>accept|decline|cancel):(?P<id>[0-9]+)"
):
    """Accept, Decline or Cancel one challenge from a ``/challenges`` list."""

    LABELS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "accept": (N_("Accept"), discord.ButtonStyle.success),
        "decline": (N_("Decline"), discord.ButtonStyle.danger),
        "cancel": (N_("Cancel"), discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, challenge_id: int, tr: Tongue = ENGLISH_TONGUE) -> None:
        label, style = self.LABELS[action]
        text = f"{tr.gettext(label)} #{challenge_id}"
        super().__init__(f"cp:chals:{action}:{challenge_id}", text, style)
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ListedChallengeButton:
        return cls(match["action"], int(match["id"]))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        bot.remember(interaction.user)
        if not lists_challenge(interaction.message, self.challenge_id):
            raise refuse_origin(interaction, NOT_ON_MESSAGE)
        challenge = await bot.service.challenges.get_challenge(self.challenge_id)
        if challenge.guild_id != ids(interaction)[0]:
            raise refuse_origin(interaction, ELSEWHERE)
        if self.action == "accept":
            await accept_listed(interaction, challenge)
        else:
            await close_listed(interaction, challenge, self.action)


class ChallengePageButton(
    PersistentButton,
    template=r"cp:chalpage:(?P<user>[0-9]+):(?P<direction>prev|next):(?P<id>[0-9]+)",
):
    """Previous or Next page of a ``/challenges`` list, read again when pressed."""

    LABELS: ClassVar[dict[PageDirection, str]] = {"prev": N_("‹ Previous"), "next": N_("Next ›")}

    def __init__(
        self,
        user_id: int,
        direction: PageDirection,
        anchor: int,
        tr: Tongue = ENGLISH_TONGUE,
    ) -> None:
        super().__init__(
            f"cp:chalpage:{user_id}:{direction}:{anchor}",
            tr.gettext(self.LABELS[direction]),
            discord.ButtonStyle.secondary,
        )
        self.user_id = user_id
        self.direction: PageDirection = direction
        self.anchor = anchor

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChallengePageButton:
        direction: PageDirection = "prev" if match["direction"] == "prev" else "next"
        return cls(int(match["user"]), direction, int(match["id"]))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.user.id != self.user_id:
            raise PermissionDenied(private(interaction).gettext(NOT_YOUR_LIST))
        page = await pending(interaction, self.direction, self.anchor)
        await interaction.response.edit_message(
            content=list_text(page, self.user_id, tr=private(interaction)),
            view=list_view(page, self.user_id, private(interaction)),
            allowed_mentions=NO_PINGS,
        )


__all__ = ["ChallengePageButton", "ListedChallengeButton", "show_challenges"]
