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

``--round-robin 80,260 [--tree /work/main --tree .]`` (issue 46): start a round robin of each
size (every game of every round is created at the start) through the service of each tree,
on a new SQLite file and on a new database of one durable throwaway PostgreSQL server, and
print the longest single write transaction and the whole start, with each tree's ratio to
the first.  Each start runs in a child process that imports the ``bot`` package of its
tree (``--tree``; default: this script's own), so the trees are measured in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any


def _tree() -> Path:
    """The source tree whose ``bot`` this process imports: ``--tree`` in a child run (see
    :func:`rr_child`), else this script's own (not the editable install's)."""
    if "--child" in sys.argv and "--tree" in sys.argv:
        return Path(sys.argv[sys.argv.index("--tree") + 1]).resolve()
    return Path(__file__).resolve().parents[1]


sys.path.insert(0, str(_tree()))

from bot.service import GameService  # noqa: E402
from bot.service.tournaments.tables import _division_table  # noqa: E402
from bot.store import is_postgres, open_store  # noqa: E402

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


def timed_writes(store: Any) -> list[float]:
    """Time every write block of ``store`` from now on (entered to committed), in seconds."""
    spans: list[float] = []
    original = store.write

    @contextlib.asynccontextmanager
    async def write(*args: Any, **options: Any) -> AsyncIterator[Any]:
        start = time.perf_counter()
        try:
            async with original(*args, **options) as tx:
                yield tx
        finally:
            spans.append(time.perf_counter() - start)

    store.write = write
    return spans


async def rr_start(db: str, players: int) -> dict[str, float]:
    """Start a round robin of ``players``: the longest write block and the whole start."""
    async with await open_store(db) as store:
        service = GameService(store, rng=random.Random(5))
        t = await service.create_tournament(
            GUILD, CHANNEL, ORGANISER, game="minefield", size=7, format="round_robin"
        )
        for user in range(1, players + 1):
            await service.join_tournament(t.id, user)
        spans = timed_writes(store)
        start = time.perf_counter()
        t = await service.start_tournament(t.id, ORGANISER)
        total = time.perf_counter() - start
        games = len(await service.tournament_games(t.id))
    assert games == players * (players - 1) // 2, games
    return {"longest": max(spans), "total": total, "writes": len(spans), "games": games}


def rr_child(tree: Path, db: str, players: int) -> dict[str, float]:
    """:func:`rr_start` in a child process importing ``tree``'s ``bot``."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", "--tree", str(tree), "--db", db,
         "--players", str(players)],
        cwd=tree, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the start failed:\n{done.stdout}\n{done.stderr}")
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def rr_compare(sizes: list[int], trees: list[Path], engines: list[str]) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
    from pg_server import create_database, start_server

    server = start_server(durable=True) if "postgresql" in engines else None
    found: dict[tuple[str, int, Path], dict[str, float]] = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            for players in sizes:
                for engine in engines:
                    for i, tree in enumerate(trees):
                        if engine == "sqlite":
                            db = str(Path(folder) / f"rr{players}-t{i}.db")
                        else:
                            assert server is not None
                            db = asyncio.run(create_database(server, f"rr{players}_t{i}"))
                        figures = rr_child(tree, db, players)
                        found[(engine, players, tree)] = figures
                        print(
                            f"{engine:10s} {players:4d} players ({figures['games']:,.0f} games)"
                            f"  longest write {figures['longest']:7.2f} s"
                            f"  start {figures['total']:7.2f} s"
                            f"  ({figures['writes']:.0f} write blocks)  {tree}",
                            flush=True,
                        )
    finally:
        if server is not None:
            server.stop()
    print("\nratios to the first tree (longest write transaction, whole start):")
    for players in sizes:
        for engine in engines:
            base = found[(engine, players, trees[0])]
            for tree in trees[1:]:
                f = found[(engine, players, tree)]
                print(
                    f"  {engine:10s} {players:4d} players: {f['longest']:6.2f} s"
                    f" vs {base['longest']:6.2f} s = {f['longest'] / base['longest']:.3f}x;"
                    f"  start {f['total'] / base['total']:.3f}x  ({tree})"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--round-robin", default="", help="sizes, e.g. 80,260")
    parser.add_argument("--tree", action="append", type=Path, default=[])
    parser.add_argument("--engines", default="sqlite,postgresql")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--db", default="")
    parser.add_argument("--league", type=int, default=0)
    parser.add_argument("--calls", type=int, default=50)
    args = parser.parse_args()
    if args.child:
        import bot

        assert Path(bot.__file__).is_relative_to(_tree()), bot.__file__  # the tree asked for
        print(json.dumps(asyncio.run(rr_start(args.db, args.players))))
        return
    if args.round_robin:
        trees = [t.resolve() for t in args.tree] or [_tree()]
        sizes = [int(n) for n in args.round_robin.split(",")]
        rr_compare(sizes, trees, args.engines.split(","))
        return
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
