"""``crosspath db copy`` across engines: SQLite → PostgreSQL → SQLite keeps every row.

Real files and a real PostgreSQL server (``tests/support/pg_server.py``); the databases are filled
through the service, so every kind of row the bot writes is copied.  (SQLite → SQLite and the
command's other refusals are in ``test_copy.py``.)
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ADMIN, ALICE, BOB, CAROL, FakeClock
from pg_server import table_rows as pg_table_rows

from bot.cli import db as db_cli
from bot.service import GameService, ServiceError
from bot.store import StoreNotEmpty, open_store
from bot.store.copy import copy_store

pytestmark = pytest.mark.slow  # PostgreSQL only: the quick loop runs the store on SQLite

GUILD = 1000


def table_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of a SQLite file, in a stable order."""
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {n: sorted(conn.execute(f"SELECT * FROM {n}").fetchall(), key=repr) for n in names}
    finally:
        conn.close()


async def fill(target: str | Path) -> list[Any]:
    """Every kind of state: settings, challenges in each status, games finished on the board,
    by resignation, by time and by an admin, an accepted takeback, a pending one; returns what
    the service shows of it."""
    clock = FakeClock()
    rng = random.Random(7)
    async with await open_store(target) as store:
        service = GameService(store, clock, random.Random(3))
        await service.moderation.update_settings(
            GUILD, ADMIN, use_threads=True, default_sizes={"crosscut": 7}
        )
        channel = 100
        for name in ("minefield", "clearpath", "crosscut", "nakeddiagonal", "clearcut"):
            channel += 1
            challenge = await service.create_challenge(
                GUILD, 1, ALICE, BOB, name, 5, "random", "1d", options={"ai_level": "2"}
            )
            await service.accept_challenge(challenge.id, BOB, channel)
            while (info := await service.get_game(channel)) is not None:  # play to the end
                position = await service.position(info.id)
                try:
                    await service.play_move(
                        channel, info.to_move_id or 0, rng.choice(position.legal_moves())
                    )
                except ServiceError:
                    continue
        challenge = await service.create_challenge(GUILD, 1, ALICE, CAROL, "minefield", 5)
        await service.accept_challenge(challenge.id, CAROL, 201)
        await service.play_move(201, ALICE, "a1")
        await service.play_move(201, CAROL, "c3")
        await service.play.request_takeback(201, CAROL)
        await service.play.answer_takeback(201, ALICE, True)
        await service.play.request_takeback(201, ALICE)  # left pending
        challenge = await service.create_challenge(GUILD, 1, BOB, CAROL, "crosscut", 6, "me", "1h")
        await service.accept_challenge(challenge.id, CAROL, 202)
        clock.advance(hours=2)
        await service.clocks.run_due()  # BOB loses on time
        challenge = await service.create_challenge(GUILD, 1, BOB, ALICE, "clearcut", 4)
        await service.accept_challenge(challenge.id, ALICE, 203)
        await service.moderation.admin_forfeit(GUILD, ADMIN, 203, ALICE, "left the server")
        challenge = await service.create_challenge(GUILD, 1, CAROL, ALICE, "minefield", 5)
        await service.challenges.decline_challenge(challenge.id, ALICE)
        await service.create_challenge(GUILD, 1, CAROL, None, "nakeddiagonal", 6)
        return await view(service)


async def view(service: GameService) -> list[Any]:
    games = await service.games.games_for_player(GUILD, ALICE, limit=100)
    games += await service.games.games_for_player(GUILD, BOB, limit=100)
    return [
        games,
        [await service.games.game_record(g.id) for g in games],
        await service.challenges.open_challenges(GUILD),
        await service.moderation.get_settings(GUILD),
        await service.moderation.audit_log(GUILD),
        await service.clocks.next_due_at(),
    ]


async def seen(target: str | Path) -> list[Any]:
    clock = FakeClock()
    clock.advance(hours=2)  # when ``fill`` read it: ``time_left`` is as at the reading
    async with await open_store(target) as store:
        return await view(GameService(store, clock))


async def test_sqlite_to_postgres_and_back_keeps_every_row(tmp_path: Path, pg_url: str) -> None:
    original = tmp_path / "bot.sqlite3"
    before = await fill(original)
    report = await copy_store(original, pg_url)
    assert report.replayed == 8 and report.counts["games"] == 8
    assert report.counts["challenges"] == 10 and report.counts["audit"] == 2
    assert report.counts["moves"] > 30
    assert await seen(pg_url) == before
    back = tmp_path / "back.sqlite3"
    await copy_store(pg_url, back)
    assert table_rows(back) == table_rows(original)  # every row, ids included
    # The copy is a working database: new rows get fresh ids after the copied ones.
    async with await open_store(pg_url) as store:
        service = GameService(store, FakeClock())
        challenge = await service.create_challenge(GUILD, 1, ALICE, BOB, "minefield", 5)
        started = await service.accept_challenge(challenge.id, BOB, 300)
    assert challenge.id == 11 and started.game.id == 9


async def test_postgres_to_a_new_sqlite_file(tmp_path: Path, pg_url: str) -> None:
    before = await fill(pg_url)
    local = tmp_path / "local" / "copy.sqlite3"
    await copy_store(pg_url, local)
    assert await seen(local) == before


async def test_a_postgres_target_with_rows_is_refused_and_left_alone(
    tmp_path: Path, pg_url: str
) -> None:
    source = tmp_path / "bot.sqlite3"
    await fill(source)
    await copy_store(source, pg_url)
    rows = pg_table_rows(pg_url)
    with pytest.raises(StoreNotEmpty, match="already holds data"):
        await copy_store(source, pg_url)
    assert pg_table_rows(pg_url) == rows


def test_the_command_copies_to_postgres_and_reports_in_one_line(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bot.sqlite3"
    asyncio.run(fill(source))
    assert db_cli.main(["copy", str(source), pg_url]) == 0
    out = capsys.readouterr().out.strip()
    assert "\n" not in out and "8 games" in out and "all 8 games replay" in out
    assert db_cli.main(["copy", str(source), pg_url]) == 1  # again: the target holds data
    err = capsys.readouterr().err.strip()
    assert "already holds data" in err and "\n" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("postgresql://u:secret@127.0.0.1:1/db", "cannot reach PostgreSQL"),
        ("postgresql://u:secret@host:port/db", "not a usable PostgreSQL URL"),
    ],
)
def test_the_command_explains_a_bad_postgres_target_in_one_line(
    tmp_path: Path, target: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bot.sqlite3"
    asyncio.run(fill(source))
    assert db_cli.main(["copy", str(source), target]) == 1
    err = capsys.readouterr().err.strip()
    assert message in err and "secret" not in err and "\n" not in err


def test_backup_of_a_postgres_database_says_to_use_pg_dump(
    pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert db_cli.main(["backup", "copy.sqlite3", "--db", pg_url]) == 1
    err = capsys.readouterr().err
    assert "pg_dump" in err and "Traceback" not in err
