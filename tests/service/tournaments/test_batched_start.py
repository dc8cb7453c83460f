"""Starting a large round robin (issue 46): the games are created in multi-row inserts and over
several short transactions, yet a start stores exactly the pairings, games and events one game
at a time would, pauses the games of players on vacation, and survives an interruption between
its transactions (a resume neither loses nor doubles a game)."""

from __future__ import annotations

import math
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import pytest
from game_fixtures import CHANNEL, GUILD, FakeClock

from bot.service import GameService, InvalidInput, RoundPaired, StaleAction, TournamentError
from bot.service.convert import to_us
from bot.service.tournaments import next_pairings
from bot.service.tournaments.tables import (
    _GAMES_PER_TOURNAMENT,
    PROVISIONAL_CHANNEL_BASE,
    _states,
)
from bot.store import GameRow, PairingRow, Store
from rules import new_game

pytestmark = pytest.mark.engines("sqlite", "postgresql")

ORGANISER = 900


def count_writes(store: Any) -> list[float]:
    """Time every write block of ``store`` from now on (seconds, entered to committed)."""
    spans: list[float] = []
    original = store.write

    @asynccontextmanager
    async def write(*args: Any, **options: Any) -> AsyncIterator[Any]:
        start = time.perf_counter()
        try:
            async with original(*args, **options) as tx:
                yield tx
        finally:
            spans.append(time.perf_counter() - start)

    store.write = write
    return spans


async def open_round_robin(
    service: GameService, players: int, *, public: bool = False, first: int = 101
) -> int:
    t = await service.create_tournament(
        GUILD,
        CHANNEL,
        ORGANISER,
        game="minefield",
        size=5,
        format="round_robin",
        public=public,
        max_players=players,
    )
    for user in range(first, first + players):
        await service.join_tournament(t.id, user)
    return t.id


async def stored(store: Store, tid: int) -> tuple[list[PairingRow], list[GameRow], dict[int, Any]]:
    async with store.read() as tx:
        pairings = await tx.tournaments.pairings(tid)
        games = await tx.tournaments.tournament_games(tid)
        events = {g.id: await tx.games.events(g.id) for g in games}
    return pairings, games, events


def check_start(
    pairings: list[PairingRow],
    games: list[GameRow],
    events: dict[int, Any],
    expected: list[tuple[int, int, int, int | None]],
    *,
    tid: int,
    at: Callable[[int], int],
    away: dict[int, int],
) -> None:
    """What a start one game at a time stores: each expected pairing once, each pairing of two
    players with a game of its own (first seat to move, the game's start position, a provisional
    channel, paused while either player is away), and one ``started`` event per game;
    ``at(game_id)``: when it was made."""
    assert [(p.round, p.tbl, p.first_id, p.second_id) for p in pairings] == expected
    by_id = {g.id: g for g in games}
    played = [p for p in pairings if p.second_id is not None]
    assert sorted(p.game_id for p in played if p.game_id) == sorted(by_id)
    assert len(by_id) == len(played), "one game per pairing of two players, none twice"
    assert all(p.game_id is None for p in pairings if p.second_id is None), "a bye has no game"
    fresh = new_game("minefield", 5)
    base = PROVISIONAL_CHANNEL_BASE + tid * _GAMES_PER_TOURNAMENT
    assert sorted(g.channel_id for g in games) == [base + n for n in range(1, len(games) + 1)]
    for p in played:
        assert p.game_id is not None and p.outcome is None
        g = by_id[p.game_id]
        assert (g.first_id, g.second_id, g.to_move_id) == (p.first_id, p.second_id, p.first_id)
        assert (g.status, g.version, g.tournament_id) == ("active", 0, tid)
        assert (g.record, g.to_move, g.created_at) == (fresh.record(), fresh.to_move, at(g.id))
        pause = max((away[u] for u in (p.first_id, p.second_id) if u in away), default=None)
        assert g.paused_until == pause, (p, g.paused_until)
        assert [(e.kind, e.at, e.user_id, e.detail) for e in events[g.id]] == [
            ("started", at(g.id), None, f"tournament {tid}")
        ]


async def expected_schedule(store: Store, tid: int) -> list[tuple[int, int, int, int | None]]:
    """The pure core's round robin for the entrants as the start stored them (seeded by the
    ratings it fixed), in the stored pairings' order."""
    async with store.read() as tx:
        t = await tx.tournaments.tournament(tid, lock=False)
        entrants = await tx.tournaments.entrants(tid)
    assert t is not None
    (state,) = _states(t, entrants, []).values()
    return sorted((p.round, p.table, p.first, p.second) for p in next_pairings(state))


