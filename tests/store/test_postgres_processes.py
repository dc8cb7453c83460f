"""Several processes on one PostgreSQL database: each action applied exactly once.

The tests run this file as a script in child processes (``MODE URL …``), each with its own
store and service, started together behind a "go" file so that they really race:

* ``race``: three processes play a different move for the same turn at the same version;
  exactly one is stored and the others are refused.
* ``clock``: two processes run the clock over the same due reminders and timeouts; each
  reminder is sent once and each game is lost on time once.
* ``write``: a process plays random games as fast as it can and prints ``ack`` after each move
  call returns; it is killed with SIGKILL and every acknowledged move must be stored.
"""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest
from racing_children import finish, spawn, wait_for

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
GUILD, ALICE, BOB = 1000, 11, 22
GAMES = 30  # games the two clock processes race over (more games, more collisions)


def child(mode: str, url: str, *args: str) -> subprocess.Popen[str]:
    return spawn(__file__, mode, url, *args)


# ----- the children -------------------------------------------------------------------------
async def race(url: str, go: Path, move: str) -> None:
    from bot.service import GameService, ServiceError
    from bot.store import open_store

    async with await open_store(url) as store:
        service = GameService(store, clock=lambda: START)
        info = await service.get_game(2000)
        assert info is not None
        await wait_for(go)
        try:
            await service.play_move(2000, ALICE, move, expected_version=info.version)
            print("stored")
        except ServiceError as exc:
            print(type(exc).__name__)


async def clock(url: str, go: Path, minutes: str) -> None:
    from bot.service import GameService
    from bot.store import open_store

    now = START + timedelta(minutes=int(minutes))
    async with await open_store(url) as store:
        service = GameService(store, clock=lambda: now)
        await wait_for(go)
        for outcome in await service.clocks.run_due(now):
            kind = "ended" if outcome.ended else "reminder" if outcome.reminder else "expired"
            print(kind, outcome.action.game_id)


async def write_forever(url: str) -> None:
    from bot.service import GameService
    from bot.store import open_store

    rng = random.Random(3)
    async with await open_store(url) as store:
        service = GameService(store, rng=rng)
        channels = list(range(100, 108))
        for channel in channels:
            challenge = await service.create_challenge(GUILD, channel, ALICE, BOB, "minefield", 7)
            await service.accept_challenge(challenge.id, BOB)
        while True:
            channel = rng.choice(channels)
            info = await service.get_game(channel)
            if info is None:
                challenge = await service.create_challenge(
                    GUILD, channel, ALICE, BOB, "minefield", 7
                )
                info = (await service.accept_challenge(challenge.id, BOB)).game
            position = await service.position(info.id)
            move = rng.choice(position.legal_moves())
            assert info.to_move_id is not None
            result = await service.play_move(channel, info.to_move_id, move)
            print(f"ack {info.id} {result.events[0].ply} {move}", flush=True)


# ----- the tests ----------------------------------------------------------------------------
@pytest.mark.slow
async def test_three_processes_racing_one_turn_store_exactly_one_move(
    pg_url: str, tmp_path: Path
) -> None:
    from bot.service import GameService
    from bot.store import open_store

    async with await open_store(pg_url) as store:
        service = GameService(store, clock=lambda: START)
        challenge = await service.create_challenge(GUILD, 2000, ALICE, BOB, "minefield", 7)
        await service.accept_challenge(challenge.id, BOB)
    go = tmp_path / "go"
    children = [child("race", pg_url, str(go), move) for move in ("a1", "d4", "g7")]
    outputs = await asyncio.to_thread(finish, children, go)
    results = Counter(out.strip() for out in outputs)
    assert results["stored"] == 1, outputs
    # A loser that read the game before the winner's write is refused as stale; one that read
    # it after sees the move made and that it is no longer ALICE's turn.
    assert results["StaleAction"] + results["NotYourTurn"] == 2, outputs
    conn = await asyncpg.connect(pg_url)
    try:
        moves = await conn.fetch("SELECT ply, move FROM moves")
        version = await conn.fetchval("SELECT version FROM games")
    finally:
        await conn.close()
    assert len(moves) == 1 and version == 1
    winner = ("a1", "d4", "g7")[[out.strip() for out in outputs].index("stored")]
    assert moves[0]["move"] == winner


