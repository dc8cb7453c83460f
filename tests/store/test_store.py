"""The SQLite store: migrations, WAL, the one-active-game index, reopen, rebuild, backup."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ADMIN, ALICE, BOB, CAROL
from undo_migrations import (
    UNDO_ANALYSES,
    UNDO_HINTS_MIGRATION,
    UNDO_LANGUAGES_MIGRATION,
    UNDO_MIGRATION_8,
    UNDO_MIGRATION_13,
)
from web_games import UNDO_WEB_MIGRATION

from bot.cli import db as db_cli
from bot.service import GameInfo, GameService
from bot.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    ChannelTaken,
    ClockRow,
    DatabaseFailure,
    MoveRow,
    NewGame,
    ResultRow,
    UnknownSchema,
    WriteConflict,
)
from bot.store import SqliteStore as Store
from bot.store import sqlite as store_module

GUILD, CHANNEL = 1000, 2000
StartGame = Callable[..., Awaitable[GameInfo]]


def tables(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: sorted(conn.execute(f"SELECT * FROM {n}").fetchall(), key=repr) for n in names}
    finally:
        conn.close()


def undo_migration_8(conn: sqlite3.Connection) -> None:
    """Take a database back to before the time banks and vacations migration."""
    for statement in UNDO_MIGRATION_8:
        conn.execute(statement)


def undo_migration_4(conn: sqlite3.Connection) -> None:
    """Take a database back to before the ratings migration (for tests of older ones)."""
    for statement in (
        "DROP TABLE rating_history",
        "DROP TABLE ratings",
        "DROP INDEX games_by_rating_seq",
        "ALTER TABLE games DROP COLUMN rating_seq",
        "ALTER TABLE games DROP COLUMN unrated_reason",
        "ALTER TABLE games DROP COLUMN rated",
        "ALTER TABLE challenges DROP COLUMN rated",
        "ALTER TABLE guild_settings DROP COLUMN ratings_enabled",
    ):
        conn.execute(statement)


async def test_migrations_from_an_empty_database(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    async with Store(path) as store:
        assert await store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
        mode = await store._fetchall("PRAGMA journal_mode")
        timeout = await store._fetchall("PRAGMA busy_timeout")
        assert [tuple(r) for r in mode] == [("wal",)]
        assert [tuple(r) for r in timeout] == [(5000,)]
    assert set(tables(path)) == {
        "guild_settings",
        "challenges",
        "games",
        "moves",
        "game_events",
        "audit_log",
        "ratings",
        "rating_history",
        "tournaments",
        "tournament_entrants",
        "tournament_rounds",
        "tournament_pairings",
        "tournament_creator_roles",
        "vacations",
        "notice_prefs",
        "analyses",
        "puzzles",
        "puzzle_attempts",
        "puzzle_ratings",
        "puzzle_channels",
        "puzzle_daily",
    }
    # Reopening applies nothing twice.
    async with Store(path) as store:
        assert await store.schema_version() == SCHEMA_VERSION


async def test_a_failing_migration_rolls_back_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "m.db"
    broken = (*MIGRATIONS, ("CREATE TABLE extra (x INTEGER)", "CREATE TABLE broken ("))
    monkeypatch.setattr(store_module, "MIGRATIONS", broken)
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", len(broken))
    with pytest.raises(DatabaseFailure, match=r"m\.db"):
        await Store.open(path)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "extra" not in names and "games" in names
    finally:
        conn.close()


async def test_a_version_1_database_gains_empty_options_and_keeps_its_rows(
    tmp_path: Path,
) -> None:
    """Migration 2 adds ``options`` to challenges and games; rows written before keep every
    value and read back with no options, and the game plays on."""
    path = tmp_path / "v1.db"
    conn = sqlite3.connect(path)
    try:
        for statement in MIGRATIONS[0]:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
        conn.execute(
            "INSERT INTO challenges (id, guild_id, channel_id, challenger_id, opponent_id, game,"
            " size, first, status, created_at, expires_at, resolved_at, accepted_by, game_id)"
            " VALUES (1, ?, ?, ?, ?, 'minefield', 5, 'me', 'accepted', 0, 10, 5, ?, 1)",
            (GUILD, CHANNEL, ALICE, BOB, BOB),
        )
        conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, game, size, first_id, second_id,"
            " record, to_move, turn_started_at, challenge_id, created_at, updated_at)"
            " VALUES (1, ?, ?, 'minefield', 5, ?, ?, 'minefield 5:', 'black', 5, 1, 5, 5)",
            (GUILD, CHANNEL, ALICE, BOB),
        )
        conn.commit()
        before = tables(path)
    finally:
        conn.close()

    async with Store(path) as store:
        assert await store.schema_version() == SCHEMA_VERSION >= 2
        service = GameService(store)
        challenge = await service.challenges.get_challenge(1)
        game = await service.get_game_by_id(1)
        assert challenge.options == {} and game.options == {}
        assert (challenge.challenger_id, challenge.accepted_by, challenge.game_id) == (
            ALICE,
            BOB,
            1,
        )
        assert game.player_ids == (ALICE, BOB) and game.to_move_id == ALICE
        await service.play_move(CHANNEL, ALICE, "c3")
    after = tables(path)
    # migration 2 added options, migration 4 rated (an active game stays rated), migration 6
    # the message id (none for a challenge posted before it)
    conn = sqlite3.connect(path)
    try:  # by name: later migrations add more columns after these
        added_to_challenges = conn.execute(
            "SELECT options, rated, message_id FROM challenges"
        ).fetchall()
        added = conn.execute(
            "SELECT options, to_move_id, rated, unrated_reason, rating_seq FROM games"
        ).fetchall()
    finally:
        conn.close()
    assert added_to_challenges == [("{}", 1, None)]
    # options, then migration 3's to_move_id, then migration 4's rated, reason and sequence
    assert added == [("{}", BOB, 1, None, None)]
    width = len(before["challenges"][0])
    assert [row[:width] for row in after["challenges"]] == before["challenges"]
    assert after["games"][0][:7] == before["games"][0][:7]  # ids, game, size, seats unchanged
    assert after["moves"] and after["moves"][0][2] == "c3"


async def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(UnknownSchema, match="newer"):
        await Store.open(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    conn.close()


async def test_the_database_itself_allows_one_active_game_per_channel(
    store: Store, start_game: StartGame
) -> None:
    info = await start_game("minefield", 5)
    row = None
    async with store.read() as tx:
        row = await tx.games.game(info.id)
    assert row is not None
    new = NewGame(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="minefield",
        size=5,
        first_id=CAROL,
        second_id=BOB,
        record="minefield 5:",
        to_move="black",
        to_move_id=CAROL,
        per_move=None,
        reminders=(),
        clock=ClockRow(0, None, None),
        challenge_id=None,
        created_at=0,
    )
    with pytest.raises(ChannelTaken):
        async with store.write() as tx:
            await tx.games.insert_game(new)
    # A finished game does not block the channel.
    async with store.write() as tx:
        await tx.games.finish_game(row, ResultRow("aborted", "abort"), at=1)
        await tx.games.insert_game(new)


async def populate(service: GameService, clock: Any) -> None:
    """A database with every kind of state: settings, open/finished challenges, games, audit."""
    await service.moderation.update_settings(
        GUILD, ADMIN, use_threads=True, default_sizes={"crosscut": 7}
    )
    a = await service.create_challenge(GUILD, 1, ALICE, BOB, "clearpath", 6, "random", "1d")
    await service.accept_challenge(a.id, BOB, 11)
    await service.play_move(11, (await service.get_game(11) or _no()).to_move_id or 0, "c3")
    clock.advance(minutes=5)
    b = await service.create_challenge(GUILD, 1, ALICE, CAROL, "minefield", 5)
    await service.accept_challenge(b.id, CAROL, 12)
    await service.play_move(12, ALICE, "a1")
    await service.play.request_takeback(12, ALICE)
    c = await service.create_challenge(GUILD, 1, BOB, CAROL, "crosscut")
    await service.accept_challenge(c.id, CAROL, 13)
    await service.moderation.admin_forfeit(GUILD, ADMIN, 13, CAROL, "left")
    await service.create_challenge(GUILD, 1, CAROL, None, "nakeddiagonal", 6)


def _no() -> GameInfo:
    raise AssertionError("expected a game")


async def view(service: GameService) -> list[Any]:
    games = [await service.get_game_by_id(i) for i in (1, 2, 3)]
    return [
        games,
        [await service.games.game_record(g.id) for g in games],
        await service.challenges.open_challenges(GUILD),
        await service.moderation.get_settings(GUILD),
        await service.moderation.audit_log(GUILD),
        await service.games.games_for_player(GUILD, ALICE),
        await service.clocks.due(),
        await service.clocks.next_due_at(),
    ]


async def test_close_and_reopen_gives_identical_state(db_path: Path, clock: Any) -> None:
    async with Store(db_path) as store:
        service = GameService(store, clock, random.Random(5))
        await populate(service, clock)
        before = await view(service)
    rows = tables(db_path)
    async with Store(db_path) as store:
        service = GameService(store, clock, random.Random(5))
        assert await view(service) == before
    assert tables(db_path) == rows


@pytest.mark.engines("sqlite")  # reads and writes the SQLite file directly
async def test_cached_state_is_rebuilt_from_the_moves(
    db_path: Path, service: GameService, start_game: StartGame
) -> None:
    info = await start_game("minefield", 9)
    await service.play_move(CHANNEL, ALICE, "e5")
    await service.play_move(CHANNEL, BOB, "d4")
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE games SET record = 'garbage', to_move = 'nobody'")
    conn.commit()
    conn.close()
    service.core.forget_engines()
    # Positions come from the moves table, never from the cached columns.
    current = await service.get_game(CHANNEL)
    assert current is not None and current.record == "minefield 9: e5 d4"
    assert current.to_move_id == ALICE
    rebuilt = await service.games.rebuild_cached_state(info.id)
    assert rebuilt.record == "minefield 9: e5 d4"
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT record, to_move FROM games").fetchone() == (
        "minefield 9: e5 d4",
        "black",
    )
    conn.close()


@pytest.mark.engines("sqlite")  # reads and writes the SQLite file directly
async def test_backup_copies_a_live_database(
    tmp_path: Path, db_path: Path, store: Store, service: GameService, clock: Any
) -> None:
    await populate(service, clock)
    target = tmp_path / "copies" / "backup.db"
    await store.backup(target)
    assert tables(target) == tables(db_path)
    async with Store(target) as copy:
        assert await copy.integrity_check() == "ok"
        restored = GameService(copy, clock)
        assert await view(restored) == await view(service)


@pytest.mark.engines("sqlite")  # reads and writes the SQLite file directly
async def test_backup_command(
    tmp_path: Path, store: Store, service: GameService, clock: Any, capsys: Any
) -> None:
    await populate(service, clock)
    target = tmp_path / "cli-backup.db"
    # The bot keeps its connection open while the command runs in another thread.
    import asyncio

    code = await asyncio.to_thread(db_cli.main, ["backup", str(target), "--db", str(store.path)])
    assert code == 0 and "backed up" in capsys.readouterr().out
    assert tables(target) == tables(store.path)
    assert db_cli.main(["backup", str(target), "--db", str(store.path)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert db_cli.main(["backup", str(tmp_path / "x.db"), "--db", str(tmp_path / "none.db")]) == 1
    assert "no database" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


async def test_a_version_conflict_rolls_back_the_whole_transaction(
    store: Store, start_game: StartGame, db_path: Path
) -> None:
    info = await start_game("minefield", 5)
    async with store.read() as tx:
        row = await tx.games.game(info.id)
    assert row is not None
    before = tables(db_path)
    stale = replace(row, version=row.version + 7)
    with pytest.raises(WriteConflict):
        async with store.write() as tx:
            await tx.games.record_moves(
                stale,
                [MoveRow(info.id, 0, "c3", ALICE, 1)],
                record="minefield 5: c3",
                to_move="white",
                to_move_id=BOB,
                at=1,
            )
    assert tables(db_path) == before
    # The connection is usable afterwards: the next transaction commits normally.
    async with store.write() as tx:
        await tx.games.record_moves(
            row,
            [MoveRow(info.id, 0, "c3", ALICE, 1)],
            record="minefield 5: c3",
            to_move="white",
            to_move_id=BOB,
            at=1,
        )
    async with store.read() as tx:
        row = await tx.games.game(info.id)
    assert row is not None and row.version == info.version + 1


def test_backup_command_leaves_the_schema_alone_and_refuses_non_databases(
    tmp_path: Path, capsys: Any
) -> None:
    old = tmp_path / "old.db"
    conn = sqlite3.connect(old)
    conn.execute("CREATE TABLE legacy (x INTEGER)")
    conn.execute("INSERT INTO legacy VALUES (7)")
    conn.commit()
    conn.close()
    assert db_cli.main(["backup", str(tmp_path / "old-copy.db"), "--db", str(old)]) == 0
    assert "schema version 0" in capsys.readouterr().out
    assert tables(tmp_path / "old-copy.db") == {"legacy": [(7,)]} == tables(old)

    junk = tmp_path / "notes.txt"
    junk.write_text("not a database at all, just some text " * 20)
    assert db_cli.main(["backup", str(tmp_path / "junk-copy.db"), "--db", str(junk)]) == 1
    assert "cannot back up" in capsys.readouterr().err


async def test_migration_3_fills_the_user_to_move_from_the_moves(db_path: Path, clock: Any) -> None:
    """Games stored before ``to_move_id`` existed get it from their moves, swaps included."""
    async with Store(db_path) as store:
        service = GameService(store, clock, random.Random(5))
        games = []
        for channel, game, moves in (
            (1, "clearpath", ["c3", "swap"]),  # the seats are exchanged
            (2, "clearpath", ["c3", "swap", "d4"]),
            (3, "minefield", ["c3"]),
            (4, "crosscut", []),
            (5, "minefield", ["c3", "resign"]),
        ):
            challenge = await service.create_challenge(GUILD, channel, ALICE, BOB, game, 5)
            info = (await service.accept_challenge(challenge.id, BOB)).game
            for move in moves:
                mover = (await service.get_game(channel) or _no()).to_move_id or 0
                if move == "resign":
                    await service.resign(channel, mover)
                else:
                    await service.play_move(channel, mover, move)
            games.append(info.id)
        expected = [(await service.get_game_by_id(g)).to_move_id for g in games]
    assert expected == [ALICE, BOB, BOB, ALICE, None]
    conn = sqlite3.connect(db_path)
    for statement in (
        *UNDO_ANALYSES,
        *UNDO_HINTS_MIGRATION,
        *UNDO_LANGUAGES_MIGRATION,
        *UNDO_MIGRATION_13,
    ):
        conn.execute(statement)
    for table in (  # the tournaments migration, undone
        "tournament_creator_roles",
        "tournament_pairings",
        "tournament_rounds",
        "tournament_entrants",
        "tournaments",
    ):
        conn.execute(f"DROP TABLE {table}")
    conn.execute("DROP INDEX games_by_tournament")
    conn.execute("ALTER TABLE games DROP COLUMN tournament_id")
    undo_migration_8(conn)
    for column in ("claimed_by", "claimed_version", "claimed_until"):  # the turn claims' later
        conn.execute(f"ALTER TABLE games DROP COLUMN {column}")  # migration: undone as well
    conn.execute("ALTER TABLE challenges DROP COLUMN message_id")  # migration 6
    conn.execute("DROP TABLE notice_prefs")  # migration 9
    for table in (
        "puzzle_daily",
        "puzzle_channels",
        "puzzle_ratings",
        "puzzle_attempts",
        "puzzles",
    ):
        conn.execute(f"DROP TABLE {table}")  # the puzzles migration
    conn.execute("DROP INDEX games_waiting_on")
    for statement in UNDO_WEB_MIGRATION:
        conn.execute(statement)
    undo_migration_4(conn)
    conn.execute("DROP INDEX games_by_to_move")
    conn.execute("ALTER TABLE games DROP COLUMN to_move_id")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    async with Store(db_path) as store:
        assert await store.schema_version() == SCHEMA_VERSION
        async with store.read() as tx:
            rows = [await tx.games.game(g) for g in games]
        assert [r.to_move_id for r in rows if r is not None] == expected
