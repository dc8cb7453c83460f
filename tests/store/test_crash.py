"""A writer process killed with SIGKILL mid-load loses no acknowledged move.

The test runs this file as a script (``--writer DB``): it plays random games through the
service as fast as it can and prints ``ack GAME PLY MOVE`` after each move call returns.  The
test kills it without warning, then checks the database is intact and holds every ack.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ACKS_BEFORE_KILL = 150


async def write_forever(db: Path) -> None:
    sys.path.insert(0, str(REPO))
    from bot.service import GameService
    from bot.store import open_store

    rng = random.Random(3)
    async with await open_store(db) as store:
        service = GameService(store, rng=rng)
        channels = list(range(100, 108))
        for channel in channels:
            challenge = await service.create_challenge(1, channel, 1, 2, "minefield", 7)
            await service.accept_challenge(challenge.id, 2)
        while True:
            channel = rng.choice(channels)
            info = await service.get_game(channel)
            if info is None:
                challenge = await service.create_challenge(1, channel, 1, 2, "minefield", 7)
                info = (await service.accept_challenge(challenge.id, 2)).game
            position = await service.position(info.id)
            move = rng.choice(position.legal_moves())
            assert info.to_move_id is not None
            result = await service.play_move(channel, info.to_move_id, move)
            ply = result.events[0].ply
            print(f"ack {info.id} {ply} {move}", flush=True)


@pytest.mark.slow
def test_sigkill_mid_load_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, __file__, "--writer", str(db)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )
    acks: list[tuple[int, int, str]] = []
    assert proc.stdout is not None
    watchdog = threading.Timer(120, proc.kill)  # never hang the suite on a stuck writer
    watchdog.start()
    try:
        for line in proc.stdout:
            _, game, ply, move = line.split()
            acks.append((int(game), int(ply), move))
            if len(acks) >= ACKS_BEFORE_KILL:
                proc.send_signal(signal.SIGKILL)
                break
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert len(acks) == ACKS_BEFORE_KILL

    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = {(g, p): m for g, p, m in conn.execute("SELECT game_id, ply, move FROM moves")}
        for game, ply, move in acks:
            assert stored.get((game, ply)) == move
        versions = conn.execute("SELECT id, version, record FROM games").fetchall()
    finally:
        conn.close()
    # Every game replays from its stored moves to the cached record.
    from rules import parse_record

    for game_id, _version, record in versions:
        moves = [m for (g, _), m in sorted(stored.items()) if g == game_id]
        assert parse_record(record).moves == moves


if __name__ == "__main__" and sys.argv[1:2] == ["--writer"]:
    asyncio.run(write_forever(Path(sys.argv[2])))
