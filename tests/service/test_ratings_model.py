"""The rating model (bot.service.ratings.model): math, scale, ordering, rebuild, and what is rated.

The math is checked three ways: against openskill's own ``rate`` called directly here, against
the Weng-Lin Plackett-Luce formulas written out below (Algorithm 4 of Weng & Lin 2011, as the
library documents it), and against a few values worked by hand from those formulas.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.service.ratings import model as R
from bot.service.ratings.model import RatedGame, Rating
from bot.service.ratings.types import Outcome, RatingPoint

BETA = 25 / 6
TAU = 25 / 300


def formula(a: Rating, b: Rating, outcome: Outcome) -> tuple[tuple[float, float], ...]:
    """Weng-Lin Plackett-Luce for two one-player teams, written out independently.

    Each sigma first grows by tau; c² = Σ(sigma² + beta²); p_i = e^(mu_i/c) / Σ e^(mu_j/c).
    Winner: Ω = (1 − p_w)·σ²/c; loser: Ω = −p_l·σ²/c; draw: Ω_i = (½ − p_i)·σ²/c.  Every
    case: Δ = p_i(1 − p_i)·σ²/c² · (σ/c).  Then mu += Ω and sigma *= sqrt(max(1 − Δ, κ)).
    """
    s2 = [a.sigma**2 + TAU**2, b.sigma**2 + TAU**2]
    c = math.sqrt(s2[0] + s2[1] + 2 * BETA**2)
    ea, eb = math.exp(a.mu / c), math.exp(b.mu / c)
    p = [ea / (ea + eb), eb / (ea + eb)]
    if outcome == "draw":
        factors = [0.5 - p[0], 0.5 - p[1]]
    elif outcome == "win":
        factors = [1 - p[0], -p[1]]
    else:
        factors = [-p[0], 1 - p[1]]
    out = []
    for mu, var, pi, f in zip((a.mu, b.mu), s2, p, factors, strict=True):
        delta = pi * (1 - pi) * var / c**2 * (math.sqrt(var) / c)
        out.append((mu + f * var / c, math.sqrt(var) * math.sqrt(max(1 - delta, 1e-4))))
    return tuple(out)


def library(a: Rating, b: Rating, outcome: Outcome) -> tuple[tuple[float, float], ...]:
    """openskill's own answer, from a fresh model with its defaults."""
    model = PlackettLuce()
    teams = [[model.rating(mu=a.mu, sigma=a.sigma)], [model.rating(mu=b.mu, sigma=b.sigma)]]
    ranks = {"win": [1.0, 2.0], "loss": [2.0, 1.0], "draw": [1.0, 1.0]}[outcome]
    (ra,), (rb,) = model.rate(teams, ranks=ranks)
    return ((ra.mu, ra.sigma), (rb.mu, rb.sigma))


def mu_sigma(*ratings: Rating) -> tuple[tuple[float, float], ...]:
    return tuple((r.mu, r.sigma) for r in ratings)


# --- the model's defaults and the display scale -------------------------------------------


def test_a_new_player_shows_1500_with_a_wide_uncertainty() -> None:
    new = R.initial_rating()
    assert (new.mu, new.sigma) == (25.0, 25 / 3)
    assert new.rating == 1500.0 and new.shown == 1500
    assert new.uncertainty == pytest.approx(245.674, abs=1e-3)
    assert new.games == 0 and new.provisional


def test_the_display_scale_reads_like_elo_for_settled_players() -> None:
    """A 400-point favourite is expected to win 10 games in 11 under the update's likelihood.

    The winner's mu moves by Ω = (1 − p)·σ²/c, so p = 1 − Ω·c/σ²; with tiny sigmas
    c ≈ sqrt(2)·beta, the case the scale was derived for.
    """
    gap = 400 / R.DISPLAY_SCALE
    strong, weak = Rating(mu=25 + gap, sigma=1e-3), Rating(mu=25.0, sigma=1e-3)
    assert strong.rating - weak.rating == pytest.approx(400)
    after, _ = R.update(strong, weak, "win")
    var = strong.sigma**2 + TAU**2
    c = math.sqrt(2 * var + 2 * BETA**2)
    expected_win = 1 - (after.mu - strong.mu) * c / var
    assert expected_win == pytest.approx(10 / 11, abs=1e-3)


