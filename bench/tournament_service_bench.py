"""Tournament service benchmark: creating a round of games through the service.  Prints;
never fails.

    python bench/tournament_service_bench.py [--players 128] [--repeats 3] [--db URL]

Target (issue 37): creating a 64-game round under 5 s through the service.  Two figures per
repeat, for a Swiss of ``--players`` (128: 64 games a round):

* ``start``: ``start_tournament`` (ratings read, round 1 paired, its games and pairings
  stored, in one transaction);
* ``last game``: the resignation that ends round 1's last game, which in the same
  transaction records the result and pairs and creates round 2 (after random results).

``--db``: a ``postgresql://`` URL to run on PostgreSQL (``python tests/support/pg_server.py
--durable`` starts a throwaway server and prints one); default: a new SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.service import GameService
from bot.store import is_postgres, open_store

GUILD, CHANNEL, ORGANISER = 1000, 2000, 900


async def one(
    service: GameService, players: int, base: int, rng: random.Random
) -> tuple[float, float]:
    t = await service.create_tournament(
        GUILD, CHANNEL, ORGANISER, game="minefield", size=7, format="swiss", rounds=3
    )
    for user in range(base, base + players):
        await service.join_tournament(t.id, user)
    start = time.perf_counter()
    t = await service.start_tournament(t.id, ORGANISER)
    started = time.perf_counter() - start
    games = await service.tournament_games(t.id, 1)
    assert len(games) == players // 2
    for game in games[:-1]:
        await service.resign(game.channel_id, rng.choice(game.seats).user_id)
    last = games[-1]
    start = time.perf_counter()
    await service.resign(last.channel_id, last.seats[0].user_id)
    paired = time.perf_counter() - start
    assert len(await service.tournament_games(t.id, 2)) == players // 2
    return started, paired


async def run(db: str, players: int, repeats: int) -> None:
    async with await open_store(db) as store:
        service = GameService(store, rng=random.Random(5))
        rng = random.Random(7)
        starts, lasts = [], []
        for k in range(repeats):
            started, paired = await one(service, players, 10_000 * (k + 1), rng)
            starts.append(started)
            lasts.append(paired)
    engine = "PostgreSQL" if is_postgres(db) else "SQLite"
    games = players // 2
    print(f"{engine}: a {games}-game round through the service ({repeats} repeats, target < 5 s)")
    for name, values in (("start", starts), ("last game", lasts)):
        print(
            f"  {name:10s} median {statistics.median(values):.3f} s"
            f"  max {max(values):.3f} s  ({games / statistics.median(values):.0f} games/s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--db", default="")
    args = parser.parse_args()
    if args.db:
        asyncio.run(run(args.db, args.players, args.repeats))
        return
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(str(Path(folder) / "bench.db"), args.players, args.repeats))


if __name__ == "__main__":
    main()
