"""Store contract for several processes, on every engine: due rows filtered by Discord shard in
the query itself, and turn claims that exactly one claimant wins."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.store import ClockRow, GameRow, MoveRow, ShardFilter, Store, open_store

from .test_contract import inserted, new_challenge

BIG = 2**63 - 1


def guild_on(shard: int, low: int = 5) -> int:
    """A server id whose shard of 4 (and of 2) is ``shard`` (Discord: ``(id >> 22) % n``)."""
    return (shard << 22) | low


GUILDS = {0: guild_on(0), 1: guild_on(1), 2: guild_on(2), 3: BIG}
"""One server per shard of 4; the largest snowflake is on shard 3 ((2^41 - 1) % 4)."""


def test_guild_ids_land_on_the_intended_shards() -> None:
    for shard, guild in GUILDS.items():
        assert (guild >> 22) % 4 == shard
        assert ShardFilter(4, (shard,)).holds(guild)
        assert not ShardFilter(4, tuple(s for s in range(4) if s != shard)).holds(guild)


async def due_everywhere(store: Store) -> dict[int, GameRow]:
    """An active game with a reminder due at 1_801_000 and an open challenge expiring at 9_000
    in each server of GUILDS."""
    games = {}
    for shard, guild in GUILDS.items():
        games[shard] = await inserted(store, guild_id=guild, channel_id=100 + shard)
        async with store.write() as tx:
            await tx.challenges.insert_challenge(
                new_challenge(guild_id=guild, channel_id=200 + shard, expires_at=9_000 + shard)
            )
    return games


async def test_due_games_and_expiring_challenges_of_some_shards_only(store: Store) -> None:
    games = await due_everywhere(store)
    cases = {
        None: [0, 1, 2, 3],
        ShardFilter(4, (0, 2)): [0, 2],
        ShardFilter(4, (1,)): [1],
        ShardFilter(4, (3,)): [3],
        ShardFilter(4, (0, 1, 2, 3)): [0, 1, 2, 3],
        ShardFilter(2, (1,)): [1, 3],  # shards of 2: ids 1 and 3 of 4 are odd
        ShardFilter(1, (0,)): [0, 1, 2, 3],
    }
    async with store.read() as tx:
        for shards, expected in cases.items():
            due = await tx.clocks.due_games(1_801_000, 10, shards)
            assert due == [games[s] for s in expected], shards
            expiring = await tx.challenges.expiring_challenges(10_000, 10, shards)
            assert [c.guild_id for c in expiring] == [GUILDS[s] for s in expected], shards
        # the filter combines with the time and the limit
        assert await tx.clocks.due_games(1_800_999, 10, ShardFilter(4, (0,))) == []
        assert await tx.challenges.expiring_challenges(9_001, 10, ShardFilter(4, (1, 2))) == [
            c for c in await tx.challenges.expiring_challenges(9_001, 10) if c.guild_id == GUILDS[1]
        ]
        assert await tx.clocks.due_games(1_801_000, 1, ShardFilter(4, (1, 3))) == [games[1]]


async def test_a_turn_claim_is_won_once_renewed_released_and_lapses(store: Store) -> None:
    row = await inserted(store, clock=ClockRow(1_000, None, None))
    claim = row.id, row.version
    async with store.write() as tx:
        assert await tx.claims.claim_turn(*claim, "p1", 10, 100)
    async with store.write() as tx:
        assert not await tx.claims.claim_turn(*claim, "p2", 20, 200)  # held by p1 until 100
        assert await tx.claims.claim_turn(*claim, "p1", 20, 150)  # p1 renews
    async with store.write() as tx:
        assert not await tx.claims.claim_turn(*claim, "p2", 149, 300)
        assert await tx.claims.claim_turn(*claim, "p2", 150, 300)  # p1's claim lapsed at 150
    async with store.write() as tx:
        await tx.claims.release_turn(row.id, "p1")  # not p1's any more: nothing happens
    async with store.write() as tx:
        assert not await tx.claims.claim_turn(*claim, "p3", 200, 400)
        await tx.claims.release_turn(row.id, "p2")
    async with store.write() as tx:
        assert await tx.claims.claim_turn(*claim, "p3", 200, 400)
        # a stale version cannot be claimed, nor a game that does not exist
        assert not await tx.claims.claim_turn(row.id, row.version + 1, "p4", 200, 400)
        assert not await tx.claims.claim_turn(row.id + 1000, 0, "p4", 200, 400)
    # the claim is for one version: once the move is stored, the next turn is free
    async with store.write() as tx:
        moved = await tx.games.record_moves(
            row,
            [MoveRow(row.id, 1, "c3", row.first_id, 300)],
            record="minefield 5: c3",
            to_move="white",
            to_move_id=row.second_id,
            at=300,
        )
    assert moved.version == row.version + 1
    async with store.write() as tx:
        assert not await tx.claims.claim_turn(*claim, "p4", 301, 500)
        assert await tx.claims.claim_turn(moved.id, moved.version, "p4", 301, 500)
    # a claim changes neither the version nor anything the game's readers see
    async with store.read() as tx:
        assert await tx.games.game(row.id) == moved


async def test_a_finished_game_cannot_be_claimed(store: Store) -> None:
    from bot.store import ResultRow

    row = await inserted(store)
    async with store.write() as tx:
        ended = await tx.games.finish_game(row, ResultRow("finished", "resign"), at=5)
    async with store.write() as tx:
        assert not await tx.claims.claim_turn(ended.id, ended.version, "p1", 6, 100)


async def test_racing_claims_from_separate_stores_have_one_winner(
    store: Store, store_target: str | Path
) -> None:
    row = await inserted(store)
    others = [await open_store(store_target) for _ in range(4)]
    try:

        async def claim(one: Store, name: str) -> bool:
            async with one.write() as tx:
                return await tx.claims.claim_turn(row.id, row.version, name, 10, 1_000)

        for round_ in range(3):
            won = await asyncio.gather(
                *(claim(one, f"r{round_}p{i}") for i, one in enumerate([store, *others]))
            )
            assert won.count(True) == (1 if round_ == 0 else 0), won
    finally:
        for one in others:
            await one.close()


async def test_a_sqlite_store_releases_the_claims_its_dead_predecessor_left(
    store_target: str | Path,
) -> None:
    """SQLite serves one bot process, so the claims found at open were left by one that died:
    they are released, and the computer's turn does not wait for them to expire.  Several
    PostgreSQL processes share a database, so there a claim stays until it lapses."""
    async with await open_store(store_target) as store:
        row = await inserted(store)
        other = await inserted(store, channel_id=row.channel_id + 1)
        async with store.write() as tx:
            assert await tx.claims.claim_turn(row.id, row.version, "dead", 10, BIG)
            assert await tx.claims.claim_turn(other.id, other.version, "dead", 10, BIG)
        # closed without release_turn: the process died mid-search
    async with await open_store(store_target) as store, store.write() as tx:
        taken = [await tx.claims.claim_turn(g.id, g.version, "next", 20, 400) for g in (row, other)]
    assert taken == ([True, True] if isinstance(store_target, Path) else [False, False])
