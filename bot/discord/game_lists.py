"""``/games`` and ``/admin active``: pages of games read from stored columns, with a Next button.

Lists use ``service.game_summaries`` (one indexed query, no engine built, however long the
games are) and show :data:`PAGE_SIZE` games a page.  The Next button carries everything it
needs in its custom id (which list, whose, and the page cursor), so it keeps working after a
restart; a click re-checks who may see the list.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.service import GameSummary, PermissionDenied, SummaryPage

from .clock_text import my_time_left
from .persistent import PersistentButton
from .turns import mention

if TYPE_CHECKING:
    from .app import CrosspathBot

Interaction = discord.Interaction["CrosspathBot"]
ListKind = Literal["mine", "active"]

PAGE_SIZE = 15
NO_GAMES = "You have no games in this server yet. Start one with /challenge."
NO_ACTIVE = "No games are running."
NOT_YOURS = "This list belongs to someone else: use /games for your own."


def summary_line(game: GameSummary, user_id: int) -> str:
    """One game of a player's list: number, game, opponent, state and a link."""
    link = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    if user_id in game.player_ids:
        opponent = mention(game.second_id if game.first_id == user_id else game.first_id)
    else:
        opponent = "?"
    if game.is_active:
        state = "your move" if game.to_move_id == user_id else "their move"
    elif game.result is None or game.result.winner_id is None:
        state = game.result.reason if game.result else game.status
    else:
        state = "won" if game.result.winner_id == user_id else "lost"
    clock = my_time_left(game, user_id)
    return f"#{game.id} {game.title} {game.size}×{game.size} vs {opponent}: {state}{clock} · {link}"


def active_line(game: GameSummary) -> str:
    """One game of the server's active list, for moderators."""
    to_move = f", {mention(game.to_move_id)} to move" if game.to_move_id else ""
    return (
        f"#{game.id} {game.title} {game.size}×{game.size} in <#{game.channel_id}>: "
        f"{mention(game.first_id)} vs {mention(game.second_id)}{to_move}"
    )


def page_text(kind: ListKind, page: SummaryPage, user_id: int) -> str:
    if not page.games:
        return NO_GAMES if kind == "mine" else NO_ACTIVE
    if kind == "mine":
        lines = [summary_line(g, user_id) for g in page.games]
    else:
        lines = [active_line(g) for g in page.games]
    if page.next_cursor is not None:
        lines.append("More with the button below.")
    return "\n".join(lines)[:2000]


def page_view(kind: ListKind, page: SummaryPage, user_id: int) -> discord.ui.View | None:
    if page.next_cursor is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(NextPageButton(kind, user_id, page.next_cursor))
    return view


async def fetch_page(
    bot: CrosspathBot, kind: ListKind, guild_id: int, user_id: int, cursor: str | None
) -> SummaryPage:
    if kind == "mine":
        return await bot.service.game_summaries(
            guild_id, player_id=user_id, cursor=cursor, limit=PAGE_SIZE
        )
    return await bot.service.game_summaries(
        guild_id, active_only=True, cursor=cursor, limit=PAGE_SIZE
    )


async def send_first_page(interaction: Interaction, kind: ListKind) -> None:
    """The command's answer: acknowledged privately first, then the first page."""
    assert interaction.guild_id is not None  # the commands are guild-only
    await interaction.response.defer(ephemeral=True, thinking=True)
    user_id = interaction.user.id
    page = await fetch_page(interaction.client, kind, interaction.guild_id, user_id, None)
    view = page_view(kind, page, user_id)
    await interaction.followup.send(
        page_text(kind, page, user_id),
        ephemeral=True,
        view=view or discord.utils.MISSING,
        allowed_mentions=discord.AllowedMentions.none(),
    )


class NextPageButton(
    PersistentButton,
    template=r"cp:list:(?P<kind>mine|active):(?P<user>[0-9]+):(?P<cursor>-?[0-9]+\.[0-9]+)",
):
    """Next page of a list; the list is re-read at the cursor, so it is always current."""

    def __init__(self, kind: ListKind, user_id: int, cursor: str) -> None:
        super().__init__(
            f"cp:list:{kind}:{user_id}:{cursor}", "Next ›", discord.ButtonStyle.secondary
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
        if self.kind == "mine" and interaction.user.id != self.user_id:
            raise PermissionDenied(NOT_YOURS)
        if self.kind == "active" and not interaction.permissions.manage_guild:
            raise app_commands.MissingPermissions(["manage_guild"])
        assert interaction.guild_id is not None  # checked with the message
        page = await fetch_page(
            interaction.client, self.kind, interaction.guild_id, self.user_id, self.cursor
        )
        await interaction.response.edit_message(
            content=page_text(self.kind, page, self.user_id),
            view=page_view(self.kind, page, self.user_id),
            allowed_mentions=discord.AllowedMentions.none(),
        )
