"""Stored analyses of finished games (``service.analysis``, issue 48)."""

from .service import (
    ANALYSIS_SEED,
    CLAIM_SECONDS,
    MAX_PER_PLAYER,
    MAX_PER_SERVER,
    Analyses,
)
from .types import Progress, StoredAnalysis, Viewer

__all__ = [
    "ANALYSIS_SEED",
    "CLAIM_SECONDS",
    "MAX_PER_PLAYER",
    "MAX_PER_SERVER",
    "Analyses",
    "Progress",
    "StoredAnalysis",
    "Viewer",
]
