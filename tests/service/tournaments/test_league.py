"""League seasons: divisions by rating, promotion and relegation over two seasons."""

from __future__ import annotations

import random

import pytest
from tourney_sim import play_out

from bot.service.tournaments import (
    Division,
    LeagueMember,
    TournamentError,
    division_tournament,
    next_season,
    season_moves,
    split_divisions,
    standings,
)


def members(n: int, rng: random.Random) -> list[LeagueMember]:
    return [LeagueMember(i, float(rng.randint(800, 2400))) for i in range(1, n + 1)]


@pytest.mark.parametrize("n", [2, 9, 10, 11, 23, 40, 101])
@pytest.mark.parametrize("size", [4, 10, 12])
def test_split_by_rating_into_even_divisions(n: int, size: int) -> None:
    rng = random.Random(n * size)
    league = members(n, rng)
    divisions = split_divisions(league, size)
    sizes = [len(d.players) for d in divisions]
    assert max(sizes) <= size and min(sizes) >= 2
    assert max(sizes) - min(sizes) <= 1
    assert len(divisions) == -(-n // size)
    rating = {m.player_id: m.rating for m in league}
    flat = [pid for d in divisions for pid in d.players]
    assert sorted(flat) == list(range(1, n + 1))
    assert [rating[p] for p in flat] == sorted(rating.values(), reverse=True)
    assert [d.level for d in divisions] == list(range(1, len(divisions) + 1))


def play_season(
    divisions: tuple[Division, ...], rating: dict[int, float], rng: random.Random
) -> list[list[int]]:
    finishing = []
    for division in divisions:
        state = division_tournament(division, rating, seed=division.level)
        final = play_out(state, rng, draws=0.15).state
        assert not final.open_pairings()
        finishing.append([row.player_id for row in standings(final)])
    return finishing


def test_two_seasons_of_promotion_and_relegation() -> None:
    rng = random.Random(7)
    league = members(34, rng)
    rating = {m.player_id: m.rating for m in league}
    divisions = split_divisions(league)
    for season in range(2):
        finishing = play_season(divisions, rating, rng)
        leaving = {finishing[1][3]} if season == 0 else set()
        joining = [LeagueMember(100, 2500.0), LeagueMember(101, 100.0)] if season == 0 else []
        nxt = next_season(finishing, rating, leaving, joining)
        for m in joining:
            rating[m.player_id] = m.rating
        where = {pid: d.level for d in nxt for pid in d.players}
        # By hand: top two of every division but the first go up, bottom two of every
        # division but the last go down, everyone else stays.
        last = len(finishing)
        for level, order in enumerate(finishing, start=1):
            for place, pid in enumerate(order):
                if pid in leaving:
                    assert pid not in where
                    continue
                expected = level
                if place < 2 and level > 1:
                    expected -= 1
                elif place >= len(order) - 2 and level < last:
                    expected += 1
                assert where[pid] == expected, (season, level, place)
        if joining:
            assert where[100] == 1 and where[101] == last
        assert sum(len(d.players) for d in nxt) == len(where)
        for d in nxt:
            assert [rating[p] for p in d.players] == sorted(
                (rating[p] for p in d.players), reverse=True
            )
        divisions = nxt


def test_small_divisions_move_one_each_way() -> None:
    moves = season_moves([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    assert moves.promoted == {4, 7} and moves.relegated == {3, 6}


def test_leavers_and_newcomers_recut_the_league() -> None:
    rating = {pid: 3000.0 - pid for pid in range(1, 21)}
    # Four leave a league of 14: ten remain, one division is enough.
    nxt = next_season([list(range(1, 11)), list(range(11, 15))], rating, set(range(3, 7)))
    assert [len(d.players) for d in nxt] == [10]
    # Three strong newcomers overfill the top division: the league is cut into three even
    # divisions, keeping its order (division first, then rating).
    joining = [LeagueMember(pid, 5000.0 - pid) for pid in (21, 22, 23)]
    nxt = next_season([list(range(1, 11)), list(range(11, 21))], rating, (), joining)
    assert [len(d.players) for d in nxt] == [8, 8, 7]
    assert nxt[0].players[:3] == (21, 22, 23)
    # Seven leave the top division: two divisions are still needed and neither is
    # under-filled, so they stay as promotion and relegation left them, uneven or not.
    nxt = next_season([list(range(1, 11)), list(range(11, 21))], rating, set(range(3, 10)))
    assert [len(d.players) for d in nxt] == [4, 9]


def test_refusals() -> None:
    with pytest.raises(TournamentError, match="at least two"):
        split_divisions([LeagueMember(1, 1500)])
    with pytest.raises(TournamentError, match="division holds"):
        split_divisions(members(5, random.Random(1)), size=2)
    with pytest.raises(TournamentError, match="already in the league"):
        next_season([[1, 2]], {1: 1.0, 2: 2.0}, joining=[LeagueMember(2, 5.0)])
