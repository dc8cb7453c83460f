"""``/puzzle [game]``: a puzzle near the player's puzzle rating, privately (issue 48).

The answer is private from start to end: the board (with no player's name: a puzzle never
shows who played the game it came from), an Answer button that opens a one-field form for
the move, and a Give up button.  Both buttons carry the attempt in their custom id and
survive restarts; the service checks that the attempt is the presser's and still open, so a
forged id reaches nothing.  ``/puzzle move:`` answers the open puzzle too, its ``move``
autocompleted from the position's legal moves (the service keeps them cached, so a keystroke
does no engine work on the loop).  A right move that does not finish the puzzle is answered with the
best defence and the next board; a wrong one is refuted at once, with the winning reply drawn.

It works in DMs and group DMs too (a user install): every step is an interaction's own answer
(a deferral and one follow-up), never a post of the bot's own.  Outside servers only public
puzzles are given, and every answer names the server it comes from, so a server's own puzzle
(mined from a game only its members saw) is never shown anywhere else.  The daily puzzle and
its channel setting stay in servers.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands, tasks

from bot.discord.choices import playable_games
from bot.discord.installs import everywhere
from bot.discord.persistent import PersistentButton
from bot.discord.play.turns import draw_board_async
from bot.discord.replies import handle_error, log_failure
from bot.discord.speech import private
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.puzzle_words import outcome_text, task_line
from bot.service import InvalidInput, PuzzleAnswer, PuzzleView
from rules import Game, new_game

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

Interaction = discord.Interaction[Any]
ANSWER = N_("Answer")
GIVE_UP = N_("Give up")
NOT_BOTH = N_("Name a game for a new puzzle, or a move for your open one, not both.")
AUTOCOMPLETE_BUDGET = 0.05
"""Seconds autocomplete waits for the legal moves before offering what was typed (as /move)."""


def replayed(game: str, size: int, moves: tuple[str, ...]) -> Game:
    """The position after ``moves`` from the start (puzzles and daily posts alike)."""
    position = new_game(game, size)
    for move in moves:
        position.play(move)
    return position


def position(view: PuzzleView, extra: tuple[str, ...] = ()) -> Game:
    return replayed(view.game, view.size, (*view.moves, *view.played, *extra))


def puzzle_buttons(attempt_id: int, tr: Tongue) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AnswerButton(attempt_id, tr))
    view.add_item(GiveUpButton(attempt_id, tr))
    return view


async def board_file(game: Game, name: str, tr: Tongue) -> discord.File:
    """The board as a file, its caption and alt text in ``tr``'s language."""
    board = await draw_board_async(game, {}, tr)
    return discord.File(io.BytesIO(board.png), filename=name, description=board.alt[:1000])


def task_text(view: PuzzleView, tr: Tongue) -> str:
    """The task, then how to answer on Discord."""
    # One template, so each language joins the two sentences its own way (no space in
    # Japanese or Chinese).
    return tr.gettext("{task} Press Answer and name your move.", task=task_line(view, tr))


async def show_answer(interaction: Interaction, answer: PuzzleAnswer, tr: Tongue) -> None:
    """The outcome, privately, with the board it leads to."""
    view = answer.view
    text = outcome_text(answer, tr)
    if answer.correct and not answer.solved:
        file = await board_file(position(view), f"puzzle-{view.attempt_id}.png", tr)
        await interaction.followup.send(
            text, file=file, view=puzzle_buttons(view.attempt_id, tr), ephemeral=True
        )
        return
    shown: tuple[str, ...] = ()
    if answer.move is not None:
        shown = (answer.move,) + ((answer.reply,) if answer.reply else ())
    try:
        game = position(view, shown)
    except Exception:  # the refutation's board is a courtesy: the words say it all
        game = position(view)
    file = await board_file(game, f"puzzle-{view.attempt_id}-end.png", tr)
    await interaction.followup.send(text, file=file, ephemeral=True)


