"""Tournament core benchmark: Swiss pairing and league standings.  Prints; never fails.

    python bench/tournament_bench.py [--players 256] [--round 5] [--league 1000] [--seed 3]
                                     [--repeats 7] [--whole-field]

Targets (issue 37): pairing a 256-player Swiss round (round 5, after random results) under
1 s; the standings of a 1,000-player league (every division's table, every game played)
with a p95 under 100 ms.

``--whole-field`` also pairs the same round over the whole field (no slices, no rank band),
to show in the same run what they save; it takes several seconds at 256 players.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.service.tournaments import (
    Entrant,
    Format,
    LeagueMember,
    Outcome,
    Result,
    TournamentConfig,
    TournamentState,
    division_tournament,
    new_tournament,
    next_pairings,
    split_divisions,
    standings,
)
from bot.service.tournaments import swiss as swiss_module


def random_results(state: TournamentState, rng: random.Random) -> TournamentState:
    for pairing in state.open_pairings():
        x = rng.random()
        outcome = (
            Outcome.DRAW if x < 0.06 else Outcome.FIRST_WINS if x < 0.53 else Outcome.SECOND_WINS
        )
        state = state.with_result(Result(pairing.id, outcome))
    return state


def swiss_before(players: int, round_number: int, seed: int) -> TournamentState:
    rng = random.Random(seed)
    field = [Entrant(i, float(rng.randint(800, 2400))) for i in range(1, players + 1)]
    state = new_tournament(TournamentConfig(Format.SWISS, rounds=round_number + 4), field)
    for _ in range(round_number - 1):
        state = random_results(state.with_pairings(next_pairings(state)), rng)
    return state


def timed(call: object, repeats: int, cpu: list[float] | None = None) -> list[float]:
    """Wall times of ``repeats`` calls; the process CPU times go to ``cpu`` when given (on a
    shared machine they show how much of a slow wall time was waiting for a core)."""
    assert callable(call)
    out = []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        out.append(time.perf_counter() - start)
        if cpu is not None:
            cpu.append(time.process_time() - start_cpu)
    return out


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--round", type=int, default=5)
    parser.add_argument("--league", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--whole-field", action="store_true")
    args = parser.parse_args()

    state = swiss_before(args.players, args.round, args.seed)
    band_cpu: list[float] = []
    band = timed(lambda: next_pairings(state), args.repeats, band_cpu)
    print(
        f"Swiss: pairing round {args.round} of {args.players} players: "
        f"median {statistics.median(band) * 1000:.0f} ms, max {max(band) * 1000:.0f} ms "
        f"(target < 1000 ms); CPU median {statistics.median(band_cpu) * 1000:.0f} ms"
    )
    if args.whole_field:
        saved = swiss_module.BANDS, swiss_module.CHUNK
        swiss_module.BANDS, swiss_module.CHUNK = (), args.players
        try:
            whole = timed(lambda: next_pairings(state), 1)
        finally:
            swiss_module.BANDS, swiss_module.CHUNK = saved
        print(
            f"  same round over the whole field: {whole[0] * 1000:.0f} ms "
            f"({whole[0] / statistics.median(band):.1f}x the sliced, banded pairing)"
        )

    rng = random.Random(args.seed)
    members = [LeagueMember(i, float(rng.randint(800, 2400))) for i in range(1, args.league + 1)]
    rating = {m.player_id: m.rating for m in members}
    divisions = split_divisions(members)
    seasons = []
    for division in divisions:
        season = division_tournament(division, rating, seed=division.level)
        seasons.append(random_results(season.with_pairings(next_pairings(season)), rng))
    games = sum(len(s.results) for s in seasons)
    # Rebuilt from its rows each time, as the persistence layer will do.
    league_cpu: list[float] = []
    league = timed(
        lambda: [
            standings(TournamentState(s.config, s.entrants, s.pairings, s.results)) for s in seasons
        ],
        max(args.repeats * 5, 20),
        league_cpu,
    )
    print(
        f"League: standings of {args.league} players in {len(divisions)} divisions "
        f"({games} games): p95 {p95(league) * 1000:.1f} ms, "
        f"median {statistics.median(league) * 1000:.1f} ms (target p95 < 100 ms); "
        f"CPU p95 {p95(league_cpu) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
