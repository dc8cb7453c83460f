"""The tournament tables on both engines: their keys refuse a round or pairing made twice,
versioned updates refuse a stale row, and ``crosspath db copy`` carries them with their ids."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from game_fixtures import CHANNEL, GUILD, FakeClock

from bot.service import GameService
from bot.store import (
    PairingRow,
    RoundRow,
    Store,
    StoreError,
    WriteConflict,
    open_store,
)

ORGANISER = 900


async def running(store: Store, clock: FakeClock) -> int:
    """A four-player Swiss with its first round paired and one game over."""
    service = GameService(store, clock=clock, rng=random.Random(4))
    t = await service.create_tournament(
        GUILD, CHANNEL, ORGANISER, game="minefield", size=5, format="swiss", max_players=8
    )
    for user in (101, 102, 103, 104):
        await service.join_tournament(t.id, user)
    await service.start_tournament(t.id, ORGANISER)
    game = (await service.tournament_games(t.id))[0]
    await service.resign(game.channel_id, game.seats[0].user_id)
    await service.tournaments.set_tournament_creator_roles(GUILD, [7, 8], ORGANISER)
    return t.id


async def test_a_round_or_a_pairing_is_stored_once(store: Store, clock: FakeClock) -> None:
    tid = await running(store, clock)
    async with store.read() as tx:
        before = await tx.tournaments.pairings(tid)
    with pytest.raises(StoreError):
        async with store.write() as tx:
            await tx.tournaments.insert_round(RoundRow(tid, 1, 5))
    first = before[0]
    with pytest.raises(StoreError):
        async with store.write() as tx:
            await tx.tournaments.insert_pairings([PairingRow(tid, 1, 1, first.tbl, 1, 101, 102)])
    async with store.read() as tx:
        assert await tx.tournaments.pairings(tid) == before
        t = await tx.tournaments.tournament(tid, lock=False)
    assert t is not None and t.round == 1
    async with store.write() as tx:
        newer = await tx.tournaments.update_tournament(t, {"message_id": 5})
    assert newer.version == t.version + 1 and newer.message_id == 5
    with pytest.raises(WriteConflict):
        async with store.write() as tx:
            await tx.tournaments.update_tournament(t, {"message_id": 6})
    done = [p for p in before if p.outcome is not None]
    assert len(done) == 1
    async with store.write() as tx:  # a result is recorded once
        assert not await tx.tournaments.update_pairing(
            done[0], {"outcome": "0-1", "reason": "played"}
        )


async def test_the_copy_carries_every_tournament_row(
    store: Store, clock: FakeClock, other_store_target: str | Path
) -> None:
    await running(store, clock)
    contents = await store.export_all()
    counts = contents.counts()
    assert counts["tournaments"] == 1 and counts["tournament_entrants"] == 4
    assert counts["tournament_rounds"] == 1 and counts["tournament_pairings"] == 2
    assert counts["tournament_creator_roles"] == 2
    assert sum(g.tournament_id is not None for g in contents.games) == 2
    # The server's default clock, a bank, is kept with the tournament and copied with it.
    [t] = contents.tournaments
    assert (t.bank_start, t.bank_increment, t.bank_cap) == (3 * 86400, 86400, 5 * 86400)
    async with await open_store(other_store_target) as other:
        await other.import_all(contents)
        assert await other.export_all() == contents
        # The copy goes on: a new tournament gets a later id, and play continues.
        service = GameService(other, clock=clock, rng=random.Random(5))
        fresh = await service.create_tournament(
            GUILD, CHANNEL, ORGANISER, game="minefield", format="round_robin"
        )
        assert fresh.id > contents.tournaments[0].id
        (left,) = [
            g for g in await service.tournament_games(contents.tournaments[0].id) if g.is_active
        ]
        await service.resign(left.channel_id, left.seats[1].user_id)
        assert (await service.get_tournament(contents.tournaments[0].id)).round == 2
