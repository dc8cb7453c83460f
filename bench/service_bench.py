"""Service + store throughput: many interleaved games, one move at a time, on one core.

Each move is a full ``GameService.play_move``: read the game row in ``BEGIN IMMEDIATE``,
validate with the engine, append the move, update the versioned row, commit (no images).
Move lists are generated beforehand with the engine, so only the service is timed.

    python bench/service_bench.py [--games 60] [--size 9] [--concurrency 1 8] [--synchronous NORMAL]
    python bench/service_bench.py --db postgresql://crosspath@/crosspath?host=/run/postgresql
    python bench/service_bench.py --db URL --processes 1 2 4   # SQLite beside PostgreSQL xN

(``python tests/support/pg_server.py --durable`` starts a throwaway server and prints such a URL.)

Prints moves/s and p50/p95/p99 latency per move.  Targets: >= 500 moves/s, p95 <= 10 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import GameService
from bot.store import is_postgres, open_store
from rules import game_names, new_game


def scripted(name: str, size: int, rng: random.Random) -> list[str]:
    game = new_game(name, size)
    moves = []
    while not game.is_over:
        move = rng.choice(game.legal_moves())
        game.play(move)
        moves.append(move)
    return moves


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Timing:
    """One process's run: each move's latency (s) and when the moves began and ended
    (``time.monotonic``, comparable across processes)."""

    latencies: list[float]
    began: float
    ended: float
    by_game: dict[str, list[float]]


async def run(
    args: argparse.Namespace,
    concurrency: int,
    db: Path | str,
    *,
    guild: int = 1,
    seed: int | None = None,
    barrier: Any = None,
    quiet: bool = False,
) -> Timing:
    rng = random.Random(args.seed if seed is None else seed)
    names = sorted(game_names())
    options = {} if is_postgres(db) else {"synchronous": args.synchronous}
    async with await open_store(db, **options) as store:
        service = GameService(store, rng=random.Random(1))
        games: list[tuple[int, list[str], list[int]]] = []  # channel, moves, first player
        kinds: list[str] = []
        for i in range(args.games):
            name = names[i % len(names)]
            moves = scripted(name, args.size, rng)
            channel = guild * 100_000 + i
            challenge = await service.create_challenge(guild, channel, 1, 2, name, args.size)
            info = (await service.accept_challenge(challenge.id, 2)).game
            games.append((channel, moves, [info.to_move_id or 0]))
            kinds.append(name)
        # Interleave: a queue of (channel, move index); each game's next move waits its turn.
        order = [(g, i) for g, (_, moves, _) in enumerate(games) for i in range(len(moves))]
        rng.shuffle(order)
        order.sort(key=lambda gi: gi[1])  # round-robin by move number across games
        queue: asyncio.Queue[int] = asyncio.Queue()
        for g, _ in order:
            queue.put_nowait(g)
        next_index = [0] * len(games)
        to_move = [players[0] for _, _, players in games]
        busy = [False] * len(games)
        latencies: list[float] = []
        by_game: dict[str, list[float]] = {name: [] for name in names}

        async def worker() -> None:
            while True:
                try:
                    g = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                if busy[g]:
                    queue.put_nowait(g)
                    await asyncio.sleep(0)
                    continue
                busy[g] = True
                channel, moves, _ = games[g]
                move = moves[next_index[g]]
                began = time.perf_counter()
                result = await service.play_move(channel, to_move[g], move)
                latencies.append(time.perf_counter() - began)
                by_game[kinds[g]].append(latencies[-1] * 1000)
                next_index[g] += 1
                to_move[g] = result.next_id or 0
                busy[g] = False

        if barrier is not None:
            await asyncio.to_thread(barrier.wait)  # every process starts its moves together
        began = time.monotonic()
        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
        ended = time.monotonic()
        assert all(next_index[g] == len(games[g][1]) for g in range(len(games)))
        assert await service.games.active_games(guild) == []
    timing = Timing(latencies, began, ended, by_game)
    if quiet:
        return timing
    ms = [x * 1000 for x in latencies]
    print(
        f"concurrency {concurrency:>2}: {len(ms)} moves in {elapsed:.2f} s = "
        f"{len(ms) / elapsed:,.0f} moves/s; latency per move p50 {statistics.median(ms):.2f} ms, "
        f"p95 {percentile(ms, 0.95):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms, "
        f"max {max(ms):.2f} ms"
    )
    if concurrency == 1:
        for name, values in by_game.items():
            if not values:  # fewer games than game types: this one was not played
                continue
            print(
                f"    {name:<14} {len(values):>5} moves: p50 {statistics.median(values):.2f} ms,"
                f" p95 {percentile(values, 0.95):.2f} ms"
            )
    return timing


def process_main(args: argparse.Namespace, db: str, index: int, barrier: Any, results: Any) -> None:
    """One bench process: its own games (its own server id), one move in flight, on one
    core (process i on core i mod the cores there are), like the single-process mode: the
    store's worker thread and the event loop then hand over without crossing cores."""
    if hasattr(os, "sched_setaffinity"):
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[index % len(cores)]})
    timing = asyncio.run(
        run(args, 1, db, guild=index + 1, seed=args.seed + index, barrier=barrier, quiet=True)
    )
    results.put((timing.latencies, timing.began, timing.ended))


