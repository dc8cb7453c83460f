"""Whole tournaments of every format through the service, on both store engines.

Each runs to its end with random endings of every kind (``service_sim``), then its pairings
are checked against its games and its table against a recomputation written in the test.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import networkx
import pytest
from game_fixtures import CHANNEL, GUILD, FakeClock
from service_sim import GAME, ORGANISER, SIZE, check_results, check_table, play_randomly, run

from bot.service import (
    PROVISIONAL_CHANNEL_BASE,
    ChannelBusy,
    GameService,
    PairingInfo,
    TimeControl,
    TournamentInfo,
    is_provisional,
)

pytestmark = pytest.mark.engines("sqlite", "postgresql")

HOUR = TimeControl(per_move=3600)


async def opened(service: GameService, format: str, players: int, **options: Any) -> TournamentInfo:
    t = await service.create_tournament(
        GUILD,
        CHANNEL,
        ORGANISER,
        game=GAME,
        size=SIZE,
        format=format,
        **{"time_control": HOUR, **options},
    )
    for user in range(101, 101 + players):
        t = await service.join_tournament(t.id, user)
    return t


def swiss_checks(pairings: list[PairingInfo]) -> None:
    """No rematch unless every pairing of that round's players without one was impossible;
    at most one bye each; seats balanced."""
    met: set[frozenset[int]] = set()
    for number in sorted({p.round for p in pairings}):
        games = [p for p in pairings if p.round == number and not p.bye]
        pairs = [frozenset((p.first_id, p.second_id)) for p in games]
        if any(pair in met for pair in pairs):
            players = {pid for p in games for pid in (p.first_id, p.second_id) if pid}
            fresh = networkx.Graph()
            fresh.add_nodes_from(players)
            fresh.add_edges_from(
                (a, b) for a in players for b in players if a < b and frozenset((a, b)) not in met
            )
            assert len(networkx.max_weight_matching(fresh, maxcardinality=True)) < len(games)
        met.update(pairs)
    byes = Counter(p.first_id for p in pairings if p.bye)
    assert all(n == 1 for n in byes.values())
    seats: Counter[int] = Counter()
    for p in pairings:
        if p.second_id is not None:
            seats[p.first_id] += 1
            seats[p.second_id] -= 1
    assert all(abs(v) <= 2 for v in seats.values()), seats


@pytest.mark.parametrize(
    ("format", "players", "seed"),
    [
        ("round_robin", 5, 1),
        ("double_round_robin", 4, 2),
        ("swiss", 7, 3),
        ("swiss", 8, 4),
    ],
)
async def test_a_whole_tournament_with_random_results(
    service: GameService, clock: FakeClock, format: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    t = await opened(service, format, players)
    t = await service.start_tournament(t.id, ORGANISER)
    assert t.status == "running" and t.round >= 1 and t.rounds is not None
    first = await service.tournament_games(t.id)
    assert first and all(is_provisional(g.channel_id) for g in first)
    assert all(g.tournament_id == t.id and g.time_control == HOUR for g in first)
    log = await run(service, clock, t.id, rng)
    t = await service.get_tournament(t.id)
    assert t.status == "finished" and t.finished_at is not None
    assert t.round == t.rounds
    pairings = await service.tournaments.tournament_pairings(t.id)
    await check_results(service, t, pairings)
    swiss = format == "swiss"
    rows = await service.tournament_standings(t.id)
    assert sorted(r.user_id for r in rows) == sorted(t.player_ids)
    check_table(rows, pairings, swiss)
    assert all(r.games_left == 0 for r in rows)
    assert {r.user_id for r in rows if r.withdrawn} == set(t.withdrawn_ids) == set(log.withdrawn)
    if swiss:
        swiss_checks(pairings)
        for who, last in log.withdrawn_in.items():  # paired in no later round
            assert all(p.round <= last for p in pairings if who in (p.first_id, p.second_id))
        assert len({p.round for p in pairings}) == t.rounds
    else:
        # A round robin: everyone meets everyone once per cycle, all paired at the start.
        cycles = 2 if format == "double_round_robin" else 1
        met = Counter(frozenset((p.first_id, p.second_id)) for p in pairings if not p.bye)
        assert len(met) == players * (players - 1) // 2
        assert set(met.values()) == {cycles}
        assert len(first) == sum(met.values())
    assert log.endings["time"] > 0 and log.endings["award"] + log.endings["draw"] > 0
    assert len(log.withdrawn) == 1


async def test_a_withdrawn_player_forfeits_every_round_robin_game_left(
    service: GameService,
) -> None:
    t = await opened(service, "round_robin", 4)
    t = await service.start_tournament(t.id, ORGANISER)
    games = await service.tournament_games(t.id)
    one = games[0]
    await service.resign(one.channel_id, one.seats[1].user_id)
    leaver = one.seats[1].user_id
    t = await service.tournaments.withdraw_from_tournament(t.id, leaver, leaver)
    assert t.withdrawn_ids == (leaver,)
    pairings = await service.tournaments.tournament_pairings(t.id)
    theirs = [p for p in pairings if leaver in (p.first_id, p.second_id)]
    assert len(theirs) == 3
    assert sum(p.reason == "forfeit" for p in theirs) == 2
    for p in theirs:
        if p.reason == "forfeit":
            lost = "0-1" if p.first_id == leaver else "1-0"
            assert p.result == lost
            game = await service.get_game_by_id(p.game_id or 0)
            assert game.result is not None and game.result.reason == "forfeit"
    rows = {r.user_id: r for r in await service.tournament_standings(t.id)}
    assert rows[leaver].withdrawn and rows[leaver].games_left == 0
    with pytest.raises(Exception, match="already withdrawn"):
        await service.tournaments.withdraw_from_tournament(t.id, leaver, ORGANISER)


@pytest.mark.parametrize(("players", "best_of"), [(6, 1), (5, 3)])
async def test_a_knockout_seeds_byes_and_plays_matches_to_a_winner(
    service: GameService, clock: FakeClock, players: int, best_of: int
) -> None:
    t = await opened(service, "knockout", players, match_games=best_of)
    t = await service.start_tournament(t.id, ORGANISER)
    assert t.rounds == 3
    round_one = await service.tournaments.tournament_pairings(t.id, 1)
    byes = sorted(p.first_id for p in round_one if p.bye)
    # Equal ratings: the seeds follow registration (the lowest ids), and the byes go to them.
    assert byes == list(range(101, 101 + 8 - players))
    log = await run(service, clock, t.id, random.Random(players), withdrawals=0)
    t = await service.get_tournament(t.id)
    assert t.status == "finished"
    pairings = await service.tournaments.tournament_pairings(t.id)
    await check_results(service, t, pairings)
    rows = await service.tournament_standings(t.id)
    check_table(rows, pairings, False, ordered=False)
    champion = rows[0]
    assert champion.rank == 1 and [r.rank for r in rows].count(1) == 1
    final = [p for p in pairings if p.round == 3]
    assert final and all(champion.user_id in (p.first_id, p.second_id) for p in final)
    if best_of > 1:
        # Seats alternate within a match.
        matches: dict[tuple[int, int], list[PairingInfo]] = {}
        for p in pairings:
            if not p.bye:
                matches.setdefault((p.round, p.table), []).append(p)
        for games in matches.values():
            games.sort(key=lambda p: p.game_no)
            for a, b in itertools.pairwise(games):
                if b.game_no <= best_of:
                    assert b.first_id == a.second_id
    assert sum(log.endings.values()) > 0


async def test_a_league_splits_divisions_promotes_and_opens_the_next_season(
    service: GameService, clock: FakeClock
) -> None:
    t = await opened(service, "league", 9, division_size=4)
    t = await service.start_tournament(t.id, ORGANISER)
    rows = await service.tournament_standings(t.id)
    sizes = Counter(r.division for r in rows)
    assert sorted(sizes.values()) == [3, 3, 3]
    # All of a division's games at once: every round is paired at the start.
    pairings = await service.tournaments.tournament_pairings(t.id)
    assert all(p.game_id is not None or p.bye for p in pairings)
    assert t.round == t.rounds == max(p.round for p in pairings)
    await run(service, clock, t.id, random.Random(9), withdrawals=0)
    one = await service.get_tournament(t.id)
    assert one.status == "finished"
    pairings = await service.tournaments.tournament_pairings(t.id)
    await check_results(service, one, pairings)
    final = await service.tournament_standings(t.id)
    check_table(final, pairings, False)
    (two,) = await service.tournaments.list_tournaments(GUILD, status="registration")
    assert two.league_id == t.id and two.season == 2 and two.format == "league"
    assert set(two.player_ids) == set(one.player_ids)
    two = await service.start_tournament(two.id, ORGANISER)
    placed = {r.user_id: r.division for r in await service.tournament_standings(two.id)}
    orders: dict[int, list[int]] = {}
    for row in final:
        orders.setdefault(row.division, []).append(row.user_id)
    # Divisions of three: one goes up from each but the top, one down from each but the last.
    for division, order in orders.items():
        top, bottom = order[0], order[-1]
        if division > 1:
            assert placed[top] == division - 1, (division, order)
        if division < 3:
            assert placed[bottom] == division + 1, (division, order)
    # Season two with a withdrawal: season three carries everyone else, takes a newcomer.
    log = await run(service, clock, two.id, random.Random(10))
    two = await service.get_tournament(two.id)
    assert two.status == "finished" and two.withdrawn_ids == tuple(log.withdrawn)
    (three,) = await service.tournaments.list_tournaments(GUILD, status="registration")
    assert three.season == 3 and three.league_id == t.id
    assert set(three.player_ids) == set(two.player_ids) - set(two.withdrawn_ids)
    newcomer = 500
    three = await service.join_tournament(three.id, newcomer)
    leaver = three.player_ids[0]
    three = await service.tournaments.leave_tournament(three.id, leaver)
    three = await service.start_tournament(three.id, ORGANISER)
    placed = {r.user_id: r.division for r in await service.tournament_standings(three.id)}
    assert newcomer in placed and leaver not in placed and len(placed) == 8


async def test_bad_input_is_refused_with_a_reason_and_changes_nothing(
    service: GameService, snapshot: Callable[[], object]
) -> None:
    t = await opened(service, "swiss", 3, max_players=4)
    before = snapshot()
    refusals: list[tuple[Any, str]] = [
        (service.join_tournament(t.id, 101), "already registered"),
        (service.tournaments.leave_tournament(t.id, 999), "not registered"),
        (
            service.tournaments.withdraw_from_tournament(t.id, 999, ORGANISER),
            "not in this tournament",
        ),
        (service.start_tournament(t.id, 101), "organiser"),
        (service.get_tournament(t.id + 1000), "no tournament"),
        (
            service.create_tournament(
                GUILD, CHANNEL, ORGANISER, game=GAME, size=999, format="swiss"
            ),
            "boards from 4",
        ),
        (
            service.create_tournament(
                GUILD, CHANNEL, ORGANISER, game=GAME, format="swiss", rounds=5, max_players=4
            ),
            "at most 3 rounds",
        ),
        (  # huge values were accepted here and refused only at start
            service.create_tournament(
                GUILD, CHANNEL, ORGANISER, game=GAME, format="swiss", rounds=10**9
            ),
            "at most 4095 rounds",
        ),
        (
            service.create_tournament(
                GUILD, CHANNEL, ORGANISER, game=GAME, format="swiss", min_players=10**9
            ),
            "at most 4096 players, so its minimum",
        ),
        (
            service.create_tournament(GUILD, CHANNEL, ORGANISER, game=GAME, format="ladder"),
            "format must be one of",
        ),
        (
            service.create_tournament(
                GUILD, CHANNEL, ORGANISER, game=GAME, format="swiss", max_players=1
            ),
            "at least two players",
        ),
        (
            service.create_tournament(
                GUILD, CHANNEL, ORGANISER, game=GAME, format="knockout", match_games=2
            ),
            "odd number",
        ),
        (
            service.create_tournament(GUILD, CHANNEL, ORGANISER, game="x" * 500, format="swiss"),
            "too long",
        ),
    ]
    for call, words in refusals:
        with pytest.raises(Exception, match=words) as caught:
            await call
        assert len(str(caught.value)) < 300
        assert snapshot() == before
    # Full; then a Swiss with more rounds than its field allows; then a tournament of one.
    await service.join_tournament(t.id, 104)
    with pytest.raises(Exception, match="full"):
        await service.join_tournament(t.id, 105)
    many = await opened(service, "swiss", 4, rounds=5)
    before = snapshot()
    with pytest.raises(Exception, match="1 to 3 rounds"):
        await service.start_tournament(many.id, ORGANISER)
    assert snapshot() == before
    alone = await opened(service, "round_robin", 1)
    before = snapshot()
    with pytest.raises(Exception, match="at least 2 players"):
        await service.start_tournament(alone.id, ORGANISER)
    assert snapshot() == before
    started = await service.start_tournament(t.id, ORGANISER)
    before = snapshot()
    with pytest.raises(Exception, match="Registration is closed"):
        await service.join_tournament(started.id, 106)
    with pytest.raises(Exception, match="already started"):
        await service.start_tournament(started.id, ORGANISER)
    with pytest.raises(Exception, match="withdraw"):
        await service.tournaments.leave_tournament(started.id, 101)
    assert snapshot() == before


async def test_threads_attach_once_and_the_sweep_starts_on_the_deadline(
    service: GameService, clock: FakeClock
) -> None:
    deadline = clock.now.replace(hour=18)
    t = await opened(service, "swiss", 4, registration_deadline=deadline)
    short = await opened(service, "swiss", 1, registration_deadline=deadline, min_players=2)
    assert await service.tournaments.sweep_tournaments() == []
    clock.now = deadline
    done = {s.tournament.id: s for s in await service.tournaments.sweep_tournaments()}
    assert done[t.id].kind == "started" and done[t.id].tournament.status == "running"
    assert done[short.id].kind == "cancelled" and "1 of the 2" in str(done[short.id].reason)
    assert await service.tournaments.sweep_tournaments() == []
    waiting = await service.tournaments.games_awaiting_channel(t.id)
    assert len(waiting) == 2
    thread = 5000
    attached = await service.tournaments.attach_game_channel(waiting[0].id, thread)
    assert attached.channel_id == thread
    assert (
        await service.tournaments.attach_game_channel(waiting[0].id, thread)
    ).channel_id == thread
    with pytest.raises(Exception, match="already has its thread"):
        await service.tournaments.attach_game_channel(waiting[0].id, thread + 1)
    with pytest.raises(ChannelBusy, match="already has a game"):
        await service.tournaments.attach_game_channel(waiting[1].id, thread)  # the thread is taken
    assert [g.id for g in await service.tournaments.games_awaiting_channel(t.id)] == [waiting[1].id]
    assert waiting[1].channel_id > PROVISIONAL_CHANNEL_BASE
    # Play goes on in the thread like any game.
    await service.resign(thread, attached.seats[0].user_id)
    await service.tournaments.set_tournament_message(t.id, 777)
    assert (await service.get_tournament(t.id)).message_id == 777
    assert len((await service.get_tournament(t.id)).web_token) == 32
    roles = await service.tournaments.set_tournament_creator_roles(GUILD, [3, 1, 3], ORGANISER)
    assert roles == (1, 3) == await service.tournaments.tournament_creator_roles(GUILD)


async def test_an_aborted_game_is_replayed_and_a_cancelled_tournament_stops(
    service: GameService,
) -> None:
    t = await opened(service, "swiss", 4)
    assert not await service.tournaments.claim_tournament_podium(t.id)  # not finished
    t = await service.start_tournament(t.id, ORGANISER)
    game = (await service.tournament_games(t.id))[0]
    await service.moderation.admin_abort(GUILD, ORGANISER, game.channel_id)
    again = await service.tournament_games(t.id)
    assert len(again) == 3 and again[-1].is_active
    assert {s.user_id for s in again[-1].seats} == {s.user_id for s in game.seats}
    t = await service.tournaments.cancel_tournament(t.id, ORGANISER)
    assert t.status == "cancelled"
    assert not [g for g in await service.tournament_games(t.id) if g.is_active]


@pytest.mark.parametrize("rated", [True, False])
async def test_tournament_games_are_rated_when_the_tournament_is(
    service: GameService, rated: bool
) -> None:
    t = await opened(service, "round_robin", 2, rated=rated)
    t = await service.start_tournament(t.id, ORGANISER)
    (game,) = await service.tournament_games(t.id)
    assert game.rated is rated
    await play_randomly(service, game, random.Random(2))
    ended = await service.get_game_by_id(game.id)
    assert ended.result is not None and ended.result.reason == "connection"
    board = await service.leaderboard(GUILD, GAME)
    assert bool(board) is rated
    assert (await service.get_tournament(t.id)).status == "finished"
    # The podium is announced once: the sweep lists it until one caller claims it.
    (update,) = await service.tournaments.sweep_tournaments()
    assert update.kind == "finished" and update.tournament.id == t.id
    assert [await service.tournaments.claim_tournament_podium(t.id) for _ in range(3)] == [
        True,
        False,
        False,
    ]
    assert await service.tournaments.sweep_tournaments() == []


BANK = TimeControl.bank_of(3 * 86400, 86400, 5 * 86400)


async def test_a_bank_tournament_gives_every_game_the_bank(
    service: GameService, clock: FakeClock
) -> None:
    t = await opened(service, "swiss", 4, time_control=BANK)
    assert t.time_control == BANK
    t = await service.start_tournament(t.id, ORGANISER)
    assert (await service.get_tournament(t.id)).time_control == BANK  # read back as stored
    games = await service.tournament_games(t.id)
    assert len(games) == 2
    for game in games:
        assert game.time_control == BANK
        assert game.time_left == dict.fromkeys(game.player_ids, 3 * 86400)
    # The bank counts down only for the player to move, and gets its increment.
    game = games[0]
    assert game.to_move_id is not None
    mover = game.to_move_id
    [waiting] = [p for p in game.player_ids if p != mover]
    clock.advance(hours=10)
    position = await service.position(game.id)
    moved = await service.play_move(game.channel_id, mover, position.legal_moves()[0])
    assert moved.game.time_left == {mover: 4 * 86400 - 10 * 3600, waiting: 3 * 86400}


async def test_a_tournament_without_a_clock_takes_the_servers_default(
    service: GameService,
) -> None:
    """A new server's default is the bank; an admin's choice (untimed here) is taken too."""
    t = await service.create_tournament(
        GUILD, CHANNEL, ORGANISER, game=GAME, size=SIZE, format="round_robin"
    )
    assert t.time_control == BANK
    for user in (101, 102):
        await service.join_tournament(t.id, user)
    await service.start_tournament(t.id, ORGANISER)
    (game,) = await service.tournament_games(t.id)
    assert game.time_control == BANK and game.time_left is not None
    await service.moderation.update_settings(GUILD, ORGANISER, default_time_control="none")
    untimed = await service.create_tournament(
        GUILD, CHANNEL, ORGANISER, game=GAME, size=SIZE, format="round_robin"
    )
    assert untimed.time_control == TimeControl()


async def test_a_leagues_next_season_keeps_its_bank(service: GameService) -> None:
    t = await opened(service, "league", 2, time_control=BANK)
    t = await service.start_tournament(t.id, ORGANISER)
    (game,) = await service.tournament_games(t.id)
    assert game.time_control == BANK
    await service.resign(game.channel_id, game.player_ids[0])
    assert (await service.get_tournament(t.id)).status == "finished"
    [two] = await service.tournaments.list_tournaments(GUILD, status="registration")
    assert two.season == 2 and two.time_control == BANK


async def test_standings_show_ratings_on_the_leaderboards_scale(service: GameService) -> None:
    """New players start at 1500, as the leaderboard shows them, not openskill's raw 25."""
    t = await opened(service, "round_robin", 4)
    t = await service.start_tournament(t.id, ORGANISER)
    rows = await service.tournament_standings(t.id)
    assert rows and {r.tiebreaks["rating"] for r in rows} == {1500.0}
