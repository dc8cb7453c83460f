"""One cog per feature; :data:`COGS` is the order they are added in ``setup_hook``."""

from __future__ import annotations

from discord.ext import commands

from bot.discord.analysis.cog import AnalysisCog
from bot.discord.challenges.cog import ChallengeCog
from bot.discord.clocks.cog import ClockCog
from bot.discord.clocks.vacation import VacationCog
from bot.discord.info.cog import InfoCog
from bot.discord.moderation.cog import AdminCog
from bot.discord.notices.cog import NoticesCog
from bot.discord.play.cog import PlayCog
from bot.discord.play.correspondence import CorrespondenceCog
from bot.discord.puzzles.cog import PuzzleCog
from bot.discord.ratings.cog import RatingsCog
from bot.discord.tournaments.cog import TournamentCog

COGS: tuple[type[commands.Cog], ...] = (
    ChallengeCog,
    PlayCog,
    InfoCog,
    AdminCog,
    ClockCog,
    RatingsCog,
    TournamentCog,
    VacationCog,
    NoticesCog,
    CorrespondenceCog,
    AnalysisCog,
    PuzzleCog,
)
