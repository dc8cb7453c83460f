"""Several bot processes on one PostgreSQL database, continued (see
``test_postgres_processes.py`` for the turn race, the clock race and SIGKILL).

The tests run this file as a script in child processes (``MODE URL GO …``), each with its own
store and service, started together behind a "go" file so that they really race:

* ``claim``: three processes try to claim the same computer turn, several times each; exactly
  one thinks (a real search by ``ai``) and plays, the others never start thinking.
* ``play``: three processes play random games in six shared channels for a bounded time and
  number of moves, printing ``ack`` after each move call returns; afterwards every
  acknowledged move is stored exactly once, nothing unacknowledged is stored, and every game
  replays through the rules engine.
* ``shard``: two clock processes, each holding half of four shards, over due reminders in
  servers of every shard: each process applies only its own servers', each exactly once.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest
from racing_children import finish, spawn, wait_for

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
GUILD, ALICE, BOB, COMPUTER = 1000, 11, 22, 33
CHANNELS = range(100, 106)
PLAY_SECONDS, PLAY_MOVES = 60.0, 25
"""Each ``play`` child stops after this many acknowledged moves, or this long if it hangs.

Counting moves, not seconds, keeps the race the same size on a busy machine (two test workers
beside other jobs once left a 4-second race 5 moves long)."""


def child(mode: str, url: str, *args: str) -> subprocess.Popen[str]:
    return spawn(__file__, mode, url, *args)


# ----- the children -------------------------------------------------------------------------
async def claim(url: str, go: Path, name: str) -> None:
    """What the bot's computer seat does: claim, and only if won, think and play."""
    import ai
    from bot.service import GameService, ServiceError
    from bot.store import open_store
    from rules import parse_record

    async with await open_store(url) as store:
        service = GameService(store, clock=lambda: START)
        info = await service.get_game(2000)
        assert info is not None and info.to_move_id == COMPUTER
        await wait_for(go)
        for _ in range(5):
            if await service.claims.claim_turn(info.id, info.version, name):
                print("thinking", flush=True)
                move = ai.choose_move(parse_record(info.record), level=1, seed=7)
                try:
                    await service.play_move(
                        info.channel_id, COMPUTER, move, expected_version=info.version
                    )
                    print("played", move, flush=True)
                except ServiceError as exc:
                    print("refused", type(exc).__name__, flush=True)
                return
            await asyncio.sleep(0.05)
        print("skipped", flush=True)


async def play(url: str, go: Path, seed: str) -> None:
    from bot.service import GameService, ServiceError
    from bot.store import open_store

    rng = random.Random(int(seed))
    acked = 0
    async with await open_store(url) as store:
        service = GameService(store, rng=rng)
        await wait_for(go)
        stop = time.monotonic() + PLAY_SECONDS
        while acked < PLAY_MOVES and time.monotonic() < stop:
            channel = rng.choice(CHANNELS)
            try:
                info = await service.get_game(channel)
                if info is None:
                    challenge = await service.create_challenge(
                        GUILD, channel, ALICE, BOB, "minefield", 5
                    )
                    info = (await service.accept_challenge(challenge.id, BOB)).game
                legal = (await service.position(info.id)).legal_moves()
                if not legal:  # another process ended the game since we read it
                    continue
                move = rng.choice(legal)
                assert info.to_move_id is not None
                result = await service.play_move(
                    channel, info.to_move_id, move, expected_version=info.version
                )
            except ServiceError as exc:  # another process got there first: look again
                print("lost", type(exc).__name__, flush=True)
                continue
            acked += 1
            print(f"ack {info.id} {result.events[0].ply} {move}", flush=True)


async def shard_clock(url: str, go: Path, ids: str) -> None:
    from bot.service import GameService, ShardFilter
    from bot.store import open_store

    now = START + timedelta(minutes=40)
    shards = ShardFilter(4, tuple(int(i) for i in ids.split(",")))
    async with await open_store(url) as store:
        service = GameService(store, clock=lambda: now)
        await wait_for(go)
        for outcome in await service.clocks.run_due(now, shards=shards):
            print(outcome.action.guild_id, outcome.action.game_id)


