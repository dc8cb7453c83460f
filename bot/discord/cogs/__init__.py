"""One cog per feature; :data:`COGS` is the order they are added in ``setup_hook``."""

from __future__ import annotations

from discord.ext import commands

from .admin import AdminCog
from .challenge import ChallengeCog
from .clock import ClockCog
from .correspondence import CorrespondenceCog
from .info import InfoCog
from .notices import NoticesCog
from .play import PlayCog
from .ratings import RatingsCog
from .tournament import TournamentCog
from .vacation import VacationCog

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
)
