"""Board image benchmark: render-and-encode time (p50/p95) and sizes.  Prints; never fails.

    python bench/render_bench.py [--runs 60]

Targets on one core: 9×9 PNG p95 <= 40 ms and <= 300 KB; 19×19 PNG p95 <= 120 ms and <= 300 KB;
a 100-turn GIF <= 5 s and < 8 MiB; a finished 19×19 game's SVG well under the game page's
50 ms p95.  Positions are seeded random games with the illegal overlay on (the most drawing),
so numbers are repeatable.  CPU time (the process's own) is printed beside the wall-clock
percentiles, since on a shared machine the wall clock mostly measures the neighbours.
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render
from rules import Game, new_game


def random_game(name: str, size: int, turns: int, seed: int) -> Game:
    game = new_game(name, size)
    rnd = random.Random(seed)
    while not game.is_over and game.turn_number <= turns:
        game.play(rnd.choice(game.legal_moves()))
    return game


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def positions(game: Game, count: int) -> list[Game]:
    """``count`` distinct positions from the end of ``game``, legal moves already computed
    (that is the rules engine's cost, not the renderer's)."""
    found: list[Game] = []
    g = game.copy()
    while len(found) < count and g.history:
        g.legal_mask()
        found.append(g.copy())
        g.pop()
    return found


LATIN_NAMES = {"red": "Ann", "blue": "Bob", "black": "Ann", "white": "Bob"}
# Names drawn from the fallback faces: an emoji sequence, CJK, Devanagari.
WORLD_NAMES = {"red": "Zoë 張偉明", "blue": "👨‍👩‍👧 नमस्ते", "black": "Zoë 張偉明", "white": "🐉 Ana"}


def bench_png(
    name: str, size: int, turns: int, runs: int, names: dict[str, str] = LATIN_NAMES
) -> None:
    game = random_game(name, size, turns, seed=size)
    boards = positions(game, 20)
    # Warm caches (fonts, static layer, tiles).
    render.render_board(game, show_illegal=True, names=names)
    times: list[float] = []
    cpu: list[float] = []
    sizes: list[int] = []
    for k in range(runs):
        g = boards[k % len(boards)]
        start, cpu_start = time.perf_counter(), time.process_time()
        data = render.render_board(g, show_illegal=True, names=names)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - cpu_start) * 1000)
        sizes.append(len(data))
    print(
        f"{name:<10} {size:>2}x{size:<2} PNG  p50 {statistics.median(times):6.1f} ms"
        f"  p95 {percentile(times, 0.95):6.1f} ms  (cpu p50 {statistics.median(cpu):5.1f} ms)"
        f"  size max {max(sizes) / 1024:6.1f} KB"
        f"  ({game.turn_number - 1} turns, {runs} runs over {len(boards)} positions"
        f"{', emoji/CJK names' if names is WORLD_NAMES else ''})"
    )


def bench_svg(name: str, size: int, runs: int, names: dict[str, str] = LATIN_NAMES) -> None:
    """A finished game (winning path drawn) as the game page serves it, caches warm."""
    game = random_game(name, size, 10_000, seed=size)
    render.board_svg(game, names=names)
    times: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        start, cpu_start = time.perf_counter(), time.process_time()
        data = render.board_svg(game, names=names)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - cpu_start) * 1000)
    raw = data.encode()
    print(
        f"{name:<10} {size:>2}x{size:<2} SVG  p50 {statistics.median(times):6.1f} ms"
        f"  p95 {percentile(times, 0.95):6.1f} ms  (cpu p50 {statistics.median(cpu):5.1f} ms)"
        f"  size {len(raw) / 1024:6.1f} KB"
        f" ({len(gzip.compress(raw)) / 1024:.1f} KB gzipped)"
        f"  (finished, {game.turn_number - 1} turns, {runs} runs"
        f"{', emoji/CJK names' if names is WORLD_NAMES else ''})"
    )


def bench_cold(name: str, size: int) -> None:
    """The first render of a board size in a process: static layer and tiles not cached."""
    game = random_game(name, size, 40, seed=1)
    start = time.perf_counter()
    render.render_board(game, theme="high-contrast")
    took = (time.perf_counter() - start) * 1000
    print(f"{name:<10} {size:>2}x{size:<2} PNG  first render (cold caches) {took:6.1f} ms")


def bench_gif(name: str, size: int, turns: int) -> None:
    game = random_game(name, size, turns, seed=7)
    start = time.perf_counter()
    data = render.render_gif(game)
    took = time.perf_counter() - start
    print(
        f"{name:<10} {size:>2}x{size:<2} GIF  {took:6.2f} s"
        f"  size {len(data) / 1024 / 1024:5.2f} MiB"
        f"  ({game.turn_number - 1} turns)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    for name, size in (("minefield", 9), ("clearpath", 9), ("minefield", 19), ("clearcut", 19)):
        bench_png(name, size, 60 if size == 9 else 150, args.runs)
    bench_png("minefield", 19, 150, args.runs, WORLD_NAMES)
    for name, size in (("minefield", 9), ("clearpath", 9), ("minefield", 19), ("clearcut", 19)):
        bench_svg(name, size, args.runs)
    bench_svg("minefield", 19, args.runs, WORLD_NAMES)
    bench_cold("clearcut", 13)
    bench_gif("minefield", 9, 100)
    bench_gif("minefield", 19, 100)
    bench_gif("clearcut", 19, 100)


if __name__ == "__main__":
    main()
