"""Tournament service benchmark: creating a round of games through the service.  Prints;
never fails.

    python bench/tournament_service_bench.py [--players 128] [--repeats 3] [--db URL]
                                             [--league 1000] [--calls 50]

Target (issue 37): creating a 64-game round under 5 s through the service.  Two figures per
repeat, for a Swiss of ``--players`` (128: 64 games a round):

* ``start``: ``start_tournament`` (ratings read, round 1 paired, its games and pairings
  stored, in one transaction);
* ``last game``: the resignation that ends round 1's last game, which in the same
  transaction records the result and pairs and creates round 2 (after random results).

``--league N``: also a league season of N players in divisions of 10 (all its games created
at the start), then 20 game endings (each rebuilds its division only), the rest of its games
ended, and ``--calls`` reads of the full standings (target: p95 under 100 ms for 1,000 players).

``--db``: a ``postgresql://`` URL to run on PostgreSQL (``python tests/support/pg_server.py
--durable`` starts a throwaway server and prints one); default: a new SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.service import GameService
from bot.service.tournaments.tables import _division_table
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


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile (p95 of 50 calls: the 48th fastest)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


async def league(service: GameService, players: int, calls: int) -> None:
    t = await service.create_tournament(
        GUILD, CHANNEL, ORGANISER, game="minefield", size=7, format="league"
    )
    for user in range(1, players + 1):
        await service.join_tournament(t.id, user)
    start = time.perf_counter()
    t = await service.start_tournament(t.id, ORGANISER)
    started = time.perf_counter() - start
    games = await service.tournament_games(t.id)
    ends = []
    for game in games[:20]:
        start = time.perf_counter()
        await service.resign(game.channel_id, game.seats[0].user_id)
        ends.append(time.perf_counter() - start)
    for game in games[20:]:
        await service.resign(game.channel_id, game.seats[0].user_id)
    cold, warm = [], []
    for _ in range(calls):
        # Cold: nothing remembered, every division rebuilt (the first read after a restart).
        _division_table.cache_clear()
        start = time.perf_counter()
        await service.tournament_standings(t.id)
        cold.append(time.perf_counter() - start)
        start = time.perf_counter()
        await service.tournament_standings(t.id)
        warm.append(time.perf_counter() - start)
    print(f"  league of {players}: start ({len(games)} games) {started:.2f} s;")
    print(f"    a game's end median {statistics.median(ends) * 1000:.1f} ms;")
    print(f"    standings, every game played ({calls} calls each, target p95 < 100 ms):")
    for name, values in (("every division rebuilt", cold), ("read again", warm)):
        print(
            f"      {name:22s} p50 {percentile(values, 0.5) * 1000:.0f} ms,"
            f" p95 {percentile(values, 0.95) * 1000:.0f} ms"
        )


async def run(
    db: str, players: int, repeats: int, league_players: int = 0, calls: int = 50
) -> None:
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
    if league_players:
        async with await open_store(db) as store:
            await league(GameService(store, rng=random.Random(6)), league_players, calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--db", default="")
    parser.add_argument("--league", type=int, default=0)
    parser.add_argument("--calls", type=int, default=50)
    args = parser.parse_args()
    if args.db:
        asyncio.run(run(args.db, args.players, args.repeats, args.league, args.calls))
        return
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(
            run(
                str(Path(folder) / "bench.db"),
                args.players,
                args.repeats,
                args.league,
                args.calls,
            )
        )


if __name__ == "__main__":
    main()
