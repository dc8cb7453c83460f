"""Two processes run the clock over time banks that ran out, on one PostgreSQL database:
each game is lost on time exactly once, and a game a vacation stopped is not lost at all.

The test runs this file as a script in child processes (``clock URL GO MINUTES``), each with
its own store and service, started together behind a "go" file so that they really race.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest
from racing_children import finish, spawn, wait_for

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
GUILD, ALICE, BOB, CAROL = 1000, 11, 22, 33
GAMES = 20


def child(mode: str, url: str, *args: str) -> subprocess.Popen[str]:
    return spawn(__file__, mode, url, *args)


async def clock(url: str, go: Path, minutes: str) -> None:
    from bot.service import GameService
    from bot.store import open_store

    now = START + timedelta(minutes=int(minutes))
    async with await open_store(url) as store:
        service = GameService(store, clock=lambda: now)
        await wait_for(go)
        for outcome in await service.clocks.run_due(now):
            if outcome.ended is not None:
                print("ended", outcome.action.game_id, outcome.ended.result.loser_id)


@pytest.mark.slow
async def test_two_processes_time_out_each_empty_bank_once_and_spare_a_vacation(
    pg_url: str, tmp_path: Path
) -> None:
    from bot.service import GameService
    from bot.store import open_store

    now = START

    async with await open_store(pg_url) as store:
        service = GameService(store, clock=lambda: now)
        for channel in range(3000, 3000 + GAMES + 1):
            opponent = CAROL if channel == 3000 + GAMES else BOB
            challenge = await service.create_challenge(
                GUILD, channel, ALICE, opponent, "minefield", 7, "me", "1h+10m max 1h"
            )
            await service.accept_challenge(challenge.id, opponent)
        now = START + timedelta(minutes=30)
        for channel in range(3000, 3000 + GAMES + 1):
            await service.play_move(channel, ALICE, "d4")  # ALICE: 30m left + 10m
        await service.start_vacation(CAROL, 1)  # CAROL's game stops for a day
    go = tmp_path / "go"
    # 2h in: every BOB ran out of his hour at 1h30, so each game ends once; CAROL's waits.
    outputs = await asyncio.to_thread(
        finish, [child("clock", pg_url, str(go), "120") for _ in range(2)], go
    )
    ended = Counter(line for out in outputs for line in out.splitlines())
    assert sorted(ended.values()) == [1] * GAMES, outputs
    assert all(line.endswith(f" {BOB}") for line in ended)
    conn = await asyncpg.connect(pg_url)
    try:
        per_game = await conn.fetch(
            "SELECT game_id, count(*) AS n FROM game_events WHERE kind = 'time' GROUP BY game_id"
        )
        active = await conn.fetch("SELECT second_id FROM games WHERE status = 'active'")
    finally:
        await conn.close()
    assert len(per_game) == GAMES and all(r["n"] == 1 for r in per_game)
    assert [r["second_id"] for r in active] == [CAROL]
    # A day and 2h in: CAROL's vacation is over and her hour has run out too, once.
    go2 = tmp_path / "go2"
    outputs = await asyncio.to_thread(
        finish, [child("clock", pg_url, str(go2), str(24 * 60 + 120)) for _ in range(2)], go2
    )
    assert sorted(line for out in outputs for line in out.splitlines()) == [
        f"ended {GAMES + 1} {CAROL}"  # the last game started, CAROL's
    ]


if __name__ == "__main__":
    mode, url, *rest = sys.argv[1:]
    asyncio.run(clock(url, Path(rest[0]), rest[1]))
