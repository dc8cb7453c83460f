"""The clock: a background loop that acts on what the service says is due.

Deadlines live in the database, so after a restart the first tick finds anything that fell due
while the bot was down.  A failure on one item is logged and the loop carries on.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.discord.clocks.soft_time import SoftTimeButton
from bot.discord.play.posting import messageable, post_turn, repost_unposted
from bot.discord.play.turns import mention, relative_time
from bot.discord.play.venue import dm_text, reachable
from bot.discord.replies import log_failure
from bot.discord.speech import of_server
from bot.i18n import Tongue
from bot.service import Challenge, DueOutcome, Reminder, SoftTimeNotice

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot


class ClockCog(commands.Cog):
    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot
        self.tick.change_interval(seconds=bot.settings.clock_seconds)

    async def cog_load(self) -> None:
        if self.bot.run_clock:
            self.tick.start()

    async def cog_unload(self) -> None:
        self.tick.cancel()

    @tasks.loop(seconds=60)
    async def tick(self) -> None:
        try:
            await self.run_once()
        except Exception as exc:  # a locked database or an outage must not stop the clock
            log_failure("clock tick failed; retrying at the next tick", exc)

    @tick.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def run_once(self) -> list[DueOutcome]:
        """Apply everything due now; also called directly by tests."""
        service = self.bot.service
        outcomes = []
        for action in await service.clocks.due(
            shards=self.bot.held_shards
        ):  # this process's servers
            try:
                outcome = await service.clocks.apply_due(action)
                if outcome is not None:
                    outcomes.append(outcome)
                    await self.announce(outcome)
            except Exception as exc:
                log_failure("clock action failed", exc, kind=action.kind, game_id=action.game_id)
        try:
            await repost_unposted(self.bot)  # boards Discord failed to take (5xx) earlier
        except Exception as exc:
            log_failure("could not re-post boards Discord failed to take", exc)
        try:
            await self.bot.computer.resume()  # games where the computer is to move (restarts)
        except Exception as exc:
            log_failure("could not look for the computer's pending moves", exc)
        return outcomes

    async def announce(self, outcome: DueOutcome) -> None:
        action = outcome.action
        if outcome.reminder is not None:
            reminder = outcome.reminder
            if self.bot.computer.is_computer(reminder.user_id):
                self.bot.computer.take_turn(reminder.game)  # never remind the computer
                return
            if not reachable(reminder.game):  # a DM game: the reminder goes by DM
                await dm_text(self.bot, [reminder.user_id], partial(reminder_text, reminder))
                return
            text = reminder_text(reminder, of_server(self.bot, action.guild_id))
            await messageable(self.bot, action.channel_id, action.guild_id).send(
                text,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(reminder.user_id)]),
            )
        elif outcome.ended is not None:
            await post_turn(self.bot, outcome.ended.game)
        elif outcome.soft_time is not None:
            await self.announce_soft_time(outcome)
        elif outcome.expired is not None:
            c = outcome.expired
            if c.outside_servers:  # made in a DM: its challenger hears of it by DM
                await dm_text(self.bot, [c.challenger_id], partial(expired_text, c))
                return
            await messageable(self.bot, action.channel_id, action.guild_id).send(
                expired_text(c, of_server(self.bot, action.guild_id)),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def announce_soft_time(self, outcome: DueOutcome) -> None:
        """Tell the waiting player, once, that they may end the stalled untimed game, with the
        same restart-safe buttons as ``/claim`` (pinging only them)."""
        notice, action = outcome.soft_time, outcome.action
        assert notice is not None
        if self.bot.computer.is_computer(notice.user_id):
            return  # the computer never claims; its opponent simply has all the time
        game = notice.game
        if not reachable(game):
            # a button in the bot's DM would not be in the game's conversation: /claim is
            await dm_text(self.bot, [notice.user_id], partial(claim_by_dm, notice))
            return
        tr = of_server(self.bot, action.guild_id)
        text = tr.gettext(
            "{who}, {game} game #{id} has waited on {waiting_on} since {since}. You may claim "
            "the win, or abort the game:",
            who=mention(notice.user_id),
            game=game.title,
            id=game.id,
            waiting_on=mention(notice.to_move_id),
            since=relative_time(notice.waiting_since),
        )
        await messageable(self.bot, action.channel_id, action.guild_id).send(
            text,
            view=SoftTimeButton.pair(game.id, game.version, tr),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(notice.user_id)]),
        )


def reminder_text(reminder: Reminder, tr: Tongue) -> str:
    params = {"who": mention(reminder.user_id), "game": reminder.game.title, "id": reminder.game.id}
    if reminder.deadline:
        return tr.gettext(
            "{who}, reminder: it's your move in {game} game #{id} before {deadline}.",
            deadline=relative_time(reminder.deadline),
            **params,
        )
    return tr.gettext("{who}, reminder: it's your move in {game} game #{id}.", **params)


def expired_text(challenge: Challenge, tr: Tongue) -> str:
    return tr.gettext(
        "Challenge #{id} ({game}) by {who} expired unanswered.",
        id=challenge.id,
        game=challenge.title,
        who=mention(challenge.challenger_id),
    )


def claim_by_dm(notice: SoftTimeNotice, tr: Tongue) -> str:
    """The soft-time notice of a DM game, sent by DM: the claim is made with /claim in the
    game's conversation."""
    return tr.gettext(
        "{game} game #{id} has waited on {waiting_on} since {since}. You may claim the win,"
        " or abort the game: use /claim in the conversation where you play it.",
        game=notice.game.title,
        id=notice.game.id,
        waiting_on=mention(notice.to_move_id),
        since=relative_time(notice.waiting_since),
    )
