"""Tournaments in Discord: the announcement and its buttons, game threads, standings, podium.

The service runs a tournament (pairings, results, standings); this module shows it.  Three
jobs need care:

- **Game threads.**  The service creates a round's games at once, each on a provisional
  channel id.  :class:`TournamentRunner` then opens one thread per game under the
  tournament's channel, names and pings both players there (and only them), and hands the
  thread to the service (``attach_game_channel``), after which the game is an ordinary game
  in its thread.  It does so after a start, after every tournament game ends, and in its
  periodic sweep (which also runs once at start-up), so a process that stopped half-way
  finishes the job after a restart.  A thread made for a game another process attached first
  is deleted again.
- **Join and Leave** sit on the announcement as persistent buttons: their custom id carries
  the tournament's id, and a press acts only on the message the tournament was announced in,
  in its own server and channel (ids are sequential, so the id alone could be doctored).
- **Standings** are drawn by :mod:`render.reports.standings` on a worker thread, one page per image,
  with the same table as text in the embed for clients that do not show images.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.discord.context import bot_of
from bot.discord.persistent import PersistentButton, check_place, refuse_origin
from bot.discord.play.posting import messageable
from bot.discord.play.turns import mention, relative_time
from bot.discord.play.web_links import display_name
from bot.discord.replies import recorded
from bot.discord.speech import of_server, private, public
from bot.i18n import ENGLISH, ENGLISH_TONGUE, N_, Tongue
from bot.service import (
    PairingInfo,
    StandingRow,
    TournamentInfo,
)
from render.reports.standings import (
    PAGE_ROWS,
    StandingsLine,
    format_score,
    pages,
    render_standings,
    standings_alt_text,
    standings_text,
)

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

log = logging.getLogger("crosspath.discord")
Interaction = discord.Interaction[Any]

FORMAT_NAMES: dict[str, str] = {
    "round_robin": N_("Round robin"),
    "double_round_robin": N_("Double round robin"),
    "swiss": N_("Swiss"),
    "knockout": N_("Knockout"),
    "league": N_("League"),
}
TIEBREAK_HEADINGS: dict[str, str] = {
    "buchholz_cut1": "BH-1",
    "buchholz": "BH",
    "sonneborn_berger": "SB",
    "head_to_head": "H2H",
}
"""Short column headings for the service's tiebreak names: the abbreviations chess players
use in every language, spelt out in the table's legend (others are shown as given)."""
TIEBREAK_COLUMNS: dict[str, str] = {
    "wins": N_("Wins"),
    "rating": N_("Rating"),
    "round_reached": N_("Round"),
}
"""Tiebreaks headed by a word, translated."""
TIEBREAK_WORDS: dict[str, str] = {
    "BH-1": N_("Buchholz cut-1"),
    "BH": N_("Buchholz"),
    "SB": N_("Sonneborn-Berger"),
    "H2H": N_("head-to-head"),
}
STANDINGS_FILE = "standings.png"
MEDALS = ("🥇", "🥈", "🥉")
EMBED_COLOUR = 0x009E73


def format_name(fmt: str, tr: Tongue = ENGLISH_TONGUE) -> str:
    known = FORMAT_NAMES.get(fmt.replace("-", "_"))
    return tr.gettext(known) if known else fmt.replace("_", " ").capitalize()


def title_of(info: TournamentInfo, tr: Tongue = ENGLISH_TONGUE) -> str:
    """ "Minefield 9×9 Swiss #3": the game, the format and the number players quote."""
    params = {
        "game": info.title,
        "size": info.size,
        "format": format_name(info.format, tr),
        "id": info.id,
    }
    if info.format == "league":
        return tr.gettext(
            "{game} {size}×{size} {format} season {season} #{id}", season=info.season, **params
        )
    return tr.gettext("{game} {size}×{size} {format} #{id}", **params)


# ----- the announcement -------------------------------------------------------------------------
_TOURNAMENT_NUMBER = re.compile(r"tournament #([0-9]+)$")


