"""Looking at games: ``/board``, ``/history``, ``/replay``, ``/games``, ``/rules``, ``/help``."""

from __future__ import annotations

import asyncio
import functools
import io
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import ai
import render
from bot.colour_words import colour_word
from bot.discord.access import Audience, picked_game
from bot.discord.choices import playable_games
from bot.discord.info.rules_text import sheet_text, summary
from bot.discord.installs import everywhere
from bot.discord.play.ai_opponent import level_label
from bot.discord.play.game_lists import send_first_page
from bot.discord.play.positions import position_of
from bot.discord.play.posting import build_turn_message
from bot.discord.play.turns import colour_names
from bot.discord.replies import defer_public, send_private, send_public
from bot.discord.speech import private, public
from bot.discord.transformers import GamePick
from bot.discord.translator import translated
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import GameInfo, GameRecord
from rules import game_class, game_names

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

Interaction = discord.Interaction["CrosspathBot"]
Send = Callable[..., Awaitable[None]]
"""How the answer goes out: ``send_public`` or ``send_private`` (after ``defer_public``)."""
GAME_NUMBER = locale_str("a game number from /games (default: the game in this channel)")


def tongue_for(interaction: Interaction, send: Send) -> Tongue:
    """The language of an answer sent by ``send``: the channel's when public, else the
    player's."""
    return public(interaction) if send is send_public else private(interaction)


GAME_STATUSES = {"active": N_("in progress"), "finished": N_("finished"), "aborted": N_("aborted")}


def record_text(record: GameRecord, names: dict[int, str], tr: Tongue = ENGLISH_TONGUE) -> str:
    """The downloadable record: header, one line per move with who and when, then events.

    The header and the move table speak ``tr``; the record line itself (``minefield 7: c3
    b2``) stays the notation ``parse_record`` reads, and the event log below it is the
    stored log, machine words kept as written."""
    info = record.game
    size = f"{info.size}×{info.size}"
    lines = [
        "# " + tr.gettext("{game} {size}, game #{id} (Crosspath)", game=info.title, size=size,
                          id=info.id),
        "# " + tr.gettext("{game} is a game by Mark Steere.", game=info.title),
        "# " + tr.gettext("Status: {status}", status=tr.gettext(GAME_STATUSES[info.status])),
    ]  # fmt: skip
    lines += [
        f"# {colour_word(s.colour, tr).capitalize()}: {names.get(s.user_id, s.user_id)}"
        for s in info.seats
    ]
    if info.hints is not None:  # only a game that allowed hints says how many were used
        lines += [
            "# "
            + tr.gettext(
                "Hints used by {colour}: {n}",
                colour=colour_word(s.colour, tr),
                n=tr.number(info.hints.get(s.user_id, 0)),
            )
            for s in info.seats
        ]
    lines += ["", record.text, ""]
    width = max([len(colour_word(s.colour, tr)) for s in info.seats] + [6])
    for m in record.moves:
        stamp = m.played_at.strftime("%Y-%m-%d %H:%M UTC")
        lines.append(f"{m.ply + 1:>4}. {colour_word(m.colour, tr):<{width}} {m.move:<6} {stamp}")
    if record.history:
        lines.append("")
        for event in record.history:
            lines.append(f"{event.at:%Y-%m-%d %H:%M} {event.kind}: {event.detail}")
    return "\n".join(lines) + "\n"


