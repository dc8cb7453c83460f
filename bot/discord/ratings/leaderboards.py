"""``/leaderboard`` and ``/profile``: ratings as Pillow images with a text fallback.

Both answer with a deferral first; the service reads and the drawing
(``render.reports.leaderboard``, ``render.reports.rating_chart``, tens of milliseconds) happen
after it, the drawing on a worker thread, so the event loop never waits on Pillow. The
leaderboard's Previous/Next buttons carry the game and the offset in their custom ids
(``DynamicItem``), so they keep working after a restart and always show the board as it is now.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import io
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.access import public_channels
from bot.discord.persistent import PersistentButton
from bot.discord.speech import public as channel_tongue
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import Profile, PuzzleStanding, Standing
from render.reports.leaderboard import leaderboard_alt_text, render_leaderboard
from render.reports.rating_chart import rating_chart_alt_text, render_rating_chart
from rules import game_class, split_variant

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

PAGE_SIZE = 10
BOARD_FILE = "leaderboard.png"
CHART_FILE = "rating.png"


def pool_title(game: str, tr: Tongue) -> str:
    """A rating pool's title: the game's (a proper name), with the pie rule in ``tr``."""
    cls, pie = split_variant(game)
    return tr.gettext("{game} (pie rule)", game=cls.title) if pie else cls.title


def standing_line(s: Standing, names: dict[int, str], tr: Tongue = ENGLISH_TONGUE) -> str:
    mark = "?" if s.provisional else ""
    name = names.get(s.user_id) or tr.gettext("user {id}", id=s.user_id)
    games = tr.ngettext("{n} game", "{n} games", s.games)
    return f"{s.rank}. {name[:40]} — {round(s.rating)}{mark} ± {round(s.uncertainty)}" + (
        f" · {games} · {s.record}"
    )


async def leaderboard_page(
    bot: CrosspathBot, guild_id: int, game: str, offset: int, tr: Tongue = ENGLISH_TONGUE
) -> tuple[discord.Embed, discord.File | None, discord.ui.View | None]:
    """One page: the embed (its text is the fallback), the image, and the page buttons, in
    the channel's language ``tr``, the image and its alt text too."""
    found = await bot.service.leaderboard(guild_id, game, PAGE_SIZE + 1, offset)
    more, standings = len(found) > PAGE_SIZE, found[:PAGE_SIZE]
    title = pool_title(game, tr)
    names = await bot.fetch_names([s.user_id for s in standings], bot.get_guild(guild_id))
    embed = discord.Embed(
        title=tr.gettext("{game} leaderboard", game=pool_title(game, tr)), colour=0x009E73
    )
    if not standings:
        embed.description = tr.gettext(
            "No rated games yet: finish a rated game to get on the board."
        )
        return embed, None, None
    embed.description = "\n".join(standing_line(s, names, tr) for s in standings)[:4096]
    embed.set_footer(text=tr.gettext("? = provisional (fewer than 10 rated games)"))
    png = await asyncio.to_thread(
        functools.partial(render_leaderboard, standings, names, title=title, tr=tr)
    )
    alt = leaderboard_alt_text(standings, names, title=title, tr=tr)
    file = discord.File(io.BytesIO(png), filename=BOARD_FILE, description=alt[:1024])
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    view = discord.ui.View(timeout=None)
    if offset > 0:
        previous = tr.gettext("‹ Previous")
        view.add_item(LeaderboardPageButton(game, max(0, offset - PAGE_SIZE), previous))
    if more:
        view.add_item(LeaderboardPageButton(game, offset + PAGE_SIZE, tr.gettext("Next ›")))
    return embed, file, view if view.children else None


class LeaderboardPageButton(
    PersistentButton, template=r"cp:lb:(?P<game>[a-z+]{1,40}):(?P<offset>[0-9]{1,7})"
):
    """Another page of a leaderboard, read again when clicked."""

    def __init__(self, game: str, offset: int, label: str = "Page") -> None:
        super().__init__(f"cp:lb:{game}:{offset}", label, discord.ButtonStyle.secondary)
        self.game = game
        self.offset = offset

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPageButton:
        return cls(match["game"], int(match["offset"]))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None  # checked with the message
        await interaction.response.defer()
        embed, file, view = await leaderboard_page(
            interaction.client,
            interaction.guild_id,
            self.game,
            self.offset,
            channel_tongue(interaction),
        )
        await interaction.edit_original_response(
            embed=embed,
            attachments=[file] if file else [],
            view=view,
        )


