"""The bot object: intents, default mentions, command tree, start-up and shutdown.

Commands live in cogs (one per feature) loaded in ``setup_hook``, persistent buttons are
registered as dynamic items there too, so after a restart old buttons keep working.  Nothing
here syncs commands: that is ``crosspath sync``'s job, done on purpose.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.discord import instrument
from bot.discord.buttons import DYNAMIC_ITEMS
from bot.discord.features import COGS
from bot.discord.installs import NotHere, refusal_outside
from bot.discord.names import DisplayNames
from bot.discord.play.ai_opponent import ComputerOpponent
from bot.discord.play.posting import Unposted
from bot.discord.puzzles.miner import PuzzleMiner
from bot.discord.replies import context_of, handle_error
from bot.discord.speech import SeenLocales, ServerLanguages, private
from bot.discord.tournaments.runner import TournamentRunner
from bot.discord.translator import CatalogTranslator
from bot.service import EventBus, GameOver, GameService, ShardFilter
from bot.web.metrics import Metrics

log = logging.getLogger("crosspath.discord")


def bot_intents() -> discord.Intents:
    """Only the non-privileged guilds intent: slash commands need no message content or members."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class CrosspathTree(app_commands.CommandTree["CrosspathBot"]):
    """A tree whose every error becomes a specific ephemeral reply or a logged apology."""

    async def interaction_check(self, interaction: discord.Interaction[CrosspathBot]) -> bool:
        """The one place check: a command that needs the bot's own posts runs only in a
        server that installed Crosspath; elsewhere (a DM, a group DM, a server reached through
        a user install) it is refused before anything is written (``bot.discord.installs``)."""
        refused = refusal_outside(interaction, private(interaction))
        if refused is not None:
            raise NotHere(refused)
        return True

    async def on_error(
        self, interaction: discord.Interaction[CrosspathBot], error: app_commands.AppCommandError
    ) -> None:
        await handle_error(interaction, error)


# Crosspath never joins voice: don't warn operators about missing voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


def shard_options(settings: Settings) -> dict[str, Any]:
    """``AutoShardedBot``'s ``shard_count``/``shard_ids`` from the settings (none: Discord's
    recommended count, every shard in this process)."""
    options: dict[str, Any] = {}
    if settings.shard_count is not None:
        options["shard_count"] = settings.shard_count
        if settings.shard_ids is not None:
            options["shard_ids"] = list(settings.shard_ids)
    return options


