"""Rating estimates for the levels, fitted to the ladder matches in docs/ai.md.

The match results below are copied from the ``bench/ai_bench.py`` runs listed in docs/ai.md (23
and 26–27 November 2026, eleven rounds, 7×7, Crosscut 8×8, playout budgets only, seats
alternating).
Each entry is (player, opponent, games, wins of player), pooled over the games named in its
comment.  The fit is the usual Bradley–Terry/Elo maximum-likelihood estimate with the distance
reference player fixed at 1000, and one virtual draw added to every pairing, so a clean sweep
gives a finite (and deliberately cautious) difference.  Prints the ratings; ai/levels.py carries
them rounded.

    python bench/ai_ratings.py
"""

from __future__ import annotations

import math

ANCHOR = "distance"
ANCHOR_RATING = 1000.0

# (player, opponent, games, wins).  Only games played by the search each level uses now: the
# second round changed level 3 and up in Crosscut, the fourth round levels 1 and 2 (10 and 80
# playouts, level 2 without Crosscut's threat check), the fifth round level 3 and up in
# Minefield (path playouts), and the seventh round level 3 on Minefield 7×7 (200 playouts), so
# earlier games of those levels are left out and the newer ones take their place.  Per-game
# figures are in docs/ai.md.
RESULTS: list[tuple[str, str, int, float]] = [
    # Fourth round, seed 80, 20 games per game (Clear Path 6, Minefield 0,
    # Crosscut 1, Clearcut 0, Naked Diagonal 0).
    ("level 1", "distance", 100, 7.0),
    # Fourth round, seed 80, 20 games per game (Clear Path 11, Minefield 15, Crosscut 12,
    # Clearcut 17, Naked Diagonal 8).
    ("level 2", "distance", 100, 63.0),
    # Fourth round, seed 79: Clear Path 33/40, Minefield 39/40, Crosscut 39/40, Clearcut 40/40,
    # Naked Diagonal 39/40.
    ("level 2", "level 1", 200, 190.0),
    # First round without Crosscut and Minefield: 100-game runs (97 + 94 + 95) and the small
    # rounds (24/24, 23/24, 11/12) in Clear Path, Clearcut and Naked Diagonal.
    ("level 3", "distance", 360, 344.0),
    # Seventh round, Minefield 7×7 at level 3's own cap there (200 playouts), seed 137.
    ("level 3", "distance", 100, 93.0),
    # Second round, Crosscut: seeds 43 and 44, 100 games each (90 and 94).
    ("level 3", "distance", 200, 184.0),
    # Fourth round, seed 78: Clear Path 33/40, Crosscut 37/40, Clearcut 39/40, Naked Diagonal
    # 19/20.
    ("level 3", "level 2", 140, 128.0),
    # Seventh round, Minefield 7×7 at 200 playouts, seed 138.
    ("level 3", "level 2", 40, 34.0),
    # Second round, at the new caps: Clear Path 7/8, Crosscut 12/12, Clearcut 5/6, Naked
    # Diagonal 3/6.
    ("level 4", "level 3", 32, 27.0),
    # Fourth round: Clearcut 14/20 (seed 82), Clear Path 13/16 (seed 84).
    ("level 4", "level 3", 36, 27.0),
    # Seventh round, Minefield 7×7 against level 3 at 200 playouts, seeds 139 and 143 (23/30,
    # 24/30).  Minefield at 9×9 is left out: the ratings are for the 7×7 boards.
    ("level 4", "level 3", 60, 47.0),
    # Fifth round, Clearcut 7×7, seeds 118 and 119 (5/10 each).
    ("level 4", "level 3", 20, 10.0),
    # Second round: Clearcut 2/6, Crosscut 5/6.
    ("level 5", "level 4", 12, 7.0),
    # Fourth round, Crosscut, seed 83.
    ("level 5", "level 4", 10, 8.0),
    # Fourth round, Clearcut, seeds 85 and 86 (3/7 and 2/3, both stopped for time).
    ("level 5", "level 4", 10, 5.0),
    # Third round, seed 95: Crosscut and Clearcut, 20/20 each (Minefield's 20/20 was the search
    # before path playouts).
    ("level 5", "distance", 40, 40.0),
    # Fifth round, Minefield with path playouts, seed 117.
    ("level 5", "distance", 10, 10.0),
    # Sixth round, Minefield, seed 120 (stopped for time after 55 games).
    ("level 5", "distance", 55, 55.0),
    # Sixth round, Minefield, seeds 132 and 133 (17 games each, stopped for time).
    ("level 5", "distance", 34, 34.0),
    # Seventh round: Minefield 2/2 (seed 134), Crosscut 10/10 and 22/22 (seeds 135 and 151,
    # both stopped for time).
    ("level 5", "distance", 34, 34.0),
    # Sixth round, Naked Diagonal, seeds 129 (3/6) and 130 (4/5), both stopped for time.
    ("level 4", "level 3", 11, 7.0),
    # Sixth round: Minefield 6/10 (seed 131), Clear Path 3/4 (seed 121, stopped for time).
    ("level 5", "level 4", 14, 9.0),
    # Seventh round: Minefield 13/20 (seed 150).
    ("level 5", "level 4", 20, 13.0),
    # Eighth round: Crosscut 48/48 (seed 152), Clearcut 6/6, 47/47 and 37/38 (seeds 153, 156
    # and 157, the first and last stopped for time).
    ("level 5", "distance", 139, 138.0),
    # Tenth round: Crosscut 23/30 and 8/14 (seeds 168 and 169, both stopped for time).
    ("level 5", "level 4", 44, 31.0),
    # Eleventh round: Crosscut 9/14 (seed 170, stopped) and 51/60 (seed 173).
    ("level 5", "level 4", 74, 60.0),
]


def pooled(results: list[tuple[str, str, int, float]]) -> list[tuple[str, str, int, float]]:
    """The rows of ``results`` summed per pairing (player, opponent), in first-seen order."""
    totals: dict[tuple[str, str], tuple[int, float]] = {}
    for a, b, n, w in results:
        games, wins = totals.get((a, b), (0, 0.0))
        totals[(a, b)] = (games + n, wins + w)
    return [(a, b, n, w) for (a, b), (n, w) in totals.items()]


def fit(results: list[tuple[str, str, int, float]], rounds: int = 20_000) -> dict[str, float]:
    """Elo ratings maximising the likelihood of ``results`` (anchor fixed)."""
    names = sorted({a for a, _, _, _ in results} | {b for _, b, _, _ in results})
    rating = {name: ANCHOR_RATING for name in names}
    # One virtual draw per pairing (not per row: a pairing measured in more batches must not
    # get more of them): half a win each way.
    data = [(a, b, n + 1, w + 0.5) for a, b, n, w in pooled(results)]
    step = 2.0
    for _ in range(rounds):
        grad = dict.fromkeys(names, 0.0)
        for a, b, n, w in data:
            expected = n / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            grad[a] += w - expected
            grad[b] -= w - expected
        for name in names:
            if name != ANCHOR:
                rating[name] += step * grad[name]
    return rating


def main() -> int:
    rating = fit(RESULTS)
    for name, value in sorted(rating.items(), key=lambda item: item[1]):
        print(f"{name:10s} {value:7.0f}")
    for a, b, n, w in pooled(RESULTS):
        expected = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
        print(f"{a} vs {b}: measured {w / n:5.1%} over {n} games, fitted {expected:5.1%}")
    return 0 if all(math.isfinite(v) for v in rating.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
