"""The store contract: what every engine (``bot.store.interface``) must do, run on each engine.

The ``store_target`` fixture (tests/support/game_fixtures.py) is parametrised over ``ENGINES``; an
engine is done when this module and the service tests pass on it.  Every write returns the row
as it now is, and a fresh read must agree with it exactly, so the service never re-reads.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from game_fixtures import ADMIN, ALICE, BOB, CAROL
from store_rows import (
    BIG,
    CHANNEL,
    GUILD,
    OTHER_GUILD,
    inserted,
    new_challenge,
    new_game,
    read_game,
)

from bot.store import (
    SCHEMA_VERSION,
    ChannelTaken,
    ClockRow,
    MoveRow,
    ResultRow,
    SettingsRow,
    Store,
    StoreClosed,
    WriteConflict,
    open_store,
)

# ----- opening, closing ---------------------------------------------------------------------


async def test_open_migrates_and_close_is_idempotent(store_target: str | Path) -> None:
    store = await open_store(store_target)
    assert await store.schema_version() == SCHEMA_VERSION
    assert str(store.target)
    await asyncio.gather(store.close(), store.close())
    await store.close()
    with pytest.raises(StoreClosed):
        async with store.read() as tx:
            await tx.games.game(1)
    async with await open_store(store_target) as again:  # reopening applies nothing twice
        assert await again.schema_version() == SCHEMA_VERSION


# ----- settings and challenges ----------------------------------------------------------------


async def test_settings_round_trip_and_replace(store: Store) -> None:
    row = SettingsRow(GUILD, (CHANNEL, BIG), True, 86400, (43200,), (("crosscut", 7),), 600, 5)
    async with store.write() as tx:
        assert await tx.moderation.settings(GUILD) is None
        await tx.moderation.save_settings(row)
    async with store.read() as tx:
        assert await tx.moderation.settings(GUILD) == row
        assert await tx.moderation.settings(OTHER_GUILD) is None
    changed = replace(row, use_threads=False, per_move=None, reminders=(), updated_at=6)
    async with store.write() as tx:
        await tx.moderation.save_settings(changed)
    async with store.read() as tx:
        assert await tx.moderation.settings(GUILD) == changed


async def test_challenges_insert_resolve_and_list(store: Store) -> None:
    async with store.write() as tx:
        first = await tx.challenges.insert_challenge(new_challenge())
        second = await tx.challenges.insert_challenge(
            new_challenge(challenger_id=CAROL, opponent_id=None, expires_at=5_000, options=())
        )
        third = await tx.challenges.insert_challenge(
            new_challenge(guild_id=OTHER_GUILD, opponent_id=BIG)
        )
    assert first.status == "open" and first.options == (("ai_level", "2"),)
    async with store.read() as tx:
        assert await tx.challenges.challenge(first.id) == first
        assert await tx.challenges.challenge(third.id) == third
        assert await tx.challenges.challenge(third.id + 100) is None
        assert await tx.challenges.open_challenges(GUILD) == [first, second]
        assert await tx.challenges.open_challenges(GUILD, BOB) == [first]
        assert await tx.challenges.open_challenges(GUILD, CAROL) == [second]
        assert await tx.challenges.expiring_challenges(8_999, 10) == [second]
        assert await tx.challenges.expiring_challenges(9_000, 10) == [second, first, third]
        assert await tx.challenges.expiring_challenges(9_000, 1) == [second]
    async with store.write() as tx:
        done = await tx.challenges.resolve_challenge(first.id, "accepted", 2_000, BOB, 77)
        assert (
            await tx.challenges.resolve_challenge(first.id, "declined", 2_001) is None
        )  # not open
    assert done == replace(first, status="accepted", resolved_at=2_000, accepted_by=BOB, game_id=77)
    async with store.read() as tx:
        assert await tx.challenges.challenge(first.id) == done
        assert await tx.challenges.open_challenges(GUILD) == [second]


async def test_the_challenges_a_player_can_act_on(store: Store) -> None:
    async with store.write() as tx:
        to_bob = await tx.challenges.insert_challenge(new_challenge())
        open_one = await tx.challenges.insert_challenge(
            new_challenge(challenger_id=CAROL, opponent_id=None)
        )
        await tx.challenges.insert_challenge(new_challenge(guild_id=OTHER_GUILD, opponent_id=None))
        by_carol = await tx.challenges.insert_challenge(
            new_challenge(challenger_id=CAROL, opponent_id=BIG)
        )
    async with store.read() as tx:
        assert await tx.challenges.challenges_for(GUILD, BOB, 10) == [to_bob, open_one]
        assert await tx.challenges.challenges_for(GUILD, ALICE, 10) == [to_bob, open_one]
        assert await tx.challenges.challenges_for(GUILD, CAROL, 10) == [open_one, by_carol]
        assert await tx.challenges.challenges_for(GUILD, BIG, 10) == [open_one, by_carol]
        assert await tx.challenges.challenges_for(GUILD, ALICE, 1) == [to_bob]
    async with store.write() as tx:
        await tx.challenges.resolve_challenge(open_one.id, "accepted", 2_000, BOB, 77)
    async with store.read() as tx:
        assert await tx.challenges.challenges_for(GUILD, BOB, 10) == [to_bob]


async def test_a_challenges_message_id_is_recorded_once(store: Store) -> None:
    async with store.write() as tx:
        first = await tx.challenges.insert_challenge(new_challenge())
        second = await tx.challenges.insert_challenge(new_challenge(challenger_id=CAROL))
    assert first.message_id is None
    async with store.write() as tx:
        assert await tx.challenges.record_challenge_message(first.id, BIG)
    async with store.write() as tx:
        assert not await tx.challenges.record_challenge_message(
            first.id, BIG - 1
        )  # the first one stays
        assert not await tx.challenges.record_challenge_message(
            second.id + 100, 5
        )  # no such challenge
    async with store.read() as tx:
        assert await tx.challenges.challenge(first.id) == replace(first, message_id=BIG)
        assert (await tx.challenges.challenge(second.id)) == second


# ----- games ------------------------------------------------------------------------------


async def test_insert_game_returns_what_is_stored(store: Store) -> None:
    row = await inserted(store, first_id=BIG)
    assert (row.status, row.version, row.first_id, row.updated_at) == ("active", 0, BIG, 1_000)
    assert (row.turn_started_at, row.deadline_at, row.remind_at) == (1_000, 3_601_000, 1_801_000)
    assert row.options == (("a", "b"), ("ai_level", "3"))
    async with store.read() as tx:
        assert await tx.games.active_game_in(CHANNEL) == row
        assert await tx.games.latest_game_in(CHANNEL) == row
        assert await tx.games.active_game_in(CHANNEL + 1) is None
        assert await tx.games.moves(row.id) == [] and await tx.games.events(row.id) == []


async def test_one_active_game_per_channel_and_the_whole_transaction_rolls_back(
    store: Store,
) -> None:
    row = await inserted(store)
    with pytest.raises(ChannelTaken):
        async with store.write() as tx:
            challenge = await tx.challenges.insert_challenge(new_challenge())
            await tx.games.insert_game(new_game(first_id=CAROL))
    async with store.read() as tx:
        assert (
            await tx.challenges.challenge(challenge.id) is None
        )  # rolled back with the refused game
        assert await tx.games.active_games() == [row]
    async with store.write() as tx:
        await tx.games.finish_game(row, ResultRow("aborted", "abort", actor_id=ADMIN), at=2_000)
        newer = await tx.games.insert_game(new_game(first_id=CAROL))  # a finished game frees it
    async with store.read() as tx:
        assert await tx.games.latest_game_in(CHANNEL) == newer
        assert await tx.games.active_game_in(CHANNEL) == newer


async def test_record_moves_bumps_the_version_and_restarts_the_clock(store: Store) -> None:
    row = await inserted(store)
    async with store.write() as tx:
        asked = await tx.games.request_takeback(row, BOB, 1_500)
        assert asked.version == row.version  # a request does not bump the version
        moved = await tx.games.record_moves(
            asked,
            [MoveRow(row.id, 0, "c3", ALICE, 2_000)],
            record="minefield 5: c3",
            to_move="white",
            to_move_id=BOB,
            at=2_000,
            clock=ClockRow(2_000, 3_602_000, 1_802_000),
        )
    assert moved.version == 1 and moved.record == "minefield 5: c3" and moved.to_move == "white"
    assert row.to_move_id == ALICE and moved.to_move_id == BOB
    assert (moved.takeback_by, moved.takeback_at, moved.takeback_version) == (None, None, None)
    assert (moved.turn_started_at, moved.deadline_at, moved.remind_at) == (
        2_000,
        3_602_000,
        1_802_000,
    )
    assert moved.updated_at == 2_000
    assert await read_game(store, row.id) == moved
    async with store.write() as tx:  # a chain step in the same turn keeps the clock
        chained = await tx.games.record_moves(
            moved,
            [MoveRow(row.id, 1, "d4", BOB, 2_500), MoveRow(row.id, 2, "e5", BOB, 2_500)],
            record="minefield 5: c3 d4 e5",
            to_move="black",
            to_move_id=ALICE,
            at=2_500,
        )
    assert chained.version == 2 and chained.turn_started_at == 2_000
    assert await read_game(store, row.id) == chained
    async with store.read() as tx:
        assert [(m.ply, m.move, m.user_id) for m in await tx.games.moves(row.id)] == [
            (0, "c3", ALICE),
            (1, "d4", BOB),
            (2, "e5", BOB),
        ]


async def test_a_stale_row_is_a_write_conflict_and_nothing_of_the_transaction_stays(
    store: Store,
) -> None:
    row = await inserted(store)
    async with store.write() as tx:
        current = await tx.games.record_moves(
            row,
            [MoveRow(row.id, 0, "c3", ALICE, 2)],
            record="r1",
            to_move="white",
            to_move_id=BOB,
            at=2,
        )
    for stale_write in ("record_moves", "finish_game", "request_takeback", "restart_clock"):
        with pytest.raises(WriteConflict):
            async with store.write() as tx:
                await tx.games.add_event(row.id, 3, "noise", ALICE)
                await tx.moderation.save_settings(
                    SettingsRow(GUILD, (), True, None, (), (), 600, 3)
                )
                if stale_write == "record_moves":
                    await tx.games.record_moves(
                        row,
                        [MoveRow(row.id, 1, "d4", BOB, 3)],
                        record="r2",
                        to_move="b",
                        to_move_id=ALICE,
                        at=3,
                    )
                elif stale_write == "finish_game":
                    await tx.games.finish_game(
                        row, ResultRow("finished", "resign", loser_id=BOB), at=3
                    )
                elif stale_write == "request_takeback":
                    await tx.games.request_takeback(row, ALICE, 3)
                else:
                    await tx.clocks.restart_clock(row, ClockRow(3, None, None))
        assert await read_game(store, row.id) == current, stale_write
        async with store.read() as tx:
            assert await tx.games.events(row.id) == []
            assert await tx.moderation.settings(GUILD) is None
            assert len(await tx.games.moves(row.id)) == 1


async def test_a_move_already_recorded_is_a_write_conflict(store: Store) -> None:
    row = await inserted(store)
    async with store.write() as tx:
        await tx.games.record_moves(
            row,
            [MoveRow(row.id, 0, "c3", ALICE, 2)],
            record="r1",
            to_move="white",
            to_move_id=BOB,
            at=2,
        )
    forged = await read_game(store, row.id)
    with pytest.raises(WriteConflict):
        async with store.write() as tx:  # right version, but ply 0 exists already
            await tx.games.record_moves(
                forged,
                [MoveRow(row.id, 0, "d4", BOB, 3)],
                record="r2",
                to_move="black",
                to_move_id=ALICE,
                at=3,
            )
    assert await read_game(store, row.id) == forged


async def test_finish_take_back_and_the_small_writes(store: Store) -> None:
    row = await inserted(store)
    async with store.write() as tx:
        row = await tx.games.record_moves(
            row,
            [MoveRow(row.id, 0, "c3", ALICE, 2), MoveRow(row.id, 1, "d4", BOB, 3)],
            record="minefield 5: c3 d4",
            to_move="black",
            to_move_id=ALICE,
            at=3,
        )
        row = await tx.games.request_takeback(row, BOB, 4)
    assert (row.takeback_by, row.takeback_at, row.takeback_version) == (BOB, 4, row.version)
    async with store.write() as tx:
        row = await tx.games.clear_takeback(row)
        row = await tx.clocks.mark_reminder_sent(row, 9_999)
        row = await tx.clocks.restart_clock(row, ClockRow(5, 50, 25, 0))
        row = await tx.clocks.mark_reminder_sent(row, None)
    assert row.takeback_by is None and row.reminders_sent == 1 and row.remind_at is None
    assert (row.turn_started_at, row.deadline_at) == (5, 50)
    assert await read_game(store, row.id) == row
    async with store.write() as tx:
        row = await tx.games.take_back(
            row,
            1,
            record="minefield 5: c3",
            to_move="white",
            to_move_id=BOB,
            clock=ClockRow(6, 60, 30),
            at=6,
        )
        await tx.games.add_event(row.id, 6, "takeback_accepted", ALICE, "d4")
    assert row.version == 2 and row.record == "minefield 5: c3" and row.remind_at == 30
    assert await read_game(store, row.id) == row
    async with store.write() as tx:
        row = await tx.games.save_cached_state(row, "minefield 5: c3", "white", BOB)
        ended = await tx.games.finish_game(
            row,
            ResultRow("finished", "resign", BOB, "white", ALICE, "black", ALICE),
            at=7,
        )
        await tx.games.add_event(row.id, 7, "resign", ALICE)
    assert ended.version == 3 and ended.status == "finished" and ended.to_move is None
    assert ended.to_move_id is None
    assert (ended.result_reason, ended.winner_id, ended.loser_colour) == ("resign", BOB, "black")
    assert (ended.deadline_at, ended.remind_at, ended.finished_at) == (None, None, 7)
    assert await read_game(store, row.id) == ended
    async with store.read() as tx:
        assert [m.move for m in await tx.games.moves(row.id)] == ["c3"]
        assert [(e.kind, e.user_id, e.detail) for e in await tx.games.events(row.id)] == [
            ("takeback_accepted", ALICE, "d4"),
            ("resign", ALICE, ""),
        ]
        assert await tx.games.active_game_in(CHANNEL) is None


async def test_game_queries(store: Store) -> None:
    a = await inserted(store, channel_id=1)
    b = await inserted(store, channel_id=2, first_id=CAROL, second_id=ALICE, created_at=5)
    c = await inserted(store, channel_id=3, guild_id=OTHER_GUILD)
    d = await inserted(
        store, channel_id=4, first_id=BOB, second_id=CAROL, clock=ClockRow(1, None, None)
    )
    async with store.write() as tx:
        a = await tx.games.finish_game(a, ResultRow("finished", "draw"), at=10)
    async with store.read() as tx:
        assert await tx.games.games_for_player(GUILD, ALICE, False, 10) == [a, b]
        assert await tx.games.games_for_player(GUILD, ALICE, True, 10) == [b]
        assert await tx.games.games_for_player(GUILD, ALICE, False, 1) == [a]
        assert await tx.games.games_for_player(OTHER_GUILD, ALICE, False, 10) == [c]
        assert await tx.games.active_games(GUILD) == [b, d]
        assert await tx.games.active_games() == [b, c, d]
        assert await tx.clocks.due_games(1_800_999, 10) == []
        assert await tx.clocks.due_games(1_801_000, 10) == [b, c]  # reminders due
        assert await tx.clocks.due_games(3_601_000, 1) == [b]
        assert sorted(await tx.clocks.next_times()) == [1_801_000, 3_601_000]
    async with store.write() as tx:
        await tx.challenges.insert_challenge(new_challenge(expires_at=42))
    async with store.read() as tx:
        assert sorted(await tx.clocks.next_times()) == [42, 1_801_000, 3_601_000]


async def test_audit_newest_first(store: Store) -> None:
    async with store.write() as tx:
        for n in range(5):
            await tx.moderation.add_audit(
                guild_id=GUILD, actor_id=ADMIN, action=f"a{n}", at=n, game_id=n or None
            )
        await tx.moderation.add_audit(
            guild_id=OTHER_GUILD, actor_id=ADMIN, action="x", at=9, detail="{}"
        )
    async with store.read() as tx:
        entries = await tx.moderation.audit(GUILD, 3)
        assert [e.action for e in entries] == ["a4", "a3", "a2"]
        assert (entries[0].actor_id, entries[0].game_id, entries[0].detail) == (ADMIN, 4, "")
        assert [e.detail for e in await tx.moderation.audit(OTHER_GUILD, 10)] == ["{}"]