@pytest.mark.parametrize("batch", [2000, 4])
async def test_a_start_stores_what_one_game_at_a_time_would(
    service: GameService, store: Store, clock: FakeClock, batch: int
) -> None:
    """Seven players (a bye each round), two of them away: the same rows whether the games are
    made in one transaction or four at a time."""
    service.tournaments.rounds.batch = batch
    tid = await open_round_robin(service, 7, public=True)
    back = {102: clock.now + timedelta(days=3), 105: clock.now + timedelta(days=5)}
    for user, until in back.items():
        await service.start_vacation(user, (until - clock.now).days)
    paired: list[RoundPaired] = []
    service.events.subscribe(RoundPaired, paired.append)
    spans = count_writes(store)
    info = await service.start_tournament(tid, ORGANISER)
    pairings, games, events = await stored(store, tid)
    assert info.status == "running" and info.rounds == 7 and info.round == 7
    check_start(
        pairings,
        games,
        events,
        await expected_schedule(store, tid),
        tid=tid,
        at=lambda _: to_us(clock.now),
        away={u: to_us(v) for u, v in back.items()},
    )
    assert len(games) == 21
    assert {g.web_token is not None and g.first_name is not None for g in games} == {True}
    # Each transaction made at most a batch of games, and together every game exactly once.
    assert all(len(e.game_ids) <= batch for e in paired)
    assert sorted(i for e in paired for i in e.game_ids) == sorted(g.id for g in games)
    assert len(spans) == 1 + max(0, math.ceil((21 - batch) / batch))
    async with store.read() as tx:
        assert await tx.tournaments.pending_pairings(tid, 100) == []
        t = await tx.tournaments.tournament(tid, lock=False)
    assert t is not None and t.games_made == 21


async def test_an_interrupted_start_is_resumed_by_the_sweep_exactly_once(
    service: GameService, store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process stops after the start's first transaction, then a later batch fails half
    way (rolled back): the sweep after the restart makes every missing game once, and a
    second sweep, or a second process's, makes nothing more."""
    rounds = service.tournaments.rounds
    rounds.batch = 5
    tid = await open_round_robin(service, 8)
    started = to_us(clock.now)
    real = service.tournaments.create_pending_games

    async def stopped(tournament_id: int, now: Any) -> int:
        return 0  # the process died before its next transaction

    monkeypatch.setattr(service.tournaments, "create_pending_games", stopped)
    await service.start_tournament(tid, ORGANISER)
    pairings, games, _ = await stored(store, tid)
    assert len(pairings) == 28 and len(games) == 5
    first = {g.id for g in games}
    assert len([p for p in pairings if p.game_id is None]) == 23
    monkeypatch.setattr(service.tournaments, "create_pending_games", real)

    # A batch that fails after storing its games leaves nothing of them.
    original = rounds.create_games

    async def failing(*args: Any, **kwargs: Any) -> Any:
        await original(*args, **kwargs)
        raise StaleAction("the store went away mid-batch")

    monkeypatch.setattr(rounds, "create_games", failing)
    with pytest.raises(StaleAction):
        await service.tournaments.sweep_tournaments()
    monkeypatch.setattr(rounds, "create_games", original)
    assert len((await stored(store, tid))[1]) == 5

    clock.advance(minutes=1)
    await service.tournaments.sweep_tournaments()
    after = await stored(store, tid)
    resumed = to_us(clock.now)  # games made by the resume carry its time
    check_start(
        *after,
        await expected_schedule(store, tid),
        tid=tid,
        at=lambda game_id: started if game_id in first else resumed,
        away={},
    )
    assert len(after[1]) == 28

    other = GameService(store, clock=clock, rng=random.Random(2))
    await other.tournaments.sweep_tournaments()
    await service.tournaments.sweep_tournaments()
    assert await other.tournaments.create_pending_games(tid) == 0
    assert await stored(store, tid) == after
    with pytest.raises(TournamentError):
        await service.tournaments.create_pending_games(tid + 1)
    with pytest.raises(InvalidInput):
        await service.tournaments.create_pending_games(0)


async def test_a_withdrawal_between_batches_forfeits_the_games_not_yet_made(
    service: GameService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    rounds = service.tournaments.rounds
    rounds.batch = 4
    tid = await open_round_robin(service, 6)

    async def stopped(tournament_id: int, now: Any) -> int:
        return 0

    real = service.tournaments.create_pending_games
    monkeypatch.setattr(service.tournaments, "create_pending_games", stopped)
    await service.start_tournament(tid, ORGANISER)
    monkeypatch.setattr(service.tournaments, "create_pending_games", real)
    await service.tournaments.withdraw_from_tournament(tid, 106, 106)
    await service.tournaments.sweep_tournaments()
    pairings, games, _ = await stored(store, tid)
    mine = [p for p in pairings if 106 in (p.first_id, p.second_id)]
    assert len(mine) == 5 and all(p.outcome is not None for p in mine)
    assert not any(106 in (g.first_id, g.second_id) and g.status == "active" for g in games)
    assert all(p.game_id is not None for p in pairings if p.outcome is None)
    assert len([p for p in pairings if p.outcome is None]) == 10  # the five others' games


@pytest.mark.engines("postgresql")
async def test_a_260_player_round_robin_starts_on_postgresql(
    service: GameService, store: Store
) -> None:
    """33,670 games: more ids than one PostgreSQL statement may carry, in short transactions."""
    tid = await open_round_robin(service, 260, first=10_001)
    spans = count_writes(store)
    info = await service.start_tournament(tid, ORGANISER)
    assert info.rounds == 259
    async with store.read() as tx:
        pairings = await tx.tournaments.pairings(tid)
        games = await tx.tournaments.tournament_games(tid)
        assert await tx.tournaments.pending_pairings(tid, 1) == []
    assert len(pairings) == len(games) == 260 * 259 // 2
    assert len({p.game_id for p in pairings}) == len(games)
    batch = service.tournaments.rounds.batch
    assert len(spans) == 1 + math.ceil((len(games) - batch) / batch)
