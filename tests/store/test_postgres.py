"""What only the PostgreSQL engine has: its migrations, its URLs, its locks and its errors.

Everything both engines share is in the store contract and service tests, which run on both.
These tests use a real server started by the tests (``tests/support/pg_server.py``).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from dataclasses import replace
from typing import Any

import asyncpg
import pytest
from pg_server import PgServer
from undo_migrations import (
    UNDO_ANALYSES,
    UNDO_HINTS_MIGRATION,
    UNDO_LANGUAGES_MIGRATION,
    UNDO_MIGRATION_8,
    UNDO_MIGRATION_13,
)
from web_games import UNDO_WEB_MIGRATION

from bot.service import GameService
from bot.store.errors import (
    BackupNotSupported,
    ChannelTaken,
    DatabaseBusy,
    DatabaseUnusable,
    NotADatabase,
    StoreClosed,
    UnknownSchema,
    WriteConflict,
)
from bot.store.postgres import SCHEMA_VERSION, PostgresStore, redact
from bot.store.rows import DATA_TABLES, ClockRow, GameRow, MoveRow, NewChallenge, NewGame, ResultRow

pytestmark = pytest.mark.slow  # PostgreSQL only: the quick loop runs the store on SQLite

CHANNEL = 2000


def new_game(channel: int = CHANNEL, first: int = 11, second: int = 22) -> NewGame:
    return NewGame(
        guild_id=1000,
        channel_id=channel,
        game="minefield",
        size=7,
        first_id=first,
        second_id=second,
        record="",
        to_move="black",
        per_move=3600,
        reminders=(1800,),
        clock=ClockRow(turn_started_at=5, deadline_at=3_600_000_005, remind_at=1_800_000_005),
        challenge_id=None,
        created_at=5,
        options=(("ai_level", "2"),),
    )


async def table_names(url: str) -> set[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        )
    finally:
        await conn.close()
    return {r[0] for r in rows}


async def test_a_new_database_is_migrated_to_the_latest_schema(pg_url: str) -> None:
    async with PostgresStore(pg_url) as store:
        assert await store.schema_version() == SCHEMA_VERSION
    assert await table_names(pg_url) == {*DATA_TABLES, "crosspath_schema"}
    async with PostgresStore(pg_url) as again:  # reopening applies nothing
        assert await again.schema_version() == SCHEMA_VERSION


@pytest.mark.slow
def test_three_processes_starting_together_apply_each_migration_once(pg_url: str) -> None:
    script = textwrap.dedent(
        """
        import asyncio, sys
        from bot.store.postgres import PostgresStore
        async def main():
            async with PostgresStore(sys.argv[1]) as store:
                print(await store.schema_version())
        asyncio.run(main())
        """
    )
    children = [
        subprocess.Popen(
            [sys.executable, "-c", script, pg_url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outputs = [child.communicate(timeout=60) for child in children]
    # A migration applied twice would fail with "relation already exists" in the later one.
    assert [child.returncode for child in children] == [0, 0, 0], outputs
    assert [out.strip() for out, _ in outputs] == [str(SCHEMA_VERSION)] * 3


async def test_a_newer_schema_is_refused_and_left_alone(pg_url: str) -> None:
    async with PostgresStore(pg_url):
        pass
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("UPDATE crosspath_schema SET version = $1", SCHEMA_VERSION + 1)
    finally:
        await conn.close()
    with pytest.raises(UnknownSchema, match=f"schema version {SCHEMA_VERSION + 1}, newer"):
        await PostgresStore.open(pg_url)
    with pytest.raises(UnknownSchema):
        await PostgresStore.open(pg_url, migrate=False)


async def test_a_failing_migration_leaves_the_previous_version(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.store.postgres import store

    broken = (*store.MIGRATIONS, ("CREATE TABLE extra (x INTEGER)", "SELECT no_such_thing"))
    monkeypatch.setattr(store, "MIGRATIONS", broken)
    monkeypatch.setattr(store, "SCHEMA_VERSION", len(broken))
    with pytest.raises(UnknownSchema, match=f"stays at version {SCHEMA_VERSION}"):
        await PostgresStore.open(pg_url)
    monkeypatch.undo()
    assert "extra" not in await table_names(pg_url)
    async with PostgresStore(pg_url) as reopened:
        assert await reopened.schema_version() == SCHEMA_VERSION


async def test_two_active_games_in_one_channel_raise_channel_taken(pg_url: str) -> None:
    async with PostgresStore(pg_url) as one, PostgresStore(pg_url) as two:
        gate = asyncio.Event()

        async def insert(store: PostgresStore, first: int) -> GameRow:
            async with store.write() as tx:
                row = await tx.games.insert_game(new_game(first=first, second=first + 1))
                await gate.wait()  # both inserts are in flight before either commits
                return row

        results = await asyncio.wait_for(
            asyncio.gather(
                insert(one, 11), insert(two, 33), _open_gate(gate), return_exceptions=True
            ),
            10,
        )
        outcomes = sorted(type(r).__name__ for r in results[:2])
        assert outcomes == ["ChannelTaken", "GameRow"], results
        async with one.read() as tx:
            assert len(await tx.games.active_games()) == 1
        # Once the game ends the channel is free again: the index only covers active games.
        async with one.write() as tx:
            active = await tx.games.active_game_in(CHANNEL)
            assert active is not None
            await tx.games.finish_game(active, ResultRow("aborted", "abort", actor_id=99), at=9)
            await tx.games.insert_game(new_game())
        with pytest.raises(ChannelTaken):
            async with two.write() as tx:
                await tx.games.insert_game(new_game(first=5, second=6))


async def _open_gate(gate: asyncio.Event) -> None:
    await asyncio.sleep(0.3)
    gate.set()


async def test_a_write_that_lost_the_race_is_a_write_conflict_and_rolls_back(pg_url: str) -> None:
    async with PostgresStore(pg_url) as store:
        async with store.write() as tx:
            row = await tx.games.insert_game(new_game())
        stale = row
        async with store.write() as tx:
            row = await tx.games.record_moves(
                row,
                [MoveRow(row.id, 1, "c3", 11, 6)],
                record="c3",
                to_move="white",
                to_move_id=22,
                at=6,
            )
        assert row.version == 1
        with pytest.raises(WriteConflict):
            async with store.write() as tx:
                await tx.games.add_event(stale.id, 7, "note", None)
                await tx.games.record_moves(
                    stale,
                    [MoveRow(row.id, 1, "d4", 11, 7)],
                    record="d4",
                    to_move="white",
                    to_move_id=22,
                    at=7,
                )
        async with store.read() as tx:
            assert [m.move for m in await tx.games.moves(row.id)] == ["c3"]
            assert await tx.games.events(row.id) == []  # the event went with the rollback
            current = await tx.games.game(row.id)
        assert current == row


async def test_two_game_commands_racing_store_one_and_refuse_the_other(pg_url: str) -> None:
    """Game commands are optimistic: both read version 0, the first to write wins and the
    other's whole block (moves, event) is refused as a WriteConflict."""
    async with PostgresStore(pg_url) as one, PostgresStore(pg_url) as two:
        async with one.write() as tx:
            row = await tx.games.insert_game(new_game())
        both_read = asyncio.Barrier(2)

        async def play(store: PostgresStore, move: str, delay: float) -> str:
            async with store.write() as tx:
                current = await tx.games.game(row.id)
                assert current is not None and current.version == 0
                await both_read.wait()
                await asyncio.sleep(delay)
                await tx.games.record_moves(
                    current,
                    [MoveRow(row.id, 1, move, 11, 6)],
                    record=move,
                    to_move="white",
                    to_move_id=22,
                    at=6,
                )
                await tx.games.add_event(row.id, 6, "note", 11, move)
            return move

        results = await asyncio.wait_for(
            asyncio.gather(play(one, "c3", 0), play(two, "d4", 0.2), return_exceptions=True), 10
        )
        assert results[0] == "c3" and isinstance(results[1], WriteConflict), results
        async with one.read() as tx:
            assert [m.move for m in await tx.games.moves(row.id)] == ["c3"]
            assert [e.detail for e in await tx.games.events(row.id)] == ["c3"]
            stored = await tx.games.game(row.id)
        assert stored is not None and stored.version == 1 and stored.record == "c3"