def announcement_embed(
    info: TournamentInfo, note: str | None = None, tr: Tongue = ENGLISH_TONGUE
) -> discord.Embed:
    """The announcement, in the channel's language ``tr``: what, how, who, and until when one
    can join.  In English its title ends with ``tournament #N`` so a button on another message
    can be told apart (where no message id was stored yet)."""
    embed = discord.Embed(
        title=tr.gettext(
            "{game} {size}×{size} {format}, tournament #{id}",
            game=info.title,
            size=info.size,
            # English writes the format in lower case here ("… swiss, tournament #3"); other
            # languages keep their own capitals (German nouns)
            format=format_name(info.format, tr).lower()
            if tr.language == ENGLISH
            else format_name(info.format, tr),
            id=info.id,
        )[:256],
        colour=EMBED_COLOUR,
        description=tr.gettext("Organised by {who}.", who=mention(info.organiser_id))
        + " "
        + (note or ""),
    )
    embed.add_field(name=tr.gettext("Format"), value=format_details(info, tr), inline=True)
    embed.add_field(
        name=tr.gettext("Clock"), value=tr.say(info.time_control.wording()), inline=True
    )
    rated = tr.gettext("yes") if info.rated else tr.gettext("no")
    embed.add_field(name=tr.gettext("Rated"), value=rated, inline=True)
    players_wanted = (
        f"{info.min_players}–{info.max_players}"
        if info.max_players
        else tr.gettext("{n} or more", n=info.min_players)
    )
    embed.add_field(name=tr.gettext("Players"), value=players_wanted, inline=True)
    if info.status == "registration":
        start = (
            relative_time(info.registration_deadline)
            if info.registration_deadline
            else tr.gettext("when the organiser starts it")
        )
        embed.add_field(name=tr.gettext("Starts"), value=start, inline=True)
    embed.add_field(name=tr.gettext("Status"), value=status_text(info, tr), inline=True)
    players = " ".join(mention(uid) for uid in info.player_ids)
    embed.add_field(
        name=tr.gettext("Registered ({n})", n=len(info.player_ids)),
        value=(players or tr.gettext("nobody yet"))[:1024],
    )
    embed.set_footer(text=f"/tournament info tournament:{info.id} · /tournament standings")
    return embed


def format_details(info: TournamentInfo, tr: Tongue = ENGLISH_TONGUE) -> str:
    name = format_name(info.format, tr)
    if info.format == "knockout":
        if info.match_games <= 1:
            return tr.gettext("{format}, one game a match", format=name)
        return tr.gettext("{format}, best of {n}", format=name, n=info.match_games)
    if info.rounds:
        return tr.ngettext("{format}, {n} round", "{format}, {n} rounds", info.rounds, format=name)
    return name


def status_text(info: TournamentInfo, tr: Tongue = ENGLISH_TONGUE) -> str:
    if info.status == "registration":
        return tr.gettext("open for registration")
    if info.status == "running":
        if info.rounds:
            return tr.gettext(
                "round {round} of {rounds} under way", round=info.round, rounds=info.rounds
            )
        return tr.gettext("round {round} under way", round=info.round)
    return tr.gettext(STATUSES[info.status]) if info.status in STATUSES else info.status


STATUSES = {"finished": N_("finished"), "cancelled": N_("cancelled")}
"""How the other statuses read (any other shows as stored)."""


def announcement_view(info: TournamentInfo, tr: Tongue = ENGLISH_TONGUE) -> discord.ui.View | None:
    """Join and Leave while registration is open; no buttons after."""
    if info.status != "registration":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TournamentButton("join", info.id, tr))
    view.add_item(TournamentButton("leave", info.id, tr))
    return view


def names_another_tournament(message: discord.Message | None, info: TournamentInfo) -> bool:
    """True when ``message`` is not the one ``info`` was announced in (by its stored id, or,
    before that was stored, by the embed title ``… tournament #N``)."""
    if info.message_id is not None:
        return message is None or message.id != info.message_id
    for embed in message.embeds if message is not None else ():
        found = _TOURNAMENT_NUMBER.search(embed.title or "")
        if found is not None:
            return int(found[1]) != info.id
    return True


ANOTHER_TOURNAMENT = N_(
    "That button belongs to another tournament's message, so nothing was changed."
)


