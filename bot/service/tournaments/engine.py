"""What comes next in a tournament, as pure functions of its recorded state.

The persistence layer calls :func:`next_pairings` after each change and stores what it
returns; :func:`forfeits_for` after a withdrawal, storing the forfeits as ordinary results;
:func:`standings` to show the table; :func:`is_finished` to close the tournament.
"""

from __future__ import annotations

from dataclasses import replace

from . import knockout
from .model import Format, Outcome, Pairing, Reason, Result, TournamentState
from .roundrobin import round_robin_schedule
from .scoring import records
from .standings import TableLine, seeded_order
from .standings import standings as table_standings
from .swiss import SwissPlayer, pair_swiss


def seeded(state: TournamentState) -> list[int]:
    """Entrant ids strongest first (rating at the start, then registration)."""
    return seeded_order([(e.player_id, e.rating) for e in state.entrants])


def next_pairings(state: TournamentState) -> tuple[Pairing, ...]:
    """The pairings to add now, or () while results are awaited or when it is over.

    A round robin is paired whole at once (every round, so all games can be played at the
    same time); a Swiss one round at a time, once every game of the last round has a
    result; a knockout game by game within a match and round by round.
    """
    fmt = state.config.format
    if fmt is Format.ROUND_ROBIN:
        if state.pairings:
            return ()
        withdrawn = state.withdrawn()
        field = [pid for pid in seeded(state) if pid not in withdrawn]
        return round_robin_schedule(field, state.config.cycles) if len(field) > 1 else ()
    if fmt is Format.KNOCKOUT:
        if knockout.is_finished(state):
            return ()
        return knockout.next_knockout_pairings(state, seeded(state))
    return _next_swiss_round(state)


def _next_swiss_round(state: TournamentState) -> tuple[Pairing, ...]:
    if state.open_pairings():
        return ()
    next_round = state.current_round() + 1
    if next_round > state.rounds_total:
        return ()
    withdrawn = state.withdrawn()
    order = {pid: i for i, pid in enumerate(seeded(state))}
    recs = records(state)
    players = []
    for pid in order:
        if withdrawn.get(pid, next_round + 1) <= next_round:
            continue
        games = [r for r in recs[pid] if r.opponent is not None]
        seats = [1 if r.pairing.first == pid else -1 for r in games]
        players.append(
            SwissPlayer(
                player_id=pid,
                halves=sum(r.halves for r in recs[pid]),
                opponents=frozenset(r.opponent for r in games if r.opponent is not None),
                seat_balance=sum(seats),
                last_seat=seats[-1] if seats else 0,
                had_bye=any(r.opponent is None for r in recs[pid]),
            )
        )
    if len(players) < 2:
        return ()
    players.sort(key=lambda p: (-p.halves, order[p.player_id]))
    return pair_swiss(players, next_round)


def forfeits_for(state: TournamentState) -> tuple[Result, ...]:
    """Forfeit results for every open game of a withdrawn player (the others win them).

    When both players of a game have withdrawn, the one who left first loses it (the
    first seat, if they left together).
    """
    withdrawn = state.withdrawn()
    out = []
    for pairing in state.open_pairings():
        second = pairing.second
        assert second is not None
        a_left, b_left = withdrawn.get(pairing.first), withdrawn.get(second)
        if a_left is None and b_left is None:
            continue
        if b_left is None or (a_left is not None and a_left <= b_left):
            outcome = Outcome.SECOND_WINS
        else:
            outcome = Outcome.FIRST_WINS
        out.append(Result(pairing.id, outcome, Reason.FORFEIT))
    return tuple(out)


def is_finished(state: TournamentState) -> bool:
    """Whether nothing more will be paired or played."""
    if state.open_pairings():
        return False
    if state.config.format is Format.KNOCKOUT:
        return knockout.is_finished(state)
    return bool(state.pairings) and not next_pairings(state)


def standings(state: TournamentState) -> list[TableLine]:
    """The table: by points and the format's tiebreaks, or a bracket's placings.

    A knockout ranks players by the round they reached (the winner first, then the
    finalist, then the semi-final losers together, ...), and by seed within it.
    """
    if state.config.format is not Format.KNOCKOUT:
        return table_standings(state)
    return _knockout_placings(state)


def _knockout_placings(state: TournamentState) -> list[TableLine]:
    reached: dict[int, int] = {e.player_id: 0 for e in state.entrants}
    for match in knockout.matches(state):
        for pid in (match.a, match.b):
            if pid is not None:
                reached[pid] = max(reached[pid], match.round * 2)
        if match.winner is not None:
            reached[match.winner] = max(reached[match.winner], match.round * 2 + 1)
    order = {pid: i for i, pid in enumerate(seeded(state))}
    base = {row.player_id: row for row in table_standings(state)}
    ordered = sorted(reached, key=lambda pid: (-reached[pid], order[pid]))
    rows = []
    rank, previous = 0, -1
    for position, pid in enumerate(ordered, start=1):
        if reached[pid] != previous:
            rank, previous = position, reached[pid]
        rows.append(replace(base[pid], rank=rank))
    return rows
