"""The store's multi-row writes on both engines (issue 46: a large round robin's start): games
inserted many to a statement come back as ids in the caller's order, the same rows one insert
at a time would store; a clash stores none of them; events, rounds and pairings likewise; and
every statement stays under both engines' argument limits."""

from __future__ import annotations

from dataclasses import replace

import pytest
from store_rows import CHANNEL, new_game, read_game

from bot.store import ChannelTaken, ClockRow, PairingRow, RoundRow, Store, StoreError
from bot.store.queries.games import INSERT_GAME_FIELDS
from bot.store.sql import CHUNK_ARGS, MAX_ARGS, PAIRING_FIELDS, row_chunks

MANY = 3 * (CHUNK_ARGS // len(INSERT_GAME_FIELDS)) + 7
"""More games than three statements carry, so the chunking is crossed."""


def games(count: int, first_channel: int = CHANNEL) -> list:  # type: ignore[type-arg]
    return [
        replace(
            new_game(channel_id=first_channel + n, first_id=10 + n, second_id=20_000 + n),
            clock=ClockRow(1_000, 3_601_000 + n, None, paused_until=None if n % 3 else 5_000),
            web_token=f"token-{n}" if n % 2 else None,
            first_name=f"Ann {n}",
        )
        for n in range(count)
    ]


def test_chunks_stay_under_both_engines_limits() -> None:
    for width in (1, 3, 5, 6, len(PAIRING_FIELDS), len(INSERT_GAME_FIELDS), 5_000):
        rows = list(range(10_001))
        chunks = row_chunks(rows, width)
        assert [r for c in chunks for r in c] == rows, "every row once, in order"
        assert all(len(c) * width <= MAX_ARGS for c in chunks)
        assert all(len(c) * width <= max(CHUNK_ARGS, width) for c in chunks)
    assert MAX_ARGS <= 32_766  # SQLite's default limit (PostgreSQL's is 32,767)


async def test_many_games_come_back_in_order_as_one_at_a_time_would_store_them(
    store: Store,
) -> None:
    news = games(MANY)
    async with store.write() as tx:
        ids = await tx.games.insert_games(news)
        one = await tx.games.insert_game(replace(news[0], channel_id=CHANNEL - 1))
    assert len(set(ids)) == MANY
    for new, game_id in zip(news, ids, strict=True):
        row = await read_game(store, game_id)
        assert (row.channel_id, row.first_id, row.second_id) == (
            new.channel_id,
            new.first_id,
            new.second_id,
        )
        assert (row.web_token, row.first_name, row.paused_until) == (
            new.web_token,
            new.first_name,
            new.clock.paused_until,
        )
        assert (row.deadline_at, row.reminders, row.options) == (
            new.clock.deadline_at,
            new.reminders,
            tuple(sorted(new.options)),
        )
    # Beside a game inserted alone, only the id and the channel differ.
    alone = await read_game(store, one.id)
    batched = await read_game(store, ids[0])
    assert replace(batched, id=alone.id, channel_id=alone.channel_id) == alone == one


async def test_a_clash_in_a_batch_stores_none_of_it(store: Store) -> None:
    async with store.write() as tx:
        (taken,) = await tx.games.insert_games(games(1, CHANNEL + MANY - 1))
    with pytest.raises(ChannelTaken):
        async with store.write() as tx:
            await tx.games.insert_games(games(MANY))
    with pytest.raises(ChannelTaken):
        async with store.write() as tx:
            await tx.games.insert_games(games(2, 7) + games(1, 7))  # one channel twice
    async with store.read() as tx:
        assert [g.id for g in await tx.games.active_games()] == [taken]
    async with store.write() as tx:
        assert await tx.games.insert_games([]) == []


async def test_events_rounds_and_pairings_in_batches(store: Store) -> None:
    async with store.write() as tx:
        ids = await tx.games.insert_games(games(MANY))
        await tx.games.add_events([(i, 7, "started", None, f"n{n}") for n, i in enumerate(ids)])
        await tx.games.add_event(ids[0], 8, "takeback", 10, "")
    async with store.read() as tx:
        first = await tx.games.events(ids[0])
        last = await tx.games.events(ids[-1])
    assert [(e.at, e.kind, e.user_id, e.detail) for e in first] == [
        (7, "started", None, "n0"),
        (8, "takeback", 10, ""),
    ]
    assert [(e.kind, e.detail) for e in last] == [("started", f"n{MANY - 1}")]

    async with store.write() as tx:
        t = await tx.tournaments.insert_tournament(
            {
                "guild_id": 1,
                "channel_id": 2,
                "organiser_id": 3,
                "game": "minefield",
                "size": 5,
                "format": "round_robin",
                "status": "running",
                "seed": 1,
                "web_token": "batched",
                "created_at": 1,
                "updated_at": 1,
            }
        )
        await tx.tournaments.insert_rounds([RoundRow(t.id, r, 1) for r in range(1, 301)])
        rows = [PairingRow(t.id, 1, r, b, 1, r * 10 + b, 9) for r in range(1, 301) for b in (1, 2)]
        await tx.tournaments.insert_pairings(rows)
    with pytest.raises(StoreError):  # a round made twice fails the whole batch
        async with store.write() as tx:
            await tx.tournaments.insert_rounds([RoundRow(t.id, 301, 1), RoundRow(t.id, 5, 1)])
    async with store.read() as tx:
        assert await tx.tournaments.pairings(t.id) == rows
        pending = await tx.tournaments.pending_pairings(t.id, 3)
        assert pending == rows[:3]
        assert await tx.tournaments.tournaments_awaiting_games(10) == [t.id]
    made = [replace(p, game_id=i) for p, i in zip(rows, ids, strict=False)]  # the first 151
    async with store.write() as tx:
        await tx.tournaments.set_pairing_games(made)
    rest = rows[len(made) :]
    async with store.read() as tx:
        assert await tx.tournaments.pairings(t.id) == made + rest
        assert await tx.tournaments.pending_pairings(t.id, 3) == rest[:3]
        assert await tx.tournaments.tournaments_awaiting_games(10) == [t.id]
    async with store.write() as tx:
        await tx.tournaments.update_pairing(rest[0], {"outcome": "1-0", "reason": "forfeit"})
        rest = [replace(rest[0], outcome="1-0", reason="forfeit"), *rest[1:]]
        # A pairing with a result needs no game: the rest of the round robin is still due.
        assert await tx.tournaments.pending_pairings(t.id, 2) == rest[1:3]
