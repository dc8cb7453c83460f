"""Two bot processes on one PostgreSQL database end the last two games of a Swiss round at
the same moment: the next round is created exactly once, every time.

The test runs this file as a script in two child processes (``finish URL GO GAME_IDS``),
each with its own store and service, started together behind a "go" file.  Each resigns its
own game of every tournament's first round in the same order, so the two last games of each
round end at the same instant, in two processes: a barrier lines them up for each
tournament, and each waits a moment inside the transaction that ended its game, so both
games are ended (and neither committed) when the tournament's round is looked at.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest
from racing_children import finish, spawn, wait_for

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
GUILD, CHANNEL, ORGANISER = 1000, 2000, 900
TOURNAMENTS = 12


def child(mode: str, url: str, *args: str) -> subprocess.Popen[str]:
    return spawn(__file__, mode, url, *args)


async def finish_games(url: str, go: Path, game_ids: str) -> None:
    from bot.service import GameService
    from bot.store import GameRow, Tx, open_store

    class Lingering(GameService):
        """Waits inside the transaction that ended a game, before the tournament looks at
        its round: both last games are then ended (uncommitted) when either looks, which
        is the moment an unserialised design would see the other game still open."""

        async def _game_ended(self, tx: Tx, row: GameRow, now: datetime) -> None:
            await asyncio.sleep(0.1)
            await super()._game_ended(tx, row, now)

    async with await open_store(url) as store:
        service = Lingering(store, clock=lambda: START)
        games = [await service.get_game_by_id(int(i)) for i in game_ids.split(",")]
        await wait_for(go)
        for k, game in enumerate(games):
            await together(go, k)
            await service.resign(game.channel_id, game.seats[0].user_id)
            print("resigned", game.id, flush=True)


async def together(go: Path, k: int) -> None:
    """A barrier: wait until both children have reached tournament ``k``."""
    go.with_name(f"{go.name}.{k}.{os.getpid()}").touch()
    while len(list(go.parent.glob(f"{go.name}.{k}.*"))) < 2:
        await asyncio.sleep(0.002)


@pytest.mark.slow
async def test_two_processes_end_a_round_together_and_the_next_is_made_once(
    pg_url: str, tmp_path: Path
) -> None:
    from bot.service import GameService
    from bot.store import open_store

    firsts, seconds, ids = [], [], []
    async with await open_store(pg_url) as store:
        service = GameService(store, clock=lambda: START, rng=random.Random(3))
        for k in range(TOURNAMENTS):
            t = await service.create_tournament(
                GUILD, CHANNEL, ORGANISER, game="minefield", size=5, format="swiss", rounds=3
            )
            for user in range(100 * k + 1, 100 * k + 5):
                await service.join_tournament(t.id, user)
            t = await service.start_tournament(t.id, ORGANISER)
            games = await service.tournament_games(t.id, 1)
            assert len(games) == 2
            firsts.append(str(games[0].id))
            seconds.append(str(games[1].id))
            ids.append(t.id)
    go = tmp_path / "go"
    outputs = await asyncio.to_thread(
        finish,
        [
            child("finish", pg_url, str(go), ",".join(firsts)),
            child("finish", pg_url, str(go), ",".join(seconds)),
        ],
        go,
    )
    assert all(out.count("resigned") == TOURNAMENTS for out in outputs)
    async with await open_store(pg_url) as store:
        service = GameService(store, clock=lambda: START)
        for tid in ids:
            t = await service.get_tournament(tid)
            assert t.round == 2, t
            second = await service.tournaments.tournament_pairings(tid, 2)
            assert len(second) == 2 and all(p.game_id is not None for p in second)
            assert len(await service.tournament_games(tid)) == 4
    conn = await asyncpg.connect(pg_url)
    try:
        rounds = await conn.fetch(
            "SELECT tournament_id, count(*) AS n FROM tournament_rounds GROUP BY tournament_id"
        )
        games = await conn.fetchval("SELECT count(*) FROM games WHERE tournament_id IS NOT NULL")
    finally:
        await conn.close()
    assert {r["tournament_id"]: r["n"] for r in rounds} == dict.fromkeys(ids, 2)
    assert games == 4 * TOURNAMENTS


if __name__ == "__main__":
    mode, url, go, arg = sys.argv[1:]
    asyncio.run({"finish": finish_games}[mode](url, Path(go), arg))
