"""Round robins, single and double: the schedule, withdrawals and the standings."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from tourney_sim import expected_order, play_out

from bot.service.tournaments import (
    Entrant,
    Format,
    Outcome,
    Reason,
    Result,
    TournamentConfig,
    forfeits_for,
    new_tournament,
    next_pairings,
    standings,
)
from bot.service.tournaments.roundrobin import round_robin_schedule


def entrants(n: int, rng: random.Random) -> list[Entrant]:
    return [Entrant(i, float(rng.randint(1000, 2000))) for i in range(1, n + 1)]


@pytest.mark.parametrize("n", range(2, 14))
@pytest.mark.parametrize("cycles", [1, 2])
def test_schedule_meets_everyone_with_balanced_seats(n: int, cycles: int) -> None:
    schedule = round_robin_schedule(list(range(n)), cycles)
    meetings = Counter(frozenset((p.first, p.second)) for p in schedule)
    assert set(meetings) == {frozenset(c) for c in itertools.combinations(range(n), 2)}
    assert set(meetings.values()) == {cycles}
    if cycles == 2:
        seats = Counter((p.first, p.second) for p in schedule)
        assert set(seats.values()) == {1}, "each pair plays once from each seat"
    first = Counter(p.first for p in schedule)
    second = Counter(p.second for p in schedule)
    limit = 0 if n % 2 or cycles == 2 else 1
    assert all(abs(first[i] - second[i]) <= limit for i in range(n))
    # Nobody plays twice in a round.
    for _, games in itertools.groupby(schedule, key=lambda p: p.round):
        players = [x for p in games for x in (p.first, p.second)]
        assert len(players) == len(set(players))
    assert max(p.round for p in schedule) == cycles * (n - 1 + n % 2)


@pytest.mark.parametrize("seed", range(12))
def test_simulated_round_robin_standings_match_a_recount(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 11)
    cycles = rng.choice([1, 2])
    state = new_tournament(TournamentConfig(Format.ROUND_ROBIN, cycles=cycles), entrants(n, rng))
    played = play_out(state, rng, withdraw_chance=0.15, draws=0.2)
    final = played.state
    assert len(played.batches) == 1, "a round robin is paired whole, at once"
    assert not final.open_pairings()
    rows = standings(final)
    expected = expected_order(final)
    assert [r.player_id for r in rows] == [e.player for e in expected]
    for row, line in zip(rows, expected, strict=True):
        assert row.points == line.points
        assert row.sonneborn_berger == line.sb
        assert row.head_to_head == line.h2h
        assert row.wins == line.wins


def test_withdrawal_forfeits_every_remaining_game() -> None:
    rng = random.Random(3)
    state = new_tournament(TournamentConfig(Format.ROUND_ROBIN), entrants(6, rng))
    state = state.with_pairings(next_pairings(state))
    first_game = next(p for p in state.pairings if 4 in (p.first, p.second))
    state = state.with_result(Result(first_game.id, Outcome.DRAW, Reason.TIME))
    state = state.with_withdrawal(4)
    forfeits = forfeits_for(state)
    theirs = [p for p in state.open_pairings() if 4 in (p.first, p.second)]
    assert {f.pairing_id for f in forfeits} == {p.id for p in theirs}
    assert len(theirs) == 4
    for forfeit in forfeits:
        state = state.with_result(forfeit)
    row = next(r for r in standings(state) if r.player_id == 4)
    assert (row.points, row.losses, row.draws, row.withdrawn) == (0.5, 4, 1, True)
    assert forfeits_for(state) == ()


def test_tiebreak_order_sonneborn_berger_then_head_to_head() -> None:
    # Three players: 1 beats 2, 2 beats 3, 3 beats 1: all on 1 point, SB all 1: head-to-head
    # among all three is also level, wins are level, so the rating at the start decides.
    state = new_tournament(
        TournamentConfig(Format.ROUND_ROBIN),
        [Entrant(1, 1500), Entrant(2, 1700), Entrant(3, 1600)],
    )
    state = state.with_pairings(next_pairings(state))
    beats = {(1, 2), (2, 3), (3, 1)}
    for p in state.pairings:
        assert p.second is not None
        winner_first = (p.first, p.second) in beats
        outcome = Outcome.FIRST_WINS if winner_first else Outcome.SECOND_WINS
        state = state.with_result(Result(p.id, outcome))
    rows = standings(state)
    assert [r.player_id for r in rows] == [2, 3, 1]
    assert {r.sonneborn_berger for r in rows} == {1.0}
    assert [r.rank for r in rows] == [1, 2, 3]
