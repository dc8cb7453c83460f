"""Messages about games: the turn message with its board image, endings, challenges.

Builders are pure functions of service results and an engine position, so they are tested
without Discord; the only slow part, drawing the board, runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

import discord

from bot.colour_words import colour_word
from bot.discord.clocks.clock_text import time_left_line
from bot.discord.words import describe_turn
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import (
    Challenge,
    GameInfo,
    GameRating,
    GameResult,
    short_duration_wording,
    unrated_wording,
)
from rules import Game

COLOUR_DOTS: dict[str, str] = {"red": "🔴", "blue": "🔵", "black": "⚫", "white": "⚪"}
EMBED_COLOURS: dict[str, int] = {
    "red": 0xD55E00,
    "blue": 0x0072B2,
    "black": 0x222222,
    "white": 0xEEEEEE,
}
IN_DMS_NOTE = N_("Played outside a server: unrated, and not shown on the web.")
"""Said on a challenge made in a DM or group DM, before anyone accepts it (issue 47)."""
SHOW_ILLEGAL = frozenset({"minefield", "nakeddiagonal"})
"""Games whose hidden "mines" are drawn on the board: their legality is hard to see."""


@dataclass(frozen=True, slots=True)
class Board:
    """A drawn board: PNG bytes and the alt text sent with it."""

    png: bytes
    alt: str


@dataclass(frozen=True, slots=True)
class OutgoingMessage:
    """Everything ``channel.send`` needs; a fresh ``discord.File`` is made per attempt."""

    content: str
    embed: discord.Embed
    allowed_mentions: discord.AllowedMentions
    board: Board | None = None
    filename: str = "board.png"
    view: discord.ui.View | None = None
    """Link buttons under the post (the game's web page), if any."""

    def file(self) -> discord.File | None:
        if self.board is None:
            return None
        return discord.File(
            io.BytesIO(self.board.png), filename=self.filename, description=self.board.alt[:1024]
        )

    def send_kwargs(self) -> dict[str, object]:
        kwargs: dict[str, object] = {
            "content": self.content,
            "embed": self.embed,
            "allowed_mentions": self.allowed_mentions,
        }
        file = self.file()
        if file is not None:
            kwargs["file"] = file
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def relative_time(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:R>"


def colour_names(
    info: GameInfo, names: Mapping[int, str], tr: Tongue = ENGLISH_TONGUE
) -> dict[str, str]:
    """colour -> display name, the form the renderer and the words of a turn use."""
    return {
        seat.colour: names.get(seat.user_id)
        or tr.gettext("player {colour}", colour=colour_word(seat.colour, tr))
        for seat in info.seats
    }


def draw_board(game: Game, names: Mapping[str, str], tr: Tongue = ENGLISH_TONGUE) -> Board:
    """Render synchronously (call through :func:`draw_board_async` on the event loop); the
    caption and the alt text speak ``tr``'s language."""
    import render  # imported late: building the command tree must not need Pillow

    png = render.render_board(
        game, names=dict(names), show_illegal=game.name in SHOW_ILLEGAL, tr=tr
    )
    return Board(png=png, alt=render.alt_text(game, names=dict(names), tr=tr))


async def draw_board_async(
    game: Game, names: Mapping[str, str], tr: Tongue = ENGLISH_TONGUE
) -> Board:
    return await asyncio.to_thread(draw_board, game, names, tr)


def players_field(info: GameInfo, tr: Tongue = ENGLISH_TONGUE) -> str:
    lines = []
    for seat in info.seats:
        dot = COLOUR_DOTS.get(seat.colour, "•")
        colour = colour_word(seat.colour, tr).capitalize()
        lines.append(f"{dot} {colour}: {mention(seat.user_id)}")
    return "\n".join(lines)


RESULTS = {
    "connection": N_("{winner} wins by completing their connection!"),
    "draw": N_("The game is a draw: nobody can place any more."),
    "resign": N_("{loser} resigned. {winner} wins."),
    "time": N_("{loser} ran out of time. {winner} wins on time."),
    "abort": N_("The game was aborted by {actor}. No result."),
    "award": N_("{actor} awarded the game to {winner}."),
    "forfeit": N_("{actor} forfeited {loser}. {winner} wins."),
}


def result_text(info: GameInfo, result: GameResult, tr: Tongue = ENGLISH_TONGUE) -> str:
    winner = mention(result.winner_id) if result.winner_id is not None else None
    loser = mention(result.loser_id) if result.loser_id is not None else None
    actor = mention(result.actor_id) if result.actor_id is not None else tr.gettext("a moderator")
    if result.reason == "connection" and info.game == "crosscut":
        return tr.gettext("{winner} wins with a long enough line!", winner=winner)
    return tr.gettext(RESULTS[result.reason], winner=winner, loser=loser, actor=actor)


def rating_text(rating: GameRating, names: Mapping[int, str], tr: Tongue = ENGLISH_TONGUE) -> str:
    """The game-over rating lines: one per player, or ``Unrated: why``."""
    if not rating.rated:
        if rating.unrated_reason is None:  # not rated yet has no reason to give
            return tr.gettext("Unrated")
        return tr.gettext("Unrated: {why}", why=tr.say(unrated_wording(rating.unrated_reason)))
    lines = []
    for line in rating.changes:
        name = names.get(line.user_id) or tr.gettext("user {id}", id=line.user_id)
        text = line.describe(name)
        lines.append(
            tr.gettext("{rating} (provisional)", rating=text) if line.provisional else text
        )
    return "\n".join(lines)


def turn_message(
    info: GameInfo,
    game: Game,
    names: Mapping[int, str],
    board: Board | None,
    headline: str | None = None,
    computer_id: int | None = None,
    rating: GameRating | None = None,
    ping: bool = True,
    tr: Tongue = ENGLISH_TONGUE,
) -> OutgoingMessage:
    """The message posted after every turn (and by ``/board``).

    Once the game is over, ``rating`` (``service.ratings.game_rating``) adds each player's rating
    change (``Alice 1512 → 1528, +16``) or says why the game was unrated.

    Only the player to move is mentioned, and only they may be pinged; at the end of a game
    both players are pinged with the result.  ``computer_id`` is the bot's own user (see
    ``ComputerOpponent.is_computer``): named like any player, never pinged.  ``ping=False``:
    the player to move chose another notice than a mention (``/notify``), so they are named
    but not pinged.  ``tr``: the channel's language.
    """
    by_colour = colour_names(info, names, tr)
    last = describe_turn(game.last_turn(), by_colour, game.stone_word, game.players, tr)
    colour = EMBED_COLOURS.get(info.to_move_colour or "", 0x009E73)
    embed = discord.Embed(
        title=tr.gettext(
            "{game} {size}×{size} · game #{id}", game=info.title, size=info.size, id=info.id
        ),
        colour=colour,
    )
    embed.add_field(name=tr.gettext("Players"), value=players_field(info, tr), inline=True)
    moves = tr.ngettext("{n} move played", "{n} moves played", len(info.moves))
    embed.add_field(
        name=tr.gettext("Move"),
        value=tr.gettext("turn {turn} · {moves}", turn=info.turn_number, moves=moves),
        inline=True,
    )
    embed.add_field(name=tr.gettext("Last turn"), value=last[:1024], inline=False)
    if info.is_active and info.to_move_id is not None:
        who = mention(info.to_move_id)
        to_move = tr.gettext(
            "{who} ({colour})", who=who, colour=colour_word(info.to_move_colour or "", tr)
        )
        if _chain_pending(game):
            to_move = tr.gettext("{who} (chain reaction: place again)", who=to_move)
        embed.add_field(name=tr.gettext("To move"), value=to_move, inline=True)
        deadline = relative_time(info.deadline) if info.deadline else tr.gettext("no clock")
        embed.add_field(name=tr.gettext("Deadline"), value=deadline, inline=True)
        clock = time_left_line(info, names, tr)
        if clock is not None:
            embed.add_field(name=tr.gettext("Time left"), value=clock[:1024], inline=False)
        if info.to_move_id == computer_id:
            content = tr.gettext(
                "{who} (the computer) is thinking about its move in {game}.",
                who=who,
                game=info.title,
            )
            pinged = []
        else:
            left = (info.time_left or {}).get(info.to_move_id)
            content = (
                tr.gettext("{who}, your move in {game}.", who=who, game=info.title)
                if left is None
                else tr.gettext(
                    "{who}, your move in {game} ({left} left).",
                    who=who,
                    game=info.title,
                    left=tr.say(short_duration_wording(left)),
                )
            )
            pinged = [discord.Object(info.to_move_id)] if ping else []
        allowed = discord.AllowedMentions(everyone=False, roles=False, users=pinged)
    else:
        result = info.result
        content = result_text(info, result, tr) if result else tr.gettext("The game is over.")
        embed.add_field(name=tr.gettext("Result"), value=content, inline=False)
        if rating is not None:
            embed.add_field(
                name=tr.gettext("Ratings"),
                value=rating_text(rating, names, tr)[:1024],
                inline=False,
            )
        users = [discord.Object(uid) for uid in info.player_ids if uid != computer_id]
        allowed = discord.AllowedMentions(everyone=False, roles=False, users=users)
    if headline:
        content = f"{headline}\n{content}"
    filename = f"crosspath-{info.id}-{len(info.moves)}.png"
    if board is not None:
        embed.set_image(url=f"attachment://{filename}")
    embed.set_footer(
        text=tr.gettext(
            "{game} by Mark Steere · record: {record}", game=info.title, record=info.record
        )[:2048]
    )
    return OutgoingMessage(content, embed, allowed, board, filename)


def _chain_pending(game: Game) -> bool:
    last = game.last_move
    return bool(last and last.continues)


FIRST_MOVE = {
    "me": N_("challenger"),
    "them": N_("challenged player"),
    "random": N_("decided at random"),
}


def challenge_embed(
    challenge: Challenge, note: str | None = None, tr: Tongue = ENGLISH_TONGUE
) -> discord.Embed:
    """A challenge as the channel sees it; ``note`` (the status after an answer) is the
    caller's text, and the clock's description is the service's English."""
    challenger = mention(challenge.challenger_id)
    embed = discord.Embed(
        title=tr.gettext(
            "{game} {size}×{size} challenge #{id}",
            game=challenge.title,
            size=challenge.size,
            id=challenge.id,
        ),
        colour=0x009E73,
        description=(
            tr.gettext("{challenger} challenges anyone.", challenger=challenger)
            if challenge.opponent_id is None
            else tr.gettext(
                "{challenger} challenges {opponent}.",
                challenger=challenger,
                opponent=mention(challenge.opponent_id),
            )
        ),
    )
    if challenge.outside_servers:  # said before anyone accepts: unrated and off the web
        embed.description = "\n".join((embed.description or "", tr.gettext(IN_DMS_NOTE)))
    if challenge.hints:  # said before anyone accepts: the game is unrated
        embed.description = "\n".join(
            (embed.description or "", tr.gettext("Hints allowed; unrated."))
        )
    first = tr.gettext(FIRST_MOVE[challenge.first])
    embed.add_field(name=tr.gettext("First move"), value=first, inline=True)
    embed.add_field(
        name=tr.gettext("Clock"), value=tr.say(challenge.time_control.wording()), inline=True
    )
    rated = tr.gettext("yes") if challenge.rated else tr.gettext("no")
    embed.add_field(name=tr.gettext("Rated"), value=rated, inline=True)
    if challenge.status == "open":
        embed.add_field(
            name=tr.gettext("Expires"), value=relative_time(challenge.expires_at), inline=True
        )
    else:
        embed.add_field(name=tr.gettext("Status"), value=note or challenge.status, inline=False)
    embed.set_footer(
        text=tr.gettext(
            "{game} was designed by Mark Steere · /rules for the rules", game=challenge.title
        )
    )
    return embed
