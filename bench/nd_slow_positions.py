"""Hunt slow Naked Diagonal positions on large boards (15x15, 17x17, 19x19).

Random playouts end long before the board is crowded, while the positions that cost the most
are crowded and contested: many small areas squeezed between both colours, where witness
repair and the striped fills fail and the complete search runs.  Two kinds of games get there:

* ``contest``: each player places next to the opponent's stones (a random legal point in the
  8-neighbourhood of an enemy stone, 80 % of moves; otherwise any random legal point), and a
  move that would win is taken back and another tried, so games run on to a crowded board;
* ``fill``: random legal moves with the same no-win rule, which fills 60-90 % of the board;
* ``distance``: the reference distance player (70 % of moves, :func:`ai.reference.distance_move`)
  and random moves (30 %), again with the no-win rule: both sides race across each other's
  way, which is where earlier hunts on 9x9 to 15x15 found the slowest positions.

Every ``play`` is timed (CPU seconds of this process, so other jobs on the machine matter
less), and so is ``legal_moves()`` from a cold memo (the solver's memo emptied first) every
``--cold-every`` plies.  The worst positions are kept as move lists and printed (and written
to ``--out`` as JSON), so they can be replayed: ``--replay FILE`` times those positions again,
``play`` with the memo as the game left it and cold ``legal_moves``, which is how before/after
figures on the same positions are taken.

Prints figures only; it never fails on time.
Usage: ``python bench/nd_slow_positions.py --sizes 15 17 19 --games 2 --out slow.json``
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.reference import distance_move
from rules import new_game
from rules.nakeddiagonal import NakedDiagonal
from rules.nd_area import area_solver

STYLES = ("distance", "contest", "fill")
KEEP = 5
"""Worst positions kept per size and per measure."""
TRIES = 8
"""Moves tried before a winning move is accepted (the game then ends)."""


def _game(size: int) -> NakedDiagonal:
    game = new_game("nakeddiagonal", size)
    assert isinstance(game, NakedDiagonal)
    return game


def _cold(game: NakedDiagonal) -> float:
    """CPU seconds of ``legal_moves()`` on a copy of ``game`` with an empty memo.

    Solvers are per thread, so the copy runs on a new thread of its own: its solver starts
    empty and the calling thread's memo (the game's) is left as it was."""

    def run() -> float:
        copy = game.copy()
        copy._legal = None
        started = time.thread_time()
        copy.legal_moves()
        return time.thread_time() - started

    with ThreadPoolExecutor(max_workers=1) as fresh:
        return fresh.submit(run).result()


def cold_legal(moves: list[str], size: int) -> float:
    """CPU seconds of ``legal_moves()`` after ``moves``, from an empty memo."""
    game = _game(size)
    for move in moves:
        game.play(move)
    return _cold(game)


def _pick(game: NakedDiagonal, legal: list[str], style: str, rnd: random.Random) -> str:
    if style == "distance" and rnd.random() < 0.7:
        return distance_move(game, rnd)
    if style == "contest" and rnd.random() < 0.8:
        enemy = game._stones[1 - game._turn]
        near = game.grid.dilate8(enemy) & ~enemy
        index = {name: i for i, name in enumerate(game.grid.names)}
        close = [m for m in legal if near >> index[m] & 1]
        if close:
            return rnd.choice(close)
    return rnd.choice(legal)


def play_out(size: int, style: str, rnd: random.Random) -> Iterator[tuple[NakedDiagonal, float]]:
    """Play one ``style`` game, yielding the game and the CPU seconds of its ``play`` after
    each ply (tests/rules/test_nakeddiagonal_large.py checks positions of such games)."""
    game = _game(size)
    while not game.is_over:
        legal = game.legal_moves()
        for attempt in range(TRIES):
            move = _pick(game, legal, style, rnd)
            started = time.process_time()
            game.play(move)
            took = time.process_time() - started
            if not game.is_over or attempt == TRIES - 1 or len(legal) == 1:
                break
            game.pop()
        yield game, took


def hunt_game(
    size: int, style: str, rnd: random.Random, cold_every: int
) -> tuple[list[tuple[float, list[str]]], list[tuple[float, list[str]]]]:
    """One game: ([(play seconds, moves up to and including it)], [(cold seconds, moves)])."""
    plays: list[tuple[float, list[str]]] = []
    colds: list[tuple[float, list[str]]] = []
    for game, took in play_out(size, style, rnd):
        moves = game.moves
        plays.append((took, moves))
        if cold_every and len(moves) % cold_every == 0 and not game.is_over:
            colds.append((_cold(game), moves))
    return plays, colds


def _worst(rows: list[tuple[float, list[str]]]) -> list[tuple[float, list[str]]]:
    return sorted(rows, key=lambda r: -r[0])[:KEEP]


def hunt(
    sizes: list[int], games: int, seed: int, cold_every: int, out: Path | None
) -> dict[str, object]:
    found: dict[str, object] = {}
    for size in sizes:
        plays: list[tuple[float, list[str]]] = []
        colds: list[tuple[float, list[str]]] = []
        filled: list[float] = []
        for g in range(games):
            style = STYLES[g % len(STYLES)]
            rnd = random.Random(seed * 1000 + size * 10 + g)
            area_solver(size).forget()
            p, c = hunt_game(size, style, rnd, cold_every)
            plays += p
            colds += c
            filled.append(len(p[-1][1]) / size**2 if p else 0.0)
            print(
                f"  {size}x{size} game {g} ({style}): {len(p)} plies, "
                f"filled {filled[-1]:.0%}, worst play {max(t for t, _ in p):.3f} s, "
                f"worst cold {max((t for t, _ in c), default=0.0):.3f} s",
                flush=True,
            )
        plays.sort(key=lambda r: r[0])
        n = len(plays)
        print(
            f"{size}x{size}: {n} plays, p50 {plays[n // 2][0] * 1e3:.1f} ms, "
            f"p95 {plays[int(n * 0.95)][0] * 1e3:.1f} ms, max {plays[-1][0]:.3f} s; "
            f"{len(colds)} cold, max {max((t for t, _ in colds), default=0.0):.3f} s",
            flush=True,
        )
        found[str(size)] = {
            "play": [{"seconds": t, "moves": m} for t, m in _worst(plays)],
            "cold": [{"seconds": t, "moves": m} for t, m in _worst(colds)],
        }
        if out is not None:  # after each size, so a long hunt cut short keeps what it found
            out.write_text(json.dumps(found, indent=1))
    return found


def replay_play(moves: list[str], size: int) -> float:
    """CPU seconds of the last ``play`` of ``moves``, the memo as the game left it."""
    area_solver(size).forget()
    game = _game(size)
    for move in moves[:-1]:
        game.play(move)
    started = time.process_time()
    game.play(moves[-1])
    return time.process_time() - started


def replay(path: Path) -> None:
    """Time the positions a hunt kept, again, on this code."""
    found = json.loads(path.read_text())
    for size_text, kinds in found.items():
        size = int(size_text)
        for kind, rows in kinds.items():
            for row in rows:
                moves = row["moves"]
                took = replay_play(moves, size) if kind == "play" else cold_legal(moves, size)
                print(
                    f"{size}x{size} {kind:4s} ply {len(moves):3d}: "
                    f"hunt {row['seconds']:.3f} s, now {took:.3f} s",
                    flush=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[15, 17, 19])
    parser.add_argument("--games", type=int, default=2, help="games per size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold-every", type=int, default=10, help="0: no cold timings")
    parser.add_argument("--out", type=Path, help="write the worst positions as JSON")
    parser.add_argument("--replay", type=Path, help="time the positions of an earlier --out")
    args = parser.parse_args()
    if args.replay:
        replay(args.replay)
        return
    hunt(args.sizes, args.games, args.seed, args.cold_every, args.out)


if __name__ == "__main__":
    main()
