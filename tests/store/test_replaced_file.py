"""A SQLite file deleted or replaced under a running store is noticed at the next write, and a
file whose one-active-game index no longer matches its games is refused at open.

Before these checks the store went on committing moves into the deleted file (its inode stays
alive while the connection holds it open): players read "Played h1." and a restart found an
empty database.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from game_fixtures import ALICE, BOB

from bot.service import GameService, database_fault
from bot.store import DamagedDatabase, SqliteStore, StoreError, open_store

GUILD, CHANNEL = 1000, 2000


async def started(store: SqliteStore, channel: int = CHANNEL) -> GameService:
    service = GameService(store)
    challenge = await service.create_challenge(GUILD, channel, ALICE, BOB, "minefield")
    await service.accept_challenge(challenge.id, BOB)
    return service


def remove_database(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


async def refused_twice_logged_once(service: GameService, caplog: pytest.LogCaptureFixture) -> str:
    caplog.set_level(logging.CRITICAL, logger="bot.store")
    with pytest.raises(StoreError) as first:
        await service.play_move(CHANNEL, ALICE, "e5")
    with pytest.raises(StoreError):
        await service.play_move(CHANNEL, ALICE, "e5")
    critical = [r for r in caplog.records if r.levelno == logging.CRITICAL]
    assert len(critical) == 1, critical
    fault = database_fault(first.value)
    assert fault is not None  # the service's "database unavailable" path, not a bug
    assert "deleted or replaced" in fault
    return fault


async def test_a_deleted_file_refuses_every_write(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "bot.db"
    async with await open_store(path) as store:
        assert isinstance(store, SqliteStore)
        service = await started(store)
        remove_database(path)
        fault = await refused_twice_logged_once(service, caplog)
        assert str(path) in fault
        with pytest.raises(StoreError):
            await service.create_challenge(GUILD, CHANNEL + 1, ALICE, BOB, "minefield")
    assert not path.exists()  # nothing was written anywhere behind the players' backs


async def test_a_file_deleted_during_a_write_refuses_the_next_one(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The deletion lands while another task's transaction is open (a player's locale being
    stored beside a move): that commit must not stamp the missing file as the one opened."""
    path = tmp_path / "bot.db"
    async with await open_store(path) as store:
        assert isinstance(store, SqliteStore)
        service = await started(store)
        async with store.write() as tx:
            await tx.notices.save_locale(ALICE, "de", 1)
            remove_database(path)
        await refused_twice_logged_once(service, caplog)
    assert not path.exists()


async def test_a_file_moved_over_the_database_refuses_every_write(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path, other = tmp_path / "bot.db", tmp_path / "other.db"
    async with await open_store(other) as second:
        await started(second)  # another Crosspath database, with a game of its own
    async with await open_store(path) as store:
        assert isinstance(store, SqliteStore)
        service = await started(store)
        remove_database(path)
        os.replace(other, path)
        await refused_twice_logged_once(service, caplog)
        async with store.read() as tx:  # reads still see the file that was opened
            assert (await tx.games.active_game_in(CHANNEL)) is not None


async def test_an_unchanged_file_keeps_taking_writes(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    async with await open_store(path) as store:
        assert isinstance(store, SqliteStore)
        service = await started(store)
        await service.play_move(CHANNEL, ALICE, "e5")
    async with await open_store(path) as store, store.read() as tx:
        assert [m.move for m in await tx.games.moves(1)] == ["e5"]


def drop_from_active_index(path: Path, channel: int) -> None:
    """Make an active game that the one-active-game index does not hold: the index's
    condition is changed by hand for the insert, then put back (no page is damaged)."""
    index = "games_one_active_per_channel"
    conn = sqlite3.connect(path, isolation_level=None)
    (sql,) = conn.execute("SELECT sql FROM sqlite_schema WHERE name = ?", (index,)).fetchone()
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute(
        "UPDATE sqlite_schema SET sql = ? WHERE name = ?",
        (sql.replace("'active'", "'nowhere'"), index),
    )
    conn.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE games SET status = 'active', channel_id = ? WHERE id = 1", (channel,))
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_schema SET sql = ? WHERE name = ?", (sql, index))
    conn.close()


async def test_an_active_game_missing_from_its_index_is_refused_at_open(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    async with await open_store(path) as store:
        assert isinstance(store, SqliteStore)
        service = await started(store)
        await service.resign(CHANNEL, ALICE)
    drop_from_active_index(path, CHANNEL + 5)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
    conn.close()
    with pytest.raises(DamagedDatabase) as info:
        await open_store(path)
    assert "games_one_active_per_channel" in str(info.value)
    assert "crosspath db backup" in str(info.value)


async def test_an_old_copy_of_the_same_database_copied_over_refuses_every_write(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``cp`` keeps the inode, so the device-and-inode check alone let the bot go on writing
    into (and at close checkpoint over) the restored file."""
    path, old = tmp_path / "bot.db", tmp_path / "old.db"
    async with await open_store(path) as store:
        assert isinstance(store, SqliteStore)
        service = await started(store)
        shutil.copyfile(path, old)
        inode = os.stat(path).st_ino
        shutil.copyfile(old, path)
        assert os.stat(path).st_ino == inode  # the same file, rewritten in place
        await refused_twice_logged_once(service, caplog)


async def test_another_database_copied_over_refuses_every_write(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path, other = tmp_path / "bot.db", tmp_path / "other.db"
    async with await open_store(other) as second:
        await started(second, CHANNEL + 1)
    async with await open_store(path) as store:
        assert isinstance(store, SqliteStore)
        service = await started(store)
        inode = os.stat(path).st_ino
        shutil.copyfile(other, path)
        assert os.stat(path).st_ino == inode
        await refused_twice_logged_once(service, caplog)


async def test_another_process_checkpointing_the_file_is_not_mistaken_for_a_copy(
    tmp_path: Path,
) -> None:
    """Another connection's commit may checkpoint the file (SQLite writing it, not ``cp``)."""
    path = tmp_path / "bot.db"
    async with await open_store(path) as store:
        assert isinstance(store, SqliteStore)
        service = await started(store)
        before = os.stat(path).st_mtime_ns
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("CREATE TABLE scratch (x)")
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        other.close()
        assert os.stat(path).st_mtime_ns != before
        await service.play_move(CHANNEL, ALICE, "e5")
    async with await open_store(path) as store, store.read() as tx:
        assert [m.move for m in await tx.games.moves(1)] == ["e5"]