async def test_a_game_block_that_reads_after_writing_checks_in_a_transaction(pg_url: str) -> None:
    async with PostgresStore(pg_url) as store:
        async with store.write() as tx:
            row = await tx.games.insert_game(new_game())
        async with store.write() as tx:
            await tx.games.record_moves(
                row,
                [MoveRow(row.id, 1, "c3", 11, 6)],
                record="c3",
                to_move="white",
                to_move_id=22,
                at=6,
            )
        # Stale row, then a read: the collected writes are replayed in a transaction, where the
        # versioned update finds version 1 and the block fails before the read returns.
        with pytest.raises(WriteConflict):
            async with store.write() as tx:
                await tx.games.finish_game(row, ResultRow("finished", "resign", loser_id=11), at=7)
                await tx.games.moves(row.id)
        # The same with a fresh row commits, reads its own writes, and keeps both.
        async with store.write() as tx:
            current = await tx.games.game(row.id)
            assert current is not None
            ended = await tx.games.finish_game(
                current, ResultRow("finished", "resign", loser_id=11), at=7
            )
            await tx.games.add_event(row.id, 7, "resign", 11)
            assert [e.kind for e in await tx.games.events(row.id)] == ["resign"]
            assert await tx.games.game(row.id) == ended
        async with store.read() as tx:
            assert await tx.games.game(row.id) == ended