@pytest.mark.slow
async def test_two_processes_running_the_clock_apply_each_action_once(
    pg_url: str, tmp_path: Path
) -> None:
    from bot.service import GameService
    from bot.store import open_store

    async with await open_store(pg_url) as store:
        service = GameService(store, clock=lambda: START)
        for channel in range(3000, 3000 + GAMES):
            challenge = await service.create_challenge(
                GUILD, channel, ALICE, BOB, "minefield", 7, "me", "1h"
            )
            await service.accept_challenge(challenge.id, BOB)
    go = tmp_path / "go"
    # 40 minutes in: every game owes its half-time reminder (at 30 minutes), once.
    outputs = await asyncio.to_thread(
        finish, [child("clock", pg_url, str(go), "40") for _ in range(2)], go
    )
    reminders = Counter(line for out in outputs for line in out.splitlines())
    assert sorted(reminders.values()) == [1] * GAMES, outputs
    assert all(line.startswith("reminder ") for line in reminders)
    # Two hours in: every game is lost on time, once (and the 54-minute reminder is moot).
    go2 = tmp_path / "go2"
    outputs = await asyncio.to_thread(
        finish, [child("clock", pg_url, str(go2), "120") for _ in range(2)], go2
    )
    ended = Counter(line for out in outputs for line in out.splitlines() if "ended" in line)
    assert sorted(ended.values()) == [1] * GAMES, outputs
    conn = await asyncpg.connect(pg_url)
    try:
        per_game = await conn.fetch(
            "SELECT game_id, count(*) AS n FROM game_events WHERE kind = 'time' GROUP BY game_id"
        )
        sent = await conn.fetch("SELECT reminders_sent FROM games")
        active = await conn.fetchval("SELECT count(*) FROM games WHERE status = 'active'")
    finally:
        await conn.close()
    assert len(per_game) == GAMES and all(r["n"] == 1 for r in per_game)
    assert active == 0
    assert {r["reminders_sent"] for r in sent} <= {1, 2}


@pytest.mark.slow
def test_sigkill_mid_load_loses_no_acknowledged_move(pg_url: str) -> None:
    proc = child("write", pg_url)
    acks: list[tuple[int, int, str]] = []
    assert proc.stdout is not None
    watchdog = threading.Timer(120, proc.kill)  # never hang the suite on a stuck writer
    watchdog.start()
    try:
        for line in proc.stdout:
            _, game, ply, move = line.split()
            acks.append((int(game), int(ply), move))
            if len(acks) >= 150:
                proc.send_signal(signal.SIGKILL)
                break
    finally:
        watchdog.cancel()
        proc.kill()
        proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert len(acks) == 150

    async def stored() -> tuple[dict[tuple[int, int], str], list[asyncpg.Record]]:
        conn = await asyncpg.connect(pg_url)
        try:
            moves = await conn.fetch("SELECT game_id, ply, move FROM moves")
            games = await conn.fetch("SELECT id, record FROM games")
        finally:
            await conn.close()
        return {(r["game_id"], r["ply"]): r["move"] for r in moves}, games

    moves, games = asyncio.run(stored())
    for game, ply, move in acks:
        assert moves.get((game, ply)) == move
    from rules import parse_record

    for game in games:  # every game replays from its stored moves to the cached record
        played = [m for (g, _), m in sorted(moves.items()) if g == game["id"]]
        assert parse_record(game["record"]).moves == played


if __name__ == "__main__":
    mode, url, *rest = sys.argv[1:]
    if mode == "race":
        asyncio.run(race(url, Path(rest[0]), rest[1]))
    elif mode == "clock":
        asyncio.run(clock(url, Path(rest[0]), rest[1]))
    else:
        asyncio.run(write_forever(url))
