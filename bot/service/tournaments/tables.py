"""The tables and read models of tournaments: standings, pairings and the info rows the
front ends show, computed from the stored rows (pure functions, no store)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import cast

from rules import game_class
from rules.errors import N_, Wording

from ...store import (
    EntrantRow,
    PairingRow,
    TournamentRow,
)
from ..checks import (
    quote,
)
from ..clocks.timebank import time_control_from
from ..convert import from_us, maybe_dt
from ..errors import PermissionDenied
from ..ratings.model import display_rating
from . import (
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
    is_finished,
    max_swiss_rounds,
    standings,
)
from .league import MAX_DIVISION_SIZE, MIN_DIVISION_SIZE
from .model import MAX_BEST_OF, MAX_ENTRANTS
from .types import (
    PairingInfo,
    StandingRow,
    TournamentFormat,
    TournamentInfo,
    TournamentStatus,
)

PROVISIONAL_CHANNEL_BASE = 1 << 62
"""Channel ids from here up are the service's own, given to a tournament game until the
adapter attaches its thread.  Discord snowflakes stay below 2^62 until about 2084."""
_GAMES_PER_TOURNAMENT = 1 << 28
"""Provisional ids are ``base + tournament id * this + n`` for the tournament's n-th game."""

MAX_CREATOR_ROLES = 25
LIST_LIMIT = 100

_REASONS = {
    "connection": Reason.PLAYED,
    "draw": Reason.PLAYED,
    "resign": Reason.PLAYED,
    "time": Reason.TIME,
    "award": Reason.ADJUDICATED,
    "forfeit": Reason.FORFEIT,
}


_OUTCOMES = {o.value: o for o in Outcome}
_BY_VALUE = {r.value: r for r in Reason}
"""Stored values to members by dict: ``Outcome(value)`` costs microseconds, and a league's
table rebuilds thousands of results."""


def is_provisional(channel_id: int) -> bool:
    """Whether ``channel_id`` is one the service gave a tournament game (no thread yet)."""
    return channel_id >= PROVISIONAL_CHANNEL_BASE


def _check_numbers(
    format: str,
    rounds: int | None,
    match_games: int,
    min_players: int,
    max_players: int | None,
    division_size: int,
) -> None:
    """Refuse options no tournament of ``format`` can run with, before anything is stored."""
    if min_players < 2:
        raise TournamentError(N_("A tournament needs at least two players (minimum 2 or more)."))
    if min_players > MAX_ENTRANTS:
        raise TournamentError(
            N_(
                "A tournament takes at most {most} players, so its minimum cannot be {min_players}."
            ),
            most=MAX_ENTRANTS,
            min_players=quote(min_players),
        )
    if max_players is not None:
        if max_players < 2:
            raise TournamentError(N_("A tournament needs room for at least two players."))
        if max_players > MAX_ENTRANTS:
            raise TournamentError(
                N_("A tournament takes at most {most} players."), most=MAX_ENTRANTS
            )
        if max_players < min_players:
            raise TournamentError(N_("The maximum number of players is below the minimum."))
    if rounds is not None:
        if format != "swiss":
            raise TournamentError(N_("Only a Swiss has a chosen number of rounds."))
        if rounds < 1:
            raise TournamentError(
                N_("A Swiss has at least one round, not {rounds}."), rounds=quote(rounds)
            )
        if rounds > max_swiss_rounds(MAX_ENTRANTS):  # (no field can play more: no rematches)
            raise TournamentError(
                N_(
                    "A Swiss has at most {most} rounds (with the largest field of "
                    "{players} players), not {rounds}."
                ),
                most=max_swiss_rounds(MAX_ENTRANTS),
                players=MAX_ENTRANTS,
                rounds=quote(rounds),
            )
        if max_players is not None and rounds > max_swiss_rounds(max_players):
            raise TournamentError(
                N_(
                    "A Swiss of at most {players} players can have at most {most} "
                    "rounds, not {rounds}."
                ),
                players=max_players,
                most=max_swiss_rounds(max_players),
                rounds=quote(rounds),
            )
    if match_games != 1 and format != "knockout":
        raise TournamentError(N_("Only a knockout has matches of several games."))
    if match_games < 1 or match_games % 2 == 0 or match_games > MAX_BEST_OF:
        raise TournamentError(
            N_(
                "A knockout match is best of an odd number of games from 1 to "
                "{most}, not {match_games}."
            ),
            most=MAX_BEST_OF,
            match_games=quote(match_games),
        )
    if not MIN_DIVISION_SIZE <= division_size <= MAX_DIVISION_SIZE:
        raise TournamentError(
            N_("A division holds {least} to {most} players, not {division_size}."),
            least=MIN_DIVISION_SIZE,
            most=MAX_DIVISION_SIZE,
            division_size=quote(division_size),
        )


