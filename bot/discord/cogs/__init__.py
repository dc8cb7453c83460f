"""One cog per feature; :data:`COGS` is the order they are added in ``setup_hook``."""

from __future__ import annotations

from discord.ext import commands

from .admin import AdminCog
from .challenge import ChallengeCog
from .clock import ClockCog
from .correspondence import CorrespondenceCog
from .info import InfoCog
from .play import PlayCog
from .ratings import RatingsCog

COGS: tuple[type[commands.Cog], ...] = (
    ChallengeCog,
    PlayCog,
    InfoCog,
    AdminCog,
    ClockCog,
    RatingsCog,
    CorrespondenceCog,
)
