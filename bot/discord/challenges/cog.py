"""``/challenge``: direct and open challenges, answered with persistent buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.discord.challenges.menu import menu
from bot.discord.checks import can_post_boards
from bot.discord.choices import FIRST_CHOICES, playable_games
from bot.discord.context import ids
from bot.discord.installs import everywhere
from bot.discord.play.ai_opponent import LEVEL_CHOICES, LEVEL_HELP, LEVEL_ONLY_VS_COMPUTER
from bot.discord.play.flows import challenge_view
from bot.discord.play.threads import thread_possible
from bot.discord.play.turns import challenge_embed, mention
from bot.discord.play.web_links import display_name, readable_by_everyone
from bot.discord.replies import context_of, log_failure
from bot.discord.speech import private, public
from bot.discord.transformers import TimeOption
from bot.i18n import N_
from bot.service import ChannelBusy, InvalidChallenge, TimeControl

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

PIE_HELP = locale_str(
    "Minefield, Clearcut, Naked Diagonal: play with the pie rule (Clear Path always has it)"
)


def busy_without_thread(interaction: discord.Interaction[CrosspathBot]) -> str:
    """Why a game here would have to share this channel with the game already in it (in the
    player's language: the refusal is private)."""
    tr = private(interaction)
    if isinstance(interaction.channel, discord.Thread):
        return tr.gettext(
            "This channel already has a game in progress, and a game thread can't hold a "
            "second game. Finish that game or challenge from another channel."
        )
    return tr.gettext(
        "This channel already has a game in progress, and I can't start a thread for a new "
        "game here (I need Create Public Threads). Finish that game or challenge from another "
        "channel."
    )


NO_COMPUTER_IN_DMS = N_(
    "The computer plays only in servers that added Crosspath: its replies can't be posted in"
    " a DM or group DM. Challenge it there, or challenge a person here."
)


NOT_IN_BOT_DM = N_(
    "Nobody else can see this conversation with me. Challenge your opponent where they can"
    " see it: in a server, or in your DM or group DM with them."
)


class ChallengeCog(commands.Cog):
    def __init__(self, bot: CrosspathBot) -> None:
        self.bot = bot
        self.menu = menu()

    async def cog_load(self) -> None:
        # discord.py adds a cog's slash commands itself, but not a context menu
        self.bot.tree.add_command(self.menu)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.menu.name, type=self.menu.type)

    @app_commands.command(
        name="challenge", description=locale_str("Challenge someone (or anyone) to a game")
    )
    @everywhere
    @can_post_boards()
    @app_commands.describe(
        game=locale_str("which game to play"),
        opponent=locale_str(
            "who you challenge; leave empty for an open challenge anyone can accept"
        ),
        size=locale_str("board size (default: the server's or the game's default)"),
        first=locale_str("who moves first"),
        time=locale_str(
            "clock: a bank like 3d+1d max 5d, per move like 12h, or none (default: the server's)"
        ),
        level=LEVEL_HELP,
        rated=locale_str(
            "whether the game changes ratings (default: yes; games vs the computer never do)"
        ),
        pie=PIE_HELP,
        hints=locale_str("allow both players to ask the computer for hints (the game is unrated)"),
    )
    @app_commands.choices(game=playable_games(), first=FIRST_CHOICES)
    @app_commands.choices(level=LEVEL_CHOICES)
    async def challenge(
        self,
        interaction: discord.Interaction[CrosspathBot],
        game: app_commands.Choice[str],
        opponent: discord.User | None = None,  # a Member in servers; none in DMs
        size: app_commands.Range[int, 3, 25] | None = None,
        first: app_commands.Choice[str] | None = None,
        time: TimeOption | None = None,
        level: app_commands.Choice[int] | None = None,
        rated: bool = True,
        pie: bool | None = None,
        hints: bool = False,
    ) -> None:
        await self.challenge_from(
            interaction,
            game.value,
            opponent,
            size=size,
            first=first.value if first else "me",
            time=time,
            level=level.value if level else None,
            rated=rated,
            pie=pie,
            hints=hints,
        )

    async def challenge_from(
        self,
        interaction: discord.Interaction[CrosspathBot],
        game: str,
        opponent: discord.Member | discord.User | discord.Object | None,
        *,
        size: int | None = None,
        first: str = "me",
        time: TimeControl | None = None,
        level: int | None = None,
        rated: bool = True,
        pie: bool | None = None,
        hints: bool = False,
    ) -> None:
        """Post a challenge as the answer to ``interaction``: ``/challenge``, and the "Challenge
        to a game" user menu once its game is picked (``bot.discord.challenges.menu``)."""
        guild_id, channel_id = ids(interaction)
        settings = await self.bot.service.moderation.get_settings(guild_id)
        if (
            settings.use_threads
            and not thread_possible(interaction, settings.use_threads)
            and await self.bot.service.get_game(channel_id) is not None
        ):
            # without a thread the game would be played right here: refuse now, not at Accept
            raise ChannelBusy(busy_without_thread(interaction))
        self.bot.remember(interaction.user)
        who_first = first
        in_dms = interaction.guild_id is None
        if opponent is not None and self.bot.computer.is_computer(opponent.id):
            if in_dms:  # its replies come long after any interaction: it cannot post them here
                raise InvalidChallenge(private(interaction).gettext(NO_COMPUTER_IN_DMS))
            await self.bot.computer.challenge(
                interaction,
                game,
                size,
                who_first,
                time,
                level,
                pie=pie,
            )
            return
        if level is not None:
            raise InvalidChallenge(private(interaction).gettext(LEVEL_ONLY_VS_COMPUTER))
        if in_dms and interaction.context.dm_channel:
            # the player's own DM with the bot: nobody else could ever see the challenge
            raise InvalidChallenge(private(interaction).gettext(NOT_IN_BOT_DM))
        if isinstance(opponent, discord.User | discord.Member):
            if opponent.bot:
                raise InvalidChallenge(
                    private(interaction).gettext(
                        "{name} is a bot and can't play.", name=opponent.display_name
                    )
                )
            self.bot.remember(opponent)
        created = await self.bot.service.create_challenge(
            guild_id,
            channel_id,
            interaction.user.id,
            opponent.id if opponent else None,
            game,
            size=size,
            first=who_first,  # type: ignore[arg-type]
            time_control=time,
            rated=rated,
            pie=pie,
            public=readable_by_everyone(interaction),
            challenger_name=display_name(interaction.user),
            hints=hints,
            outside_servers=in_dms,
        )
        tr = public(interaction)
        challenger = mention(interaction.user.id)
        mentions = discord.AllowedMentions(users=[opponent] if opponent else [])
        try:
            sent = await interaction.response.send_message(
                tr.gettext(
                    "{opponent}: {challenger} wants to play {game}.",
                    opponent=mention(opponent.id),
                    challenger=challenger,
                    game=created.title,
                )
                if opponent
                else tr.gettext(
                    "Anyone: {challenger} wants to play {game}.",
                    challenger=challenger,
                    game=created.title,
                ),
                embed=challenge_embed(created, None, tr),
                view=challenge_view(created.id, created.is_open, tr),
                allowed_mentions=mentions,
            )
        except discord.HTTPException:
            # nobody can see or answer it: withdraw it rather than leave it blocking anything
            await self.bot.service.cancel_challenge(created.id, interaction.user.id)
            raise
        if sent.message_id is None:
            return
        try:
            await self.bot.service.challenges.record_challenge_message(created.id, sent.message_id)
        except Exception as exc:  # the challenge stands: its buttons check as without an id
            log_failure("could not record a challenge's message", exc, **context_of(interaction))