def _check_organiser(t: TournamentRow, user_id: int, as_admin: bool) -> None:
    if not as_admin and user_id != t.organiser_id:
        raise PermissionDenied(
            N_("Only the tournament's organiser (or a server admin) can do that.")
        )


NOW = {
    "registration": N_("This tournament is taking registrations."),
    "running": N_("This tournament is running."),
    "finished": N_("This tournament is finished."),
    "cancelled": N_("This tournament is cancelled."),
}
"""A tournament's state, as a refusal says it: one whole sentence per state, to translate."""
ALREADY = {
    "running": N_("This tournament has already started."),
    "finished": N_("This tournament has already finished."),
    "cancelled": N_("This tournament has already been cancelled."),
}
CLOSED = {
    "running": N_("Registration is closed: this tournament has started."),
    "finished": N_("Registration is closed: this tournament has finished."),
    "cancelled": N_("Registration is closed: this tournament has been cancelled."),
}


def status_sentence(status: str, sentences: Mapping[str, str]) -> Wording:
    """The sentence for ``status`` among ``sentences`` (falling back to :data:`NOW`)."""
    return Wording(sentences.get(status) or NOW.get(status) or NOW["running"])


def _config(t: TournamentRow) -> TournamentConfig:
    if t.format == "swiss":
        return TournamentConfig(Format.SWISS, rounds=t.requested_rounds, seed=t.seed)
    if t.format == "knockout":
        return TournamentConfig(Format.KNOCKOUT, best_of=t.match_games, seed=t.seed)
    cycles = 2 if t.format == "double_round_robin" else 1
    return TournamentConfig(Format.ROUND_ROBIN, cycles=cycles, seed=t.seed)


def _states(
    t: TournamentRow,
    entrants: Sequence[EntrantRow],
    pairings: Sequence[PairingRow],
    *,
    check: bool = False,
) -> dict[int, TournamentState]:
    """Each division's state for the pure core (one division, 1, outside leagues).
    ``check``: validate it (the options against the field, before the start; later the
    rows are this module's own, written under the tournament's lock)."""
    config = _config(t)
    by_division, paired = _by_division(entrants, pairings)
    out = {}
    for level in sorted(by_division):
        state = _state(config, by_division[level], paired.get(level, ()))
        out[level] = state.validated() if check else state
    return out


def _by_division(
    entrants: Sequence[EntrantRow], pairings: Sequence[PairingRow]
) -> tuple[dict[int, list[EntrantRow]], dict[int, list[PairingRow]]]:
    by_division: dict[int, list[EntrantRow]] = {}
    for e in entrants:
        by_division.setdefault(e.division or 1, []).append(e)
    paired: dict[int, list[PairingRow]] = {}
    for p in pairings:
        paired.setdefault(p.division, []).append(p)
    return by_division, paired


def _state(
    config: TournamentConfig, entrants: Sequence[EntrantRow], rows: Sequence[PairingRow]
) -> TournamentState:
    """One division's state from its entrants and pairings."""
    return TournamentState(
        config,
        tuple(Entrant(e.user_id, e.rating) for e in entrants),
        tuple(Pairing(p.round, p.tbl, p.first_id, p.second_id, p.game_no) for p in rows),
        tuple(
            Result(f"{p.round}.{p.tbl}.{p.game_no}", _OUTCOMES[p.outcome], _BY_VALUE[p.reason])
            for p in rows
            if p.outcome is not None and p.reason is not None
        ),
        tuple(
            Withdrawal(e.user_id, e.withdrawn_round)
            for e in entrants
            if e.withdrawn_round is not None
        ),
    )


def table(t: TournamentRow, states: dict[int, TournamentState]) -> list[StandingRow]:
    """The standings of every division, top division first."""
    out = []
    for division, state in states.items():
        out.extend(_division_rows(t.format, division, state))
    return out


