"""A database that fails is explained to players, and logged as the store's sentence.

A damaged SQLite file and a PostgreSQL that stops taking connections are real faults, not
bugs: players are told the bot's database is unavailable, that their move was not recorded
and to try again shortly (never the apology for a bug), and the log gets one ERROR line with
the store's own sentence and no traceback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord_fakes as fakes
import loop_guard as guard
import pytest
from discord_fakes import ALICE, BOB
from pg_server import PgServer, set_connections

from bot.discord.replies import APOLOGY, DATABASE_DOWN
from bot.store import DatabaseFailure

CHANNEL = fakes.CHANNEL
h = fakes.h
loop_guard = guard.loop_guard
close_harnesses = fakes.close_harnesses


def damage(db_path: Path) -> None:
    """Overwrite the database and its WAL and shared-memory files with a fixed pattern."""
    for part in db_path.parent.glob(db_path.name + "*"):
        size = part.stat().st_size
        with part.open("r+b") as file:
            file.write((b"\xde\xad\xbe\xef" * (size // 4 + 1))[:size])


def fault_records(caplog: pytest.LogCaptureFixture) -> Iterator[logging.LogRecord]:
    return (r for r in caplog.records if r.name == "crosspath.discord" and r.levelno >= 40)


async def test_a_damaged_database_file_is_explained_not_apologised_for(
    db_path: Path, clock: Any, caplog: pytest.LogCaptureFixture
) -> None:
    h = await fakes.open_harness(db_path, clock)
    await fakes.challenge_and_accept(h)
    [request_reply] = await h.command("resign", BOB)  # a button to press once it is damaged
    damage(db_path)
    h.fake.clear()
    with caplog.at_level(logging.ERROR, logger="crosspath.discord"):
        move = fakes.refusal(await h.command("move", ALICE, point="c3"))
        press = fakes.refusal(await h.click(request_reply.custom_ids[0], BOB))
    for answer in (move, press):
        assert answer.content == DATABASE_DOWN and answer.content != APOLOGY
        assert "unavailable" in answer.content and "not recorded" in answer.content
    records = list(fault_records(caplog))
    assert len(records) == 2
    for record in records:
        assert record.exc_info is None, "a known fault is logged without a traceback"
        assert "the database is unavailable" in record.getMessage()
        assert db_path.name in record.getMessage()  # the store's own sentence names the file
    assert records[0].command == "move"  # type: ignore[attr-defined]
    assert records[1].custom_id == request_reply.custom_ids[0]  # type: ignore[attr-defined]
    assert not h.fake.of_kind("channel_message"), "no board was posted"

    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="crosspath.discord"):
        await h.bot.get_cog("ClockCog").tick()  # the clock's own tick keeps going, quietly
    [record] = fault_records(caplog)
    assert record.exc_info is None and "clock tick failed" in record.getMessage()
    assert db_path.name in record.getMessage()
    await h.close()


async def test_postgresql_going_away_is_explained_and_the_move_is_not_recorded(
    pg_server: PgServer, pg_url: str, clock: Any, caplog: pytest.LogCaptureFixture
) -> None:
    h = await fakes.open_harness(pg_url, clock)
    await fakes.challenge_and_accept(h)
    h.fake.clear()
    await set_connections(pg_server, pg_url, False)
    with caplog.at_level(logging.ERROR, logger="crosspath.discord"):
        # asyncpg's pool keeps reconnecting in the background until the database is back,
        # so the database comes back once the player has been answered
        delivery = asyncio.create_task(
            h.run(h.payloads.command("move", ALICE, [fakes.opt("point", "c3")]), timeout=30)
        )
        for _ in range(400):
            if h.fake.of_kind("followup") or delivery.done():
                break
            await asyncio.sleep(0.05)
        await set_connections(pg_server, pg_url, True)
        answer = fakes.refusal(await delivery)
    assert answer.content == DATABASE_DOWN
    [record] = fault_records(caplog)
    assert record.exc_info is None and "PostgreSQL" in record.getMessage()
    assert record.command == "move" and record.user_id == ALICE.id  # type: ignore[attr-defined]

    info = await h.service.get_game(CHANNEL)
    assert info is not None and info.moves == (), "the move was not recorded"
    sent = await h.command("move", ALICE, point="c3")
    assert [s.kind for s in sent] == ["defer", "channel_message", "followup"], "it works again"
    await h.close()


async def test_a_fault_after_the_resignation_was_recorded_says_it_counts(
    h: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The resignation committed, then the database failed while the board was being drawn:
    the player must not be told it was not recorded.  (A move reads nothing after its write:
    its result carries the position; see test_a_move_reads_nothing_after_its_write.)"""
    await fakes.challenge_and_accept(h)

    async def failing(game_id: int) -> None:
        raise DatabaseFailure("the database crosspath.db failed: disk I/O error")

    asked = await h.command("resign", ALICE)
    assert fakes.custom_ids_of(asked[-1].body["data"])[0] == "cp:resign:yes:1:0"
    monkeypatch.setattr(h.service, "position", failing)
    with caplog.at_level(logging.ERROR, logger="crosspath.discord"):
        sent = await h.click("cp:resign:yes:1:0", ALICE)
    assert [s.kind for s in sent] == ["update", "followup"]  # the question is answered, then:
    answer = sent[-1]
    assert answer.ephemeral and answer.content.startswith("You resigned, but the bot's database")
    assert "/board" in answer.content and "not recorded" not in answer.content
    [record] = fault_records(caplog)
    assert record.exc_info is None and "disk I/O error" in record.getMessage()
    monkeypatch.undo()
    assert (await h.service.games.latest_game(CHANNEL)).result is not None


async def test_a_move_reads_nothing_after_its_write(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One write and no read per /move: the move's result carries the position to draw,
    the rating change and the waiting player's notice choice."""
    await fakes.challenge_and_accept(h)
    store = h.service.store
    opened: list[str] = []
    read, write = store.read, store.write
    monkeypatch.setattr(store, "read", lambda: (opened.append("read"), read())[1])
    monkeypatch.setattr(store, "write", lambda: (opened.append("write"), write())[1])
    sent = await h.command("move", ALICE, point="c3")
    assert [s.kind for s in sent] == ["defer", "channel_message", "followup"]
    assert opened == ["write"]
    monkeypatch.undo()
    assert (await h.service.get_game(CHANNEL)).moves == ("c3",)