async def new_challenge(store: PostgresStore) -> int:
    async with store.write() as tx:
        challenge = await tx.challenges.insert_challenge(
            NewChallenge(1000, CHANNEL, 11, 22, "minefield", 7, "me", None, (), 1, 10**12)
        )
    return challenge.id


async def test_a_second_challenge_command_waits_for_the_lock_then_sees_the_result(
    pg_url: str,
) -> None:
    """Blocks that start with a challenge lock it: the later one reads the committed result."""
    async with PostgresStore(pg_url) as one, PostgresStore(pg_url) as two:
        challenge_id = await new_challenge(one)
        seen: list[str] = []
        locked = asyncio.Event()

        async def first() -> None:
            async with one.write() as tx:
                assert await tx.challenges.challenge(challenge_id) is not None
                locked.set()
                await asyncio.sleep(0.3)
                await tx.challenges.resolve_challenge(challenge_id, "declined", 5)

        async def second() -> None:
            await locked.wait()
            async with two.write() as tx:
                current = await tx.challenges.challenge(challenge_id)  # waits until first() commits
                assert current is not None
                seen.append(current.status)

        await asyncio.wait_for(asyncio.gather(first(), second()), 10)
        assert seen == ["declined"]


async def test_a_lock_held_too_long_is_database_busy(pg_url: str) -> None:
    async with PostgresStore(pg_url) as one, PostgresStore(pg_url, lock_timeout_ms=200) as two:
        challenge_id = await new_challenge(one)
        async with one.write() as tx:
            await tx.challenges.challenge(challenge_id)
            with pytest.raises(DatabaseBusy, match="lock timeout"):
                async with two.write() as other:
                    await other.challenges.challenge(challenge_id)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("postgresql://u:secret@localhost:notaport/db", "not a usable PostgreSQL URL"),
        ("postgresql://u:secret@[::1/db", "not a usable PostgreSQL URL"),
        ("postgresql://u@/db?host=/tmp&sslmode=sometimes", "not a usable PostgreSQL URL"),
        ("postgresql://u:secret@/db?host=/nonexistent/socket/dir", "cannot reach PostgreSQL"),
        ("postgresql://u:secret@127.0.0.1:1/db", "cannot reach PostgreSQL"),
    ],
)
async def test_bad_urls_and_unreachable_servers_get_one_clear_sentence(
    url: str, message: str
) -> None:
    with pytest.raises(DatabaseUnusable) as caught:
        await PostgresStore.open(url)
    text = str(caught.value)
    assert message in text
    assert "secret" not in text  # never the password
    assert "\n" not in text and len(text) < 400


