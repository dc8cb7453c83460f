"""``crosspath db copy SOURCE TARGET``: a verified whole-database copy into an empty target.

These run SQLite to SQLite; the copy goes through the engine-neutral ``export_all`` /
``import_all`` of the store interface, so the same command moves a database to and from
PostgreSQL once that engine is installed.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ADMIN, ALICE, BOB, CAROL

from bot.cli import db as db_cli
from bot.service import GameService
from bot.store import open_store
from bot.store.errors import shown

GUILD = 1000
REPO = Path(__file__).resolve().parents[2]


def tables(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {n: conn.execute(f"SELECT * FROM {n} ORDER BY 1, 2").fetchall() for n in names}
    finally:
        conn.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def populate(path: Path, clock: Any) -> None:
    """Settings, open and accepted challenges, active, finished and taken-back games, audit."""
    async with await open_store(path) as store:
        service = GameService(store, clock, random.Random(3))
        await service.moderation.update_settings(
            GUILD, ADMIN, use_threads=True, default_sizes={"crosscut": 7}
        )
        rng = random.Random(8)
        for channel, game in enumerate(["clearpath", "minefield", "nakeddiagonal", "clearcut"]):
            challenge = await service.create_challenge(
                GUILD, 10 + channel, ALICE, BOB, game, 7, "random", "1d"
            )
            await service.accept_challenge(challenge.id, BOB)
            for _ in range(12):
                info = await service.get_game(10 + channel)
                if info is None or info.to_move_id is None:
                    break
                position = await service.position(info.id)
                await service.play_move(
                    10 + channel, info.to_move_id, rng.choice(position.legal_moves())
                )
                clock.advance(minutes=3)
        await service.play.request_takeback(
            10,
            (await service.get_game(10) or _no()).opponent_of(
                (await service.get_game(10) or _no()).to_move_id or 0
            ),
        )
        await service.moderation.admin_forfeit(GUILD, ADMIN, 11, ALICE, "left the server")
        await service.create_challenge(GUILD, 20, CAROL, None, "crosscut")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def _no() -> Any:
    raise AssertionError("expected a game")


async def test_copy_round_trips_and_is_verified(
    tmp_path: Path, clock: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    source, copy, back = tmp_path / "src.db", tmp_path / "copy.db", tmp_path / "back.db"
    await populate(source, clock)
    before = digest(source)
    assert await asyncio.to_thread(db_cli.main, ["copy", str(source), str(copy)]) == 0
    out = capsys.readouterr().out
    assert "copied" in out and "4 games" in out and "verified" in out
    assert tables(copy) == tables(source)
    assert digest(source) == before, "copying changed the source"
    assert await asyncio.to_thread(db_cli.main, ["copy", str(copy), str(back)]) == 0
    assert tables(back) == tables(source)
    async with await open_store(back) as store:  # the copy plays on
        service = GameService(store, clock)
        info = await service.get_game(12)
        assert info is not None and info.to_move_id is not None
        position = await service.position(info.id)
        await service.play_move(12, info.to_move_id, position.legal_moves()[0])
        newer = await service.create_challenge(GUILD, 30, ALICE, BOB, "minefield")
        assert newer.id > max(
            c.id for c in await service.challenges.open_challenges(GUILD) if c != newer
        )


async def test_copy_refuses_a_target_with_data_and_changes_nothing(
    tmp_path: Path, clock: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "src.db", tmp_path / "busy.db"
    await populate(source, clock)
    await populate(target, clock)
    before = tables(target)
    assert await asyncio.to_thread(db_cli.main, ["copy", str(source), str(target)]) == 1
    err = capsys.readouterr().err
    assert "already holds data" in err and "Traceback" not in err
    assert tables(target) == before


async def test_copy_refuses_bad_sources_before_touching_the_target(
    tmp_path: Path, clock: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "src.db", tmp_path / "new.db"
    assert (
        await asyncio.to_thread(db_cli.main, ["copy", str(tmp_path / "none.db"), str(target)]) == 1
    )
    assert "no database" in capsys.readouterr().err
    await populate(source, clock)
    assert await asyncio.to_thread(db_cli.main, ["copy", str(source), str(source)]) == 1
    assert "same database" in capsys.readouterr().err
    conn = sqlite3.connect(source)
    conn.execute("UPDATE moves SET move = 'a1' WHERE game_id = 3 AND ply = 4")  # tampered
    conn.commit()
    conn.close()
    assert await asyncio.to_thread(db_cli.main, ["copy", str(source), str(target)]) == 1
    assert "does not replay" in capsys.readouterr().err
    conn = sqlite3.connect(source)
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    assert await asyncio.to_thread(db_cli.main, ["copy", str(source), str(target)]) == 1
    assert "open it once with this version" in capsys.readouterr().err
    assert not target.exists()


def test_copy_through_the_entry_point_prints_one_line_and_no_traceback(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database " * 100)
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "db", "copy", str(junk), str(tmp_path / "t.db")],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "not a SQLite database" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_urls_are_shown_without_their_password() -> None:
    assert shown("postgresql://bot:hunter2@/crosspath?host=/run/postgresql") == (
        "postgresql://bot:***@/crosspath?host=/run/postgresql"
    )
    assert shown("postgres://localhost/x") == "postgres://localhost/x"
    assert len(shown("x" * 500)) == 100


async def test_copy_carries_puzzles_attempts_ratings_and_the_daily_claim(
    tmp_path: Path, clock: Any
) -> None:
    source, copy = tmp_path / "src.db", tmp_path / "copy.db"
    async with await open_store(source) as store:
        puzzles = GameService(store, clock).puzzles
        view = await puzzles.start(ALICE, 1000, "minefield")
        await puzzles.give_up(view.attempt_id, ALICE)
        await puzzles.set_channel(1000, 555)
        assert len(await puzzles.claim_daily("2026-01-02", "p1")) == 1
    assert await asyncio.to_thread(db_cli.main, ["copy", str(source), str(copy)]) == 0
    copied = tables(copy)
    assert copied == tables(source)
    for table in ("puzzles", "puzzle_attempts", "puzzle_ratings", "puzzle_channels"):
        assert copied[table], table
    assert len(copied["puzzle_daily"]) == 1
    async with await open_store(copy) as store:  # the copy carries on: no second daily post
        assert await GameService(store, clock).puzzles.claim_daily("2026-01-02", "p2") == []
