"""The store contract, continued: transactions, backups, paging, export and import, and long id
lists, on every engine."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
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
    AnalysisRow,
    BackupNotSupported,
    GameRow,
    MoveRow,
    NoticeRow,
    RatingHistoryRow,
    RatingRow,
    ResultRow,
    SettingsRow,
    Store,
    StoreNotEmpty,
    VacationRow,
    WriteConflict,
    open_store,
)

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
        claim = AnalysisRow(
            row.id, row.version, GUILD, BOB, "running", 30, 0, "p/1", 9, None, 6, None
        )
        assert await tx.analysis.claim(claim, 6)
        assert await tx.analysis.store_result(row.id, row.version, '{"moves":[]}', 30, 0, 8)
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
        "analyses": 1,
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