async def test_an_unknown_database_or_user_is_refused_clearly(
    pg_server: PgServer, pg_url: str
) -> None:
    with pytest.raises(DatabaseUnusable, match="no such database"):
        await PostgresStore.open(pg_server.url("no_such_database"))
    # A password no temporary directory name can contain (they have no hyphen): "pw" once
    # turned up in the server's random socket directory and failed the test.
    nobody = pg_url.replace("postgresql://postgres@", "postgresql://nobody:not-shown@")
    with pytest.raises(DatabaseUnusable, match="refused the login") as caught:
        await PostgresStore.open(nobody)
    assert "not-shown" not in str(caught.value)


def test_not_a_postgres_url_is_refused() -> None:
    with pytest.raises(NotADatabase, match="not a usable PostgreSQL URL"):
        asyncio.run(PostgresStore.open("mysql://u@host/db"))


def test_target_hides_the_password() -> None:
    assert redact("postgresql://bot:hunter2@db.example:5432/crosspath") == (
        "postgresql://bot:***@db.example:5432/crosspath"
    )
    assert redact("postgresql://crosspath@/crosspath?host=/run/postgresql") == (
        "postgresql://crosspath@/crosspath?host=/run/postgresql"
    )


async def test_backup_says_to_use_pg_dump(pg_url: str) -> None:
    async with PostgresStore(pg_url) as store:
        with pytest.raises(BackupNotSupported, match="pg_dump"):
            await store.backup("copy.sqlite3")


async def test_close_is_idempotent_and_a_closed_store_refuses_work(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url)
    await asyncio.gather(store.close(), store.close())
    await store.close()
    with pytest.raises(StoreClosed):
        async with store.read() as tx:
            await tx.games.active_games()


async def test_close_waits_for_a_transaction_in_progress(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url)
    committed = asyncio.Event()

    async def slow_write() -> None:
        async with store.write() as tx:
            await tx.games.insert_game(new_game())
            await asyncio.sleep(0.3)
        committed.set()

    task = asyncio.create_task(slow_write())
    await asyncio.sleep(0.1)
    await store.close()
    await task
    assert committed.is_set()
    async with PostgresStore(pg_url) as again, again.read() as tx:
        assert len(await tx.games.active_games()) == 1


async def test_a_cancelled_write_rolls_back_and_frees_its_lock(pg_url: str) -> None:
    async with PostgresStore(pg_url, lock_timeout_ms=2000) as store:
        challenge_id = await new_challenge(store)
        started = asyncio.Event()

        async def stuck() -> None:
            async with store.write() as tx:
                assert (
                    await tx.challenges.resolve_challenge(challenge_id, "cancelled", 9) is not None
                )
                started.set()
                await asyncio.sleep(60)

        task = asyncio.create_task(stuck())
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with store.write() as tx:  # would be DatabaseBusy if the lock were still held
            current = await tx.challenges.challenge(challenge_id)
        assert current is not None and current.status == "open"


async def test_every_field_round_trips(pg_url: str) -> None:
    async with PostgresStore(pg_url) as store:
        async with store.write() as tx:
            challenge = await tx.challenges.insert_challenge(
                NewChallenge(
                    guild_id=2**62,
                    channel_id=2**62 + 1,
                    challenger_id=2**63 - 1,
                    opponent_id=None,
                    game="clearpath",
                    size=9,
                    first="random",
                    per_move=86400,
                    reminders=(43200, 77760),
                    created_at=1,
                    expires_at=2,
                    options=(("a", "1"), ("b", "x y")),
                )
            )
            game = await tx.games.insert_game(replace(new_game(), challenge_id=challenge.id))
        async with store.read() as tx:
            assert await tx.challenges.challenge(challenge.id) == challenge
            assert await tx.games.game(game.id) == game
        assert challenge.challenger_id == 2**63 - 1
        assert challenge.options == (("a", "1"), ("b", "x y"))
        assert game.reminders == (1800,) and game.options == (("ai_level", "2"),)


