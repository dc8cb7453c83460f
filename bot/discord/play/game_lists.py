"""``/games`` and ``/admin active``: pages of games read from stored columns, with a Next button.

Lists use ``service.game_summaries`` (one indexed query, no engine built, however long the
games are) and show :data:`PAGE_SIZE` games a page.  The Next button carries everything it
needs in its custom id (which list, whose, and the page cursor), so it keeps working after a
restart; a click re-checks who may see the list.

``/games`` lists the games waiting on the player's move first, the longest wait first
(``service.notices.waiting_on``), then their other games.  Its Next game button answers with a link
to the game that has waited longest on the player in any server, read when it is pressed
(a link button's address would be fixed when the list was made, and stale after a move).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.discord.clocks.clock_text import my_time_left
from bot.discord.context import ids
from bot.discord.notices.dms import waiting_line
from bot.discord.persistent import PersistentButton
from bot.discord.play.turns import mention
from bot.discord.speech import private
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import GameSummary, PermissionDenied, SummaryPage, Waiting

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

Interaction = discord.Interaction["CrosspathBot"]
ListKind = Literal["mine", "active"]

PAGE_SIZE = 15
WAITING_ON_TOP = 5
NO_GAMES = N_("You have no games in this server yet. Start one with /challenge.")
NO_ACTIVE = N_("No games are running.")
NOT_YOURS = N_("This list belongs to someone else: use /games for your own.")
NOTHING_WAITS = N_("No game is waiting on your move right now, in any server.")
YOUR_MOVE = N_("**Your move** (longest wait first):")
OTHER_GAMES = N_("**Your other games:**")
ENDINGS = {
    "draw": N_("draw"),
    "abort": N_("aborted"),
    "aborted": N_("aborted"),
    "finished": N_("finished"),
}
"""How an ended game without a winner reads in a list (other reasons show as stored)."""


def summary_line(game: GameSummary, user_id: int, tr: Tongue = ENGLISH_TONGUE) -> str:
    """One game of a player's list: number, game, opponent, state and a link."""
    link = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    if user_id in game.player_ids:
        opponent = mention(game.second_id if game.first_id == user_id else game.first_id)
    else:
        opponent = "?"
    if game.is_active:
        state = tr.gettext("your move") if game.to_move_id == user_id else tr.gettext("their move")
    elif game.result is None or game.result.winner_id is None:
        ending = game.result.reason if game.result else game.status
        state = tr.gettext(ENDINGS[ending]) if ending in ENDINGS else ending
    else:
        state = tr.gettext("won") if game.result.winner_id == user_id else tr.gettext("lost")
    clock = my_time_left(game, user_id, tr)
    return tr.gettext(
        "#{id} {game} {size}×{size} vs {opponent}: {state}{clock} · {link}",
        id=game.id,
        game=game.title,
        size=game.size,
        opponent=opponent,
        state=state,
        clock=clock,
        link=link,
    )


def active_line(game: GameSummary, tr: Tongue = ENGLISH_TONGUE) -> str:
    """One game of the server's active list, for moderators."""
    line = tr.gettext(
        "#{id} {game} {size}×{size} in {channel}: {first} vs {second}",
        id=game.id,
        game=game.title,
        size=game.size,
        channel=f"<#{game.channel_id}>",
        first=mention(game.first_id),
        second=mention(game.second_id),
    )
    if game.to_move_id:
        line = tr.gettext("{line}, {who} to move", line=line, who=mention(game.to_move_id))
    return line


def page_text(
    kind: ListKind,
    page: SummaryPage,
    user_id: int,
    waiting: Sequence[Waiting] = (),
    first: bool = True,
    tr: Tongue = ENGLISH_TONGUE,
) -> str:
    """A page of a list, in the reader's language.  ``/games``: the games ``waiting`` longest
    on the player are listed on top of the first page and left out of every page's others."""
    if kind == "mine":
        top = {w.game.id for w in waiting}
        lines = [summary_line(g, user_id, tr) for g in page.games if g.id not in top]
        if waiting and first:
            head = [tr.gettext(YOUR_MOVE), *(summary_line(w.game, user_id, tr) for w in waiting)]
            lines = head + ([tr.gettext(OTHER_GAMES), *lines] if lines else [])
    else:
        lines = [active_line(g, tr) for g in page.games]
    if not lines and page.next_cursor is None:
        empty = NO_GAMES if kind == "mine" else NO_ACTIVE
        return tr.gettext(empty)
    if page.next_cursor is not None:
        lines.append(tr.gettext("More with the button below."))
    return "\n".join(lines)[:2000]


def page_view(
    kind: ListKind,
    page: SummaryPage,
    user_id: int,
    next_game: bool = False,
    tr: Tongue = ENGLISH_TONGUE,
) -> discord.ui.View | None:
    """The page's buttons: Next game (``/games``, when a game waits on the player) and the
    next page; None when neither applies."""
    if page.next_cursor is None and not next_game:
        return None
    view = discord.ui.View(timeout=None)
    if next_game:
        view.add_item(NextGameButton(user_id, tr))
    if page.next_cursor is not None:
        view.add_item(NextPageButton(kind, user_id, page.next_cursor, tr))
    return view


