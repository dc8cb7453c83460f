"""The store contract: what every engine (``bot.store.interface``) must do, run on each engine.

The ``store_target`` fixture (tests/support/game_fixtures.py) is parametrised over ``ENGINES``; an
engine is done when this module and the service tests pass on it.  Every write returns the row
as it now is, and a fresh read must agree with it exactly, so the service never re-reads.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from game_fixtures import ADMIN, ALICE, BOB, CAROL

from bot.store import (
    SCHEMA_VERSION,
    BackupNotSupported,
    ChannelTaken,
    ClockRow,
    GameRow,
    MoveRow,
    NewChallenge,
    NewGame,
    NoticeRow,
    RatingHistoryRow,
    RatingRow,
    ResultRow,
    SettingsRow,
    Store,
    StoreClosed,
    StoreNotEmpty,
    VacationRow,
    WriteConflict,
    open_store,
)

GUILD, OTHER_GUILD = 1000, 1001
CHANNEL = 2000
BIG = 2**63 - 1
"""Discord ids are 64-bit: the largest must round-trip everywhere."""


def new_challenge(**changes: object) -> NewChallenge:
    base = NewChallenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
        game="minefield",
        size=5,
        first="me",
        per_move=3600,
        reminders=(1800, 3240),
        created_at=1_000,
        expires_at=9_000,
        options=(("ai_level", "2"),),
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def new_game(**changes: object) -> NewGame:
    base = NewGame(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="minefield",
        size=5,
        first_id=ALICE,
        second_id=BOB,
        record="minefield 5:",
        to_move="black",
        to_move_id=ALICE,
        per_move=3600,
        reminders=(1800,),
        clock=ClockRow(1_000, 3_601_000, 1_801_000),
        challenge_id=None,
        created_at=1_000,
        options=(("ai_level", "3"), ("a", "b")),
    )
    return replace(base, **changes)  # type: ignore[arg-type]


async def read_game(store: Store, game_id: int) -> GameRow:
    async with store.read() as tx:
        row = await tx.games.game(game_id)
    assert row is not None
    return row


async def inserted(store: Store, **changes: object) -> GameRow:
    async with store.write() as tx:
        row = await tx.games.insert_game(new_game(**changes))
    assert await read_game(store, row.id) == row
    return row


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


# ----- transactions -------------------------------------------------------------------------


async def test_an_exception_rolls_the_write_back_and_reads_see_only_commits(
    store: Store,
) -> None:
    with pytest.raises(RuntimeError):
        async with store.write() as tx:
            await tx.games.insert_game(new_game())
            raise RuntimeError("the caller changed its mind")
    async with store.read() as tx:
        assert await tx.games.active_games() == []
    row = await inserted(store)
    async with store.read() as tx:
        assert await tx.games.active_games() == [row]


async def test_a_cancelled_write_leaves_nothing_and_the_store_goes_on(store: Store) -> None:
    row = await inserted(store)

    async def slow_move() -> None:
        async with store.write() as tx:
            await tx.games.record_moves(
                row,
                [MoveRow(row.id, 0, "c3", ALICE, 2)],
                record="r",
                to_move="w",
                to_move_id=BOB,
                at=2,
            )
            await tx.games.add_event(row.id, 2, "x", ALICE)
            await asyncio.sleep(10)

    for delay in (0, 0.001, 0.01):
        task = asyncio.ensure_future(slow_move())
        await asyncio.sleep(delay)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert await read_game(store, row.id) == row
    async with store.write() as tx:
        moved = await tx.games.record_moves(
            row, [MoveRow(row.id, 0, "c3", ALICE, 2)], record="r", to_move="w", to_move_id=BOB, at=2
        )
    assert await read_game(store, row.id) == moved


async def test_two_stores_on_one_target_see_each_other_and_conflict(
    store: Store, store_target: str | Path
) -> None:
    """What two bot processes on one database do: each sees the other's commits, and two
    writes against the same version cannot both succeed."""
    row = await inserted(store)
    async with await open_store(store_target) as other:
        assert await read_game(other, row.id) == row
        async with other.write() as tx:
            theirs = await tx.games.record_moves(
                row,
                [MoveRow(row.id, 0, "c3", ALICE, 2)],
                record="r",
                to_move="w",
                to_move_id=BOB,
                at=2,
            )
        with pytest.raises(WriteConflict):
            async with store.write() as tx:
                await tx.games.record_moves(
                    row,
                    [MoveRow(row.id, 0, "d4", ALICE, 2)],
                    record="r",
                    to_move="w",
                    to_move_id=BOB,
                    at=2,
                )
        assert await read_game(store, row.id) == theirs


async def test_backup_copies_or_says_what_to_use(store: Store, tmp_path: Path) -> None:
    row = await inserted(store)
    target = tmp_path / "copies" / "backup.db"
    try:
        await store.backup(target)
    except BackupNotSupported as exc:
        assert "pg_dump" in str(exc)
        return
    async with await open_store(target) as copy:
        assert await read_game(copy, row.id) == row


async def test_find_games_pages_by_update_time_with_every_filter(store: Store) -> None:
    rows = []
    for n in range(7):
        first, second = (ALICE, BOB) if n % 2 else (CAROL, ALICE)
        rows.append(
            await inserted(
                store,
                channel_id=100 + n,
                guild_id=OTHER_GUILD if n == 6 else GUILD,
                first_id=first,
                second_id=second,
                to_move_id=first,
                created_at=10 * (n % 3),  # equal update times: ties broken by newest id
            )
        )
    async with store.write() as tx:
        rows[0] = await tx.games.finish_game(rows[0], ResultRow("finished", "draw"), at=5)
    newest_first = sorted(rows, key=lambda r: (r.updated_at, r.id), reverse=True)

    async def pages(size: int, **filters: object) -> list[list[GameRow]]:
        found: list[list[GameRow]] = []
        after = None
        while True:
            async with store.read() as tx:
                page = await tx.games.find_games(after=after, limit=size, **filters)  # type: ignore[arg-type]
            if not page:
                return found
            found.append(page)
            after = (page[-1].updated_at, page[-1].id)

    assert [r for p in await pages(3) for r in p] == newest_first
    assert [len(p) for p in await pages(3)] == [3, 3, 1]
    assert [r for p in await pages(2, guild_id=GUILD) for r in p] == [
        r for r in newest_first if r.guild_id == GUILD
    ]
    mine = [r for p in await pages(2, guild_id=GUILD, player_id=ALICE) for r in p]
    assert mine == [r for r in newest_first if r.guild_id == GUILD]  # ALICE plays in all
    assert [r for p in await pages(10, player_id=BOB) for r in p] == [
        r for r in newest_first if BOB in (r.first_id, r.second_id)
    ]
    active = [r for p in await pages(2, active_only=True) for r in p]
    assert active == [r for r in newest_first if r.status == "active"]
    to_move = [r for p in await pages(2, to_move_id=CAROL) for r in p]
    assert to_move == [r for r in newest_first if r.to_move_id == CAROL and r.status == "active"]
    assert to_move and all(r.first_id == CAROL for r in to_move)


async def test_export_then_import_copies_every_row_with_its_ids(
    store: Store, other_store_target: str | Path
) -> None:
    row = await inserted(store, first_id=BIG)
    async with store.write() as tx:
        await tx.moderation.save_settings(
            SettingsRow(GUILD, (CHANNEL,), True, 60, (30,), (("x", 5),), 60, 1)
        )
        challenge = await tx.challenges.insert_challenge(new_challenge(opponent_id=None))
        await tx.challenges.resolve_challenge(challenge.id, "accepted", 3, BOB, row.id)
        row = await tx.games.record_moves(
            row, [MoveRow(row.id, 0, "c3", BIG, 2)], record="r", to_move="w", to_move_id=BOB, at=2
        )
        await tx.games.add_event(row.id, 2, "started", BOB, "challenge 1")
        await tx.moderation.add_audit(
            guild_id=GUILD, actor_id=ADMIN, action="abort", at=4, detail="{}"
        )
        await tx.clocks.save_vacation(VacationRow(BIG, 2026, 3, 4, 4 + 3 * 86_400_000_000, 3))
        await tx.notices.save_notice_pref(NoticeRow(BIG, "digest", 13, 9, True, 4))
    async with store.write() as tx:
        row = await tx.games.finish_game(
            row, ResultRow("finished", "resign", BOB, "w", BIG, "b", BIG, True, None, 7), at=5
        )
        await tx.ratings.save_ratings(
            [RatingRow(GUILD, "minefield", BOB, 26.5, 7.5, 1, 0, 0, 1, 1, 1, 7, 5)]
        )
        await tx.ratings.add_rating_history(
            [
                RatingHistoryRow(
                    row.id, BOB, GUILD, "minefield", 7, BIG, "win", 25.0, 8.3, 26.5, 7.5, 5
                )
            ]
        )
    await inserted(store, channel_id=CHANNEL + 1)
    contents = await store.export_all()
    assert contents.counts() == {
        "settings": 1,
        "challenges": 1,
        "games": 2,
        "moves": 1,
        "events": 1,
        "audit": 1,
        "ratings": 1,
        "rating_history": 1,
        # Tournament rows are copied too: tests/store/test_tournament_store.py.
        "tournaments": 0,
        "tournament_entrants": 0,
        "tournament_rounds": 0,
        "tournament_pairings": 0,
        "tournament_creator_roles": 0,
        "vacations": 1,
        "notices": 1,
    }
    async with await open_store(other_store_target) as other:
        await other.import_all(contents)
        assert await other.export_all() == contents
        assert await read_game(other, row.id) == row
        with pytest.raises(StoreNotEmpty):
            await other.import_all(contents)
        assert await other.export_all() == contents
        async with other.write() as tx:  # new ids come after the imported ones
            newer = await tx.games.insert_game(new_game(channel_id=CHANNEL + 2))
            fresh = await tx.challenges.insert_challenge(new_challenge())
        assert newer.id > max(g.id for g in contents.games)
        assert fresh.id > challenge.id
        async with other.write() as tx:  # so do new rating sequence numbers
            await tx.ratings.lock_ratings(GUILD, "minefield", [ALICE], initial=(25.0, 8.0), at=6)
            assert await tx.ratings.next_rating_seq() > 7


async def test_the_snapshot_fixture_sees_every_kind_of_change(
    store: Store, snapshot: Callable[[], object]
) -> None:
    """The service tests assert ``snapshot() == before`` after each refusal: that proves
    something only if a snapshot (read outside the store) sees changes to every table."""
    seen = [snapshot()]
    row = await inserted(store)
    seen.append(snapshot())
    async with store.write() as tx:
        await tx.games.record_moves(
            row, [MoveRow(row.id, 0, "c3", ALICE, 2)], record="r", to_move="w", to_move_id=BOB, at=2
        )
    seen.append(snapshot())
    async with store.write() as tx:
        await tx.games.add_event(row.id, 3, "x", ALICE)
    seen.append(snapshot())
    async with store.write() as tx:
        await tx.moderation.add_audit(guild_id=GUILD, actor_id=ADMIN, action="a", at=4)
    seen.append(snapshot())
    async with store.write() as tx:
        await tx.moderation.save_settings(SettingsRow(GUILD, (), True, None, (), (), 600, 5))
    seen.append(snapshot())
    async with store.write() as tx:
        await tx.challenges.insert_challenge(new_challenge())
    seen.append(snapshot())
    current = await read_game(store, row.id)
    async with store.write() as tx:
        await tx.games.request_takeback(current, BOB, 6)  # a few columns only
    seen.append(snapshot())
    assert len({repr(s) for s in seen}) == len(seen)
    assert snapshot() == seen[-1]


async def test_lists_of_ids_longer_than_a_statement_takes_are_read_in_parts(store: Store) -> None:
    """PostgreSQL takes at most 32,767 bind arguments (SQLite 32,766): a large tournament's
    games or a league's players must not make one ``IN (…)`` list past that."""
    many = list(range(1, 40_001))
    async with store.read() as tx:
        assert await tx.web.game_tokens(many) == {}
        assert await tx.web.served_versions([f"t{i}" for i in many]) == []
        assert await tx.ratings.rating_changes(1, many) == []
        assert await tx.ratings.current_ratings(1, "minefield", many) == []
        assert await tx.clocks.running_vacations(many, 0) == []
        assert await tx.moderation.settings_of(many) == []
