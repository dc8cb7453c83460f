"""The frozen values the tournament API returns (see :mod:`.tournament_play`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from rules.errors import Wording

from ..clocks.types import TimeControl

TournamentFormat = Literal["round_robin", "double_round_robin", "swiss", "knockout", "league"]
TournamentStatus = Literal["registration", "running", "finished", "cancelled"]

FORMATS: tuple[TournamentFormat, ...] = (
    "round_robin",
    "double_round_robin",
    "swiss",
    "knockout",
    "league",
)


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """A tournament (or one season of a league) as players and organisers see it.

    ``round`` is the last round paired (0 before the start); ``rounds`` the number of rounds
    (None until the start fixes it).  ``player_ids`` are the entrants in the order they
    joined; ``withdrawn_ids`` those who withdrew after the start.  ``title`` is the game's.
    ``league_id`` is the id of a league's first season (shared by all its seasons) and
    ``season`` counts from 1.  ``web_token`` is a 128-bit random hex string for a public
    page: unguessable, unlike the id; ``public`` whether that page (and its games' pages)
    may be served: its channel could be read by everyone when it was created.
    """

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    game: str
    title: str
    size: int
    format: TournamentFormat
    status: TournamentStatus
    round: int
    rounds: int | None
    requested_rounds: int | None
    match_games: int
    time_control: TimeControl
    rated: bool
    min_players: int
    max_players: int | None
    division_size: int
    registration_deadline: datetime | None
    player_ids: tuple[int, ...]
    withdrawn_ids: tuple[int, ...]
    league_id: int | None
    season: int
    message_id: int | None
    web_token: str
    public: bool
    version: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of a tournament's table.

    ``rank`` is shared by players level on every key (in a league: the place within the
    division).  ``tiebreaks`` maps each of the format's tiebreak names, in the order they
    apply, to its value (round robin and league: ``sonneborn_berger``, ``head_to_head``,
    ``wins``, ``rating``; Swiss: ``buchholz_cut1``, ``buchholz``, ``sonneborn_berger``,
    ``head_to_head``; knockout: the ``round_reached``).  ``games_left`` counts games paired
    and unfinished plus, in a Swiss, the rounds still to pair.
    """

    user_id: int
    rank: int
    points: float
    tiebreaks: Mapping[str, float] = field(hash=False)
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    games_left: int
    rating: float
    withdrawn: bool
    division: int = 1


@dataclass(frozen=True, slots=True)
class PairingInfo:
    """One game of a round, or a bye (``second_id`` None, ``bye`` True).

    ``game_no`` counts the games of a knockout match (1 elsewhere); ``game_id`` is the game
    played for it (None for a bye); ``result`` is ``1-0``, ``0-1`` or ``½-½`` from the first
    seat's side once known, and ``reason`` one of ``played``, ``time``, ``adjudicated`` or
    ``forfeit``.
    """

    round: int
    division: int
    table: int
    game_no: int
    first_id: int
    second_id: int | None
    game_id: int | None
    result: str | None
    reason: str | None

    @property
    def bye(self) -> bool:
        return self.second_id is None


@dataclass(frozen=True, slots=True)
class TournamentUpdate:
    """What the periodic sweep found for one tournament: it ``started`` it or ``cancelled``
    it (its registration deadline passed; ``reason`` says why, for the announcement), or the
    tournament has ``finished`` and nobody has claimed its podium announcement yet (see
    ``claim_tournament_podium``)."""

    kind: Literal["started", "cancelled", "finished"]
    tournament: TournamentInfo
    reason: Wording | None = None
    """Why it was cancelled, for a front end to translate (``str()`` is the English)."""