# --- the math -------------------------------------------------------------------------------


def test_first_game_between_new_players_matches_the_hand_worked_values() -> None:
    """By hand: σ² = (25/3)² + (25/300)² = 69.4514; c² = 2·69.4514 + 2·(25/6)² = 173.625,
    c = 13.1767; p = ½; Ω = ½·69.4514/13.1767 = 2.63539; Δ = ¼·(69.4514/173.625)·(8.33375/
    13.1767) = 0.063248; σ' = 8.33375·sqrt(1 − 0.063248) = 8.06590."""
    winner, loser = R.update(R.initial_rating(), R.initial_rating(), "win")
    assert winner.mu == pytest.approx(27.635389493140497, rel=1e-12)
    assert loser.mu == pytest.approx(22.364610506859503, rel=1e-12)
    assert winner.sigma == loser.sigma == pytest.approx(8.06590141354368, rel=1e-12)
    assert (winner.shown, loser.shown) == (1578, 1422)
    assert (winner.wins, winner.losses, loser.wins, loser.losses) == (1, 0, 0, 1)


def test_a_draw_between_unequal_players_matches_the_hand_worked_values() -> None:
    """By hand: σa² = 16.00694, σb² = 36.00694, c² = 86.73611, c = 9.31322;
    p_a = 1 / (1 + e^(−10/c)) = 0.745314; Ω_a = (½ − p_a)·16.00694/c = −0.42163;
    Ω_b = (½ − 0.254686)·36.00694/c = +0.94841: the favourite loses points on a draw."""
    a, b = R.update(Rating(30.0, 4.0), Rating(20.0, 6.0), "draw")
    assert a.mu == pytest.approx(29.57838111904535, rel=1e-12)
    assert b.mu == pytest.approx(20.948413838503193, rel=1e-12)
    assert a.sigma == pytest.approx(3.9706488720194377, rel=1e-12)
    assert b.sigma == pytest.approx(5.846261456082412, rel=1e-12)
    assert (a.draws, b.draws, a.games, b.games) == (1, 1, 1, 1)


CASES = [
    (Rating(), Rating(), "win"),
    (Rating(), Rating(), "draw"),
    (Rating(), Rating(), "loss"),
    (Rating(30.0, 4.0), Rating(20.0, 6.0), "draw"),
    (Rating(30.0, 4.0), Rating(20.0, 6.0), "loss"),  # an upset
    (Rating(18.5, 2.5), Rating(33.0, 7.9), "win"),
    (Rating(25.0, 0.9), Rating(25.0, 0.9), "win"),
]


@pytest.mark.parametrize(("a", "b", "outcome"), CASES)
def test_update_gives_exactly_what_openskill_gives(a: Rating, b: Rating, outcome: Outcome) -> None:
    assert mu_sigma(*R.update(a, b, outcome)) == library(a, b, outcome)


@pytest.mark.parametrize(("a", "b", "outcome"), CASES)
def test_update_follows_the_documented_formula(a: Rating, b: Rating, outcome: Outcome) -> None:
    got = mu_sigma(*R.update(a, b, outcome))
    for (mu, sigma), (want_mu, want_sigma) in zip(got, formula(a, b, outcome), strict=True):
        assert mu == pytest.approx(want_mu, rel=1e-12)
        assert sigma == pytest.approx(want_sigma, rel=1e-12)


ratings_st = st.builds(
    Rating,
    mu=st.floats(min_value=0.0, max_value=50.0),
    sigma=st.floats(min_value=0.5, max_value=9.0),
)
outcomes_st = st.sampled_from(R.OUTCOMES)


@settings(max_examples=150, deadline=None)
@given(a=ratings_st, b=ratings_st, outcome=outcomes_st)
def test_any_update_matches_the_formula_and_is_symmetric(
    a: Rating, b: Rating, outcome: Outcome
) -> None:
    got_a, got_b = R.update(a, b, outcome)
    for (mu, sigma), (want_mu, want_sigma) in zip(
        mu_sigma(got_a, got_b), formula(a, b, outcome), strict=True
    ):
        assert mu == pytest.approx(want_mu, rel=1e-9, abs=1e-9)
        assert sigma == pytest.approx(want_sigma, rel=1e-9)
    # The same game told from the other side gives the same floats.
    flipped = {"win": "loss", "loss": "win", "draw": "draw"}[outcome]
    other_b, other_a = R.update(b, a, flipped)  # type: ignore[arg-type]
    assert (other_a, other_b) == (got_a, got_b)
    # Uncertainty never grows by more than tau's push, and the winner never loses points.
    assert got_a.sigma <= math.sqrt(a.sigma**2 + TAU**2)
    if outcome == "win":
        assert got_a.mu > a.mu and got_b.mu < b.mu


