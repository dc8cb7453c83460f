"""Single elimination: seeding, byes to the top seeds, best-of matches, deciders, placings."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from tourney_sim import play_out

from bot.service.tournaments import (
    Entrant,
    Format,
    Outcome,
    Result,
    TournamentConfig,
    TournamentState,
    bracket_order,
    matches,
    new_tournament,
    next_pairings,
    standings,
)


def field(n: int) -> list[Entrant]:
    # Ratings deliberately not in id order, so seeding has to sort.
    return [Entrant(i, 1000.0 + (i * 37) % 101) for i in range(1, n + 1)]


def seeds_of(state: TournamentState) -> list[int]:
    return [e.player_id for e in sorted(state.entrants, key=lambda e: (-e.rating, e.player_id))]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32])
def test_bracket_order_keeps_top_seeds_apart(size: int) -> None:
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # Each first-round pair sums to size + 1 (1 v last, 2 v second last, ...).
    assert all(order[k] + order[k + 1] == size + 1 for k in range(0, size, 2))
    # Seeds 1..2^j sit in different sections of size size / 2^j: they meet no earlier than
    # the round that merges those sections.
    for j in range(1, int(math.log2(size)) + 1):
        section = size >> j
        top = [order.index(s) // section for s in range(1, (1 << j) + 1)]
        assert len(set(top)) == len(top)


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 9, 12, 16, 17])
def test_byes_go_to_the_top_seeds(n: int) -> None:
    state = new_tournament(TournamentConfig(Format.KNOCKOUT, seed=n), field(n))
    first = next_pairings(state)
    size = 1 << math.ceil(math.log2(n))
    byes = [p.first for p in first if p.second is None]
    assert sorted(byes, key=seeds_of(state).index) == seeds_of(state)[: size - n]
    assert len(first) == size // 2
    assert sorted(x for p in first for x in p.players()) == list(range(1, n + 1))


@pytest.mark.parametrize("best_of", [1, 3, 5])
@pytest.mark.parametrize("n", [2, 5, 8, 11])
def test_simulated_knockout_has_one_winner(best_of: int, n: int) -> None:
    rng = random.Random(best_of * 100 + n)
    state = new_tournament(TournamentConfig(Format.KNOCKOUT, best_of=best_of, seed=n), field(n))
    played = play_out(state, rng, draws=0.25, withdraw_chance=0.1 if n > 5 else 0.0)
    final = played.state
    all_matches = matches(final)
    rounds = max(m.round for m in all_matches)
    assert rounds == math.ceil(math.log2(n))
    for match in all_matches:
        assert match.winner is not None
        if (
            match.b is None
            or match.winner in final.withdrawn()
            or final.withdrawn().keys()
            & {
                match.a,
                match.b,
            }
        ):
            continue
        need = best_of // 2 + 1
        results = {r.pairing_id: r for r in final.results}
        regular = [g for g in match.games if g.game <= best_of]
        score = {match.a: 0.0, match.b: 0.0}
        for g in regular:
            outcome = results[g.id].outcome
            if outcome is Outcome.DRAW:
                score[g.first] += 0.5
                score[g.second or 0] += 0.5
            else:
                score[g.first if outcome is Outcome.FIRST_WINS else g.second or 0] += 1
        # Seats alternate within the regular games.
        for earlier, later in itertools.pairwise(regular):
            assert (earlier.first, earlier.second) == (later.second, later.first)
        if max(score.values()) >= need:
            # No game past the one that decided it, and its leader won.
            assert len(match.games) == len(regular)
            assert score[match.winner] >= need
            # ... and it was decided only by its last game.
            earlier = {match.a: 0.0, match.b: 0.0}
            for g in regular[:-1]:
                outcome = results[g.id].outcome
                if outcome is Outcome.DRAW:
                    earlier[g.first] += 0.5
                    earlier[g.second or 0] += 0.5
                else:
                    earlier[g.first if outcome is Outcome.FIRST_WINS else g.second or 0] += 1
            assert max(earlier.values()) < need
        else:
            # Level after the regular games: deciders until one is won, which decides.
            assert len(regular) == best_of and score[match.a] == score[match.b]
            deciders = [results[g.id] for g in match.games[best_of:]]
            assert all(r.outcome is Outcome.DRAW for r in deciders[:-1])
            won = match.games[-1]
            assert deciders[-1].outcome is not Outcome.DRAW
            assert match.winner == (
                won.first if deciders[-1].outcome is Outcome.FIRST_WINS else won.second
            )
    rows = standings(final)
    winner = next(m for m in all_matches if m.round == rounds).winner
    assert rows[0].player_id == winner and rows[0].rank == 1
    assert rows[1].rank == 2
    # Semi-final losers share third place (when there was a semi-final and nobody left the
    # bracket, which can turn a semi-final into a walkover).
    if rounds >= 2 and not final.withdrawals:
        assert [r.rank for r in rows[2:4]] == [3, 3]


def test_one_game_match_drawn_goes_to_a_decider() -> None:
    state = new_tournament(TournamentConfig(Format.KNOCKOUT, seed=5), field(2))
    (game,) = next_pairings(state)
    state = state.with_pairings((game,)).with_result(Result(game.id, Outcome.DRAW))
    (decider,) = next_pairings(state)
    assert (decider.round, decider.table, decider.game) == (1, 1, 2)
    state = state.with_pairings((decider,)).with_result(Result(decider.id, Outcome.SECOND_WINS))
    assert next_pairings(state) == ()
    assert standings(state)[0].player_id == decider.second


def test_seats_by_lot_repeat_with_the_seed_and_vary_without_it() -> None:
    firsts = set()
    for seed in range(40):
        state = new_tournament(TournamentConfig(Format.KNOCKOUT, seed=seed), field(8))
        pairings = next_pairings(state)
        assert pairings == next_pairings(state)
        firsts.add(tuple(p.first for p in pairings))
    assert len(firsts) > 1


def test_a_withdrawal_concedes_the_next_match_not_the_one_won() -> None:
    state = new_tournament(TournamentConfig(Format.KNOCKOUT, seed=1), field(4))
    state = state.with_pairings(next_pairings(state))
    for p in state.pairings:
        state = state.with_result(Result(p.id, Outcome.FIRST_WINS))
    round_one = {m.table: m.winner for m in matches(state)}
    leaver = round_one[1]
    assert leaver is not None
    state = state.with_withdrawal(leaver)
    (final,) = next_pairings(state)
    assert final.second is None and final.first == round_one[2], "the other goes through"
    state = state.with_pairings((final,))
    assert {m.table: m.winner for m in matches(state) if m.round == 1} == round_one
    rows = standings(state)
    assert rows[0].player_id == round_one[2] and rows[1].player_id == leaver
    assert next_pairings(state) == ()
