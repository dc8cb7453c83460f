"""The user context menu "Challenge to a game" (issue 47): right-click a player, Apps,
"Challenge to a game"; a private message offers the games in a select, and the pick posts the
challenge in the channel as ``/challenge game opponent`` would (the server's default size and
clock; ``/challenge`` sets the rest).

The select is persistent (``cp:menu:challenge:<opponent>``), so a pick after a restart still
works; its message is the bot's own private answer, checked like every button's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands

from bot.discord.choices import playable_games
from bot.discord.context import bot_of
from bot.discord.persistent import answer_checked
from bot.discord.speech import private
from bot.i18n import N_, Tongue
from bot.service import InvalidChallenge
from rules import game_class

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot  # noqa: F401  (named in Interaction below)

Interaction = discord.Interaction["CrosspathBot"]

PICK_GAME = N_("Which game do you want to play with {who}?")
PICK_PLACEHOLDER = N_("Choose a game")
A_BOT = N_("{name} is a bot and can't play.")
PICK_SIZE = N_("Which board size for {game}?")
PICK_SIZE_PLACEHOLDER = N_("Choose a board size")
DEFAULT_SIZE = N_("The server's default size")


class GamePick(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"cp:menu:challenge:(?P<opponent>[0-9]+)",
):
    """The game select of the menu's private message; the opponent is in the custom id."""

    def __init__(self, opponent_id: int, tr: Tongue | None = None) -> None:
        options = [discord.SelectOption(label=c.name, value=c.value) for c in playable_games()]
        placeholder = tr.gettext(PICK_PLACEHOLDER) if tr is not None else None
        super().__init__(
            discord.ui.Select(
                custom_id=f"cp:menu:challenge:{opponent_id}",
                options=options,
                placeholder=placeholder,
            )
        )
        self.opponent_id = opponent_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["opponent"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await answer_checked(interaction, self.pick)

    async def pick(self, interaction: Interaction) -> None:
        values = self.item.values
        games = {c.value for c in playable_games()}
        if len(values) != 1 or values[0] not in games:
            raise InvalidChallenge(private(interaction).gettext(PICK_PLACEHOLDER))
        tr = private(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(SizePick(self.opponent_id, values[0], tr))
        await interaction.response.edit_message(
            content=tr.gettext(PICK_SIZE, game=game_class(values[0]).title), view=view
        )


class SizePick(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"cp:menu:size:(?P<opponent>[0-9]+):(?P<game>[a-z]+)",
):
    """The size select, once the game is chosen: the server's default or one the game
    allows; the pick posts the challenge."""

    def __init__(self, opponent_id: int, game: str, tr: Tongue | None = None) -> None:
        default = tr.gettext(DEFAULT_SIZE) if tr is not None else "default"
        options = [discord.SelectOption(label=default, value="0")] + [
            discord.SelectOption(label=f"{n}×{n}", value=str(n)) for n in sizes_of(game)
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"cp:menu:size:{opponent_id}:{game}",
                options=options[:25],
                placeholder=tr.gettext(PICK_SIZE_PLACEHOLDER) if tr is not None else None,
            )
        )
        self.opponent_id = opponent_id
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["opponent"]), match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await answer_checked(interaction, self.pick)

    async def pick(self, interaction: Interaction) -> None:
        values = self.item.values
        allowed = {0, *sizes_of(self.game)}
        if len(allowed) == 1 or len(values) != 1 or not values[0].isdigit():
            raise InvalidChallenge(private(interaction).gettext(PICK_SIZE_PLACEHOLDER))
        if int(values[0]) not in allowed:
            raise InvalidChallenge(private(interaction).gettext(PICK_SIZE_PLACEHOLDER))
        cog = bot_of(interaction).get_cog("ChallengeCog")
        assert cog is not None
        opponent = bot_of(interaction).get_user(self.opponent_id) or discord.Object(
            self.opponent_id
        )
        size = int(values[0]) or None
        await cog.challenge_from(  # type: ignore[attr-defined]
            interaction, self.game, opponent, size=size
        )


def sizes_of(game: str) -> range:
    """The board sizes ``game`` allows; none for a name that is no game (a forged id)."""
    if game not in {c.value for c in playable_games()}:
        return range(0)
    cls = game_class(game)
    return range(cls.min_size, cls.max_size + 1)


def pick_view(opponent_id: int, tr: Tongue) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GamePick(opponent_id, tr))
    return view


async def challenge_menu(interaction: Interaction, user: discord.Member | discord.User) -> None:
    """The menu's callback: ask for the game, privately (nothing is written yet)."""
    tr = private(interaction)
    if user.bot and not bot_of(interaction).computer.is_computer(user.id):
        raise InvalidChallenge(tr.gettext(A_BOT, name=user.display_name))
    bot_of(interaction).remember(user)
    await interaction.response.send_message(
        tr.gettext(PICK_GAME, who=user.mention),
        view=pick_view(user.id, tr),
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )


def menu() -> app_commands.ContextMenu:
    """The "Challenge to a game" user command, offered where the player commands are."""
    command = app_commands.ContextMenu(
        name=app_commands.locale_str("Challenge to a game"), callback=challenge_menu
    )
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)
