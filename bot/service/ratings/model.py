"""Player ratings: the model, the display scale, and which games are rated.

Pure and deterministic over plain values, so the service can update ratings inside the
transaction that finishes a game and ``crosspath ratings rebuild`` can recompute them from the
games table and get *bit-identical* floats: both go through :func:`update`, one game at a time,
in the same order.

Why openskill (Weng-Lin, Plackett-Luce model) and not glicko2
--------------------------------------------------------------
* Crosspath rates every game as it ends.  Weng-Lin is a per-game Bayesian update; Glicko-2 is
  defined over *rating periods* (several games rated together, volatility solved by an
  iterative search), and running it one game per period is outside what it was designed for.
* Draws are part of the model (equal ranks), and every rating carries its uncertainty
  (``sigma``) that shrinks as a player plays, which is exactly the "provisional" signal.
* The ``openskill`` package is maintained (6.x, 2026), typed (``py.typed``), ships compiled
  wheels, has no dependencies, and its ``rate`` neither mutates its inputs nor uses randomness
  in the arithmetic.  ``glicko2`` on PyPI is a small untyped package with mutable ``Player``
  objects and no release since 2024.
* One update costs about 25–35 µs here, so a rebuild of 200,000 games takes about 5 s
  (``bench/ratings_bench.py``).

Upgrading openskill may change the floats it returns; the pinned hand-worked values in
``tests/service/test_ratings_model.py`` will say so, and ``crosspath ratings rebuild`` should then
be run once so stored ratings and a later rebuild agree again.

The library's defaults are used unchanged (``mu`` 25, ``sigma`` 25/3, ``beta`` 25/6, ``tau``
25/300 added to ``sigma`` before each game so it never collapses to zero, ``kappa`` 1e-4).

Display scale
-------------
``rating = 1500 + DISPLAY_SCALE * (mu - 25)`` and ``uncertainty = DISPLAY_SCALE * sigma``
with ``DISPLAY_SCALE = 400 / (ln 10 * sqrt 2 * beta) ≈ 29.48``.  The Plackett-Luce
likelihood the update is built on gives ``a`` the win with probability
``1 / (1 + exp(-(mu_a - mu_b) / c))``, ``c = sqrt(2 beta² + sigma_a² + sigma_b²)``; for two
settled players ``c ≈ sqrt(2) * beta`` and this scale turns it into
``1 / (1 + 10 ** (-(r_a - r_b) / 400))``, the familiar Elo reading (400 points = 10 : 1).
(The library's ``predict_win`` is a separate normal-CDF estimate and reads differently.)
A new player shows 1500 ± 246 (one standard deviation, like Glicko's RD).  The map is
affine and increasing, so ordering by ``mu`` and by the shown rating agree.

Provisional
-----------
A rating is provisional until the player has :data:`PROVISIONAL_GAMES` (10) rated games in that
game, or earlier if the uncertainty has already fallen to :data:`SETTLED_UNCERTAINTY` (150).

What is rated
-------------
See :func:`rated_verdict`: everything except games in a server with ratings off, games created
unrated, games against the computer, admin aborts, and games in which a player made fewer than
two turns (an abort, as on chess sites; this holds for every ending, awards included).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from rules.errors import N_, N_plural, Wording

from ..types import ResultReason
from .types import GameProfile, Outcome, RatingPoint, Standing, UnratedReason

_MODEL = PlackettLuce()
"""The library model with its documented defaults.  Private: ``rate`` takes per-call
overrides that would change every later result, so nothing else may hold it."""

INITIAL_MU: float = _MODEL.mu
INITIAL_SIGMA: float = _MODEL.sigma
BETA: float = _MODEL.beta
TAU: float = _MODEL.tau

DISPLAY_BASE = 1500.0
DISPLAY_SCALE: float = 400.0 / (math.log(10.0) * math.sqrt(2.0) * BETA)
PROVISIONAL_GAMES = 10
SETTLED_UNCERTAINTY = 150.0
MIN_TURNS = 2
"""Each player must have made this many turns for a game to be rated."""

OUTCOMES: tuple[Outcome, ...] = ("win", "loss", "draw")
_RANKS: dict[str, list[float]] = {"win": [1.0, 2.0], "loss": [2.0, 1.0], "draw": [1.0, 1.0]}
_FLIP: dict[str, Outcome] = {"win": "loss", "loss": "win", "draw": "draw"}


def display_rating(mu: float) -> float:
    """``mu`` on the shown scale (1500 for a new player)."""
    return DISPLAY_BASE + DISPLAY_SCALE * (mu - INITIAL_MU)


def display_uncertainty(sigma: float) -> float:
    """``sigma`` on the shown scale (about 246 for a new player)."""
    return DISPLAY_SCALE * sigma


def is_provisional(games: int, sigma: float) -> bool:
    return games < PROVISIONAL_GAMES and display_uncertainty(sigma) > SETTLED_UNCERTAINTY


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one game of one server: the model's ``mu``/``sigma`` and the
    record that goes with it.

    This is exactly what a ratings row holds, so rebuilding from the games table must give an
    equal ``Rating`` (floats included) for every player.  ``streak`` is the current run of
    rated wins (a loss or a draw ends it), ``best_streak`` the longest such run.
    """

    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    wins: int = 0
    losses: int = 0
    draws: int = 0
    streak: int = 0
    best_streak: int = 0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(f"a rating needs a finite mu and a positive sigma, not {self!r}")
        if min(self.wins, self.losses, self.draws, self.streak, self.best_streak) < 0:
            raise ValueError(f"rating counts cannot be negative: {self!r}")

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def rating(self) -> float:
        """On the display scale."""
        return display_rating(self.mu)

    @property
    def uncertainty(self) -> float:
        """One standard deviation on the display scale."""
        return display_uncertainty(self.sigma)

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games, self.sigma)

    @property
    def shown(self) -> int:
        """The rating as players see it: a whole number."""
        return round(self.rating)