def test_draws_move_the_favourite_down_and_leave_equals_where_they_were() -> None:
    even_a, even_b = R.update(Rating(), Rating(), "draw")
    assert even_a.mu == even_b.mu == 25.0
    assert even_a.sigma < Rating().sigma
    fav, dog = R.update(Rating(28.0, 3.0), Rating(22.0, 3.0), "draw")
    assert fav.mu < 28.0 and dog.mu > 22.0
    assert (fav.draws, fav.streak) == (1, 0)


def test_streaks_count_rated_wins_in_a_row() -> None:
    me, them = Rating(), Rating()
    for outcome in ("win", "win", "draw", "win", "win", "win", "loss", "win"):
        me, them = R.update(me, them, outcome)
    assert (me.wins, me.losses, me.draws) == (6, 1, 1)
    assert (me.streak, me.best_streak) == (1, 3)
    assert (them.streak, them.best_streak) == (0, 1)


def test_bad_values_are_refused_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match="outcome must be one of win, loss, draw"):
        R.update(Rating(), Rating(), "tie")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="positive sigma"):
        Rating(25.0, 0.0)
    with pytest.raises(ValueError, match="finite mu"):
        Rating(math.nan, 1.0)
    with pytest.raises(ValueError, match="cannot be negative"):
        Rating(wins=-1)
    with pytest.raises(ValueError, match="two different players"):
        RatedGame(5, 5, "win")
    with pytest.raises(ValueError, match="outcome must be one of"):
        RatedGame(5, 6, "won")  # type: ignore[arg-type]


# --- provisional --------------------------------------------------------------------------


def test_provisional_until_ten_games_or_a_small_uncertainty() -> None:
    assert Rating(wins=9).provisional
    assert not Rating(wins=6, losses=3, draws=1).provisional
    settled_sigma = R.SETTLED_UNCERTAINTY / R.DISPLAY_SCALE
    assert not Rating(sigma=settled_sigma, wins=3).provisional
    assert Rating(sigma=settled_sigma * 1.01, wins=3).provisional
    # Played out: a player stays provisional through nine games against settled opponents.
    me = Rating()
    for n in range(1, 11):
        me, _ = R.update(me, Rating(25.0, 3.0), "win" if n % 2 else "loss")
        assert me.provisional == (n < 10), n


# --- ordering and leaderboard pages ---------------------------------------------------------


def round_robin(players: list[int]) -> list[RatedGame]:
    """Every pair plays twice; the lower index always wins (so strength follows the list)."""
    games = []
    for _ in range(2):
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                games.append(RatedGame(a, b, "win"))
    return games


def test_a_series_of_results_orders_the_board_by_strength() -> None:
    players = [40, 10, 30, 20]  # strongest first
    ratings = R.rebuild(round_robin(players))
    board = R.standings(ratings)
    assert [s.user_id for s in board] == players
    assert [s.rank for s in board] == [1, 2, 3, 4]
    assert [(s.wins, s.losses, s.draws, s.games) for s in board] == [
        (6, 0, 0, 6),
        (4, 2, 0, 6),
        (2, 4, 0, 6),
        (0, 6, 0, 6),
    ]
    assert board[0].rating > 1500 > board[-1].rating
    assert all(s.provisional for s in board)
    assert board[0].rating == ratings[40].rating and board[0].uncertainty == ratings[40].uncertainty


def test_pages_keep_ranks_and_players_without_games_are_left_out() -> None:
    players = list(range(1, 8))
    ratings = R.rebuild(round_robin(players))
    ratings[99] = Rating()  # a row without rated games (e.g. after a reset)
    full = R.standings(ratings)
    assert [s.user_id for s in full] == players
    page = R.standings(ratings, limit=3, offset=3)
    assert [(s.rank, s.user_id) for s in page] == [(4, 4), (5, 5), (6, 6)]
    assert R.standings(ratings, limit=5, offset=10) == []
    with pytest.raises(ValueError, match="cannot be negative"):
        R.standings(ratings, offset=-1)


