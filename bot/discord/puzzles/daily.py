"""The daily puzzle: once a UTC day, in each server that chose a puzzle channel, a public post
with the position and a Solve button (answers are private); the next day, its solution and
how many solved it.

Posted exactly once per server and day across processes and restarts: the service hands each
post to the one process that claims it (a claim row per server and day, and one for the
solution).  A post Discord refuses is logged; the claim stays, so it is never posted twice.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.colour_words import colour_word
from bot.discord.persistent import PersistentButton
from bot.discord.play.posting import messageable
from bot.discord.puzzles.cog import board_file, position, puzzle_buttons, replayed, task_text
from bot.discord.replies import log_failure
from bot.discord.speech import of_guild, private
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import DailyPuzzle, DailySolution
from rules import Game

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

log = logging.getLogger("crosspath.discord")
Interaction = discord.Interaction[Any]
SOLVE = N_("Solve")


class SolveButton(PersistentButton, template=r"cp:pz:day:(?P<guild>[0-9]+):(?P<day>[0-9-]{10})"):
    """Under a daily puzzle post: that day's puzzle for whoever presses, privately."""

    def __init__(self, guild_id: int, day: str, tr: Tongue = ENGLISH_TONGUE) -> None:
        super().__init__(
            f"cp:pz:day:{guild_id}:{day}", tr.gettext(SOLVE), discord.ButtonStyle.primary
        )
        self.guild_id = guild_id
        self.day = day

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SolveButton:
        return cls(int(match["guild"]), match["day"])

    async def act(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot: CrosspathBot = interaction.client
        tr = private(interaction)
        # The server is the one the button sits in, whatever the id says.
        guild_id = interaction.guild_id or 0
        view = await bot.service.puzzles.start_daily(interaction.user.id, guild_id, self.day)
        file = await board_file(position(view), f"puzzle-{view.attempt_id}.png", tr)
        await interaction.followup.send(
            task_text(view, tr), file=file, view=puzzle_buttons(view.attempt_id, tr), ephemeral=True
        )


async def post_daily(bot: CrosspathBot, now: datetime, claimant: str) -> int:
    """Post every daily puzzle this process claims for ``now``'s UTC day, and yesterday's
    solution in those servers; the number of posts made."""
    day = now.date().isoformat()
    yesterday = (now.date() - timedelta(days=1)).isoformat()
    posted = 0
    for daily in await bot.service.puzzles.claim_daily(day, claimant):
        try:
            solution = await bot.service.puzzles.claim_solution(daily.guild_id, yesterday)
            if solution is not None:
                await _post_solution(bot, solution)
                posted += 1
            await _post_puzzle(bot, daily)
            posted += 1
        except Exception as exc:  # one server's refusal must not stop the others
            log_failure("could not post the daily puzzle", exc, guild_id=daily.guild_id)
    return posted


async def _post_puzzle(bot: CrosspathBot, daily: DailyPuzzle) -> None:
    tr = of_guild(bot.get_guild(daily.guild_id), bot)
    game = replayed(daily.game, daily.size, daily.moves)
    text = tr.gettext(
        "Daily puzzle, {day}: {game} {size}×{size}, {colour} to move and win."
        " Press Solve: your answers are private.",
        day=daily.day,
        game=game.title,
        size=daily.size,
        colour=colour_of(game, tr),
    )
    view = discord.ui.View(timeout=None)
    view.add_item(SolveButton(daily.guild_id, daily.day, tr))
    channel = messageable(bot, daily.channel_id, daily.guild_id)
    message = await channel.send(
        text,
        file=await board_file(game, f"daily-{daily.day}.png", tr),
        view=view,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await bot.service.puzzles.daily_posted(daily.guild_id, daily.day, message.id)


async def _post_solution(bot: CrosspathBot, solution: DailySolution) -> None:
    tr = of_guild(bot.get_guild(solution.guild_id), bot)
    solved = replayed(solution.game, solution.size, (*solution.moves, *solution.solution))
    text = tr.ngettext(
        "Solution of the daily puzzle of {day}: {moves}. {n} player solved it.",
        "Solution of the daily puzzle of {day}: {moves}. {n} players solved it.",
        solution.solved,
        day=solution.day,
        moves=" ".join(solution.solution),
    )
    channel = messageable(bot, solution.channel_id, solution.guild_id)
    await channel.send(
        text,
        file=await board_file(solved, f"daily-{solution.day}-solution.png", tr),
        allowed_mentions=discord.AllowedMentions.none(),
    )


def colour_of(game: Game, tr: Tongue) -> str:
    return colour_word(game.to_move or "", tr)