def across_processes(
    args: argparse.Namespace, db: str, processes: int
) -> tuple[float, float, float]:
    """``processes`` bench processes on ``db`` at once: (moves/s in all, p50 ms, p95 ms)."""
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(processes)
    results = ctx.Queue()
    children = [
        ctx.Process(target=process_main, args=(args, db, i, barrier, results))
        for i in range(processes)
    ]
    for c in children:
        c.start()
    found = [results.get(timeout=600) for _ in children]
    for c in children:
        c.join(timeout=60)
        if c.exitcode != 0:
            raise SystemExit(f"a bench process failed (exit code {c.exitcode})")
    latencies = [x * 1000 for lat, _, _ in found for x in lat]
    wall = max(end for _, _, end in found) - min(begin for _, begin, _ in found)
    return len(latencies) / wall, statistics.median(latencies), percentile(latencies, 0.95)


def compare(args: argparse.Namespace, url: str) -> None:
    """SQLite (one process: it serves one) beside PostgreSQL with each process count."""
    rows: list[tuple[str, float, float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        sqlite = across_processes(args, str(Path(folder) / "bench.sqlite3"), 1)
        rows.append((f"SQLite {args.synchronous}, 1 process", *sqlite))
    base_pg = None
    for n in args.processes:
        figures = across_processes(args, url, n)
        base_pg = base_pg or figures[0]
        rows.append((f"PostgreSQL, {n} process{'es' if n > 1 else ''}", *figures))
    sqlite_rate = rows[0][1]
    print(f"{'':<32} {'moves/s':>8} {'vs SQLite':>10} {'vs PG x1':>9} {'p50 ms':>7} {'p95 ms':>7}")
    for label, rate, p50, p95 in rows:
        vs_pg = f"{rate / base_pg:.2f}x" if base_pg and "PostgreSQL" in label else ""
        print(
            f"{label:<32} {rate:>8,.0f} {rate / sqlite_rate:>9.2f}x {vs_pg:>9}"
            f" {p50:>7.2f} {p95:>7.2f}"
        )
    commit = re.search(r"[?&]synchronous_commit=(\w+)", url)
    durability = (
        f"synchronous_commit={commit.group(1)} (from the URL)"
        if commit
        else "synchronous_commit as the server sets it (PostgreSQL's default: on)"
    )
    print(
        "each process plays its own games with one move in flight, pinned to core i mod cores;"
        f" SQLite synchronous={args.synchronous}; PostgreSQL {durability}"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--concurrency", type=int, nargs="+", default=[1, 8])
    p.add_argument("--synchronous", default="NORMAL", help="SQLite synchronous mode")
    p.add_argument(
        "--db",
        default=None,
        help="a postgresql:// URL to bench PostgreSQL (games are added to it), or a folder for"
        " the SQLite files (default: a temporary one)",
    )
    p.add_argument(
        "--processes",
        type=int,
        nargs="+",
        default=None,
        help="with a postgresql:// --db: run this many bench processes at once for each number"
        " given (e.g. 1 2 4), one move in flight each, beside a one-process SQLite figure",
    )
    args = p.parse_args(argv)
    if args.processes:
        if not (args.db and is_postgres(args.db)):
            p.error("--processes needs --db postgresql://… (SQLite serves one process)")
        if any(n < 1 for n in args.processes):
            p.error("--processes takes numbers of at least 1")
        print(
            f"service bench: {args.games} interleaved {args.size}x{args.size} games per process,"
            f" SQLite beside PostgreSQL with {', '.join(map(str, args.processes))} processes"
        )
        compare(args, args.db)
        return 0
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    engine = "PostgreSQL" if args.db and is_postgres(args.db) else f"SQLite {args.synchronous}"
    print(
        f"service bench: {args.games} interleaved games ({', '.join(sorted(game_names()))}),"
        f" {args.size}x{args.size}, {engine}, the bot on one core"
    )
    if args.db and is_postgres(args.db):
        for concurrency in args.concurrency:
            asyncio.run(run(args, concurrency, args.db))
        return 0
    with tempfile.TemporaryDirectory(dir=args.db) as folder:
        for concurrency in args.concurrency:
            asyncio.run(run(args, concurrency, Path(folder) / f"bench-{concurrency}.sqlite3"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
