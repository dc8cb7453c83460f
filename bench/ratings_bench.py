"""Ratings benchmark: rebuilding every rating of one busy server.  Prints; never fails.

    python bench/ratings_bench.py [--players 10000] [--games 200000] [--seed 13]

Targets (issue 13): rebuild of 200,000 games <= 60 s; leaderboard and profile query p95
<= 50 ms each with 10,000 rated players and 200,000 games in one server.

The games are seeded and synthetic: each player has a hidden strength, activity follows a
long-tailed (Pareto) distribution so a few players play most games, opponents are drawn by
activity, and results follow the strength gap (about 6 % draws).  Only the model's work is
timed (the games are generated first).

The query timings need the ratings tables of the store (being written on another branch);
their functions below are marked and print "not measured" until then.  No figure is
invented for them.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import ratings as R
from bot.service.rating_types import Outcome

GUILD = 1
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
    property itself is tested on random histories in tests/bot/test_ratings_model.py)."""
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


# --- store query timings: to be written when the ratings store exists ----------------------


def bench_leaderboard_query() -> str:
    """TO DO (needs the store's ratings tables, lane-s): load the generated games into a real
    SQLite file and a real PostgreSQL server through the store, then time
    ``service.leaderboard(guild, game, limit=25, offset=k)`` at several offsets; print p50/p95
    (target p95 <= 50 ms).  Until then: no figure."""
    return "leaderboard query p95: not measured yet (needs the ratings store)"


def bench_profile_query() -> str:
    """TO DO (needs the store's ratings tables, lane-s): as above, timing
    ``service.profile(guild, user)`` for busy and quiet players (target p95 <= 50 ms)."""
    return "profile query p95: not measured yet (needs the ratings store)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--runs", type=int, default=3)
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
    print(bench_leaderboard_query())
    print(bench_profile_query())


if __name__ == "__main__":
    main()