OUTCOMES = {"win": N_("win"), "loss": N_("loss"), "draw": N_("draw")}
"""A recent game's result from the profile owner's side."""
ENDINGS = {
    "connection": N_("connection"),
    "draw": N_("full board"),
    "resign": N_("resignation"),
    "time": N_("on time"),
    "abort": N_("aborted"),
    "award": N_("awarded"),
    "forfeit": N_("forfeit"),
}
"""How a recent game ended, in a word (the service's ``ResultReason``)."""


def profile_embed(
    profile: Profile, name: str, guild_id: int, tr: Tongue = ENGLISH_TONGUE
) -> tuple[discord.Embed, tuple[str, Any] | None]:
    """The profile's embed and, when the player has a rating, the game whose history to draw;
    the record is numbers (wins–losses–draws)."""
    embed = discord.Embed(title=tr.gettext("{name}'s ratings", name=name[:80]), colour=0x009E73)
    if not profile.ratings_enabled:
        embed.description = tr.gettext("Ratings are turned off in this server.")
    for g in profile.games:
        s = g.standing
        rating = f"{round(s.rating)} ± {round(s.uncertainty)}"
        if s.provisional:
            rating = tr.gettext("{rating} (provisional)", rating=rating)
        embed.add_field(
            name=pool_title(g.game, tr),
            value=tr.gettext("{rating} · rank #{rank}", rating=rating, rank=s.rank)
            + "\n"
            + tr.ngettext(
                "{n} game, {record} · longest win streak {streak}",
                "{n} games, {record} · longest win streak {streak}",
                s.games,
                record=s.record,
                streak=g.longest_win_streak,
            ),
            inline=True,
        )
    if not profile.games:
        embed.add_field(name=tr.gettext("Rated games"), value=tr.gettext("none yet"), inline=False)
    lines = []
    for r in profile.recent:
        link = f"https://discord.com/channels/{guild_id}/{r.channel_id}"
        change = f"{r.change:+d}" if r.change is not None else tr.gettext("unrated")
        lines.append(
            tr.gettext(
                "#{id} {game} vs {opponent}: {outcome} ({reason}), {change} · {link}",
                id=r.game_id,
                game=game_class(r.game).title,
                opponent=f"<@{r.opponent_id}>",
                outcome=tr.gettext(OUTCOMES[r.outcome]),
                reason=tr.gettext(ENDINGS[r.reason]),
                change=change,
                link=link,
            )
        )
    if lines:
        embed.add_field(name=tr.gettext("Last games"), value="\n".join(lines)[:1024], inline=False)
    best = profile.games[0] if profile.games else None
    return embed, None if best is None else (pool_title(best.game, tr), best.history)


def puzzle_line(standing: PuzzleStanding, tr: Tongue = ENGLISH_TONGUE) -> str:
    return tr.gettext(
        "rating {rating} · solved {solved}, failed {failed} · streak {streak} (best {best})",
        rating=tr.number(standing.rating),
        solved=tr.number(standing.solved),
        failed=tr.number(standing.failed),
        streak=tr.number(standing.streak),
        best=tr.number(standing.best_streak),
    )


async def profile_reply(
    interaction: discord.Interaction[CrosspathBot], guild_id: int, user_id: int, name: str
) -> tuple[discord.Embed, discord.File | None]:
    """The public profile: its last games only from channels everyone here may read (a game
    in a private channel names its opponent, result and channel, which are as private as it)."""
    bot = interaction.client
    profile = await bot.service.ratings.profile(guild_id, user_id)
    readable = await public_channels(interaction, [r.channel_id for r in profile.recent])
    recent = tuple(r for r in profile.recent if r.channel_id in readable)
    profile = dataclasses.replace(profile, recent=recent)
    tr = channel_tongue(interaction)
    embed, chart = profile_embed(profile, name, guild_id, tr)
    puzzles = await bot.service.puzzles.standing(user_id)
    if puzzles is not None:
        embed.add_field(name=tr.gettext("Puzzles"), value=puzzle_line(puzzles, tr), inline=False)
    if chart is None or not chart[1]:
        return embed, None
    title, points = chart
    draw = functools.partial(render_rating_chart, points, player=name, game=title, tr=tr)
    png = await asyncio.to_thread(draw)
    alt = rating_chart_alt_text(points, player=name, game=title, tr=tr)
    embed.set_image(url=f"attachment://{CHART_FILE}")
    return embed, discord.File(io.BytesIO(png), filename=CHART_FILE, description=alt[:1024])
