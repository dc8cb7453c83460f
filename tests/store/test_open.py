"""The SQLite engine refuses files it cannot use at open, and turns driver errors into store
errors an operator can act on; in every case the file is left exactly as it was.

Files are made read-only with ``chmod`` and, when the tests run as root (who ignores file
modes), with ``chattr +i`` as well.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB

from bot.service import GameService
from bot.store import (
    SCHEMA_VERSION,
    DamagedDatabase,
    DatabaseBusy,
    DatabaseFailure,
    DatabaseUnusable,
    DiskFull,
    NotADatabase,
    ReadOnlyDatabase,
    SqliteStore,
    StoreError,
    UnknownSchema,
    open_store,
)

GUILD, CHANNEL = 1000, 2000
Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` with a hash of its bytes: nothing created, changed or removed."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "folder"
        for p in sorted(folder.iterdir())
    }


async def populated(path: Path) -> None:
    async with await open_store(path) as store:
        service = GameService(store)
        for n in range(40):
            challenge = await service.create_challenge(GUILD, CHANNEL + n, ALICE, BOB, "minefield")
            await service.accept_challenge(challenge.id, BOB)
            await service.play_move(CHANNEL + n, ALICE, "e5")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode = DELETE")  # one self-contained file to damage
    conn.close()


async def refused_at_open(path: Path, error: type[StoreError], *says: str) -> str:
    before = fingerprint(path.parent)
    with pytest.raises(error) as info:
        await open_store(path)
    message = str(info.value)
    for word in says:
        assert word in message, message
    assert fingerprint(path.parent) == before, "the file was changed by a refused open"
    return message


async def test_a_damaged_database_is_refused_with_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "damaged.db"
    await populated(path)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    for offset in range(2 * page + 100, 5 * page, 7):  # scribble over b-tree pages
        data[offset] = 0xA5
    path.write_bytes(bytes(data))
    message = await refused_at_open(path, DamagedDatabase, str(path), "crosspath db backup")
    assert "damaged" in message


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database " * 50)
    await refused_at_open(path, NotADatabase, str(path), "not a SQLite database")
    folder = tmp_path / "folder.db"
    folder.mkdir()
    await refused_at_open(folder, NotADatabase, "folder")


async def test_a_folder_that_cannot_be_made_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnusable, match="cannot create the folder"):
        await open_store("/proc/nope/x.db")


@pytest.mark.parametrize("version", [-1, -(2**31), SCHEMA_VERSION + 1, 2**31 - 1])
async def test_an_unknown_schema_version_is_refused_and_the_file_left_untouched(
    tmp_path: Path, version: int
) -> None:
    """Before: ``user_version = -1`` ran the last migration again and broke the schema."""
    path = tmp_path / "odd.db"
    await populated(path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.close()
    says = "newer" if version > SCHEMA_VERSION else "never writes"
    await refused_at_open(path, UnknownSchema, str(path), str(version), says)


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Callable[[Path], None]]:
    """Make a file read-only for this process, even as root; undone after the test."""
    locked: list[Path] = []

    def make(path: Path) -> None:
        path.chmod(0o444)
        locked.append(path)
        if os.geteuid() == 0 and shutil.which("chattr"):
            subprocess.run(["chattr", "+i", str(path)], check=False, capture_output=True)
        try:
            with path.open("r+b"):
                pass
        except OSError:
            return
        pytest.skip("cannot make a file read-only here (root without chattr +i)")

    yield make
    for path in locked:
        if shutil.which("chattr"):
            subprocess.run(["chattr", "-i", str(path)], check=False, capture_output=True)
        path.chmod(0o644)


async def test_a_read_only_database_is_refused_at_open_not_at_the_first_move(
    tmp_path: Path, read_only: Callable[[Path], None]
) -> None:
    path = tmp_path / "ro.db"
    await populated(path)
    read_only(path)
    message = await refused_at_open(path, ReadOnlyDatabase, str(path), "read-only")
    assert "write access" in message
    # A backup only reads: it may still open the file.
    async with SqliteStore(path, migrate=False) as store:
        assert await store.schema_version() == SCHEMA_VERSION


async def test_a_locked_database_says_so_and_changes_nothing(
    db_path: Path, snapshot: Snapshot
) -> None:
    async with await open_store(db_path, busy_timeout_ms=50) as store:
        service = GameService(store)
        challenge = await service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", 5)
        await service.accept_challenge(challenge.id, BOB)
        other = sqlite3.connect(db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            before = snapshot()
            with pytest.raises(DatabaseBusy) as info:
                await service.play_move(CHANNEL, ALICE, "c3")
            assert "locked" in str(info.value) and str(db_path) in str(info.value)
            other.execute("ROLLBACK")
        finally:
            other.close()
        assert snapshot() == before
        await service.play_move(CHANNEL, ALICE, "c3")  # works again once the lock is gone


@pytest.mark.slow
async def test_a_full_disk_says_so_and_changes_nothing(db_path: Path, snapshot: Snapshot) -> None:
    async with await open_store(db_path) as store:
        assert isinstance(store, SqliteStore)
        service = GameService(store)
        [(pages,)] = await store._fetchall("PRAGMA page_count")
        # The database may not grow any more: SQLite then reports SQLITE_FULL, as on a full disk.
        await store._fetchall(f"PRAGMA max_page_count = {pages + 2}")
        failed = None
        for n in range(500):
            before = snapshot()
            try:
                await service.create_challenge(GUILD, CHANNEL + n, ALICE, BOB, "minefield", 5)
            except DiskFull as exc:
                failed = exc
                break
        assert failed is not None, "the database never filled up"
        assert "full" in str(failed) and str(db_path) in str(failed)
        assert snapshot() == before
        await store._fetchall("PRAGMA max_page_count = 1073741823")
        await service.create_challenge(GUILD, CHANNEL + 999, ALICE, BOB, "minefield", 5)


async def test_numbers_beyond_64_bits_are_a_store_error(db_path: Path) -> None:
    async with await open_store(db_path) as store, store.read() as tx:
        with pytest.raises(DatabaseFailure, match="that large"):
            await tx.games.game(2**70)


async def test_backup_problems_name_the_backup_not_the_database(
    db_path: Path, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    folder = tmp_path / "a-folder"
    folder.mkdir()
    async with await open_store(db_path) as store:
        with pytest.raises(DatabaseUnusable, match="a-file") as first:
            await store.backup(blocker / "copy.db")
        with pytest.raises(DatabaseUnusable, match="a-folder") as second:
            await store.backup(folder)
        for refusal in (first, second):
            assert "crosspath.db" not in str(refusal.value)
        await store.backup(tmp_path / "fine" / "copy.db")  # the store carries on
    assert (tmp_path / "fine" / "copy.db").stat().st_size > 0
