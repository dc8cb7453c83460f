"""The tournament runner: the threads of tournament games, the announcements of new rounds,
the sweep after a restart and the podium, for one bot (after the service's writes commit)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.play.posting import build_turn_message, messageable, send
from bot.discord.play.threads import THREAD_ARCHIVE_MINUTES
from bot.discord.play.turns import mention
from bot.discord.replies import log_failure
from bot.discord.speech import of_guild, of_server
from bot.discord.tournaments.flows import (
    post_announcement,
    post_podium,
    refresh_announcement,
)
from bot.i18n import ENGLISH_TONGUE, Tongue
from bot.service import (
    GameInfo,
    ShardFilter,
    TournamentInfo,
    TournamentUpdate,
)

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

log = logging.getLogger("crosspath.discord")
Interaction = discord.Interaction[Any]


def thread_title(
    info: TournamentInfo | None,
    game: GameInfo,
    names: Mapping[int, str],
    tr: Tongue = ENGLISH_TONGUE,
) -> str:
    a, b = (names.get(uid) or tr.gettext("user {id}", id=uid) for uid in game.player_ids)
    players = tr.gettext("{first} vs {second}", first=a, second=b)
    if info is None:
        return f"{game.title} {players}"[:100]
    return f"{game.title} #{info.id} R{info.round}: {players}"[:100]


THREAD_PERMISSIONS = ("Create Public Threads", "Send Messages in Threads")
"""What the bot needs in a tournament's channel to open its games' threads."""


def missing_thread_permissions(
    channel: discord.TextChannel, me: discord.Member | None
) -> list[str]:
    """The thread permissions the bot lacks in ``channel`` (from the cached roles and
    overwrites); none when its member is not cached (Discord then decides)."""
    if me is None:
        return []
    perms = channel.permissions_for(me)
    flags = (perms.create_public_threads, perms.send_messages_in_threads)
    return [name for name, ok in zip(THREAD_PERMISSIONS, flags, strict=True) if not ok]


class TournamentRunner:
    """Opens the threads of tournament games and announces the end, for one bot.

    One lock per process serialises the thread work, so the sweep and a game's end do not
    open two threads for the same game here; another process that does is refused by the
    service (``attach_game_channel``), and its thread is deleted.  The podium is claimed
    from the service first (``claim_tournament_podium``), so one process posts it.
    """

    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._told_missing: set[int] = set()
        """Tournaments whose organiser was told the bot may not open threads in their
        channel (in this process): told once, not at every sweep, until threads work again."""

    def game_ended(self, game: GameInfo) -> None:
        """A tournament game ended: open the threads of the games its end paired and, if it
        was the last game, post the podium, in the background."""
        if game.tournament_id is None:
            return
        task = asyncio.create_task(self._after_game(game), name="tournament-after-game")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _after_game(self, game: GameInfo) -> None:
        assert game.tournament_id is not None
        try:
            opened = await self.open_threads(game.tournament_id)
            info = await self.bot.service.get_tournament(game.tournament_id)
            if opened and info.status == "running":
                tr = of_server(self.bot, info.guild_id)
                await messageable(self.bot, info.channel_id, info.guild_id).send(
                    tr.ngettext(
                        "Tournament #{id}: {n} new game paired (round {round}), each in its own "
                        "thread here. /tournament pairings shows them.",
                        "Tournament #{id}: {n} new games paired (round {round}), each in its own "
                        "thread here. /tournament pairings shows them.",
                        opened,
                        id=info.id,
                        round=info.round,
                    ),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            if info.status == "finished":
                await self.podium(info)
        except Exception as exc:
            log_failure("could not follow up a tournament game", exc, game_id=game.id)

    async def sweep(self, shards: ShardFilter | None = None) -> list[TournamentUpdate]:
        """Start or cancel the tournaments whose registration deadline passed, and open
        every pending thread of this process's servers (also after a restart)."""
        service = self.bot.service
        done = await service.tournaments.sweep_tournaments(shards=shards)
        for item in done:
            try:
                await self.announce_sweep(item)
            except Exception as exc:
                log_failure("could not announce a tournament", exc, tournament=item.tournament.id)
        await self.open_threads(None, shards)
        return done

    async def announce_sweep(self, item: TournamentUpdate) -> None:
        info = item.tournament
        if item.kind == "finished":
            await self.podium(info)
            return
        if item.kind == "started":
            text = of_server(self.bot, info.guild_id).gettext(
                "Tournament #{id} has started: round 1 is being paired in threads here.",
                id=info.id,
            )
        else:
            tr = of_server(self.bot, info.guild_id)
            text = tr.gettext(
                "Tournament #{id} was cancelled. {reason}",
                id=info.id,
                reason=tr.say(item.reason) if item.reason is not None else "",
            )
        await refresh_announcement(self.bot, info)
        await messageable(self.bot, info.channel_id, info.guild_id).send(
            text[:2000], allowed_mentions=discord.AllowedMentions.none()
        )

    async def open_threads(
        self, tournament_id: int | None, shards: ShardFilter | None = None
    ) -> int:
        """Give every game still on a provisional channel its thread; returns how many."""
        service = self.bot.service
        opened = 0
        async with self._lock:
            pending = await service.tournaments.games_awaiting_channel(tournament_id)
            tournaments: dict[int, TournamentInfo] = {}
            for game in pending:
                if shards is not None and not shards.holds(game.guild_id):
                    continue
                tid = game.tournament_id
                try:
                    if tid is not None and tid not in tournaments:
                        tournaments[tid] = await service.get_tournament(tid)
                    info = tournaments.get(tid) if tid is not None else None
                    opened += await self._open_one(game, info)
                except Exception as exc:
                    log_failure("could not open a tournament game's thread", exc, game_id=game.id)
        return opened

    async def _open_one(self, game: GameInfo, info: TournamentInfo | None) -> int:
        if info is None:
            log.warning("a game awaits a channel but has no tournament", extra={"game": game.id})
            return 0
        bot = self.bot
        guild = bot.get_guild(info.guild_id)
        parent = bot.get_channel(info.channel_id)
        if not isinstance(parent, discord.TextChannel):
            log.warning(
                "a tournament's channel is gone or not a text channel; its games wait",
                extra={"tournament_id": info.id, "channel_id": info.channel_id},
            )
            return 0
        missing = missing_thread_permissions(parent, guild.me if guild is not None else None)
        if missing:
            await self._tell_missing(info, missing)
            return 0
        names = await bot.fetch_names(game.player_ids, guild)
        try:
            thread = await parent.create_thread(
                name=thread_title(info, game, names, of_guild(guild, bot)),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except discord.Forbidden:  # the cached permissions were out of date
            await self._tell_missing(info, THREAD_PERMISSIONS)
            return 0
        self._told_missing.discard(info.id)  # a later loss of the permissions is told again
        try:
            attached = await bot.service.tournaments.attach_game_channel(game.id, thread.id)
        except Exception:
            await _delete_thread(thread)
            raise
        a, b = attached.player_ids
        headline = of_guild(guild, bot).gettext(
            "Tournament #{id}, round {round}: {first} vs {second}. Good luck!",
            id=info.id,
            round=info.round,
            first=mention(a),
            second=mention(b),
        )
        message = await build_turn_message(bot, attached, headline)
        both = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(a), discord.Object(b)]
        )
        posted = await send(bot, thread.id, info.guild_id, replace(message, allowed_mentions=both))
        if not posted.ok:
            log.warning("could not post a tournament game's first board", extra={"game": game.id})
        bot.computer.take_turn(attached)
        return 1

    async def _tell_missing(self, info: TournamentInfo, missing: Sequence[str]) -> None:
        """Tell the organiser, once, in the tournament's channel, which permissions the bot
        lacks there; the games wait and start at the first sweep after they are granted."""
        if info.id in self._told_missing:
            return
        self._told_missing.add(info.id)  # also when the notice fails: no retry every sweep
        log.warning(
            "cannot open tournament game threads: missing permissions",
            extra={"tournament_id": info.id, "channel_id": info.channel_id, "missing": missing},
        )
        tr = of_server(self.bot, info.guild_id)
        text = tr.ngettext(
            "{who}, the games of tournament #{id} are waiting: I can't open their threads in "
            "this channel because I lack {permissions} here. Grant it to me (channel or server "
            "settings) and the games start within a minute.",
            "{who}, the games of tournament #{id} are waiting: I can't open their threads in "
            "this channel because I lack {permissions} here. Grant them to me (channel or "
            "server settings) and the games start within a minute.",
            len(missing),
            who=mention(info.organiser_id),
            id=info.id,
            permissions=" and ".join(missing),  # Discord's own names for its permissions
        )
        try:
            await messageable(self.bot, info.channel_id, info.guild_id).send(
                text,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(info.organiser_id)]),
            )
        except discord.HTTPException as exc:
            log_failure(
                "could not tell an organiser of missing permissions", exc, tournament=info.id
            )

    async def podium(self, info: TournamentInfo) -> None:
        """Post the podium of a finished tournament, once across every process: the service
        lets one caller claim it.  A process that claimed it and stopped before posting
        leaves it unposted (a podium twice would be worse)."""
        if not await self.bot.service.tournaments.claim_tournament_podium(info.id):
            return
        await post_podium(self.bot, info)
        if info.format == "league":
            await self.announce_next_season(info)

    async def announce_next_season(self, finished: TournamentInfo) -> None:
        """A league's next season opens by itself: announce it with its Join and Leave."""
        league = finished.league_id or finished.id
        waiting = await self.bot.service.tournaments.list_tournaments(
            finished.guild_id, status="registration"
        )
        for info in waiting:
            if (info.league_id or info.id) == league and info.season == finished.season + 1:
                tr = of_server(self.bot, info.guild_id)
                await post_announcement(
                    self.bot,
                    info,
                    tr.gettext(
                        "Season {season} of this league is open: everyone who played season "
                        "{previous} is in; press Join to play too, or Leave.",
                        season=info.season,
                        previous=finished.season,
                    ),
                )

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()


async def _delete_thread(thread: discord.Thread) -> None:
    try:
        await thread.delete()
    except discord.HTTPException:
        log.warning("could not delete an unused tournament thread", exc_info=True)