class AnswerForm(discord.ui.Modal):
    """The one field of an answer: the move, like c3."""

    def __init__(self, attempt_id: int, tr: Tongue) -> None:
        super().__init__(title=tr.gettext("Your move"), timeout=900)
        self.attempt_id = attempt_id
        self.move: discord.ui.TextInput[AnswerForm] = discord.ui.TextInput(
            label=tr.gettext("Point, like c3"), min_length=2, max_length=4
        )
        self.add_item(self.move)

    async def on_submit(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot: CrosspathBot = interaction.client
        answer = await bot.service.puzzles.answer(
            self.attempt_id,
            interaction.user.id,
            str(self.move.value),
            guild_id=interaction.guild_id,
        )
        await show_answer(interaction, answer, private(interaction))

    async def on_error(  # type: ignore[override]  # discord.py types it as a View's
        self, interaction: Interaction, error: Exception, /
    ) -> None:
        await handle_error(interaction, error)


class AnswerButton(PersistentButton, template=r"cp:pz:ans:(?P<attempt>[0-9]+)"):
    def __init__(self, attempt_id: int, tr: Tongue = ENGLISH_TONGUE) -> None:
        super().__init__(f"cp:pz:ans:{attempt_id}", tr.gettext(ANSWER), discord.ButtonStyle.primary)
        self.attempt_id = attempt_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AnswerButton:
        return cls(int(match["attempt"]))

    async def act(self, interaction: Interaction) -> None:
        await interaction.response.send_modal(AnswerForm(self.attempt_id, private(interaction)))


class GiveUpButton(PersistentButton, template=r"cp:pz:give:(?P<attempt>[0-9]+)"):
    def __init__(self, attempt_id: int, tr: Tongue = ENGLISH_TONGUE) -> None:
        super().__init__(
            f"cp:pz:give:{attempt_id}", tr.gettext(GIVE_UP), discord.ButtonStyle.secondary
        )
        self.attempt_id = attempt_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GiveUpButton:
        return cls(int(match["attempt"]))

    async def act(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot: CrosspathBot = interaction.client
        answer = await bot.service.puzzles.give_up(
            self.attempt_id, interaction.user.id, guild_id=interaction.guild_id
        )
        await show_answer(interaction, answer, private(interaction))


class PuzzleCog(commands.Cog):
    """``/puzzle``; its buttons are registered with the others (``bot.discord.buttons``)."""

    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot
        self.claimant = f"discord:{os.getpid()}"
        self.autocomplete_budget = AUTOCOMPLETE_BUDGET

    async def cog_load(self) -> None:
        if self.bot.run_clock:
            self.daily.start()

    async def cog_unload(self) -> None:
        self.daily.cancel()

    @tasks.loop(minutes=10)
    async def daily(self) -> None:
        """Post the day's puzzles (each server's once, whichever process claims it)."""
        try:
            await self.post_daily()
        except Exception as exc:  # an outage must not stop tomorrow's post
            log_failure("daily puzzle tick failed; retrying at the next tick", exc)

    @daily.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def post_daily(self, now: datetime | None = None) -> int:
        """One pass; also called directly by tests."""
        from bot.discord.puzzles.daily import post_daily

        return await post_daily(self.bot, now or datetime.now(UTC), self.claimant)

    @app_commands.command(
        name="puzzle", description=locale_str("A puzzle from real games, near your puzzle rating")
    )
    @everywhere
    @app_commands.describe(
        game=locale_str("Which game (default: any)"),
        move=locale_str("Your move in your open puzzle, like c3 (leave empty for a new puzzle)"),
    )
    @app_commands.choices(game=playable_games())
    async def puzzle(
        self, interaction: Interaction, game: str | None = None, move: str | None = None
    ) -> None:
        if move is not None and game is not None:
            raise InvalidInput(NOT_BOTH)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tr = private(interaction)
        if move is not None:
            answer = await self.bot.service.puzzles.answer_open(
                interaction.user.id, move, guild_id=interaction.guild_id
            )
            await show_answer(interaction, answer, tr)
            return
        view = await self.bot.service.puzzles.start(interaction.user.id, interaction.guild_id, game)
        file = await board_file(position(view), f"puzzle-{view.attempt_id}.png", tr)
        await interaction.followup.send(
            task_text(view, tr),
            file=file,
            view=puzzle_buttons(view.attempt_id, tr),
            ephemeral=True,
        )

    @puzzle.autocomplete("move")
    async def puzzle_move(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The open puzzle's legal moves that start with what was typed (25 at most); what
        was typed if the lookup takes longer than :data:`AUTOCOMPLETE_BUDGET` (autocomplete
        cannot be deferred), while the lookup finishes and fills the cache."""
        lookup = asyncio.ensure_future(
            self.bot.service.puzzles.answer_choices(
                interaction.user.id, guild_id=interaction.guild_id
            )
        )
        lookup.add_done_callback(_log_failure)
        prefix = current.strip().lower()[:10]
        try:
            legal = await asyncio.wait_for(asyncio.shield(lookup), self.autocomplete_budget)
        except TimeoutError:
            legal = (prefix,) if prefix else ()
        moves = [m for m in legal if m.startswith(prefix)][:25]
        return [app_commands.Choice(name=m, value=m) for m in moves]


def _log_failure(lookup: asyncio.Future[tuple[str, ...]]) -> None:
    """Autocomplete shows no errors: log one (also from a lookup that outlived its answer)."""
    error = None if lookup.cancelled() else lookup.exception()
    if error is not None:
        log_failure("puzzle autocomplete failed", error)
