"""Bad options and bad records get a clear refusal (an InvalidInput) and change nothing."""

from __future__ import annotations

import pytest

from bot.service.errors import InvalidInput
from bot.service.tournaments import (
    Entrant,
    Format,
    Outcome,
    Pairing,
    Result,
    TournamentConfig,
    TournamentError,
    TournamentState,
    Withdrawal,
    new_tournament,
    next_pairings,
)


def players(n: int) -> list[Entrant]:
    return [Entrant(i, 1500.0) for i in range(1, n + 1)]


@pytest.mark.parametrize(
    ("config", "count", "words"),
    [
        (TournamentConfig(Format.ROUND_ROBIN), 1, "at least two players"),
        (TournamentConfig(Format.SWISS), 0, "at least two players"),
        (TournamentConfig(Format.SWISS, rounds=8), 8, "1 to 7 rounds, not '8'"),
        (TournamentConfig(Format.SWISS, rounds=0), 5, "1 to 5 rounds, not '0'"),
        (TournamentConfig(Format.KNOCKOUT, best_of=2), 4, "odd number of games"),
        (TournamentConfig(Format.KNOCKOUT, best_of=99), 4, "from 1 to 15"),
        (TournamentConfig(Format.ROUND_ROBIN, cycles=3), 4, "single or double"),
    ],
)
def test_bad_options_are_refused_in_words(config: TournamentConfig, count: int, words: str) -> None:
    with pytest.raises(TournamentError, match=words) as caught:
        new_tournament(config, players(count))
    assert isinstance(caught.value, InvalidInput)


def test_duplicate_and_unrated_players() -> None:
    with pytest.raises(TournamentError, match="registered twice"):
        new_tournament(TournamentConfig(Format.SWISS), [Entrant(1, 1.0), Entrant(1, 2.0)])
    with pytest.raises(TournamentError, match="finite rating"):
        new_tournament(TournamentConfig(Format.SWISS), [Entrant(1, 1.0), Entrant(2, float("nan"))])


def test_results_for_no_game_or_twice_are_refused() -> None:
    state = new_tournament(TournamentConfig(Format.SWISS), players(3))
    state = state.with_pairings(next_pairings(state))
    game = next(p for p in state.pairings if p.second is not None)
    bye = next(p for p in state.pairings if p.second is None)
    with pytest.raises(TournamentError, match=r"no game '9\.9\.9'"):
        state.with_result(Result("9.9.9", Outcome.DRAW))
    with pytest.raises(TournamentError, match="no game"):
        state.with_result(Result(bye.id, Outcome.DRAW))
    long_id = "x" * 5000
    with pytest.raises(TournamentError) as caught:
        state.with_result(Result(long_id, Outcome.DRAW))
    assert len(str(caught.value)) < 150
    once = state.with_result(Result(game.id, Outcome.FIRST_WINS))
    with pytest.raises(TournamentError, match="already has a result"):
        once.with_result(Result(game.id, Outcome.DRAW))
    assert state.results == ()


def test_withdrawals_are_checked() -> None:
    state = new_tournament(TournamentConfig(Format.SWISS), players(4))
    with pytest.raises(TournamentError, match="not in this tournament"):
        state.with_withdrawal(99)
    with pytest.raises(TournamentError, match="already withdrawn"):
        state.with_withdrawal(2).with_withdrawal(2)


def test_stored_rows_that_do_not_fit_together_are_refused() -> None:
    state = new_tournament(TournamentConfig(Format.SWISS), players(4))
    state = state.with_pairings(next_pairings(state))
    game = state.pairings[0]
    done = state.with_result(Result(game.id, Outcome.DRAW))
    assert (
        TournamentState(done.config, done.entrants, done.pairings, done.results).validated() == done
    )
    bad = [
        (TournamentState(state.config, state.entrants, state.pairings * 2), "paired twice"),
        (
            TournamentState(state.config, state.entrants, (Pairing(1, 9, 1, 77),)),
            "not entered",
        ),
        (
            TournamentState(state.config, state.entrants, state.pairings, done.results * 2),
            "fits no game",
        ),
        (
            TournamentState(state.config, state.entrants, (), done.results),
            "fits no game",
        ),
        (
            TournamentState(state.config, state.entrants, withdrawals=(Withdrawal(9, 1),)),
            "withdrawal",
        ),
    ]
    for rows, words in bad:
        with pytest.raises(TournamentError, match=words):
            rows.validated()