class InfoCog(commands.Cog):
    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot

    async def _pick(self, interaction: Interaction, game_id: int | None) -> tuple[GameInfo, Send]:
        """The game asked for, and how to answer with it.

        Without a number: this channel's latest game, finished or not, for anyone here (so
        /board and /history work in a thread after the game ended).  By number: a game of this
        server, answered publicly or privately as its channel allows (see ``access``).
        """
        info, shown = await picked_game(interaction, game_id)
        return info, send_private if shown is Audience.CALLER else send_public

    @app_commands.command(name="board", description=locale_str("Show the current board again"))
    @everywhere
    @app_commands.describe(game=GAME_NUMBER)
    async def board(self, interaction: Interaction, game: GamePick | None = None) -> None:
        await defer_public(interaction)  # loading a game after a restart can take a while
        info, send = await self._pick(interaction, game)
        message = await build_turn_message(self.bot, info)
        await send(
            interaction,
            content=message.content,
            embed=message.embed,
            file=message.file() or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name="history", description=locale_str("The game record as text and as a file")
    )
    @everywhere
    @app_commands.describe(game=GAME_NUMBER)
    async def history(self, interaction: Interaction, game: GamePick | None = None) -> None:
        await defer_public(interaction)
        info, send = await self._pick(interaction, game)
        record = await self.bot.service.games.game_record(info.id)
        names = self.bot.names_for(info.player_ids, interaction.guild)
        tr = tongue_for(interaction, send)
        text = record_text(record, names, tr)
        file = discord.File(io.BytesIO(text.encode()), filename=f"crosspath-game-{info.id}.txt")
        shown = record.text if len(record.text) < 1800 else record.text[:1800] + " …"
        content = tr.gettext(
            "Game #{id}, {game}: {record}", id=info.id, game=info.title, record=f"`{shown}`"
        )
        await send(interaction, content=content, file=file)

    @app_commands.command(name="replay", description=locale_str("An animated replay of a game"))
    @everywhere
    @app_commands.describe(game=GAME_NUMBER)
    async def replay(self, interaction: Interaction, game: GamePick | None = None) -> None:
        await defer_public(interaction)
        info, send = await self._pick(interaction, game)
        tr = tongue_for(interaction, send)
        names = colour_names(info, self.bot.names_for(info.player_ids, interaction.guild), tr)
        position = await position_of(self.bot.service, info)
        gif = await asyncio.to_thread(
            functools.partial(render.render_gif, position, names=names, tr=tr)
        )
        file = discord.File(
            io.BytesIO(gif),
            filename=f"crosspath-{info.id}.gif",
            description=tr.ngettext(
                "Replay of {game} game #{id}, {n} move",
                "Replay of {game} game #{id}, {n} moves",
                len(info.moves),
                game=info.title,
                id=info.id,
            ),
        )
        content = tr.gettext("Replay of game #{id} ({game}).", id=info.id, game=info.title)
        await send(interaction, content=content, file=file)

    @app_commands.command(
        name="games", description=locale_str("Your games in this server, with links")
    )
    @everywhere
    async def games(self, interaction: Interaction) -> None:
        await send_first_page(interaction, "mine")

    @app_commands.command(
        name="rules", description=locale_str("The rules of a game, by Mark Steere")
    )
    @everywhere
    @app_commands.describe(game=locale_str("which game"))
    @app_commands.choices(game=playable_games())
    async def rules(self, interaction: Interaction, game: app_commands.Choice[str]) -> None:
        tr = private(interaction)
        title = game_class(game.value).title
        # the summary in the player's language, beside Mark Steere's rule sheet (his English)
        embed = discord.Embed(
            title=tr.gettext("{game} rules", game=title), description=summary(game.value, tr)
        )
        embed.set_footer(
            text=tr.gettext(
                "The attached file is Mark Steere's full rule sheet, in English: the authority."
            )
        )
        file = discord.File(
            io.BytesIO(sheet_text(game.value).encode()), filename=f"{game.value}-rules.md"
        )
        await interaction.response.send_message(embed=embed, file=file, ephemeral=True)

    @app_commands.command(name="help", description=locale_str("How to play Crosspath games here"))
    @everywhere
    async def help(self, interaction: Interaction) -> None:
        await interaction.response.send_message(
            embed=help_embed(private(interaction)), ephemeral=True
        )


_TITLES = [game_class(name).title for name in game_names()]

