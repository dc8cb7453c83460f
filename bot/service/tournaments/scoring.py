"""Points and the per-player game records every tiebreak reads.

Scoring is 1 for a win, ½ for a draw, 0 for a loss or a forfeit, and 1 for a Swiss bye.
Points are kept in halves (ints) internally so that sums and comparisons are exact.
"""

from __future__ import annotations

from typing import NamedTuple

from .model import Format, Outcome, Pairing, Reason, Result, TournamentState

WIN, DRAW, LOSS = 2, 1, 0
"""Points in halves: a win is 2 halves, a draw 1."""


class GameRecord(NamedTuple):
    """One finished game (or bye) seen from one player's side (a tuple: standings build
    thousands of these per call)."""

    pairing: Pairing
    opponent: int | None
    halves: int
    forfeit: bool

    @property
    def played(self) -> bool:
        """Whether a game was actually played (not a bye, not a forfeit)."""
        return self.opponent is not None and not self.forfeit


FIRST_HALVES = {Outcome.FIRST_WINS: WIN, Outcome.DRAW: DRAW, Outcome.SECOND_WINS: LOSS}
"""The first seat's half points for each outcome."""


def halves_for(result: Result, first_seat: bool) -> int:
    """The half points one side scored in ``result``."""
    if result.outcome is Outcome.DRAW:
        return DRAW
    first_won = result.outcome is Outcome.FIRST_WINS
    return WIN if first_won == first_seat else LOSS


def records(state: TournamentState) -> dict[int, list[GameRecord]]:
    """Every player's finished games in pairing order (a Swiss bye counts as a won record)."""
    out: dict[int, list[GameRecord]] = {e.player_id: [] for e in state.entrants}
    results = state.result_map()
    bye_scores = state.config.format is Format.SWISS
    for pairing in state.pairings:
        if pairing.second is None:
            if bye_scores:
                out[pairing.first].append(GameRecord(pairing, None, WIN, False))
            continue
        result = results.get(pairing.id)
        if result is None:
            continue
        forfeit = result.reason is Reason.FORFEIT
        first_halves = FIRST_HALVES[result.outcome]
        out[pairing.first].append(GameRecord(pairing, pairing.second, first_halves, forfeit))
        out[pairing.second].append(GameRecord(pairing, pairing.first, WIN - first_halves, forfeit))
    return out
