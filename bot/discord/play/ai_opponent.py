"""Playing the computer: challenging the bot's own user starts a game it plays itself.

The service needs no special case: the bot's user id is a normal player.  This module accepts
such challenges at once and, whenever the bot is to move (its first move, after a human move,
after a skip, or found by the clock after a restart), thinks in ``ai``'s process pool so the
event loop keeps serving Discord, commits through ``service.play_move`` like any player, and
posts the turn with the same function a human move uses.

Failures in this path are logged and never raised into Discord handlers: the game stays
where it was and the clock's next tick tries again.

The level of each game is stored with it, as the game option :data:`LEVEL_OPTION` given to
``create_challenge``, so a game continues at its level after a restart.  Games created before
levels were stored (no such option) play at :data:`FALLBACK_LEVEL`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str

import ai
from bot.discord.context import ids
from bot.discord.instrument import count_error, count_move, metrics_of
from bot.discord.play.posting import announce_start, post_turn
from bot.discord.play.threads import delete_unused_thread, open_game_thread, thread_possible
from bot.discord.play.turns import challenge_embed, mention
from bot.discord.play.web_links import display_name, readable_by_everyone
from bot.discord.replies import log_failure
from bot.discord.speech import public
from bot.discord.translator import formatted
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import (
    Challenge,
    GameFinished,
    GameInfo,
    GameStarted,
    GameSummary,
    InvalidChallenge,
    NoGameHere,
    NoTakeback,
    NotYourTurn,
    OutOfTime,
    ServiceError,
    StaleAction,
    TimeControl,
)
from rules import parse_record

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

log = logging.getLogger("crosspath.discord")
Interaction = discord.Interaction["CrosspathBot"]

MoveChooser = Callable[[str, int, int | None], Awaitable[str]]
"""``await choose(record, level, seed)`` -> the move text.  The injection point for tests."""

LEVEL_OPTION = "ai_level"
"""The game option holding the computer's level number, as text."""

FALLBACK_LEVEL = ai.DEFAULT_LEVEL
"""The level of a game whose options name none (games created before levels were stored)."""

MAX_MOVES_PER_WAKE = 1_000
"""A bound on moves played in one go; a real game never comes close (chains, skips)."""

LEVEL_NAMES = (N_("easy"), N_("casual"), N_("medium"), N_("hard"), N_("expert"))
"""``ai.LEVELS``' names, for extraction; a name not listed here stays English."""


def level_label(level: ai.Level) -> locale_str:
    """``level.describe()`` in each player's language."""
    name = locale_str(level.name)
    if level.rating is None:
        return formatted(N_("{number} ({name}, not rated yet)"), number=level.number, name=name)
    if level.provisional:
        return formatted(
            N_("{number} ({name}, about {rating} Elo, provisional)"),
            number=level.number,
            name=name,
            rating=level.rating,
        )
    return formatted(
        N_("{number} ({name}, about {rating} Elo)"),
        number=level.number,
        name=name,
        rating=level.rating,
    )


LEVEL_CHOICES = [
    app_commands.Choice(name=level_label(level), value=level.number) for level in ai.LEVELS.values()
]

LEVEL_HELP = formatted(
    N_("the computer's strength, when you challenge me (default: {level})"),
    level=level_label(ai.LEVELS[ai.DEFAULT_LEVEL]),
)

NO_TAKEBACKS = N_(
    "The computer doesn't take moves back: it plays on from the position on the board. "
    "Resign and challenge it again for a fresh start."
)
LEVEL_ONLY_VS_COMPUTER = N_(
    "The level option is for games against me: choose me as the opponent, or leave level empty."
)


async def pool_move(record: str, level: int, seed: int | None) -> str:
    """Think in ai's shared process pool: the event loop stays free while it searches."""
    return await ai.ai_move(record, level=level, seed=seed)


async def in_process_move(record: str, level: int, seed: int | None) -> str:
    """Think in a thread of this process (no worker pool to start): for tests and tools.

    The search holds the GIL, so other work is slowed while it runs, but the event loop keeps
    turning: no single callback blocks it."""
    return await asyncio.to_thread(_choose, record, level, seed)


def _choose(record: str, level: int, seed: int | None) -> str:
    return ai.choose_move(parse_record(record), level=level, seed=seed)