def test_a_game_profile_carries_rank_record_streaks_and_history() -> None:
    me = Rating()
    for outcome in ("win", "win", "win", "loss", "win"):
        me, _ = R.update(me, Rating(), outcome)
    at = datetime(2026, 3, 1, tzinfo=UTC)
    point = RatingPoint(7, at, me.rating, me.uncertainty)
    got = R.game_profile("minefield", 11, me, 4, [point])
    assert got.standing == R.standing_of(11, me, 4)
    assert (got.standing.rank, got.standing.record, got.standing.games) == (4, "4–1–0", 5)
    assert (got.longest_win_streak, got.current_win_streak) == (3, 1)
    assert got.history == (point,)


def test_ties_are_broken_by_games_then_user_id() -> None:
    same = Rating(26.0, 5.0, wins=1)
    more = Rating(26.0, 5.0, wins=2)
    board = R.standings({7: same, 3: same, 9: more})
    assert [s.user_id for s in board] == [9, 3, 7]


# --- rebuild == incremental -----------------------------------------------------------------


def incremental_through_sqlite(games: Iterable[RatedGame]) -> dict[int, Rating]:
    """What the service does: per finished game read both rows (REAL columns in a real
    SQLite database), update, write back."""
    db = sqlite3.connect(":memory:")
    db.execute(
        "CREATE TABLE ratings (user_id INTEGER PRIMARY KEY, mu REAL NOT NULL, sigma REAL NOT NULL,"
        " wins INTEGER, losses INTEGER, draws INTEGER, streak INTEGER, best_streak INTEGER)"
    )

    def load(uid: int) -> Rating:
        row = db.execute(
            "SELECT mu, sigma, wins, losses, draws, streak, best_streak FROM ratings"
            " WHERE user_id = ?",
            (uid,),
        ).fetchone()
        return R.initial_rating() if row is None else Rating(*row)

    for game in games:
        a, b = R.update(load(game.a), load(game.b), game.outcome)
        for uid, r in ((game.a, a), (game.b, b)):
            db.execute(
                "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (uid, r.mu, r.sigma, r.wins, r.losses, r.draws, r.streak, r.best_streak),
            )
    rows = db.execute("SELECT * FROM ratings").fetchall()
    db.close()
    return {row[0]: Rating(*row[1:]) for row in rows}


def bits(ratings: dict[int, Rating]) -> dict[int, tuple[str, str, int, int, int, int, int]]:
    return {
        uid: (r.mu.hex(), r.sigma.hex(), r.wins, r.losses, r.draws, r.streak, r.best_streak)
        for uid, r in ratings.items()
    }


@st.composite
def histories(draw: st.DrawFn) -> list[RatedGame]:
    n_players = draw(st.integers(min_value=2, max_value=9))
    games = []
    for _ in range(draw(st.integers(min_value=0, max_value=80))):
        a = draw(st.integers(min_value=1, max_value=n_players))
        b = draw(st.integers(min_value=1, max_value=n_players - 1))
        b += b >= a  # any player but a
        games.append(RatedGame(a, b, draw(outcomes_st)))
    return games


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(history=histories())
def test_rebuild_gives_bit_for_bit_what_incremental_updates_gave(
    history: list[RatedGame],
) -> None:
    rebuilt = R.rebuild(history)
    assert bits(rebuilt) == bits(incremental_through_sqlite(history))
    assert rebuilt == R.rebuild(list(history))  # and again: nothing depends on call history
    # replay() walks the same path and ends in the same place.
    last: dict[int, Rating] = {}
    for game, change_a, change_b in R.replay(history):
        assert change_a.before == last.get(game.a, R.initial_rating())
        assert change_b.before == last.get(game.b, R.initial_rating())
        last[game.a], last[game.b] = change_a.after, change_b.after
    assert bits(last) == bits(rebuilt)
    # Every rated game counts once for each of its two players.
    assert sum(r.games for r in rebuilt.values()) == 2 * len(history)


