"""Ratings benchmark: rebuilding every rating of one busy server.  Prints; never fails.

    python bench/ratings_bench.py [--players 10000] [--games 200000] [--seed 13] [--pg URL]

Targets (issue 13): rebuild of 200,000 games <= 60 s; leaderboard and profile query p95
<= 50 ms each with 10,000 rated players and 200,000 games in one server.

The games are seeded and synthetic: each player has a hidden strength, activity follows a
long-tailed (Pareto) distribution so a few players play most games, opponents are drawn by
activity, and results follow the strength gap (about 6 % draws).  Only the model's work is
timed (the games are generated first).

Then the games are loaded, as finished rated games with the ratings and history the
incremental updates write, into a fresh SQLite file (and, with ``--pg URL``, an empty
PostgreSQL database) through the store's ``import_all``, and the service's ``leaderboard`` and
``profile`` calls and a full ``rebuild_ratings`` are timed against the real store.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import functools
import itertools
import math
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service.ratings import model as R
from bot.service.ratings.types import Outcome

GUILD = 1
GAME = "minefield"
DRAW_SHARE = 0.06


def generate_games(players: int, games: int, seed: int) -> list[R.RatedGame]:
    """``games`` seeded results among ``players`` players (user ids 1..players), in order."""
    rnd = random.Random(seed)
    strength = [rnd.gauss(0.0, 1.0) for _ in range(players)]
    activity = [rnd.paretovariate(1.2) for _ in range(players)]
    cumulative = list(itertools.accumulate(activity))
    total = cumulative[-1]

    def pick() -> int:
        return bisect.bisect_left(cumulative, rnd.random() * total)

    out: list[R.RatedGame] = []
    for game_id in range(1, games + 1):
        a = pick()
        b = pick()
        while b == a:
            b = pick()
        p_a = 1 / (1 + math.exp(-(strength[a] - strength[b]) * 1.2))
        roll = rnd.random()
        outcome: Outcome
        if roll < DRAW_SHARE:
            outcome = "draw"
        elif roll < DRAW_SHARE + (1 - DRAW_SHARE) * p_a:
            outcome = "win"
        else:
            outcome = "loss"
        out.append(R.RatedGame(a + 1, b + 1, outcome, game_id))
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_rebuild(games: list[R.RatedGame], runs: int) -> dict[int, R.Rating]:
    times = []
    result: dict[int, R.Rating] = {}
    for _ in range(runs):
        start = time.perf_counter()
        result = R.rebuild(games)
        times.append(time.perf_counter() - start)
    best, worst = min(times), max(times)
    print(
        f"rebuild {len(games):,} games, {len(result):,} players: "
        f"{best:.2f} s best, {worst:.2f} s worst of {runs} "
        f"({best / len(games) * 1e6:.1f} µs a game; target <= 60 s)"
    )
    return result


def bench_replay(games: list[R.RatedGame]) -> None:
    """A rebuild that also produces every rating-history row (what the CLI writes back)."""
    start = time.perf_counter()
    rows = sum(2 for _ in R.replay(games))
    print(f"replay with history rows: {time.perf_counter() - start:.2f} s for {rows:,} rows")


def bench_update(ratings: dict[int, R.Rating], samples: int, seed: int) -> None:
    """The incremental step the finishing transaction runs for one game."""
    rnd = random.Random(seed)
    ids = list(ratings)
    times = []
    for _ in range(samples):
        a, b = rnd.sample(ids, 2)
        game = R.RatedGame(a, b, rnd.choice(R.OUTCOMES))
        start = time.perf_counter()
        R.apply_game(ratings, game)
        times.append((time.perf_counter() - start) * 1e6)
    print(
        f"one incremental update: p50 {statistics.median(times):.1f} µs, "
        f"p95 {percentile(times, 0.95):.1f} µs ({samples:,} samples)"
    )


def check_repeatable(games: list[R.RatedGame], ratings: dict[int, R.Rating]) -> None:
    """Two rebuilds of the same history agree float for float (the rebuild == incremental
    property itself is tested on random histories in tests/service/test_ratings_model.py)."""
    again = R.rebuild(games)
    same = all(
        again[uid].mu.hex() == r.mu.hex() and again[uid].sigma.hex() == r.sigma.hex()
        for uid, r in ratings.items()
    )
    print(f"second rebuild bit-identical: {'yes' if same and len(again) == len(ratings) else 'NO'}")


def board_summary(ratings: dict[int, R.Rating]) -> None:
    board = R.standings(ratings)
    settled = sum(not s.provisional for s in board)
    top = board[0]
    print(
        f"board: {len(board):,} ranked, {settled:,} not provisional; top {round(top.rating)} ± "
        f"{round(top.uncertainty)} after {top.games} games; "
        f"bottom {round(board[-1].rating)}"
    )


# --- store query timings ----------------------------------------------------------------------


def store_contents(games: list[R.RatedGame]) -> Any:
    """The games as finished, rated rows of one server (1 ms apart, ``rating_seq`` = id), with
    the ratings and history the incremental updates would have written (``rebuilt``).  No
    moves: the rating queries never read them."""
    from bot.service.ratings.apply import rebuilt
    from bot.store import GameRow, RatedResult, StoreContents

    base = 1_770_000_000_000_000
    rows = []
    results = []
    for g in games:
        assert g.game_id is not None
        game_id = g.game_id
        at = base + game_id * 1000
        winner = {"win": g.a, "loss": g.b, "draw": None}[g.outcome]
        loser = {"win": g.b, "loss": g.a, "draw": None}[g.outcome]
        rows.append(
            GameRow(
                id=game_id, guild_id=GUILD, channel_id=10_000_000 + game_id, game=GAME,
                size=9, first_id=g.a, second_id=g.b, status="finished", version=40,
                record=f"{GAME} 9:", to_move=None, per_move=None, reminders=(),
                turn_started_at=at, deadline_at=None, remind_at=None, reminders_sent=0,
                takeback_by=None, takeback_at=None, takeback_version=None,
                result_reason="draw" if winner is None else "connection", winner_id=winner,
                winner_colour=None if winner is None else ("black" if winner == g.a else "white"),
                loser_id=loser,
                loser_colour=None if loser is None else ("black" if loser == g.a else "white"),
                result_actor=None, challenge_id=None, created_at=at - 1000, updated_at=at,
                finished_at=at, rated=True, unrated_reason=None, rating_seq=game_id,
            )
        )  # fmt: skip
        results.append(RatedResult(game_id, GUILD, GAME, g.a, g.b, winner, at, game_id))
    ratings, history = rebuilt(results)
    return StoreContents(
        settings=(),
        challenges=(),
        games=tuple(rows),
        moves=(),
        events=(),
        audit=(),
        ratings=tuple(ratings),
        rating_history=tuple(history),
    )


async def time_calls(label: str, calls: list[Callable[[], Awaitable[object]]]) -> str:
    times = []
    for call in calls:
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return (
        f"{label}: p50 {statistics.median(times):.2f} ms, p95 {percentile(times, 0.95):.2f} ms,"
        f" max {max(times):.1f} ms ({len(times)} calls; target p95 <= 50 ms)"
    )


async def bench_store(target: str, contents: Any, samples: int, seed: int) -> None:
    """Load ``contents`` into an empty store (its import), then time the service's
    leaderboard and profile calls and a full rebuild through the store."""
    from bot.service import GameService
    from bot.store import open_store

    rnd = random.Random(seed)
    async with await open_store(target) as store:
        start = time.perf_counter()
        await store.import_all(contents)
        print(
            f"[{store.target}] loaded {len(contents.games):,} games,"
            f" {len(contents.ratings):,} ratings, {len(contents.rating_history):,} history rows"
            f" through import_all in {time.perf_counter() - start:.1f} s"
        )
        service = GameService(store)
        players = [r.user_id for r in contents.ratings]
        busiest = sorted(contents.ratings, key=lambda r: -r.games)[:20]
        board = len(players)
        pages = [0] * (samples // 4) + [
            rnd.randrange(0, max(1, board - 25)) for _ in range(samples - samples // 4)
        ]
        print(
            await time_calls(
                "  leaderboard(limit=25), a quarter page 1, the rest at random offsets",
                [functools.partial(service.leaderboard, GUILD, GAME, 25, o) for o in pages],
            )
        )
        who = [rnd.choice(players) for _ in range(samples - 20)] + [r.user_id for r in busiest]
        print(
            await time_calls(
                "  profile(), random players and the 20 busiest",
                [functools.partial(service.ratings.profile, GUILD, u) for u in who],
            )
        )
        top = busiest[0]
        print(f"  (the busiest player has {top.games:,} rated games; profile keeps the last 200)")
        start = time.perf_counter()
        report = await service.ratings.rebuild_ratings()
        print(
            f"  rebuild_ratings(): {time.perf_counter() - start:.1f} s for {report.games:,} games"
            f" (read, recompute off the loop, replace {report.players:,} ratings and"
            f" {report.history:,} history rows); {report.changed} differed (target <= 60 s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--samples", type=int, default=400, help="query calls timed per kind")
    parser.add_argument(
        "--pg",
        default=None,
        help="also load an EMPTY PostgreSQL database at this URL (python tests/support/pg_server.py"
        " --durable prints one)",
    )
    parser.add_argument("--no-store", action="store_true", help="time the model only")
    args = parser.parse_args()
    if args.players < 2 or args.games < 1 or args.runs < 1:
        parser.error("need at least 2 players, 1 game and 1 run")
    start = time.perf_counter()
    games = generate_games(args.players, args.games, args.seed)
    played = len({g.a for g in games} | {g.b for g in games})
    print(
        f"generated {len(games):,} games among {played:,} of {args.players:,} players "
        f"(seed {args.seed}) in {time.perf_counter() - start:.1f} s"
    )
    ratings = bench_rebuild(games, args.runs)
    bench_replay(games)
    bench_update(ratings, 20_000, args.seed)
    check_repeatable(games, ratings)
    board_summary(ratings)
    if args.no_store:
        return
    contents = store_contents(games)
    targets: list[str] = []
    folder = tempfile.mkdtemp(prefix="ratings-bench-")
    targets.append(str(Path(folder) / "bench.sqlite3"))
    if args.pg:
        targets.append(args.pg)
    try:
        for target in targets:
            asyncio.run(bench_store(target, contents, args.samples, args.seed))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