class TournamentButton(
    PersistentButton, template=r"cp:tourn:(?P<action>join|leave):(?P<id>[0-9]{1,19})"
):
    """Join or Leave on a tournament's announcement; the message is then shown as it is now."""

    STYLES: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "join": (N_("Join"), discord.ButtonStyle.success),
        "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, tournament_id: int, tr: Tongue = ENGLISH_TONGUE) -> None:
        label, style = self.STYLES[action]
        super().__init__(f"cp:tourn:{action}:{tournament_id}", tr.gettext(label), style)
        self.action = action
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls(match["action"], int(match["id"]))

    async def act(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        bot.remember(interaction.user)
        service = bot.service
        info = await service.get_tournament(self.tournament_id)
        check_place(interaction, info.guild_id, info.channel_id)
        if names_another_tournament(interaction.message, info):
            raise refuse_origin(interaction, ANOTHER_TOURNAMENT)
        user_id = interaction.user.id
        if self.action == "join":
            fresh = await service.join_tournament(
                info.id, user_id, name=display_name(interaction.user)
            )
            done = private(interaction).gettext("You joined tournament #{id}.", id=info.id)
        else:
            fresh = await service.tournaments.leave_tournament(info.id, user_id)
            done = private(interaction).gettext("You left tournament #{id}.", id=info.id)
        recorded(interaction, done)
        tr = public(interaction)  # the announcement, which the channel reads
        try:
            await interaction.response.edit_message(
                embed=announcement_embed(fresh, None, tr), view=announcement_view(fresh, tr)
            )
        except discord.HTTPException:
            log.warning("could not update a tournament announcement", exc_info=True)
            return
        try:
            await interaction.followup.send(done, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not confirm a tournament button privately", exc_info=True)


# ----- standings --------------------------------------------------------------------------------
def heading_for(name: str, tr: Tongue = ENGLISH_TONGUE) -> str:
    if name in TIEBREAK_COLUMNS:
        return tr.gettext(TIEBREAK_COLUMNS[name])
    return TIEBREAK_HEADINGS.get(name, name.replace("_", " ")[:10])


def standings_lines(
    rows: Sequence[StandingRow], names: Mapping[int, str], tr: Tongue = ENGLISH_TONGUE
) -> tuple[list[StandingsLine], list[str]]:
    """The service's rows as the renderer's plain lines, and the tiebreak headings."""
    keys = list(rows[0].tiebreaks) if rows else []
    divided = any(row.division > 1 for row in rows)
    lines = [
        StandingsLine(
            rank=row.rank,
            name=(f"D{row.division} · " if divided else "")
            + (names.get(row.user_id) or tr.gettext("user {id}", id=row.user_id)),
            points=row.points,
            tiebreaks=tuple(float(row.tiebreaks.get(k, 0.0)) for k in keys),
            games_left=row.games_left,
            withdrawn=row.withdrawn,
        )
        for row in rows
    ]
    return lines, [heading_for(k, tr) for k in keys]


@dataclass(frozen=True, slots=True)
class StandingsPage:
    """One page of standings, ready to send: the embed holds the table as text too."""

    embed: discord.Embed
    file: discord.File | None
    view: discord.ui.View | None


def legend(headings: Sequence[str], tr: Tongue = ENGLISH_TONGUE) -> str:
    """What the table's abbreviations stand for (the tiebreaks' names are proper names)."""
    words = [f"{h} = {tr.gettext(TIEBREAK_WORDS[h])}" for h in headings if h in TIEBREAK_WORDS]
    # the column's heading as the table shows it (render.reports.standings: "Left")
    left = tr.gettext("{column} = games left", column=tr.gettext("Left"))
    return " · ".join([*words, left, tr.gettext("(w) = withdrawn")])


async def standings_page(
    bot: CrosspathBot, tournament_id: int, page: int, tr: Tongue = ENGLISH_TONGUE
) -> StandingsPage:
    """Page ``page`` (1-based, clamped) of a tournament's standings, in ``tr``'s language."""
    service = bot.service
    info = await service.get_tournament(tournament_id)
    rows = list(await service.tournament_standings(tournament_id))
    cut = pages(rows)
    number = min(max(page, 1), len(cut))
    shown = cut[number - 1]
    names = await bot.fetch_names([r.user_id for r in shown], bot.get_guild(info.guild_id))
    lines, headings = standings_lines(shown, names, tr)
    title = title_of(info, tr)
    embed = discord.Embed(
        title=tr.gettext("Standings: {title}", title=title)[:256], colour=EMBED_COLOUR
    )
    if not lines:
        embed.description = tr.gettext("Nobody is registered yet.")
        return StandingsPage(embed, None, None)
    table = standings_text(lines, headings=headings, tr=tr)
    embed.description = f"```\n{table[:4000]}\n```"
    embed.set_footer(text=legend(headings, tr)[:2048])
    draw = partial(
        render_standings,
        lines,
        title=title,
        headings=headings,
        page=number,
        page_count=len(cut),
        total=len(rows),
        tr=tr,
    )
    png = await asyncio.to_thread(draw)
    alt = standings_alt_text(
        lines,
        title=title,
        headings=headings,
        page=number,
        page_count=len(cut),
        total=len(rows),
        tr=tr,
    )
    file = discord.File(io.BytesIO(png), filename=STANDINGS_FILE, description=alt[:1024])
    embed.set_image(url=f"attachment://{STANDINGS_FILE}")
    view = discord.ui.View(timeout=None)
    if number > 1:
        view.add_item(StandingsPageButton(tournament_id, number - 1, tr.gettext("‹ Previous")))
    if number < len(cut):
        view.add_item(StandingsPageButton(tournament_id, number + 1, tr.gettext("Next ›")))
    return StandingsPage(embed, file, view if view.children else None)


class StandingsPageButton(
    PersistentButton, template=r"cp:tst:(?P<id>[0-9]{1,19}):(?P<page>[0-9]{1,5})"
):
    """Another page of a tournament's standings, read again when clicked."""

    def __init__(self, tournament_id: int, page: int, label: str = "Page") -> None:
        super().__init__(f"cp:tst:{tournament_id}:{page}", label, discord.ButtonStyle.secondary)
        self.tournament_id = tournament_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StandingsPageButton:
        return cls(int(match["id"]), int(match["page"]))

    async def act(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        info = await bot.service.get_tournament(self.tournament_id)
        if info.guild_id != interaction.guild_id:
            raise refuse_origin(interaction, ANOTHER_TOURNAMENT)
        await interaction.response.defer()
        shown = await standings_page(bot, self.tournament_id, self.page, public(interaction))
        await interaction.edit_original_response(
            embed=shown.embed, attachments=[shown.file] if shown.file else [], view=shown.view
        )


# ----- pairings ---------------------------------------------------------------------------------
def pairing_line(p: PairingInfo, tr: Tongue = ENGLISH_TONGUE) -> str:
    """One pairing (the result is the service's score, e.g. ``1–0``)."""
    if p.second_id is None:
        return tr.gettext("{who}: bye", who=mention(p.first_id))
    line = tr.gettext("{first} vs {second}", first=mention(p.first_id), second=mention(p.second_id))
    if p.result:
        line += f" **{p.result}**"
    if p.game_id is not None:
        line += " · " + tr.gettext("game #{id}", id=p.game_id)
    return line


# ----- the runner: threads, podium ----------------------------------------------------------------
def podium_text(
    info: TournamentInfo, rows: Sequence[StandingRow], tr: Tongue = ENGLISH_TONGUE
) -> tuple[str, list[int]]:
    """The podium's words and the players it pings (the top three places, ties included)."""
    lines = ["🏆 " + tr.gettext("**{title}** is over!", title=title_of(info, tr))]
    pinged: list[int] = []
    for row in rows:
        if row.division != 1 or row.rank > len(MEDALS):
            break  # a league's podium is its top division's
        params = {"who": mention(row.user_id), "points": format_score(row.points)}
        score = (
            tr.gettext("{who}: {points} point", **params)
            if row.points == 1
            else tr.gettext("{who}: {points} points", **params)
        )
        lines.append(f"{MEDALS[row.rank - 1]} {score}")
        pinged.append(row.user_id)
    return "\n".join(lines), pinged


async def post_announcement(bot: CrosspathBot, info: TournamentInfo, text: str) -> None:
    """Post an announcement in the tournament's channel and make its buttons the live ones."""
    tr = of_server(bot, info.guild_id)
    try:
        sent = await messageable(bot, info.channel_id, info.guild_id).send(
            text[:2000],
            embed=announcement_embed(info, None, tr),
            view=announcement_view(info, tr) or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.warning("could not announce a tournament", extra={"tournament": info.id})
        return
    await bot.service.tournaments.set_tournament_message(info.id, sent.id)


async def refresh_announcement(bot: CrosspathBot, info: TournamentInfo) -> None:
    """Show the announcement as the tournament is now (no buttons once registration closed)."""
    if info.message_id is None:
        return
    channel = messageable(bot, info.channel_id, info.guild_id)
    tr = of_server(bot, info.guild_id)
    try:
        await channel.get_partial_message(info.message_id).edit(  # type: ignore[attr-defined]
            embed=announcement_embed(info, None, tr), view=announcement_view(info, tr)
        )
    except discord.HTTPException:
        log.warning("could not update a tournament announcement", extra={"tournament": info.id})


async def post_podium(bot: CrosspathBot, info: TournamentInfo) -> None:
    rows = await bot.service.tournament_standings(info.id)
    tr = of_server(bot, info.guild_id)
    text, pinged = podium_text(info, rows, tr)
    shown = await standings_page(bot, info.id, 1, tr)
    kwargs: dict[str, Any] = {
        "content": text[:2000],
        "embed": shown.embed,
        "allowed_mentions": discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(uid) for uid in pinged]
        ),
    }
    if shown.file is not None:
        kwargs["file"] = shown.file
    if shown.view is not None:
        kwargs["view"] = shown.view
    try:
        await messageable(bot, info.channel_id, info.guild_id).send(**kwargs)
    except discord.HTTPException:
        log.warning("could not post a tournament's podium", extra={"tournament_id": info.id})


__all__ = [
    "PAGE_ROWS",
    "StandingsPageButton",
    "TournamentButton",
    "announcement_embed",
    "announcement_view",
    "standings_page",
]