def test_order_matters_so_the_store_must_keep_it() -> None:
    games = [RatedGame(1, 2, "win"), RatedGame(2, 3, "win"), RatedGame(1, 3, "loss")]
    assert R.rebuild(games) != R.rebuild(list(reversed(games)))


def test_pools_never_affect_each_other() -> None:
    minefield = (1000, "minefield")
    crosscut = (1000, "crosscut")
    other_guild = (2000, "minefield")
    stream = [
        (minefield, RatedGame(1, 2, "win")),
        (crosscut, RatedGame(1, 2, "loss")),
        (minefield, RatedGame(2, 3, "draw")),
        (other_guild, RatedGame(1, 3, "win")),
    ]
    pools = R.rebuild_pools(stream)
    for key in (minefield, crosscut, other_guild):
        assert pools[key] == R.rebuild(g for k, g in stream if k == key)
    assert pools[minefield][1].wins == 1 and pools[crosscut][1].losses == 1


def test_a_change_is_shown_as_before_arrow_after_and_delta() -> None:
    change_a, change_b = R.apply_game({}, RatedGame(1, 2, "win"))
    assert change_a.describe("Alice") == "Alice 1500 → 1578, +78"
    assert change_b.describe("Bob") == "Bob 1500 → 1422, -78"
    assert change_a.describe("x" * 300).startswith("x" * 99 + "… 1500")
    # The delta is taken between the shown numbers: 1500.4 → 1510.3 reads "+10", not "+9.9".
    change = R.RatingChange(
        1, Rating(mu=25 + 0.4 / R.DISPLAY_SCALE), Rating(mu=25 + 10.3 / R.DISPLAY_SCALE)
    )
    assert change.describe("Cy") == "Cy 1500 → 1510, +10"


# --- what is rated ------------------------------------------------------------------------


def verdict(**overrides: object) -> R.RatedVerdict:
    args: dict[str, object] = {
        "reason": "connection",
        "ratings_enabled": True,
        "created_rated": True,
        "against_computer": False,
        "turns_made": (5, 5),
    }
    args.update(overrides)
    return R.rated_verdict(**args)  # type: ignore[arg-type]


@pytest.mark.parametrize("reason", ["connection", "draw", "resign", "time", "award", "forfeit"])
def test_normal_endings_are_rated(reason: str) -> None:
    assert verdict(reason=reason) == R.RatedVerdict(True)
    assert verdict(reason=reason).text == "rated"


@pytest.mark.parametrize(
    ("overrides", "why", "text"),
    [
        ({"ratings_enabled": False}, "ratings_off", "unrated: ratings are turned off"),
        ({"created_rated": False}, "unrated_game", "unrated: the game was created unrated"),
        ({"against_computer": True}, "computer", "unrated: games against the computer"),
        ({"reason": "abort"}, "aborted", "unrated: the game was aborted"),
        ({"turns_made": (1, 5)}, "too_short", "unrated: a player made fewer than 2 turns"),
        ({"turns_made": (2, 1), "reason": "time"}, "too_short", "unrated: a player made"),
        ({"turns_made": (0, 0), "reason": "award"}, "too_short", "unrated: a player made"),
    ],
)
def test_unrated_games_say_why(overrides: dict[str, object], why: str, text: str) -> None:
    got = verdict(**overrides)
    assert not got.rated and got.reason == why
    assert got.text.startswith(text)


def test_two_turns_each_is_enough_and_the_first_reason_wins() -> None:
    assert verdict(turns_made=(2, 2)).rated
    assert verdict(reason="abort", turns_made=(0, 0)).reason == "aborted"
    assert verdict(ratings_enabled=False, against_computer=True).reason == "ratings_off"


def test_verdict_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="unknown result reason 'stalemate'"):
        verdict(reason="stalemate")
    with pytest.raises(ValueError, match="cannot be negative"):
        verdict(turns_made=(-1, 3))


def test_outcome_from_the_winner() -> None:
    assert R.outcome_for(7, 7, 8) == "win"
    assert R.outcome_for(8, 7, 8) == "loss"
    assert R.outcome_for(None, 7, 8) == "draw"
    with pytest.raises(ValueError, match="not one of the players"):
        R.outcome_for(9, 7, 8)