async def test_two_commands_on_one_game_in_one_process_take_turns(pg_url: str) -> None:
    """The service plays a move on its cached engine before writing, so within one process the
    second command on a game waits for the first and then reads the game it left."""
    async with PostgresStore(pg_url) as store:
        async with store.write() as tx:
            row = await tx.games.insert_game(new_game())
        seen: list[int] = []
        first_read = asyncio.Event()

        async def first() -> None:
            async with store.write() as tx:
                current = await tx.games.active_game_in(CHANNEL)
                assert current is not None
                first_read.set()
                await asyncio.sleep(0.2)
                await tx.games.record_moves(
                    current,
                    [MoveRow(row.id, 1, "c3", 11, 6)],
                    record="c3",
                    to_move="white",
                    to_move_id=22,
                    at=6,
                )

        async def second() -> None:
            await first_read.wait()
            async with store.write() as tx:
                current = await tx.games.game(row.id)  # waits for first(), then reads again
                assert current is not None
                seen.append(current.version)

        await asyncio.wait_for(asyncio.gather(first(), second()), 10)
        assert seen == [1]
        assert len(store._games) == 0  # every lock was given back


async def test_migration_3_fills_the_user_to_move_from_the_moves(pg_url: str, clock: Any) -> None:
    """As on SQLite: games stored before ``to_move_id`` get it from their moves, swaps
    included (PostgreSQL runs its own copy of the statement)."""
    async with PostgresStore(pg_url) as store:
        service = GameService(store, clock)
        games = []
        for channel, name, moves in (
            (1, "clearpath", ["c3", "swap"]),  # the seats are exchanged
            (2, "clearpath", ["c3", "swap", "d4"]),
            (3, "minefield", ["c3"]),
            (4, "crosscut", []),
            (5, "minefield", ["c3", "resign"]),
        ):
            challenge = await service.create_challenge(1000, channel, 11, 22, name, 5)
            info = (await service.accept_challenge(challenge.id, 22)).game
            for move in moves:
                current = await service.get_game(channel)
                assert current is not None and current.to_move_id is not None
                if move == "resign":
                    await service.resign(channel, current.to_move_id)
                else:
                    await service.play_move(channel, current.to_move_id, move)
            games.append(info.id)
        expected = [(await service.get_game_by_id(g)).to_move_id for g in games]
    assert expected == [11, 22, 22, 11, None]
    conn = await asyncpg.connect(pg_url)
    try:
        for statement in (
            *UNDO_ANALYSES,
            *UNDO_HINTS_MIGRATION,
            *UNDO_LANGUAGES_MIGRATION,
            *UNDO_MIGRATION_13,
        ):
            await conn.execute(statement)
        await conn.execute(  # the tournaments migration, undone (its index goes with it)
            "DROP TABLE tournament_creator_roles, tournament_pairings, tournament_rounds,"
            " tournament_entrants, tournaments; ALTER TABLE games DROP COLUMN tournament_id"
        )
        for statement in UNDO_MIGRATION_8:
            await conn.execute(statement)
        for column in ("claimed_by", "claimed_version", "claimed_until"):  # the turn claims'
            await conn.execute(f"ALTER TABLE games DROP COLUMN {column}")  # later migration
        await conn.execute("ALTER TABLE challenges DROP COLUMN message_id")  # migration 6
        await conn.execute("DROP TABLE notice_prefs")  # migration 9
        await conn.execute(  # the puzzles migration
            "DROP TABLE puzzle_daily, puzzle_channels, puzzle_ratings, puzzle_attempts, puzzles"
        )
        await conn.execute("DROP INDEX games_waiting_on")
        for statement in UNDO_WEB_MIGRATION:
            await conn.execute(statement)
        for statement in (  # back to before migration 4 (ratings)
            "DROP TABLE rating_history",
            "DROP TABLE ratings",
            "DROP SEQUENCE games_rating_seq",
            "ALTER TABLE games DROP COLUMN rating_seq",
            "ALTER TABLE games DROP COLUMN unrated_reason",
            "ALTER TABLE games DROP COLUMN rated",
            "ALTER TABLE challenges DROP COLUMN rated",
            "ALTER TABLE guild_settings DROP COLUMN ratings_enabled",
        ):
            await conn.execute(statement)
        await conn.execute("DROP INDEX games_by_to_move")
        await conn.execute("ALTER TABLE games DROP COLUMN to_move_id")
        await conn.execute("UPDATE crosspath_schema SET version = 2")
    finally:
        await conn.close()
    async with PostgresStore(pg_url) as store:
        assert await store.schema_version() == SCHEMA_VERSION >= 3
        async with store.read() as tx:
            rows = [await tx.games.game(g) for g in games]
    assert [r.to_move_id for r in rows if r is not None] == expected
