"""Service + store throughput: many interleaved games, one move at a time, on one core.

Each move is a full ``GameService.play_move``: read the game row in ``BEGIN IMMEDIATE``,
validate with the engine, append the move, update the versioned row, commit (no images).
Move lists are generated beforehand with the engine, so only the service is timed.

    python bench/service_bench.py [--games 60] [--size 9] [--concurrency 1 8] [--synchronous NORMAL]

Prints moves/s and p50/p95/p99 latency per move.  Targets: >= 500 moves/s, p95 <= 10 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import GameService
from bot.store import open_store
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


async def run(args: argparse.Namespace, concurrency: int, db: Path) -> None:
    rng = random.Random(args.seed)
    names = sorted(game_names())
    async with await open_store(db, synchronous=args.synchronous) as store:
        service = GameService(store, rng=random.Random(1))
        games: list[tuple[int, list[str], list[int]]] = []  # channel, moves, first player
        kinds: list[str] = []
        for i in range(args.games):
            name = names[i % len(names)]
            moves = scripted(name, args.size, rng)
            channel = 10_000 + i
            challenge = await service.create_challenge(1, channel, 1, 2, name, args.size)
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

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
        assert all(next_index[g] == len(games[g][1]) for g in range(len(games)))
        assert await service.active_games(1) == []
    ms = [x * 1000 for x in latencies]
    print(
        f"concurrency {concurrency:>2}: {len(ms)} moves in {elapsed:.2f} s = "
        f"{len(ms) / elapsed:,.0f} moves/s; latency per move p50 {statistics.median(ms):.2f} ms, "
        f"p95 {percentile(ms, 0.95):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms, "
        f"max {max(ms):.2f} ms"
    )
    if concurrency == 1:
        for name, values in by_game.items():
            print(
                f"    {name:<14} {len(values):>5} moves: p50 {statistics.median(values):.2f} ms,"
                f" p95 {percentile(values, 0.95):.2f} ms"
            )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--concurrency", type=int, nargs="+", default=[1, 8])
    p.add_argument("--synchronous", default="NORMAL", help="SQLite synchronous mode")
    p.add_argument("--db", default=None, help="database folder (default: a temporary one)")
    args = p.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(
        f"service bench: {args.games} interleaved games ({', '.join(sorted(game_names()))}),"
        f" {args.size}x{args.size}, synchronous={args.synchronous}, one core"
    )
    with tempfile.TemporaryDirectory(dir=args.db) as folder:
        for concurrency in args.concurrency:
            asyncio.run(run(args, concurrency, Path(folder) / f"bench-{concurrency}.sqlite3"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
