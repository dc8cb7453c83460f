"""The plain values a tournament is made of, shaped so a store can keep them as rows.

Everything here is a frozen dataclass of ints, floats, strings and tuples: no store, no
Discord, no clock.  A tournament is its :class:`TournamentConfig`, its entrants, the
pairings made so far, the results recorded so far and the withdrawals.  Pairing and
standings are pure functions of that state (see :mod:`.engine`), so the persistence layer
stores these rows as they are and rebuilds a :class:`TournamentState` to ask what comes next.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import StrEnum

from rules.errors import N_

from ..errors import InvalidInput, quote

MAX_ENTRANTS = 4096
"""More entrants than this are refused: pairing time grows quickly and nobody runs such a field."""

MAX_BEST_OF = 15
"""The longest knockout match an organiser may ask for."""


class TournamentError(InvalidInput):
    """A tournament cannot be created or advanced as asked (too few players, bad options)."""


class Format(StrEnum):
    """How a tournament pairs its players."""

    ROUND_ROBIN = "round-robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"


class Outcome(StrEnum):
    """The result of one game, from the first seat's side."""

    FIRST_WINS = "1-0"
    SECOND_WINS = "0-1"
    DRAW = "½-½"


class Reason(StrEnum):
    """Why a game ended the way it did.  Only :attr:`FORFEIT` changes the tiebreaks: a forfeit
    scores like a win or a loss but was never played, so Sonneborn-Berger leaves it out."""

    PLAYED = "played"
    TIME = "time"
    ADJUDICATED = "adjudicated"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player.  ``rating`` is the rating when the tournament started: it seeds
    the field and is the last tiebreak, so it must not follow later rating changes."""

    player_id: int
    rating: float


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game to play (or a bye when ``second`` is None).

    ``round``/``table``/``game`` identify it within its tournament: ``game`` counts the
    games of one knockout match (always 1 in the other formats).  A bye has no game and is
    never given a result: :mod:`.scoring` reads it as the point it is worth (a Swiss bye) or
    as a pass to the next round (a knockout bye).
    """

    round: int
    table: int
    first: int
    second: int | None
    game: int = 1

    @property
    def id(self) -> str:
        """A key unique within the tournament, stable across processes (``"3.7.1"``)."""
        return f"{self.round}.{self.table}.{self.game}"

    @property
    def is_bye(self) -> bool:
        return self.second is None

    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True, slots=True)
