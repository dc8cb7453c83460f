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
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import discord

from bot.discord.context import bot_of
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
from bot.discord.speech import public
from bot.service import Challenge, GameStarted, PermissionDenied

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

log = logging.getLogger("crosspath.discord")
Interaction = discord.Interaction["CrosspathBot"]
PageDirection = Literal["prev", "next"]

LIST_LIMIT = 10
"""Challenges shown at once: each has up to two buttons, and a message holds 25."""
NONE_PENDING = (
    "No pending challenges for you here. Use /challenge to make one; leave out the opponent "
    "and anyone in the server may accept it."
)
NOT_YOUR_LIST = "This list belongs to someone else: use /challenges for your own."
NOT_ON_MESSAGE = "That button belongs to another list, so nothing was changed."
NO_PINGS = discord.AllowedMentions.none()


def challenge_line(challenge: Challenge, user_id: int) -> str:
    """One challenge as the player sees it: number, game, who, where and when it lapses."""
    if challenge.challenger_id == user_id:
        to = "anyone" if challenge.opponent_id is None else mention(challenge.opponent_id)
        who = f"from you to {to}"
    elif challenge.opponent_id == user_id:
        who = f"from {mention(challenge.challenger_id)} to you"
    else:
        who = f"from {mention(challenge.challenger_id)}, open to anyone"
    size = f"{challenge.size}×{challenge.size}"
    return (
        f"Challenge #{challenge.id}: {challenge.title} {size} {who} in <#{challenge.channel_id}>, "
        f"{challenge.time_control.describe()}, expires {relative_time(challenge.expires_at)}"
    )


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


def list_text(page: ListPage, user_id: int, heading: str = "") -> str:
    lines = [heading] if heading else []
    if not page.challenges:
        lines.append(NONE_PENDING)
    else:
        lines.append("Pending challenges:")
        lines.extend(challenge_line(c, user_id) for c in page.challenges)
        if page.earlier or page.later:
            lines.append("More with the buttons below.")
    return "\n".join(lines)[:2000]


def list_view(page: ListPage, user_id: int) -> discord.ui.View | None:
    if not page.challenges:
        return None
    view = discord.ui.View(timeout=None)
    for challenge in page.challenges:
        for action in actions_for(challenge, user_id):
            view.add_item(ListedChallengeButton(action, challenge.id))
    if page.earlier:
        view.add_item(ChallengePageButton(user_id, "prev", page.challenges[0].id))
    if page.later:
        view.add_item(ChallengePageButton(user_id, "next", page.challenges[-1].id))
    return view


async def pending(
    interaction: Interaction, direction: PageDirection | None = None, anchor: int = 0
) -> ListPage:
    """The page after (``next``) or before (``prev``) the challenge ``anchor``, or the first
    page; one more is read to know whether more follow.  A page found empty (its challenges
    were taken meanwhile) gives the first page."""
    assert interaction.guild_id is not None  # guild-only command, server messages only
    service = bot_of(interaction).service
    guild_id, user_id = interaction.guild_id, interaction.user.id
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
    view = list_view(page, interaction.user.id)
    await interaction.followup.send(
        list_text(page, interaction.user.id),
        view=view or discord.utils.MISSING,
        ephemeral=True,
        allowed_mentions=NO_PINGS,
    )


_LISTED = re.compile(r"^Challenge #([0-9]+): ", re.MULTILINE)


def lists_challenge(message: discord.Message | None, challenge_id: int) -> bool:
    """The message the button sits on is a challenge list that names this challenge (each
    line starts ``Challenge #<id>: ``, see :func:`challenge_line`; other lists of the bot
    number games, whose ids are not challenge ids)."""
    if message is None:
        return False
    return any(int(found) == challenge_id for found in _LISTED.findall(message.content or ""))


async def refresh(interaction: Interaction, heading: str) -> None:
    """Show the list as it now is, under ``heading`` (what was just done)."""
    page = await pending(interaction)
    try:
        await interaction.edit_original_response(
            content=list_text(page, interaction.user.id, heading),
            view=list_view(page, interaction.user.id),
            allowed_mentions=NO_PINGS,
        )
    except discord.HTTPException:
        log.warning("could not refresh a challenge list", exc_info=True)


async def mark_challenge_message(bot: CrosspathBot, challenge: Challenge, note: str) -> None:
    """Update the challenge's own message (its buttons go), when its id is known; best effort:
    a press there later is refused by the service anyway."""
    if challenge.message_id is None:
        return
    channel = bot.get_partial_messageable(challenge.channel_id, guild_id=challenge.guild_id)
    try:
        await channel.get_partial_message(challenge.message_id).edit(
            embed=challenge_embed(challenge, note), view=None
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
    accepted = (
        f"Accepted by {mention(interaction.user.id)}: game #{game.id} in <#{game.channel_id}>."
    )
    await mark_challenge_message(bot, started.challenge, accepted)
    await refresh(
        interaction,
        f"You accepted challenge #{challenge.id}: game #{game.id} in <#{game.channel_id}>.",
    )
    note = public(interaction).gettext(THREAD_NOTE) if refused else ""
    await post_start(bot, interaction, game, note=note)


async def close_listed(interaction: Interaction, challenge: Challenge, action: str) -> None:
    service = bot_of(interaction).service
    user_id = interaction.user.id
    await interaction.response.defer()
    if action == "decline":
        closed = await service.challenges.decline_challenge(challenge.id, user_id)
        done = "declined"
    else:
        closed = await service.cancel_challenge(challenge.id, user_id)
        done = "cancelled"
    recorded(interaction, f"You {done} challenge #{challenge.id}")
    await mark_challenge_message(
        bot_of(interaction), closed, f"{done.capitalize()} by {mention(user_id)}."
    )
    await refresh(interaction, f"You {done} challenge #{challenge.id}.")


class ListedChallengeButton(
    PersistentButton, template=r"cp:chals:(?P<action>accept|decline|cancel):(?P<id>[0-9]+)"
):
    """Accept, Decline or Cancel one challenge from a ``/challenges`` list."""

    LABELS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "accept": ("Accept", discord.ButtonStyle.success),
        "decline": ("Decline", discord.ButtonStyle.danger),
        "cancel": ("Cancel", discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, challenge_id: int) -> None:
        label, style = self.LABELS[action]
        super().__init__(f"cp:chals:{action}:{challenge_id}", f"{label} #{challenge_id}", style)
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
        if challenge.guild_id != interaction.guild_id:
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

    LABELS: ClassVar[dict[PageDirection, str]] = {"prev": "‹ Previous", "next": "Next ›"}

    def __init__(self, user_id: int, direction: PageDirection, anchor: int) -> None:
        super().__init__(
            f"cp:chalpage:{user_id}:{direction}:{anchor}",
            self.LABELS[direction],
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
            raise PermissionDenied(NOT_YOUR_LIST)
        page = await pending(interaction, self.direction, self.anchor)
        await interaction.response.edit_message(
            content=list_text(page, self.user_id),
            view=list_view(page, self.user_id),
            allowed_mentions=NO_PINGS,
        )


__all__ = ["ChallengePageButton", "ListedChallengeButton", "show_challenges"]