class CrosspathBot(commands.AutoShardedBot):
    """discord.py client wired to one :class:`GameService`.

    Sharded: with ``CROSSPATH_SHARD_COUNT``/``CROSSPATH_SHARD_IDS`` it runs those shards only
    (one of several processes over one PostgreSQL database); with neither, every shard, as
    many as Discord recommends.
    """

    def __init__(
        self,
        service: GameService | None,
        settings: Settings | None = None,
        *,
        run_clock: bool = True,
        metrics: Metrics | None = None,
        **client_options: Any,
    ) -> None:
        """``client_options`` go to :class:`discord.Client` (tests shorten
        ``guild_ready_timeout``; ``crosspath run`` passes none).  ``metrics``: where the bot
        counts what it does (default: a registry of its own)."""
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=bot_intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=CrosspathTree,
            **{**shard_options(settings or Settings()), **client_options},
        )
        self.settings = settings or Settings()
        self._service = service
        self.run_clock = run_clock
        self.names = DisplayNames()
        self.locales = SeenLocales()
        self.languages = ServerLanguages()
        self._storing: set[asyncio.Task[None]] = set()
        self.unposted = Unposted()
        self.computer = ComputerOpponent(self)
        self.tournaments = TournamentRunner(self)
        self.puzzle_miner = PuzzleMiner(self)
        self.metrics = metrics or Metrics()
        self.metrics.watch_gateway(lambda: self.latencies)
        if service is not None:
            self._listen(service.events)

    def _listen(self, events: EventBus) -> None:
        """What this bot does after a service write commits (never inside one)."""
        # A tournament game's end may have paired the next games and finished the
        # tournament: their threads and the podium follow, in the background.
        events.subscribe(GameOver, lambda event: self.tournaments.game_ended(event.ended.game))
        # Every finished game is searched for puzzles, in the background (bounded queue).
        events.subscribe(GameOver, lambda event: self.puzzle_miner.game_ended(event.ended.game))
        self.metrics.watch_events(events)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # Called synchronously as the gateway event is parsed, before any handler task has
        # run: the one place an interaction's arrival time is exact.
        if event_name == "interaction" and args:
            instrument.arrived(self, args[0])
            self.locales.saw(args[0].user.id, args[0].locale.value)  # for DMs and digests
        super().dispatch(event_name, *args, **kwargs)

    def _store_locale(self, user_id: int, locale: str) -> None:
        """Store a player's locale in the background: the interaction never waits for it, and
        the service writes only when the stored one differs."""

        async def store() -> None:
            try:
                await self.service.notices.saw_locale(user_id, locale)
            except Exception as exc:  # a database fault: DMs read the older locale meanwhile
                log.warning("could not store a player's locale", extra={"error": repr(exc)})

        task = asyncio.create_task(store(), name="crosspath-locale")
        self._storing.add(task)
        task.add_done_callback(self._storing.discard)

    async def load_languages(self) -> None:
        """Read every server's chosen language (``/admin settings language``)."""
        self.languages.replace(await self.service.moderation.languages())

    @property
    def held_shards(self) -> ShardFilter | None:
        """The servers this process answers for, when other processes hold the rest."""
        settings = self.settings
        if settings.runs_every_shard or settings.shard_count is None:
            return None
        assert settings.shard_ids is not None
        return ShardFilter(settings.shard_count, settings.shard_ids)

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("this bot was built without a game service (payload export only)")
        return self._service

    async def install_commands(self) -> None:
        """Add every cog; also used offline by ``crosspath commands`` to build the payloads."""
        for cog_class in COGS:
            await self.add_cog(cog_class(self))
        # Localised descriptions and choice names for every sync (bot.discord.translator).
        await self.tree.set_translator(CatalogTranslator())

    async def setup_hook(self) -> None:
        await self.install_commands()
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.computer.ready()  # the bot's user is known once logged in
        if self._service is not None:
            await self.load_languages()
        log.info("commands and persistent buttons installed", extra={"cogs": list(self.cogs)})

    def remember(self, user: discord.abc.User | None) -> None:
        """Keep display names we see, so images name players without the members intent."""
        self.names.remember(user)

    def name_of(self, user_id: int, guild: discord.Guild | None = None) -> str:
        return self.names.name_of(user_id, guild)

    def names_for(self, user_ids: Any, guild: discord.Guild | None = None) -> dict[int, str]:
        return self.names.names_for(user_ids, guild)

    async def fetch_names(
        self, user_ids: Any, guild: discord.Guild | None = None
    ) -> dict[int, str]:
        """Like :meth:`names_for`, asking Discord once for players not seen since the start
        (and not again for a while when Discord could not say)."""
        for uid in user_ids:
            if self.names.known(uid, guild) is not None or not self.names.should_fetch(uid):
                continue
            user = self.get_user(uid)
            if user is None:
                try:
                    user = await self.fetch_user(uid)
                except discord.HTTPException:
                    self.names.failed(uid)
                    continue
            self.names.remember(user)
        return self.names_for(user_ids, guild)

    async def on_app_command_completion(
        self,
        interaction: discord.Interaction[Any],
        command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu,
    ) -> None:
        """One structured line per handled command, for operators following usage."""
        instrument.count_interaction(interaction, "ok")
        # Kept for the DMs and digests after a restart too; only once a command succeeded,
        # so a refused one changes nothing.
        user_id, locale = interaction.user.id, interaction.locale.value
        if self._service is not None and self.locales.to_store(user_id, locale):
            self._store_locale(user_id, locale)
        log.info("command handled", extra=context_of(interaction))

    async def close(self) -> None:
        await self.computer.close()
        await self.tournaments.close()
        if self._storing:  # locales being stored finish before the store closes
            await asyncio.gather(*self._storing, return_exceptions=True)
        await self.puzzle_miner.close()
        if self._service is not None:  # end the replay process with the bot
            await self._service.close()
        await super().close()

    async def on_ready(self) -> None:
        log.info(
            "connected",
            extra={"user_id": self.user.id if self.user else None, "guilds": len(self.guilds)},
        )
