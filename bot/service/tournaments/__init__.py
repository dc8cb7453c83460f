"""Tournaments over plain values: round robin, Swiss, knockout and league seasons.

Pure and synchronous: no store, no Discord, no clock.  A tournament is a
:class:`TournamentState` of rows (config, entrants, pairings, results, withdrawals); the
functions here say what to pair next, which forfeits a withdrawal causes, and the standings.
See docs/tournaments.md for the formats and tiebreaks in players' words.

>>> from bot.service.tournaments import Entrant, Format, TournamentConfig, new_tournament
>>> state = new_tournament(TournamentConfig(Format.SWISS), [Entrant(i, 1500) for i in (1, 2, 3)])
>>> round_one = next_pairings(state)
>>> [(p.first, p.second) for p in round_one]
[(1, 2), (3, None)]
"""

from __future__ import annotations

from .engine import forfeits_for, is_finished, next_pairings, seeded, standings
from .knockout import Match, bracket_order, matches
from .league import (
    DEFAULT_DIVISION_SIZE,
    Division,
    LeagueMember,
    SeasonMoves,
    division_tournament,
    next_season,
    season_moves,
    split_divisions,
)
from .model import (
    Entrant,
    Format,
    Outcome,
    Pairing,
    Reason,
    Result,
    TournamentConfig,
    TournamentError,
    TournamentState,
    Withdrawal,
    default_swiss_rounds,
    max_swiss_rounds,
    new_tournament,
)
from .standings import TableLine

__all__ = [
    "DEFAULT_DIVISION_SIZE",
    "Division",
    "Entrant",
    "Format",
    "LeagueMember",
    "Match",
    "Outcome",
    "Pairing",
    "Reason",
    "Result",
    "SeasonMoves",
    "TableLine",
    "TournamentConfig",
    "TournamentError",
    "TournamentState",
    "Withdrawal",
    "bracket_order",
    "default_swiss_rounds",
    "division_tournament",
    "forfeits_for",
    "is_finished",
    "matches",
    "max_swiss_rounds",
    "new_tournament",
    "next_pairings",
    "next_season",
    "season_moves",
    "seeded",
    "split_divisions",
    "standings",
]
