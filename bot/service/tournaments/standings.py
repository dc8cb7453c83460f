"""Standings and tiebreaks.

Round robin: points, then Sonneborn-Berger, head-to-head, wins, rating at the start.
Swiss: points, then Buchholz cut-1, Buchholz, Sonneborn-Berger, head-to-head (and then the
rating at the start, so the order is always complete).

- **Sonneborn-Berger**: over the games actually played, the final score of each opponent
  beaten plus half the final score of each opponent drawn.
- **Buchholz**: the sum of the final scores of the opponents met.  A round not played over
  the board (a bye, a forfeit won or lost) counts as an opponent with the player's own final
  score, so a bye neither helps nor hurts.  **Cut-1** leaves out the lowest of those values.
- **Head-to-head**: points scored in the games between the players still level on every
  earlier key, whatever the reason each game ended.

Internally points are counted in halves, and Sonneborn-Berger in quarters, so every
comparison is exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .model import Format, TournamentState
from .scoring import DRAW, WIN, GameRecord, records


@dataclass(frozen=True, slots=True)
class TableLine:
    """One line of a standings table as the pure core computes it (every tiebreak a field).
    ``rank`` is shared by players level on every key.  What players see is
    :class:`~bot.service.tournaments.types.StandingRow`, built from it with the format's
    tiebreaks named."""

    rank: int
    player_id: int
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    sonneborn_berger: float
    buchholz: float
    buchholz_cut1: float
    head_to_head: float
    rating: float
    withdrawn: bool


@dataclass(slots=True)
class _Tally:
    player_id: int
    rating: float
    halves: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    games: int = 0
    sb4: int = 0
    buchholz2: int = 0
    cut2: int = 0
    h2h2: int = 0


def tallies(
    state: TournamentState, recs: dict[int, list[GameRecord]] | None = None
) -> dict[int, _Tally]:
    """Every entrant's points and tiebreak sums (before head-to-head); ``recs`` are the
    state's :func:`.scoring.records` when the caller already has them."""
    if recs is None:
        recs = records(state)
    ratings = {e.player_id: e.rating for e in state.entrants}
    out = {pid: _Tally(pid, ratings[pid]) for pid in recs}
    for pid, games in recs.items():
        tally = out[pid]
        for rec in games:
            tally.halves += rec.halves
            if rec.opponent is None:
                tally.byes += 1
                continue
            tally.games += 1
            if rec.halves == WIN:
                tally.wins += 1
            elif rec.halves == DRAW:
                tally.draws += 1
            else:
                tally.losses += 1
    for pid, games in recs.items():
        tally = out[pid]
        values = []
        for rec in games:
            if rec.played:
                assert rec.opponent is not None
                opponent = out[rec.opponent].halves
                tally.sb4 += rec.halves * opponent
                values.append(opponent)
            else:
                values.append(tally.halves)
        tally.buchholz2 = sum(values)
        tally.cut2 = tally.buchholz2 - min(values, default=0)
    return out


def _head_to_head(group: list[_Tally], recs: dict[int, list[GameRecord]]) -> None:
    members = {t.player_id for t in group}
    for tally in group:
        tally.h2h2 = sum(r.halves for r in recs[tally.player_id] if r.opponent in members)


Key = Callable[[_Tally], tuple[float, ...]]


def _rows(state: TournamentState, before_h2h: Key, after_h2h: Key) -> list[TableLine]:
    recs = records(state)
    table = tallies(state, recs)
    groups: dict[tuple[float, ...], list[_Tally]] = {}
    for tally in table.values():
        groups.setdefault(before_h2h(tally), []).append(tally)
    for group in groups.values():
        if len(group) > 1:
            _head_to_head(group, recs)

    def full(t: _Tally) -> tuple[float, ...]:
        return (*before_h2h(t), -t.h2h2, *after_h2h(t))

    ordered = sorted(table.values(), key=lambda t: (*full(t), t.player_id))
    withdrawn = state.withdrawn()
    rows = []
    previous: tuple[float, ...] | None = None
    rank = 0
    for position, t in enumerate(ordered, start=1):
        key = full(t)
        if key != previous:
            rank, previous = position, key
        rows.append(
            TableLine(
                rank=rank,
                player_id=t.player_id,
                points=t.halves / 2,
                games=t.games,
                wins=t.wins,
                draws=t.draws,
                losses=t.losses,
                byes=t.byes,
                sonneborn_berger=t.sb4 / 4,
                buchholz=t.buchholz2 / 2,
                buchholz_cut1=t.cut2 / 2,
                head_to_head=t.h2h2 / 2,
                rating=t.rating,
                withdrawn=t.player_id in withdrawn,
            )
        )
    return rows


def round_robin_standings(state: TournamentState) -> list[TableLine]:
    return _rows(state, lambda t: (-t.halves, -t.sb4), lambda t: (-t.wins, -t.rating))


def swiss_standings(state: TournamentState) -> list[TableLine]:
    return _rows(
        state, lambda t: (-t.halves, -t.cut2, -t.buchholz2, -t.sb4), lambda t: (-t.rating,)
    )


def standings(state: TournamentState) -> list[TableLine]:
    """The standings of a round robin or Swiss (see :func:`.knockout.placings` for a bracket)."""
    if state.config.format is Format.SWISS:
        return swiss_standings(state)
    return round_robin_standings(state)


def seeded_order(entrants: Sequence[tuple[int, float]]) -> list[int]:
    """Player ids strongest first: rating at the start, then the lower id (registration)."""
    return [pid for pid, _ in sorted(entrants, key=lambda e: (-e[1], e[0]))]