async def fetch_page(
    bot: CrosspathBot,
    kind: ListKind,
    guild_id: int,
    user_id: int,
    cursor: str | None,
    limit: int = PAGE_SIZE,
) -> SummaryPage:
    if kind == "mine":
        return await bot.service.game_summaries(
            guild_id, player_id=user_id, cursor=cursor, limit=limit
        )
    return await bot.service.game_summaries(
        guild_id, active_only=True, cursor=cursor, limit=PAGE_SIZE
    )


async def waiting_on_top(
    bot: CrosspathBot, kind: ListKind, guild_id: int, user_id: int
) -> list[Waiting]:
    """``/games``: the games that have waited longest on the player in this server, listed
    first (at most :data:`WAITING_ON_TOP`; any others are in the list with "your move")."""
    if kind != "mine":
        return []
    return await bot.service.notices.waiting_on(user_id, guild_id, WAITING_ON_TOP)


async def send_first_page(interaction: Interaction, kind: ListKind) -> None:
    """The command's answer: acknowledged privately first, then the first page."""
    pool, _ = ids(interaction)  # a server, or a DM's own pool
    await interaction.response.defer(ephemeral=True, thinking=True)
    user_id = interaction.user.id
    waiting = await waiting_on_top(interaction.client, kind, pool, user_id)
    limit = PAGE_SIZE - len(waiting)  # the page stays as long as ever
    page = await fetch_page(interaction.client, kind, pool, user_id, None, limit)
    tr = private(interaction)
    view = page_view(kind, page, user_id, next_game=bool(waiting), tr=tr)
    await interaction.followup.send(
        page_text(kind, page, user_id, waiting, tr=tr),
        ephemeral=True,
        view=view or discord.utils.MISSING,
        allowed_mentions=discord.AllowedMentions.none(),
    )


class NextPageButton(
    PersistentButton,
    template=r"cp:list:(?P<kind>mine|active):(?P<user>[0-9]+):(?P<cursor>-?[0-9]+\.[0-9]+)",
):
    """Next page of a list; the list is re-read at the cursor, so it is always current."""

    def __init__(
        self, kind: ListKind, user_id: int, cursor: str, tr: Tongue = ENGLISH_TONGUE
    ) -> None:
        super().__init__(
            f"cp:list:{kind}:{user_id}:{cursor}",
            tr.gettext("Next ›"),
            discord.ButtonStyle.secondary,
        )
        self.kind: ListKind = kind
        self.user_id = user_id
        self.cursor = cursor

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> NextPageButton:
        kind: ListKind = "mine" if match["kind"] == "mine" else "active"
        return cls(kind, int(match["user"]), match["cursor"])

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py types items against any client; ours is always a CrosspathBot
        tr = private(interaction)
        if self.kind == "mine" and interaction.user.id != self.user_id:
            raise PermissionDenied(tr.gettext(NOT_YOURS))
        if self.kind == "active" and not interaction.permissions.manage_guild:
            raise app_commands.MissingPermissions(["manage_guild"])
        pool, _ = ids(interaction)
        bot = interaction.client
        page = await fetch_page(bot, self.kind, pool, self.user_id, self.cursor)
        waiting = await waiting_on_top(bot, self.kind, pool, self.user_id)
        await interaction.response.edit_message(
            content=page_text(self.kind, page, self.user_id, waiting, first=False, tr=tr),
            view=page_view(self.kind, page, self.user_id, next_game=self.kind == "mine", tr=tr),
            allowed_mentions=discord.AllowedMentions.none(),
        )


class NextGameButton(PersistentButton, template=r"cp:nextgame:(?P<user>[0-9]+)"):
    """The game that has waited longest on the player, in any server: read at each press,
    answered privately with its link."""

    def __init__(self, user_id: int, tr: Tongue = ENGLISH_TONGUE) -> None:
        label = tr.gettext("Next game")
        super().__init__(f"cp:nextgame:{user_id}", label, discord.ButtonStyle.primary)
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> NextGameButton:
        return cls(int(match["user"]))

    async def act(self, interaction: discord.Interaction[Any]) -> None:
        tr = private(interaction)
        if interaction.user.id != self.user_id:
            raise PermissionDenied(tr.gettext(NOT_YOURS))
        found = await interaction.client.service.notices.waiting_on(self.user_id, None, 1)
        await interaction.response.send_message(
            next_game_text(found[0], self.user_id, tr) if found else tr.gettext(NOTHING_WAITS),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


def next_game_text(waiting: Waiting, user_id: int, tr: Tongue = ENGLISH_TONGUE) -> str:
    line = waiting_line(waiting, user_id, tr).removeprefix("• ")
    return tr.gettext("Next game: {line}", line=line)