HELP = [
    ("/challenge", N_("challenge someone (or anyone) to {games} or {last}")),
    (
        N_("Open challenges"),
        N_(
            "leave out the opponent and anyone here may accept, once; /challenges lists those "
            "to you, from you and open ones, with Accept, Decline and Cancel buttons"
        ),
    ),
    ("/challenge opponent:@me", N_("play the computer (pick a level); it answers every move")),
    (
        N_("Computer levels"),
        N_(
            "{levels}. Elo estimates from matches against a reference connection player rated 1000."
        ),
    ),
    ("/move point", N_("place a stone; start typing to see the legal points")),
    ("/swap", N_("Pie rule: take over the first player's colour after their first turn")),
    ("/resign, /takeback", N_("resign (asks first) or ask to undo your last turn")),
    (
        "/hint",
        N_(
            "the computer's suggested move and your win chance, shown only to you; only in "
            "games against the computer and games challenged with hints:True (never rated)"
        ),
    ),
    (
        "/abort",
        N_(
            "end the game with no result, unrated: alone until you have both made two turns, "
            "after that your opponent agrees or declines with a button (the offer lapses with "
            "the next move)"
        ),
    ),
    ("/board, /history, /replay", N_("the board again, the record file, an animated replay")),
    (
        "/puzzle",
        N_(
            "a position from a real game with exactly one winning move, near your puzzle "
            "rating, shown only to you: Answer with your move, or Give up"
        ),
    ),
    (
        "/analyse",
        N_(
            "after a game: the computer's win chance over every move, the costliest moves and "
            "each player's accuracy (also the Analyse button under the final board)"
        ),
    ),
    (
        "/games",
        N_(
            "your games in this server, those waiting on your move first (longest wait first); "
            "Next game links the one that has waited longest, in any server"
        ),
    ),
    (
        N_("Clocks"),
        N_(
            "a game is untimed, has a time per move (12h) or a time bank: 3d+1d max 5d starts "
            "each player with 3 days, counted only on their turn, adds a day after each of "
            "their turns and never holds more than 5. Run out and you lose on time. A new "
            "server plays with that bank; admins may change it (/admin settings)"
        ),
    ),
    (
        "/vacation start days, /vacation end",
        N_(
            "stop the clocks of all your games, in every server, for whole days (30 a year "
            "unless a server sets more); your opponents are told. End it early to get unused "
            "days back"
        ),
    ),
    (
        "/claim",
        N_(
            "soft time: when an untimed game has waited 14 days (a server setting) on your "
            "opponent, claim the win or abort it (the bot also tells you once, with the buttons)"
        ),
    ),
    (
        "/notify",
        N_(
            "how you hear of your turn, in every server: mention (a ping in the game's channel, "
            "the default), dm (a direct message with the board and a link), digest (one DM a "
            "day at the hour you pick, in UTC, listing every game waiting on you) or off. If "
            "your DMs are closed, I mention you instead and tell you how to open them"
        ),
    ),
    (
        "/leaderboard game, /profile",
        N_("this server's ratings: the top players, a player's record"),
    ),
    ("/rules game", N_("a summary and Mark Steere's full rule sheet")),
    (
        "/tournament …",
        N_(
            "round robins, Swiss, knockouts and league seasons: join (or press Join on the "
            "announcement), leave, list, info, standings, pairings; each game gets its own "
            "thread. Organisers: create, start, cancel, withdraw, adjudicate, announce"
        ),
    ),
    ("/admin …", N_("server managers: settings, abort, award, forfeit, active games")),
]
"""/help's fields: a heading (a command line stays as typed, in English) and its text."""

COMMAND_LINE = re.compile(r"^/")


def help_embed(tr: Tongue = ENGLISH_TONGUE) -> discord.Embed:
    """/help in ``tr``'s language; command names and game titles stay as they are."""
    embed = discord.Embed(
        title="Crosspath",
        description=tr.gettext(
            "Mark Steere's square-grid connection games, played by message. Each game runs in "
            "its own thread (or in the channel, if the server turned threads off or I may not "
            "create them); the board is posted after every turn."
        ),
    )
    levels = tr.gettext("; ").join(
        translated(level_label(level), tr.language) for level in ai.LEVELS.values()
    )
    for name, text in HELP:
        heading = name if COMMAND_LINE.match(name) else tr.gettext(name)
        value = tr.gettext(text, games=", ".join(_TITLES[:-1]), last=_TITLES[-1], levels=levels)
        embed.add_field(name=heading, value=value, inline=False)
    return embed
