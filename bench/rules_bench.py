"""Rules-engine benchmark: random playouts per second and legal_moves() latency.

Prints figures only; it never fails on time (machines are shared and noisy).  A playout calls
``legal_moves()`` at every ply and plays a random move from it through ``play()``, exactly as
a naive client would.  Usage: ``python bench/rules_bench.py [--seconds S] [--game NAME]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import new_game

SIZES = {
    "minefield": (9, 13),
    "clearcut": (9, 13),
    "clearpath": (9, 13),
    "crosscut": (8, 10),
}
TARGET = {"minefield": 200, "clearcut": 200, "crosscut": 200, "clearpath": 100}


def playouts_per_second(name: str, size: int, seconds: float, seed: int = 1) -> tuple[float, int]:
    rnd = random.Random(seed)
    done, plies = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or done < 3:
        game = new_game(name, size)
        while not game.is_over:
            game.play(rnd.choice(game.legal_moves()))
            plies += 1
        done += 1
    return done / (time.perf_counter() - start), plies // done


def legal_moves_latency(name: str, size: int, positions: int = 300, seed: int = 2) -> list[float]:
    """legal_moves() on fresh (uncached) mid-game positions: plies 25%..75% of a playout."""
    rnd = random.Random(seed)
    times: list[float] = []
    while len(times) < positions:
        game = new_game(name, size)
        moves = []
        while not game.is_over:
            move = rnd.choice(game.legal_moves())
            moves.append(move)
            game.play(move)
        replay = new_game(name, size)
        for ply, move in enumerate(moves):
            if len(moves) // 4 <= ply <= 3 * len(moves) // 4 and not replay.is_over:
                probe = replay.copy()
                probe._legal = None  # measure the real generation, not the cache
                t0 = time.perf_counter()
                probe.legal_moves()
                times.append(time.perf_counter() - t0)
            replay.play(move)
    return times


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per playout figure")
    parser.add_argument("--game", choices=[*sorted(SIZES), "nakeddiagonal"], action="append")
    args = parser.parse_args(argv)
    names = [n for n in (args.game or list(SIZES)) if n in SIZES]
    print(f"{'game':<10} {'size':>4} {'playouts/s':>11} {'plies':>6} {'target':>7}")
    for name in names:
        for size in SIZES[name]:
            rate, plies = playouts_per_second(name, size, args.seconds)
            target = f">={TARGET[name]}" if size == SIZES[name][0] else ""
            print(f"{name:<10} {size:>4} {rate:>11.1f} {plies:>6} {target:>7}", flush=True)
    header = f"{'game':<10} {'size':>4} {'legal_moves p50':>16} {'p95':>9} {'max':>9}"
    print(f"\n{header}  (target p95<=2ms)")
    for name in names:
        size = SIZES[name][0]
        times = legal_moves_latency(name, size)
        p50, p95 = pct(times, 0.5) * 1e3, pct(times, 0.95) * 1e3
        print(
            f"{name:<10} {size:>4} {p50:>14.3f}ms {p95:>7.3f}ms {max(times) * 1e3:>7.3f}ms",
            flush=True,
        )
    try:
        import nakeddiagonal_bench
    except ImportError:
        return
    if args.game is None or "nakeddiagonal" in args.game:
        print()
        nakeddiagonal_bench.run()


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    main()