# ----- the tests ----------------------------------------------------------------------------
@pytest.mark.slow
async def test_three_processes_claiming_one_computer_turn_one_thinks(
    pg_url: str, tmp_path: Path
) -> None:
    from bot.service import GameService
    from bot.store import open_store

    async with await open_store(pg_url) as store:
        service = GameService(store, clock=lambda: START)
        challenge = await service.create_challenge(
            GUILD, 2000, ALICE, COMPUTER, "minefield", 7, "them"
        )
        started = await service.accept_challenge(challenge.id, COMPUTER)
        assert started.game.to_move_id == COMPUTER
    go = tmp_path / "go"
    children = [child("claim", pg_url, str(go), f"process-{i}") for i in range(3)]
    outputs = await asyncio.to_thread(finish, children, go)
    firsts = Counter(out.split()[0] for out in outputs)
    assert firsts == {"thinking": 1, "skipped": 2}, outputs
    assert sum(out.count("played") for out in outputs) == 1, outputs
    conn = await asyncpg.connect(pg_url)
    try:
        moves = await conn.fetch("SELECT user_id, move FROM moves")
        game = await conn.fetchrow("SELECT version, to_move_id FROM games")
    finally:
        await conn.close()
    assert [(m["user_id"], m["move"]) for m in moves] == [
        (COMPUTER, next(o.split()[2] for o in outputs if "played" in o))
    ]
    assert game is not None and (game["version"], game["to_move_id"]) == (1, ALICE)


@pytest.mark.slow
async def test_three_processes_playing_in_shared_channels_store_each_move_once(
    pg_url: str, tmp_path: Path
) -> None:
    from bot.store import open_store
    from bot.store.copy import replay_problems

    go = tmp_path / "go"
    children = [child("play", pg_url, str(go), str(seed)) for seed in (1, 2, 3)]
    outputs = await asyncio.to_thread(finish, children, go)
    acks = [
        (int(game), int(ply), move)
        for out in outputs
        for kind, game, ply, move in (line.split() for line in out.splitlines() if "ack" in line)
        if kind == "ack"
    ]
    lost = sum(out.count("lost") for out in outputs)
    assert len(acks) >= 30, outputs  # they really played (a generous floor, not a speed test)
    assert all(sum(1 for line in out.splitlines() if "ack" in line) > 0 for out in outputs)
    keys = [(game, ply) for game, ply, _ in acks]
    assert len(keys) == len(set(keys)), "two processes acknowledged the same ply"
    async with await open_store(pg_url, migrate=False) as store:
        contents = await store.export_all()
    stored = {(m.game_id, m.ply): m.move for m in contents.moves}
    assert stored == {(game, ply): move for game, ply, move in acks}  # exactly the acked ones
    assert replay_problems(contents.games, contents) == []
    assert len(contents.games) >= len(CHANNELS)
    print(f"{len(acks)} moves acknowledged, {lost} refused races, {len(contents.games)} games")


@pytest.mark.slow
async def test_clock_processes_on_different_shards_apply_only_their_own(
    pg_url: str, tmp_path: Path
) -> None:
    from bot.service import GameService
    from bot.store import open_store

    guilds = {shard: (shard << 22) | 77 for shard in range(4)}
    games: dict[int, int] = {}
    async with await open_store(pg_url) as store:
        service = GameService(store, clock=lambda: START)
        for n in range(12):
            shard = n % 4
            challenge = await service.create_challenge(
                guilds[shard], 3000 + n, ALICE, BOB, "minefield", 7, "me", "1h"
            )
            games[(await service.accept_challenge(challenge.id, BOB)).game.id] = shard
    go = tmp_path / "go"
    holdings = ("0,2", "1,3")
    outputs = await asyncio.to_thread(
        finish, [child("shard", pg_url, str(go), ids) for ids in holdings], go
    )
    for out, ids in zip(outputs, holdings, strict=True):
        mine = {int(i) for i in ids.split(",")}
        applied = [int(line.split()[1]) for line in out.splitlines()]
        assert sorted(applied) == sorted(g for g, s in games.items() if s in mine), out
    conn = await asyncpg.connect(pg_url)
    try:
        sent = await conn.fetch("SELECT reminders_sent FROM games")
    finally:
        await conn.close()
    assert [r["reminders_sent"] for r in sent] == [1] * len(games)


if __name__ == "__main__":
    mode, url, go, arg = sys.argv[1:]
    job = {"claim": claim, "play": play, "shard": shard_clock}[mode]
    asyncio.run(job(url, Path(go), arg))
