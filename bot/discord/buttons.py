"""Every persistent button the bot registers, and an answer for retired ones.

Each button lives beside its flow (challenges, resign and takeback in ``flows``, list pages in
``game_lists``, aborts in ``aborts``, the ``/challenges`` list in ``challenge_list``) and
derives from ``persistent.PersistentButton`` (one origin check, one error path); this module
only collects them for ``add_dynamic_items`` and answers custom ids that no current button
accepts (from an older or newer version of the bot).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.analysis.cog import AnalyseButton
from bot.discord.challenges.challenge_list import ChallengePageButton, ListedChallengeButton
from bot.discord.challenges.menu import GamePick, SizePick
from bot.discord.clocks.soft_time import SoftTimeButton
from bot.discord.persistent import PersistentButton
from bot.discord.play.aborts import AbortButton
from bot.discord.play.flows import ChallengeButton, ResignButton, TakebackButton
from bot.discord.play.game_lists import NextGameButton, NextPageButton
from bot.discord.puzzles.cog import AnswerButton, GiveUpButton
from bot.discord.puzzles.daily import SolveButton
from bot.discord.ratings.leaderboards import LeaderboardPageButton
from bot.discord.ratings.rating_reset import ConfirmResetButton
from bot.discord.replies import send_ephemeral
from bot.discord.speech import private
from bot.discord.tournaments.flows import StandingsPageButton, TournamentButton

Interaction = discord.Interaction[Any]


_KNOWN = (
    ChallengeButton,
    ResignButton,
    TakebackButton,
    NextPageButton,
    NextGameButton,
    LeaderboardPageButton,
    ConfirmResetButton,
    TournamentButton,
    StandingsPageButton,
    SoftTimeButton,
    AbortButton,
    ListedChallengeButton,
    ChallengePageButton,
    AnalyseButton,
    AnswerButton,
    GiveUpButton,
    SolveButton,
    GamePick,
    SizePick,
)


def _retired_template() -> str:
    """``cp:`` ids that none of the current buttons accept (from an older or newer version)."""
    known = "|".join(
        re.sub(r"\(\?P<\w+>", "(?:", item.__discord_ui_compiled_template__.pattern) + "$"
        for item in _KNOWN
    )
    return rf"(?!(?:{known}))cp:.*"


class RetiredButton(PersistentButton, template=_retired_template()):
    """Answers buttons this version no longer understands, instead of letting them fail."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(custom_id, "retired", discord.ButtonStyle.secondary)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RetiredButton:
        return cls(match.string)

    async def act(self, interaction: Interaction) -> None:
        await send_ephemeral(
            interaction,
            private(interaction).gettext(
                "This button is from an older version of the bot and no longer works."
            ),
        )


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (*_KNOWN, RetiredButton)

__all__ = ["DYNAMIC_ITEMS", "RetiredButton"]
