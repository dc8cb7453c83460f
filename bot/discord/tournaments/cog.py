"""``/tournament``: create, join and follow tournaments; organisers start and run them.

Players: ``join``, ``leave``, ``list``, ``info``, ``standings``, ``pairings``.  Organisers
(the tournament's creator, or anyone with Manage Server): ``start``, ``cancel``,
``withdraw``, ``adjudicate``, ``announce``.  Who may ``create`` is set by server managers
(``creators``); Manage Server always may.  The service decides everything else (who is the
organiser, what a state allows) and answers refusals in players' words.

A loop at the clock's interval runs the service's tournament sweep (registration deadlines)
and opens the threads of any games still waiting for one, first right after start-up, so
work a restart interrupted is finished (see ``bot.discord.tournaments.flows``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands, tasks

from bot.discord.access import TOURNAMENT_HIDDEN, Audience, audience, can_view, public_where_asked
from bot.discord.choices import edited_ids, playable_games
from bot.discord.context import ids
from bot.discord.play.posting import post_turn
from bot.discord.play.turns import mention
from bot.discord.play.web_links import display_name, readable_by_everyone
from bot.discord.replies import (
    context_of,
    defer_public,
    log_failure,
    recorded,
    send_private,
    send_public,
)
from bot.discord.speech import private as player_tongue
from bot.discord.speech import public as channel_tongue
from bot.discord.tournaments.flows import (
    announcement_embed,
    announcement_view,
    pairing_line,
    refresh_announcement,
    standings_page,
    status_text,
    title_of,
)
from bot.discord.transformers import TimeOption
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import InvalidInput, PermissionDenied, TournamentInfo, quote

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

Interaction = discord.Interaction["CrosspathBot"]

FORMAT_CHOICES = [
    app_commands.Choice(name=name, value=value)
    for value, name in (
        ("round_robin", locale_str("Round robin")),
        ("double_round_robin", locale_str("Double round robin")),
        ("swiss", locale_str("Swiss")),
        ("knockout", locale_str("Knockout (single elimination)")),
        ("league", locale_str("League season (divisions)")),
    )
]
DEADLINE_FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d")
NO_THREADS = N_(
    "Tournament games are played in threads under the tournament's channel, and I can't make "
    "threads here (I need Create Public Threads and Send Messages in Threads in a text "
    "channel). Create the tournament in such a channel."
)
NOT_A_CREATOR = N_(
    "Only server managers and members with a tournament-creator role can create tournaments here."
)
MANAGERS_ONLY = N_(
    "Only server managers (Manage Server permission) can set who creates tournaments."
)
_CREATOR_EDITS: dict[str, Literal["add", "remove", "clear"]] = {
    "add": "add",
    "remove": "remove",
    "clear": "clear",
}


def parse_deadline(text: str, tr: Tongue = ENGLISH_TONGUE) -> datetime:
    """``2026-12-05 18:00`` (UTC) -> an aware datetime; a clear refusal otherwise."""
    cleaned = " ".join(text.split())
    for layout in DEADLINE_FORMATS:
        try:
            return datetime.strptime(cleaned, layout).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise InvalidInput(
        tr.gettext(
            "{text} is not a date and time I can read: write it as YYYY-MM-DD HH:MM in UTC, "
            "for example 2026-12-05 18:00.",
            text=quote(text),
        )
    )


def is_manager(interaction: Interaction) -> bool:
    return interaction.permissions.manage_guild


def visible_to(interaction: Interaction, info: TournamentInfo) -> bool:
    """Whether the caller may know ``info`` exists (for lists and autocomplete, from the cache
    alone): the rule of ``access.audience`` -- its channel is readable by everyone or by the
    caller, or the caller plays in it or manages the server."""
    guild = interaction.guild
    channel = guild.get_channel_or_thread(info.channel_id) if guild is not None else None
    if public_where_asked(interaction, channel, info.channel_id):
        return True
    user = interaction.user
    if user.id in info.player_ids or interaction.permissions.manage_guild:
        return True
    return channel is not None and isinstance(user, discord.Member) and can_view(channel, user)


def list_line(info: TournamentInfo, tr: Tongue = ENGLISH_TONGUE) -> str:
    players = tr.ngettext("{n} player", "{n} players", len(info.player_ids))
    return f"**#{info.id}** {title_of(info, tr)} · {status_text(info, tr)} · {players}"


class TournamentCog(commands.Cog):
    tournament = app_commands.Group(
        name="tournament",
        description=locale_str("Tournaments and leagues in this server"),
        guild_only=True,
        allowed_contexts=app_commands.AppCommandContext(guild=True),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
    )

    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot
        self.sweep.change_interval(seconds=bot.settings.clock_seconds)

    async def cog_load(self) -> None:
        if self.bot.run_clock:
            self.sweep.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()

    @tasks.loop(seconds=60)
    async def sweep(self) -> None:
        try:
            await self.bot.tournaments.sweep(self.bot.held_shards)
        except Exception as exc:  # an outage must not stop the loop
            log_failure("tournament sweep failed; retrying at the next tick", exc)

    @sweep.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    # ----- autocomplete -------------------------------------------------------------------
    async def _tournaments(
        self, interaction: Interaction, current: int | float | str
    ) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        found = await self.bot.service.tournaments.list_tournaments(interaction.guild_id, limit=25)
        typed = str(current).strip().lstrip("#")
        return [
            app_commands.Choice(name=f"#{t.id} {title_of(t)} ({t.status})"[:100], value=t.id)
            for t in found
            if str(t.id).startswith(typed) and visible_to(interaction, t)
        ]

    async def _owned(self, interaction: Interaction, tournament_id: int) -> TournamentInfo:
        """The tournament, if it is this server's (ids are sequential across servers)."""
        guild_id, _ = ids(interaction)
        info = await self.bot.service.get_tournament(tournament_id)
        if info.guild_id != guild_id:
            raise InvalidInput(
                player_tongue(interaction).gettext(
                    "There is no tournament #{id} in this server.", id=tournament_id
                )
            )
        return info

    # ----- create ----------------------------------------------------------------------------
    @tournament.command(
        name="create", description=locale_str("Create a tournament here, with Join buttons")
    )
    @app_commands.describe(
        game=locale_str("which game"),
        format=locale_str("round robin, Swiss, knockout or league season"),
        size=locale_str("board size (default: the server's or the game's default)"),
        rounds=locale_str("Swiss: number of rounds (default: enough to find a winner)"),
        best_of=locale_str("knockout: games per match, an odd number (default 1: one game)"),
        time=locale_str(
            "clock: a bank like 3d+1d max 5d, per move like 12h, or none (default: the server's)"
        ),
        rated=locale_str("whether the games change ratings (default: yes)"),
        deadline=locale_str(
            "when registration closes and it starts, YYYY-MM-DD HH:MM UTC (default: you start it)"
        ),
        min_players=locale_str("fewest players to start (default 2)"),
        max_players=locale_str("most players who may join (default: no limit)"),
        division_size=locale_str("league: most players per division (default 10)"),
    )
    @app_commands.choices(game=playable_games(), format=FORMAT_CHOICES)
    async def create(
        self,
        interaction: Interaction,
        game: app_commands.Choice[str],
        format: app_commands.Choice[str],
        size: app_commands.Range[int, 3, 25] | None = None,
        rounds: app_commands.Range[int, 1, 4095] | None = None,
        best_of: app_commands.Range[int, 1, 15] = 1,
        time: TimeOption | None = None,
        rated: bool = True,
        deadline: app_commands.Range[str, 1, 40] | None = None,
        min_players: app_commands.Range[int, 2, 4096] = 2,
        max_players: app_commands.Range[int, 2, 4096] | None = None,
        division_size: app_commands.Range[int, 4, 64] = 10,
    ) -> None:
        guild_id, channel_id = ids(interaction)
        if not is_manager(interaction):
            allowed = set(await self.bot.service.tournaments.tournament_creator_roles(guild_id))
            user = interaction.user
            roles = {r.id for r in user.roles} if isinstance(user, discord.Member) else set()
            if not allowed & roles:
                raise PermissionDenied(player_tongue(interaction).gettext(NOT_A_CREATOR))
        perms = interaction.app_permissions
        if not (
            isinstance(interaction.channel, discord.TextChannel)
            and perms.create_public_threads
            and perms.send_messages_in_threads
        ):
            raise InvalidInput(player_tongue(interaction).gettext(NO_THREADS))
        closes = parse_deadline(deadline, player_tongue(interaction)) if deadline else None
        self.bot.remember(interaction.user)
        info = await self.bot.service.create_tournament(
            guild_id,
            channel_id,
            interaction.user.id,
            game=game.value,
            size=size,
            format=format.value,
            rounds=rounds,
            match_games=best_of,
            time_control=time,
            rated=rated,
            max_players=max_players,
            min_players=min_players,
            registration_deadline=closes,
            division_size=division_size,
            public=readable_by_everyone(interaction),
        )
        try:
            tr = channel_tongue(interaction)
            sent = await interaction.response.send_message(
                tr.gettext(
                    "{who} opens {title}. Press Join to play!",
                    who=mention(interaction.user.id),
                    title=title_of(info, tr),
                ),
                embed=announcement_embed(info, None, tr),
                view=announcement_view(info, tr) or discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            # nobody can see or join it: withdraw it rather than leave it open unseen
            await self.bot.service.tournaments.cancel_tournament(
                info.id, interaction.user.id, as_admin=True
            )
            raise
        if sent.message_id is None:
            return
        try:
            await self.bot.service.tournaments.set_tournament_message(info.id, sent.message_id)
        except Exception as exc:  # it stands: its buttons check the embed's title instead
            log_failure("could not record a tournament's message", exc, **context_of(interaction))

    # ----- players ---------------------------------------------------------------------------
    @tournament.command(
        name="join", description=locale_str("Join a tournament open for registration")
    )
    @app_commands.describe(tournament=locale_str("which tournament"))
    async def join(self, interaction: Interaction, tournament: int) -> None:
        info = await self._owned(interaction, tournament)
        self.bot.remember(interaction.user)
        fresh = await self.bot.service.join_tournament(
            info.id, interaction.user.id, name=display_name(interaction.user)
        )
        tr = player_tongue(interaction)
        await interaction.response.send_message(
            tr.ngettext(
                "You joined {title} ({n} player so far).",
                "You joined {title} ({n} players so far).",
                len(fresh.player_ids),
                title=title_of(fresh, tr),
            ),
            ephemeral=True,
        )
        await refresh_announcement(self.bot, fresh)

    @tournament.command(name="leave", description=locale_str("Leave a tournament before it starts"))
    @app_commands.describe(tournament=locale_str("which tournament"))
    async def leave(self, interaction: Interaction, tournament: int) -> None:
        info = await self._owned(interaction, tournament)
        fresh = await self.bot.service.tournaments.leave_tournament(info.id, interaction.user.id)
        tr = player_tongue(interaction)
        await interaction.response.send_message(
            tr.gettext("You left {title}.", title=title_of(fresh, tr)), ephemeral=True
        )
        await refresh_announcement(self.bot, fresh)

    @tournament.command(
        name="list", description=locale_str("This server's tournaments, newest first")
    )
    async def list_all(self, interaction: Interaction) -> None:
        guild_id, _ = ids(interaction)
        found = await self.bot.service.tournaments.list_tournaments(guild_id, limit=20)
        shown = [t for t in found if visible_to(interaction, t)]
        tr = player_tongue(interaction)
        text = "\n".join(list_line(t, tr) for t in shown) or tr.gettext(
            "No tournaments yet: /tournament create."
        )
        await interaction.response.send_message(
            text[:2000], ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @tournament.command(
        name="info", description=locale_str("A tournament's format, players and status")
    )
    @app_commands.describe(tournament=locale_str("which tournament"))
    async def info(self, interaction: Interaction, tournament: int) -> None:
        info = await self._owned(interaction, tournament)
        await audience(interaction, info, TOURNAMENT_HIDDEN)  # private anyway; refuses outsiders
        await interaction.response.send_message(
            embed=announcement_embed(info, None, player_tongue(interaction)),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @tournament.command(
        name="standings", description=locale_str("A tournament's table, as an image")
    )
    @app_commands.describe(
        tournament=locale_str("which tournament"), page=locale_str("which page (20 players a page)")
    )
    async def standings(
        self,
        interaction: Interaction,
        tournament: int,
        page: app_commands.Range[int, 1, 100] = 1,
    ) -> None:
        await defer_public(interaction)  # reading and drawing a big table takes a moment
        info = await self._owned(interaction, tournament)
        private = await audience(interaction, info, TOURNAMENT_HIDDEN) is Audience.CALLER
        tr = player_tongue(interaction) if private else channel_tongue(interaction)
        shown = await standings_page(self.bot, info.id, page, tr)
        await (send_private if private else send_public)(
            interaction,
            embed=shown.embed,
            file=shown.file or discord.utils.MISSING,
            view=shown.view or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @tournament.command(name="pairings", description=locale_str("A round's games and results"))
    @app_commands.describe(
        tournament=locale_str("which tournament"),
        round=locale_str("which round (default: the last)"),
    )
    async def pairings(
        self,
        interaction: Interaction,
        tournament: int,
        round: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        info = await self._owned(interaction, tournament)
        private = await audience(interaction, info, TOURNAMENT_HIDDEN) is Audience.CALLER
        which = round or info.round
        tr = player_tongue(interaction) if private else channel_tongue(interaction)
        if which < 1:
            raise InvalidInput(
                tr.gettext("Tournament #{id} has not started: nobody is paired yet.", id=info.id)
            )
        found = await self.bot.service.tournaments.tournament_pairings(info.id, which)
        lines = [pairing_line(p, tr) for p in found] or [tr.gettext("No games in that round.")]
        heading = tr.gettext("**{title}**, round {round}", title=title_of(info, tr), round=which)
        text = heading + "\n" + "\n".join(lines)
        await interaction.response.send_message(
            text[:2000], ephemeral=private, allowed_mentions=discord.AllowedMentions.none()
        )

    # ----- organisers -------------------------------------------------------------------------
    @tournament.command(
        name="start", description=locale_str("Organiser: close registration and start")
    )
    @app_commands.describe(tournament=locale_str("which tournament"))
    async def start(self, interaction: Interaction, tournament: int) -> None:
        info = await self._owned(interaction, tournament)
        await defer_public(interaction)
        started = await self.bot.service.start_tournament(
            info.id, interaction.user.id, as_admin=is_manager(interaction)
        )
        recorded(interaction, f"Tournament #{info.id} has started")
        await refresh_announcement(self.bot, started)
        await self.bot.tournaments.open_threads(started.id)
        tr = channel_tongue(interaction)
        await send_public(
            interaction,
            content=tr.ngettext(
                "{title} has started with {n} player: round {round}'s games have their own "
                "threads in {channel}.",
                "{title} has started with {n} players: round {round}'s games have their own "
                "threads in {channel}.",
                len(started.player_ids),
                title=title_of(started, tr),
                round=started.round,
                channel=f"<#{started.channel_id}>",
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @tournament.command(name="cancel", description=locale_str("Organiser: cancel a tournament"))
    @app_commands.describe(tournament=locale_str("which tournament"))
    async def cancel(self, interaction: Interaction, tournament: int) -> None:
        info = await self._owned(interaction, tournament)
        cancelled = await self.bot.service.tournaments.cancel_tournament(
            info.id, interaction.user.id, as_admin=is_manager(interaction)
        )
        recorded(interaction, f"Tournament #{info.id} was cancelled")
        tr = channel_tongue(interaction)
        await interaction.response.send_message(
            tr.gettext(
                "{title} was cancelled by {who}.",
                title=title_of(cancelled, tr),
                who=mention(interaction.user.id),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await refresh_announcement(self.bot, cancelled)

    @tournament.command(
        name="withdraw",
        description=locale_str("Organiser: withdraw a player (their open games are lost)"),
    )
    @app_commands.describe(
        tournament=locale_str("which tournament"), player=locale_str("who withdraws")
    )
    async def withdraw(
        self, interaction: Interaction, tournament: int, player: discord.Member
    ) -> None:
        info = await self._owned(interaction, tournament)
        await defer_public(interaction)
        was_running = info.status == "running"
        open_games = [
            g.id
            for g in await self.bot.service.tournament_games(info.id)
            if g.is_active and player.id in g.player_ids
        ]
        fresh = await self.bot.service.tournaments.withdraw_from_tournament(
            info.id, player.id, interaction.user.id, as_admin=is_manager(interaction)
        )
        recorded(interaction, f"{player.display_name} was withdrawn")
        tr = channel_tongue(interaction)
        params = {"who": mention(player.id), "title": title_of(fresh, tr)}
        await send_public(
            interaction,
            content=tr.gettext(
                "{who} was withdrawn from {title}: their open games are forfeited.", **params
            )
            if open_games
            else tr.gettext("{who} was withdrawn from {title}.", **params),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if not was_running:
            await refresh_announcement(self.bot, fresh)
            return
        for game_id in open_games:  # each forfeit's end, in its thread
            await post_turn(self.bot, await self.bot.service.get_game_by_id(game_id))
        await self.bot.tournaments.open_threads(fresh.id)
        if fresh.status == "finished":
            await self.bot.tournaments.podium(fresh)

    @tournament.command(
        name="adjudicate", description=locale_str("Organiser: settle a game in progress")
    )
    @app_commands.describe(
        game=locale_str("the game's number"),
        winner=locale_str("who wins (leave empty with draw:True for a draw)"),
        draw=locale_str("settle the game as a draw"),
    )
    async def adjudicate(
        self,
        interaction: Interaction,
        game: app_commands.Range[int, 1, None],
        winner: discord.Member | None = None,
        draw: bool = False,
    ) -> None:
        guild_id, _ = ids(interaction)
        tr = player_tongue(interaction)
        if (winner is None) == (not draw):
            raise InvalidInput(
                tr.gettext("Name the winner, or set draw:True for a draw (not both).")
            )
        before = await self.bot.service.get_game_by_id(game)
        if before.guild_id != guild_id:
            raise InvalidInput(tr.gettext("There is no game #{id} in this server.", id=game))
        ended = await self.bot.service.tournaments.adjudicate_tournament_game(
            game,
            winner_id=winner.id if winner else None,
            by_user_id=interaction.user.id,
            as_admin=is_manager(interaction),
        )
        recorded(interaction, f"Game #{game} was adjudicated")
        await interaction.response.send_message(
            tr.gettext("Game #{id} was adjudicated to {who}.", id=game, who=mention(winner.id))
            if winner
            else tr.gettext("Game #{id} was adjudicated as a draw.", id=game),
            ephemeral=True,
        )
        await post_turn(self.bot, ended)  # the end, in the game's thread; pairs what is next

    @tournament.command(
        name="announce", description=locale_str("Organiser: post the announcement again")
    )
    @app_commands.describe(
        tournament=locale_str("which tournament"), message=locale_str("a note to add (optional)")
    )
    async def announce(
        self,
        interaction: Interaction,
        tournament: int,
        message: app_commands.Range[str, 1, 500] | None = None,
    ) -> None:
        info = await self._owned(interaction, tournament)
        if interaction.user.id != info.organiser_id and not is_manager(interaction):
            raise PermissionDenied(
                player_tongue(interaction).gettext(
                    "Only the organiser or a server manager can announce it."
                )
            )
        tr = channel_tongue(interaction)
        note = f"\n{message}" if message else ""
        heading = tr.gettext(
            "{title}: {status}.", title=title_of(info, tr), status=status_text(info, tr)
        )
        sent = await interaction.response.send_message(
            f"{heading}{note}"[:2000],
            embed=announcement_embed(info, None, tr),
            view=announcement_view(info, tr) or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if sent.message_id is not None and interaction.channel_id == info.channel_id:
            # the newest announcement's buttons are the ones that act
            await self.bot.service.tournaments.set_tournament_message(info.id, sent.message_id)

    @tournament.command(
        name="creators", description=locale_str("Managers: the roles that may create tournaments")
    )
    @app_commands.describe(
        action=locale_str("add or remove a role, or clear the list (then only managers may)"),
        role=locale_str("the role"),
    )
    @app_commands.choices(
        action=[
            app_commands.Choice(name=locale_str("add"), value="add"),
            app_commands.Choice(name=locale_str("remove"), value="remove"),
            app_commands.Choice(name=locale_str("clear"), value="clear"),
            app_commands.Choice(name=locale_str("show"), value="show"),
        ]
    )
    async def creators(
        self,
        interaction: Interaction,
        action: app_commands.Choice[str],
        role: discord.Role | None = None,
    ) -> None:
        guild_id, _ = ids(interaction)
        tr = player_tongue(interaction)
        if not is_manager(interaction):
            raise PermissionDenied(tr.gettext(MANAGERS_ONLY))
        current = list(await self.bot.service.tournaments.tournament_creator_roles(guild_id))
        if action.value in ("add", "remove") and role is None:
            raise InvalidInput(
                tr.gettext("Name the role to add.")
                if action.value == "add"
                else tr.gettext("Name the role to remove.")
            )
        if action.value != "show":
            edit = _CREATOR_EDITS[action.value]
            current = edited_ids(current, edit, role.id if role is not None else None)
            current = list(
                await self.bot.service.tournaments.set_tournament_creator_roles(
                    guild_id, current, interaction.user.id
                )
            )
        roles = ", ".join(f"<@&{r}>" for r in current) or tr.gettext("none (server managers only)")
        await interaction.response.send_message(
            tr.gettext("Roles that may create tournaments: {roles}.", roles=roles),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @join.autocomplete("tournament")
    @leave.autocomplete("tournament")
    @info.autocomplete("tournament")
    @standings.autocomplete("tournament")
    @pairings.autocomplete("tournament")
    @start.autocomplete("tournament")
    @cancel.autocomplete("tournament")
    @withdraw.autocomplete("tournament")
    @announce.autocomplete("tournament")
    async def _tournament_choices(
        self, interaction: Interaction, current: Any
    ) -> list[app_commands.Choice[int]]:
        return await self._tournaments(interaction, current)


__all__ = ["TournamentCog", "parse_deadline"]