class ComputerOpponent:
    """The bot's own seat in games against the computer.

    ``choose`` is the thinking function (default: :func:`pool_move`); tests swap in
    :func:`in_process_move` for speed and determinism.
    """

    def __init__(self, bot: CrosspathBot, choose: MoveChooser = pool_move) -> None:
        self.bot = bot
        self.choose = choose
        self._turns: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self.claimant = f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        """This process's name in turn claims (``service.claims.claim_turn``)."""

    # ----- who the computer is -----------------------------------------------------------------
    @property
    def user_id(self) -> int | None:
        user = self.bot.user
        return user.id if user is not None else None

    def is_computer(self, user_id: int | None) -> bool:
        return user_id is not None and user_id == self.user_id

    def ready(self) -> None:
        """Once the bot's user is known: name it in boards (turn messages never ping it)."""
        user = self.bot.user
        if user is not None:
            self.bot.remember(user)

    def level_of(self, info: GameInfo) -> int:
        """The level stored with the game; an unreadable one is logged and replaced by the
        fallback, so a damaged row cannot stop the computer from playing."""
        stored = info.options.get(LEVEL_OPTION)
        if stored is None:
            return FALLBACK_LEVEL
        try:
            return ai.parse_level(stored).number
        except ValueError:
            log.warning(
                "a game has an unknown computer level; playing the fallback",
                extra={"game_id": info.id, "level": stored},
            )
            return FALLBACK_LEVEL

    # ----- starting a game -----------------------------------------------------------------------
    async def challenge(
        self,
        interaction: Interaction,
        game: str,
        size: int | None,
        first: str,
        time: TimeControl | None,
        level: int | None,
        *,
        pie: bool | None = None,
    ) -> None:
        """``/challenge`` naming the bot: create the challenge, accept it as the bot, start."""
        bot_id = self.user_id
        if bot_id is None:
            raise InvalidChallenge("I'm still starting up; try again in a moment.")
        guild_id, channel_id = ids(interaction)
        human = interaction.user.id
        chosen = ai.parse_level(level)
        service = self.bot.service
        created = await service.create_challenge(
            guild_id,
            channel_id,
            human,
            bot_id,
            game,
            size=size,
            first=first,  # type: ignore[arg-type]
            time_control=time,
            options={LEVEL_OPTION: str(chosen.number)},
            pie=pie,
            public=readable_by_everyone(interaction),
            challenger_name=display_name(interaction.user),
        )
        assert created.opponent_id == bot_id  # the computer accepts only challenges naming it
        tr = public(interaction)
        content = tr.gettext(
            "{player} challenges the computer to {game} (level {level}).",
            player=mention(human),
            game=created.title,
            level=chosen.label,
        )
        try:
            await interaction.response.send_message(
                content,
                embed=challenge_embed(created, None, tr),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            await service.cancel_challenge(created.id, human)
            raise
        started = await self._accept(interaction, created, bot_id)
        versus = tr.gettext(" (the computer, level {level})", level=chosen.label)
        await announce_start(self.bot, interaction, started, tr.gettext("the computer"), versus)
        self.take_turn(started.game)

    async def _accept(
        self, interaction: Interaction, challenge: Challenge, bot_id: int
    ) -> GameStarted:
        """Accept as the bot, in a thread from the challenge message when the server wants one;
        on failure the challenge is withdrawn and the unused thread deleted."""
        thread = await self._open_thread(interaction, challenge)
        try:
            me = interaction.guild.me if interaction.guild is not None else self.bot.user
            return await self.bot.service.accept_challenge(
                challenge.id, bot_id, thread.id if thread else None, name=display_name(me)
            )
        except Exception:
            try:
                await self.bot.service.cancel_challenge(challenge.id, challenge.challenger_id)
            except ServiceError:
                log.warning("could not withdraw a challenge to the computer", exc_info=True)
            await delete_unused_thread(thread)
            raise

    async def _open_thread(
        self, interaction: Interaction, challenge: Challenge
    ) -> discord.Thread | None:
        settings = await self.bot.service.moderation.get_settings(challenge.guild_id)
        if not thread_possible(interaction, settings.use_threads):
            return None
        names = await self.bot.fetch_names((challenge.challenger_id,), interaction.guild)
        name = public(interaction).gettext(
            "{game}: {player} vs the computer",
            game=challenge.title,
            player=names[challenge.challenger_id],
        )
        try:
            message = await interaction.original_response()
        except discord.HTTPException:
            message = None
        return await open_game_thread(interaction, name, message)

    # ----- playing --------------------------------------------------------------------------------
    def take_turn(self, info: GameInfo | GameSummary) -> asyncio.Task[None] | None:
        """If the computer is to move in ``info``, start playing (once per game at a time)."""
        if not info.is_active or not self.is_computer(info.to_move_id):
            return None
        running = self._turns.get(info.id)
        if running is not None and not running.done():
            self._again.add(info.id)  # it re-reads the game before it stops
            return running
        task = asyncio.create_task(self._play(info.id), name=f"computer-move-{info.id}")
        self._turns[info.id] = task
        return task

    async def _play(self, game_id: int) -> None:
        try:
            for _ in range(MAX_MOVES_PER_WAKE):
                self._again.discard(game_id)
                info = await self.bot.service.get_game_by_id(game_id)
                if not info.is_active or not self.is_computer(info.to_move_id):
                    if game_id in self._again:
                        continue
                    return
                if not await self._move(info):
                    return  # another process is thinking for this turn
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a database fault as its sentence, a bug with its traceback
            log_failure("the computer could not play its move", exc, game_id=game_id)
        finally:
            if self._turns.get(game_id) is asyncio.current_task():
                del self._turns[game_id]
            self._again.discard(game_id)

    async def _move(self, info: GameInfo) -> bool:
        """Claim the turn, think, play; False if another process holds the claim."""
        level = self.level_of(info)
        bot_id = self.user_id
        assert bot_id is not None
        service = self.bot.service
        if not await service.claims.claim_turn(info.id, info.version, self.claimant):
            return False  # the claim lapses when that process moves, or at its expiry
        try:
            move = await self._timed_choice(info.record, level, info.id)
        except Exception as exc:
            count_error(self.bot, "ai")
            if isinstance(exc, BrokenProcessPool):
                ai.shutdown(wait=False)  # the next search starts a fresh pool
            await service.claims.release_turn(info.id, self.claimant)  # the next tick tries again
            raise
        try:
            result = await service.play_move(
                info.channel_id, bot_id, move, expected_version=info.version, game_id=info.id
            )
        except OutOfTime as exc:
            # the bot was down past its deadline: the loss is recorded, announce it
            await post_turn(self.bot, exc.ended.game)
            return True
        except (StaleAction, NotYourTurn, NoGameHere, GameFinished):
            await service.claims.release_turn(info.id, self.claimant)
            return True  # the game changed while thinking (resign, moderator): look again
        count_move(self.bot, info.game)
        log.info(
            "the computer played",
            extra={"game_id": info.id, "move": move, "level": level},
        )
        if not (await post_turn(self.bot, result.game, moved=result)).ok:
            log.warning(
                "the computer's move is committed but was not posted", extra={"game_id": info.id}
            )
        return True

    async def _timed_choice(self, record: str, level: int, game_id: int) -> str:
        """:attr:`choose`, counted in the queue-length gauge and timed, queueing included."""
        metrics = metrics_of(self.bot)
        if metrics is None:
            return await self.choose(record, level, game_id)
        metrics.ai_queue.inc()
        start = time.perf_counter()
        try:
            return await self.choose(record, level, game_id)
        finally:
            metrics.ai_queue.dec()
            metrics.ai_thinking.observe(time.perf_counter() - start)

    async def resume(self) -> list[asyncio.Task[None]]:
        """Start every game in the bot's servers where the computer is to move (restarts,
        and anything a failed attempt left behind); called by the clock on each tick.

        Reads summaries (stored columns, no engine), so a tick costs one query per page."""
        bot_id = self.user_id
        if bot_id is None:
            return []
        guilds = {guild.id for guild in self.bot.guilds}
        started = []
        cursor: str | None = None
        while True:
            page = await self.bot.service.game_summaries(
                to_move_id=bot_id,
                active_only=True,
                cursor=cursor,
                limit=100,
                shards=self.bot.held_shards,
            )
            for summary in page.games:
                task = self.take_turn(summary) if summary.guild_id in guilds else None
                if task is not None:
                    started.append(task)
            cursor = page.next_cursor
            if cursor is None:
                return started

    async def idle(self) -> None:
        """Wait until no move is being thought about (tests and shutdown)."""
        while self._turns:
            await asyncio.gather(*list(self._turns.values()), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._turns.values()):
            task.cancel()
        await asyncio.gather(*list(self._turns.values()), return_exceptions=True)
        self._turns.clear()
        ai.shutdown(wait=False)

    # ----- hooks for the other flows --------------------------------------------------------------
    def refuse_takeback(
        self, info: GameInfo, requester_id: int, tr: Tongue = ENGLISH_TONGUE
    ) -> None:
        """Takebacks against the computer are declined at once, before anything is stored."""
        if requester_id in info.player_ids and self.is_computer(info.opponent_of(requester_id)):
            raise NoTakeback(tr.gettext(NO_TAKEBACKS))


__all__ = [
    "FALLBACK_LEVEL",
    "LEVEL_CHOICES",
    "LEVEL_HELP",
    "LEVEL_ONLY_VS_COMPUTER",
    "LEVEL_OPTION",
    "NO_TAKEBACKS",
    "ComputerOpponent",
    "MoveChooser",
    "in_process_move",
    "pool_move",
]