def _division_rows(format: str, division: int, state: TournamentState) -> list[StandingRow]:
    out = []
    left = _games_left(state)
    for row in standings(state):
        if format == "swiss":
            tiebreaks = {
                "buchholz_cut1": row.buchholz_cut1,
                "buchholz": row.buchholz,
                "sonneborn_berger": row.sonneborn_berger,
                "head_to_head": row.head_to_head,
            }
        elif format == "knockout":
            tiebreaks = {"rating": shown_rating(row.rating)}
        else:
            tiebreaks = {
                "sonneborn_berger": row.sonneborn_berger,
                "head_to_head": row.head_to_head,
                "wins": float(row.wins),
                "rating": shown_rating(row.rating),
            }
        out.append(
            StandingRow(
                user_id=row.player_id,
                rank=row.rank,
                points=row.points,
                tiebreaks=tiebreaks,
                games=row.games,
                wins=row.wins,
                draws=row.draws,
                losses=row.losses,
                byes=row.byes,
                games_left=left.get(row.player_id, 0),
                rating=row.rating,
                withdrawn=row.withdrawn,
                division=division,
            )
        )
    return out


@lru_cache(maxsize=4096)
def _division_table(
    format: str,
    config: TournamentConfig,
    division: int,
    entrants: tuple[EntrantRow, ...],
    pairings: tuple[PairingRow, ...],
) -> tuple[StandingRow, ...]:
    """One division's rows, remembered by everything they depend on (the format, the
    options, the division's rows as stored): a result changes one division of a league,
    so reading its table again rebuilds that one and reuses the rest.  Rows are frozen,
    so a remembered row is shared safely; 4096 divisions bound the memory."""
    return tuple(_division_rows(format, division, _state(config, entrants, pairings)))


def _games_left(state: TournamentState) -> dict[int, int]:
    left: dict[int, int] = {}
    for p in state.open_pairings():
        for pid in p.players():
            left[pid] = left.get(pid, 0) + 1
    if state.config.format is Format.SWISS and not is_finished(state):
        to_pair = max(0, state.rounds_total - state.current_round())
        withdrawn = state.withdrawn()
        for e in state.entrants:
            if e.player_id not in withdrawn:
                left[e.player_id] = left.get(e.player_id, 0) + to_pair
    return left


def pairing_info(p: PairingRow) -> PairingInfo:
    return PairingInfo(
        p.round,
        p.division,
        p.tbl,
        p.game_no,
        p.first_id,
        p.second_id,
        p.game_id,
        p.outcome,
        p.reason,
    )


def standings_of(
    t: TournamentRow, entrants: Sequence[EntrantRow], pairings: Sequence[PairingRow]
) -> list[StandingRow]:
    """The table from stored rows (empty before the start)."""
    if t.started_at is None:
        return []
    config = _config(t)
    by_division, paired = _by_division(entrants, pairings)
    out: list[StandingRow] = []
    for level in sorted(by_division):
        rows = (tuple(by_division[level]), tuple(paired.get(level, ())))
        out.extend(_division_table(t.format, config, level, *rows))
    return out


def player_names(entrants: Sequence[EntrantRow]) -> dict[int, str]:
    """Each player's name for the web: the display name given when they joined, else
    ``Player N`` by the order they joined (never a user id, which would identify them)."""
    return {e.user_id: e.name if e.name else f"Player {n}" for n, e in enumerate(entrants, start=1)}


def info_of(t: TournamentRow, entrants: Sequence[EntrantRow]) -> TournamentInfo:
    return TournamentInfo(
        id=t.id,
        guild_id=t.guild_id,
        channel_id=t.channel_id,
        organiser_id=t.organiser_id,
        game=t.game,
        title=game_class(t.game).title,
        size=t.size,
        format=cast(TournamentFormat, t.format),
        status=cast(TournamentStatus, t.status),
        round=t.round,
        rounds=t.rounds,
        requested_rounds=t.requested_rounds,
        match_games=t.match_games,
        time_control=time_control_from(t),
        rated=t.rated,
        min_players=t.min_players,
        max_players=t.max_players,
        division_size=t.division_size,
        registration_deadline=maybe_dt(t.registration_deadline),
        player_ids=tuple(e.user_id for e in entrants),
        withdrawn_ids=tuple(e.user_id for e in entrants if e.withdrawn_round is not None),
        league_id=t.league_id,
        season=t.season,
        message_id=t.message_id,
        web_token=t.web_token,
        public=t.public,
        version=t.version,
        created_at=from_us(t.created_at),
        started_at=maybe_dt(t.started_at),
        finished_at=maybe_dt(t.finished_at),
    )


__all__ = ["PROVISIONAL_CHANNEL_BASE", "is_provisional", "player_names"]


def shown_rating(mu: float) -> float:
    """A rating at the start as the leaderboard shows ratings (1500 for a new player), not
    openskill's raw mu (25): the same number everywhere a player reads it.  Monotone in mu,
    so the order it breaks ties in is unchanged."""
    return float(round(display_rating(mu)))