_INITIAL = Rating()


def initial_rating() -> Rating:
    """A player's rating before their first rated game in a game and server."""
    return _INITIAL


def _recorded(old: Rating, mu: float, sigma: float, outcome: Outcome) -> Rating:
    streak = old.streak + 1 if outcome == "win" else 0
    return Rating(
        mu=mu,
        sigma=sigma,
        wins=old.wins + (outcome == "win"),
        losses=old.losses + (outcome == "loss"),
        draws=old.draws + (outcome == "draw"),
        streak=streak,
        best_streak=max(old.best_streak, streak),
    )


def update(a: Rating, b: Rating, outcome: Outcome) -> tuple[Rating, Rating]:
    """Both players' ratings after one rated game; ``outcome`` is from ``a``'s side.

    The only place ratings change: the incremental update and :func:`rebuild` both call it.
    """
    ranks = _RANKS.get(outcome)
    if ranks is None:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r:.40}")
    (ra,), (rb,) = _MODEL.rate(
        [[_MODEL.rating(mu=a.mu, sigma=a.sigma)], [_MODEL.rating(mu=b.mu, sigma=b.sigma)]],
        ranks=list(ranks),
    )
    return (
        _recorded(a, float(ra.mu), float(ra.sigma), outcome),
        _recorded(b, float(rb.mu), float(rb.sigma), _FLIP[outcome]),
    )


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One finished, rated game in the order ratings were updated: ``a`` and ``b`` are the
    players' user ids and ``outcome`` is from ``a``'s side."""

    a: int
    b: int
    outcome: Outcome
    game_id: int | None = None

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError(f"a rated game needs two different players, not {self.a} twice")
        if self.outcome not in _RANKS:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}")


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after a game, and the change players are shown."""

    user_id: int
    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The shown change: the difference of the shown (rounded) ratings, so that
        ``before → after, delta`` always adds up in the message."""
        return self.after.shown - self.before.shown

    def describe(self, name: str) -> str:
        """``Alice 1512 → 1528, +16`` (the name is cut to 100 characters)."""
        label = name if len(name) <= 100 else name[:99] + "…"
        return f"{label} {self.before.shown} → {self.after.shown}, {self.delta:+d}"


def apply_game(ratings: Mapping[int, Rating], game: RatedGame) -> tuple[RatingChange, RatingChange]:
    """The incremental step: read both players' ratings (initial if absent), update them.

    The caller stores ``change.after`` for both; the service does this inside the
    transaction that finishes the game.
    """
    before_a = ratings.get(game.a, _INITIAL)
    before_b = ratings.get(game.b, _INITIAL)
    after_a, after_b = update(before_a, before_b, game.outcome)
    return RatingChange(game.a, before_a, after_a), RatingChange(game.b, before_b, after_b)


def replay(
    results: Iterable[RatedGame],
) -> Iterator[tuple[RatedGame, RatingChange, RatingChange]]:
    """Every game of one server and game, in order, with both players' changes (what a
    rebuild writes as rating history)."""
    ratings: dict[int, Rating] = {}
    for game in results:
        change_a, change_b = apply_game(ratings, game)
        ratings[game.a] = change_a.after
        ratings[game.b] = change_b.after
        yield game, change_a, change_b


def rebuild(results: Iterable[RatedGame]) -> dict[int, Rating]:
    """Every player's rating after ``results`` (one server and game, in update order).

    Equal, floats bit for bit, to applying :func:`apply_game` game by game and storing the
    results, because it performs the same operations in the same order.
    """
    ratings: dict[int, Rating] = {}
    for game in results:
        change_a, change_b = apply_game(ratings, game)
        ratings[game.a] = change_a.after
        ratings[game.b] = change_b.after
    return ratings


PoolKey = tuple[int, str]
"""(guild id, game name): ratings in one never affect another."""


def rebuild_pools(results: Iterable[tuple[PoolKey, RatedGame]]) -> dict[PoolKey, dict[int, Rating]]:
    """:func:`rebuild` for many servers and games at once, from one ordered stream."""
    pools: dict[PoolKey, dict[int, Rating]] = {}
    for key, game in results:
        ratings = pools.setdefault(key, {})
        change_a, change_b = apply_game(ratings, game)
        ratings[game.a] = change_a.after
        ratings[game.b] = change_b.after
    return pools


def outcome_for(winner_id: int | None, a: int, b: int) -> Outcome:
    """``a``'s outcome given the winner's id (None: a draw)."""
    if winner_id is None:
        return "draw"
    if winner_id == a:
        return "win"
    if winner_id == b:
        return "loss"
    raise ValueError(f"the winner {winner_id} is not one of the players {a} and {b}")


def standing_of(user_id: int, rating: Rating, rank: int) -> Standing:
    return Standing(
        user_id=user_id,
        rating=rating.rating,
        uncertainty=rating.uncertainty,
        games=rating.games,
        wins=rating.wins,
        losses=rating.losses,
        draws=rating.draws,
        provisional=rating.provisional,
        rank=rank,
    )


def game_profile(
    game: str,
    user_id: int,
    rating: Rating,
    rank: int,
    history: Iterable[RatingPoint] = (),
) -> GameProfile:
    """A player's :class:`GameProfile` from their stored rating, rank and history points."""
    return GameProfile(
        game=game,
        standing=standing_of(user_id, rating, rank),
        longest_win_streak=rating.best_streak,
        current_win_streak=rating.streak,
        history=tuple(history),
    )


