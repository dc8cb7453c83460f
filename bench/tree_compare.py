"""Service moves/s of two source trees in one run, on SQLite and on PostgreSQL.

A change to the service's shape (sub-services, events, what a move reads) must not cost
speed; the machine is shared and noisy, so the two trees are measured together: each round
runs ``bench/service_bench.py`` of every tree, alternating, on a fresh database each time (a
temporary SQLite file; a new database on one durable throwaway PostgreSQL server), and the
best round of each tree is compared as a ratio to the first tree.  Prints figures; never fails
on them.  Example::

    python bench/tree_compare.py --tree /work/before --tree . --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "tests" / "support"))

from pg_server import create_database, start_server  # noqa: E402

RATE = re.compile(r"concurrency\s+1: .* = (\d+) moves/s")


def one_run(tree: Path, db: str, games: int) -> float:
    """The moves/s ``tree``'s own service bench reports at one move in flight on ``db``."""
    done = subprocess.run(
        [sys.executable, str(tree / "bench" / "service_bench.py"), "--games", str(games),
         "--concurrency", "1", "--db", db],
        cwd=tree, capture_output=True, text=True, check=False,
    )  # fmt: skip
    found = RATE.search(done.stdout)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{tree}: the bench failed:\n{done.stdout}\n{done.stderr}")
    return float(found.group(1))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tree", action="append", type=Path, required=True)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--games", type=int, default=60)
    args = p.parse_args()
    trees: list[Path] = [t.resolve() for t in args.tree]
    server = start_server(durable=True)
    best: dict[tuple[str, Path], float] = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            for r in range(args.rounds):
                for i, tree in enumerate(trees):
                    sqlite = Path(folder) / f"r{r}-t{i}"  # the bench makes its file in here
                    sqlite.mkdir()
                    pg = asyncio.run(create_database(server, f"bench_r{r}_t{i}"))
                    for engine, db in (("SQLite", str(sqlite)), ("PostgreSQL", pg)):
                        rate = one_run(tree, db, args.games)
                        key = (engine, tree)
                        best[key] = max(best.get(key, 0.0), rate)
                        print(f"round {r + 1}  {engine:<10}  {tree}: {rate:,.0f} moves/s")
    finally:
        server.stop()
    print(f"\nbest of {args.rounds} rounds, one move in flight, {args.games} games, 9x9:")
    for engine in ("SQLite", "PostgreSQL"):
        base = best[(engine, trees[0])]
        for tree in trees:
            rate = best[(engine, tree)]
            print(f"  {engine:<10}  {rate:>6,.0f} moves/s  {rate / base:5.2f}x  {tree}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