class Result:
    """The result of the pairing with id ``pairing_id``.  Time losses and adjudications are
    ordinary results with a reason; a forfeit is one a player never played."""

    pairing_id: str
    outcome: Outcome
    reason: Reason = Reason.PLAYED


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """``player_id`` left before round ``from_round``: they are paired in no later round,
    and :func:`.engine.forfeits_for` gives the forfeits of their games still open."""

    player_id: int
    from_round: int


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What the organiser chose at creation.

    ``cycles`` is 1 (single) or 2 (double) for a round robin; ``rounds`` is the number of
    Swiss rounds (None: ⌈log₂ players⌉ + 1); ``best_of`` is the odd number of games of a
    knockout match; ``seed`` makes every draw by lot repeatable, so it is stored with the
    tournament and the same state always gives the same next pairings.
    """

    format: Format
    cycles: int = 1
    rounds: int | None = None
    best_of: int = 1
    seed: int = 0


@dataclass(frozen=True, slots=True)
class TournamentState:
    """Everything recorded about one tournament, as rows.

    Build it with :func:`new_tournament` (which checks the options) and grow it with
    :meth:`with_pairings`, :meth:`with_result` and :meth:`with_withdrawal`, or rebuild it
    from stored rows with the constructor followed by :meth:`validated`.
    """

    config: TournamentConfig
    entrants: tuple[Entrant, ...]
    pairings: tuple[Pairing, ...] = ()
    results: tuple[Result, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    # Results by pairing id, filled on first use: pairing and standings look results up
    # game by game, and the rows never change (the with_ methods return a new state).
    _by_id: dict[str, Result] = field(default_factory=dict, compare=False, repr=False)

    @property
    def rounds_total(self) -> int:
        """How many rounds the Swiss plays (0 for the formats whose length follows the field)."""
        if self.config.format is not Format.SWISS:
            return 0
        return self.config.rounds or default_swiss_rounds(len(self.entrants))

    def result_map(self) -> dict[str, Result]:
        """Results by pairing id (shared with the state: read it, never change it)."""
        if len(self._by_id) != len(self.results):
            self._by_id.update((r.pairing_id, r) for r in self.results)
        return self._by_id

    def withdrawn(self) -> dict[int, int]:
        """Player id -> the first round they are no longer paired in."""
        return {w.player_id: w.from_round for w in self.withdrawals}

    def current_round(self) -> int:
        return max((p.round for p in self.pairings), default=0)

    def open_pairings(self) -> list[Pairing]:
        """Games paired but without a result (byes are never open)."""
        done = self.result_map()
        return [p for p in self.pairings if not p.is_bye and p.id not in done]

    def with_pairings(self, pairings: tuple[Pairing, ...]) -> TournamentState:
        return replace(self, pairings=self.pairings + pairings, _by_id={})

    def with_result(self, result: Result) -> TournamentState:
        """The state with ``result`` recorded; refuses a result for no game or a second one."""
        games = {p.id: p for p in self.pairings}
        pairing = games.get(result.pairing_id)
        if pairing is None or pairing.is_bye:
            raise TournamentError(
                "There is no game {pairing_id} to record.", pairing_id=quote(result.pairing_id)
            )
        if result.pairing_id in self.result_map():
            raise TournamentError(
                "Game {pairing_id} already has a result.", pairing_id=quote(result.pairing_id)
            )
        return replace(self, results=(*self.results, result), _by_id={})

    def with_withdrawal(self, player_id: int) -> TournamentState:
        """The state with ``player_id`` withdrawn from the next round on."""
        if player_id not in {e.player_id for e in self.entrants}:
            raise TournamentError(
                N_("Player {player_id} is not in this tournament."), player_id=quote(player_id)
            )
        if player_id in self.withdrawn():
            raise TournamentError(N_("That player has already withdrawn."))
        withdrawal = Withdrawal(player_id, self.current_round() + 1)
        return replace(self, withdrawals=(*self.withdrawals, withdrawal), _by_id={})

    def validated(self) -> TournamentState:
        """The state itself once its rows fit together (else TournamentError): acceptable
        options and entrants, pairings of entrants only with distinct ids, at most one result
        per game and none for a bye or a missing game, withdrawals of entrants only."""
        check_config(self.config, self.entrants)
        ids = {e.player_id for e in self.entrants}
        games: dict[str, Pairing] = {}
        for pairing in self.pairings:
            if pairing.id in games:
                raise TournamentError("Game {id} is paired twice.", id=quote(pairing.id))
            if any(pid not in ids for pid in pairing.players()) or pairing.first == pairing.second:
                raise TournamentError("Game {id} pairs someone not entered.", id=quote(pairing.id))
            games[pairing.id] = pairing
        seen: set[str] = set()
        for result in self.results:
            paired = games.get(result.pairing_id)
            if paired is None or paired.is_bye or result.pairing_id in seen:
                raise TournamentError(
                    "The result of {pairing_id} fits no game.",
                    pairing_id=quote(result.pairing_id),
                )
            seen.add(result.pairing_id)
        left = [w.player_id for w in self.withdrawals]
        if len(set(left)) != len(left) or not ids.issuperset(left):
            raise TournamentError("A withdrawal names someone not entered, or twice.")
        return self


def default_swiss_rounds(players: int) -> int:
    """⌈log₂ players⌉ + 1, never more than a Swiss of that many players allows.

    >>> [default_swiss_rounds(n) for n in (2, 3, 8, 9, 256)]
    [1, 3, 4, 5, 9]
    """
    return min(math.ceil(math.log2(max(players, 2))) + 1, max_swiss_rounds(players))


def max_swiss_rounds(players: int) -> int:
    """The most Swiss rounds possible without a rematch or a second bye: everyone can meet
    everyone once, and an odd field gives one bye a round to a different player each time."""
    return players - 1 if players % 2 == 0 else players


def check_config(config: TournamentConfig, entrants: tuple[Entrant, ...]) -> None:
    """Refuse options no tournament can run with, in words for the organiser."""
    count = len(entrants)
    if count < 2:
        raise TournamentError(N_("A tournament needs at least two players."))
    if count > MAX_ENTRANTS:
        raise TournamentError(N_("A tournament takes at most {most} players."), most=MAX_ENTRANTS)
    ids = [e.player_id for e in entrants]
    if len(set(ids)) != count:
        raise TournamentError(N_("A player is registered twice."))
    if any(not math.isfinite(e.rating) for e in entrants):
        raise TournamentError("Every player needs a finite rating to be seeded.")
    if config.format is Format.ROUND_ROBIN and config.cycles not in (1, 2):
        raise TournamentError(
            N_("A round robin is single or double (1 or 2 cycles), not {cycles}."),
            cycles=quote(config.cycles),
        )
    if config.format is Format.SWISS and config.rounds is not None:
        most = max_swiss_rounds(count)
        if not 1 <= config.rounds <= most:
            raise TournamentError(
                N_("A Swiss of {count} players can have 1 to {most} rounds, not {rounds}."),
                count=count,
                most=most,
                rounds=quote(config.rounds),
            )
    if config.format is Format.KNOCKOUT and (
        config.best_of < 1 or config.best_of % 2 == 0 or config.best_of > MAX_BEST_OF
    ):
        raise TournamentError(
            N_(
                "A knockout match is best of an odd number of games from 1 to "
                "{most}, not {best_of}."
            ),
            most=MAX_BEST_OF,
            best_of=quote(config.best_of),
        )


def new_tournament(config: TournamentConfig, entrants: list[Entrant]) -> TournamentState:
    """A tournament with nothing paired yet, after checking the options."""
    return TournamentState(config, tuple(entrants)).validated()