def leaderboard_key(user_id: int, rating: Rating) -> tuple[float, int, int]:
    """Sort key for the leaderboard: highest ``mu`` first, then more games, then the lower
    user id (so ties are ordered the same everywhere; the store's ``ORDER BY mu DESC, games
    DESC, user_id ASC`` is the same order)."""
    return (-rating.mu, -rating.games, user_id)


def standings(
    ratings: Mapping[int, Rating], limit: int | None = None, offset: int = 0
) -> list[Standing]:
    """A leaderboard page from ratings in memory: players without rated games left out,
    ranks counted from 1 over the whole board."""
    if offset < 0 or (limit is not None and limit < 0):
        raise ValueError("limit and offset cannot be negative")
    ordered = sorted(
        ((uid, r) for uid, r in ratings.items() if r.games > 0),
        key=lambda item: leaderboard_key(*item),
    )
    end = None if limit is None else offset + limit
    return [
        standing_of(uid, r, rank)
        for rank, (uid, r) in enumerate(ordered, start=1)
        if rank > offset and (end is None or rank <= end)
    ]


_UNRATED_WHY: dict[UnratedReason, str] = {
    "ratings_off": N_("ratings are turned off in this server"),
    "unrated_game": N_("the game was created unrated"),
    "computer": N_("games against the computer are not rated"),
    "aborted": N_("the game was aborted"),
    "reset": N_("an admin reset this game's ratings since"),
    "before_ratings": N_("it ended before ratings existed"),
}


def unrated_wording(reason: UnratedReason) -> Wording:
    """Why a game is unrated, for a front end to translate (``unrated: <why>`` in English)."""
    if reason == "too_short":
        forms = N_plural("a player made fewer than {n} turn", "a player made fewer than {n} turns")
        return Wording.counted(forms, MIN_TURNS)
    return Wording(_UNRATED_WHY[reason])


def unrated_text(reason: UnratedReason | None) -> str:
    """``rated`` or ``unrated: <why>``, in English (the CLI, logs)."""
    return "rated" if reason is None else f"unrated: {unrated_wording(reason)}"


_RATED_REASONS: frozenset[str] = frozenset(
    {"connection", "draw", "resign", "time", "award", "forfeit"}
)


@dataclass(frozen=True, slots=True)
class RatedVerdict:
    """Whether a finished game changes ratings and, if not, why."""

    rated: bool
    reason: UnratedReason | None = None

    @property
    def text(self) -> str:
        """``rated`` or ``unrated: <why>`` for the game-over message."""
        return unrated_text(self.reason)


def rated_verdict(
    *,
    reason: ResultReason,
    ratings_enabled: bool,
    created_rated: bool,
    against_computer: bool,
    turns_made: tuple[int, int],
) -> RatedVerdict:
    """Whether a game that ended with ``reason`` is rated.

    Checked in this order (the first that applies is the reason shown): the server has
    ratings off; the game was created unrated; one player is the computer; a moderator
    aborted it (``abort``); a player made fewer than :data:`MIN_TURNS` turns (``turns_made``
    counts whole turns per player, a Clear Path chain being one).  Otherwise it is rated:
    connections, draws, resignations, losses on time, and admin awards and forfeits.
    """
    if reason not in _RATED_REASONS and reason != "abort":
        raise ValueError(f"unknown result reason {reason!r:.40}")
    if min(turns_made) < 0:
        raise ValueError("turn counts cannot be negative")
    unrated: UnratedReason | None = None
    if not ratings_enabled:
        unrated = "ratings_off"
    elif not created_rated:
        unrated = "unrated_game"
    elif against_computer:
        unrated = "computer"
    elif reason == "abort":
        unrated = "aborted"
    elif min(turns_made) < MIN_TURNS:
        unrated = "too_short"
    return RatedVerdict(unrated is None, unrated)
