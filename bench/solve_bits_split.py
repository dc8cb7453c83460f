"""Solve a board with the bitboard df-pn one first move at a time, in several processes.

    nice -n 10 python -m bench.solve_bits_split nakeddiagonal 5 --seat second --work-dir D &
    nice -n 10 python -m bench.solve_bits_split nakeddiagonal 5 --seat second --work-dir D &
    python -m bench.solve_bits_split nakeddiagonal 5 --seat second --work-dir D --merge

Why: on a shared machine one process gets a share of one core; a board whose proof is
millions of expansions finishes sooner in two, each searching its own first moves.  The
first moves are taken one orbit of the board's symmetries at a time (``GAME_SYMMETRIES``),
most central first; a process claims the next unclaimed orbit by creating its file in
``--work-dir`` (an exclusive create, so two processes never take the same one), proves or
refutes it from the position after that first move with one table for all its orbits, and
writes ``orbit-<point>.json``: the verdict, the expansions, the CPU seconds and, when the
seat wins, the strategy from every first move of the orbit.

For the second seat every first move must be answered, so any refuted orbit ends the
question; for the first seat one proven first move is enough.  ``--merge`` joins the
orbits' strategies into one proof file in the format of ai/solved/ (each strategy is a
proof, and a union of proofs of the same seat is one: an entry's move is proven in its own
proof, which holds every position that move reaches), to be checked with
``python -m bench.verify_proof`` like any other.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

from ai.dfpn_bits import BITS_GAMES, BitsDfpn
from ai.solver import GAME_SYMMETRIES, symmetry

from .solve_bits import SEATS, root_numbers


def orbits(name: str, size: int) -> list[list[int]]:
    """The first moves grouped by the game's symmetries, each orbit's least point first,
    the orbits most central first (the order the search itself prefers)."""
    perms = [symmetry(s, size).perm for s in GAME_SYMMETRIES[name]]
    seen: set[int] = set()
    out: list[list[int]] = []
    centre = (size - 1) / 2
    for p in sorted(
        range(size * size), key=lambda i: (abs(i % size - centre) + abs(i // size - centre), i)
    ):
        if p in seen:
            continue
        orbit = sorted({perm[p] for perm in perms})
        seen.update(orbit)
        out.append(orbit)
    return out


def _claim(work_dir: Path, point: int) -> bool:
    try:
        fd = os.open(work_dir / f"claim-{point}", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    return True


def solve(
    name: str, size: int, seat: int, work_dir: Path, every: int, outside_in: bool = False
) -> int:
    solver = BitsDfpn(name, size, seat)
    solver.every = every
    names = solver.rules.grid.names
    order = orbits(name, size)
    for orbit in reversed(order) if outside_in else order:
        point = orbit[0]
        if _settled(work_dir, seat):
            break
        if not _claim(work_dir, point):
            continue
        started = time.process_time()
        first = solver.nodes

        def report(
            s: BitsDfpn, point: int = point, started: float = started, first: int = first
        ) -> None:
            pn, dn = root_numbers(s, 1 << point, 0, 1)
            print(
                f"{names[point]}: {s.nodes - first} expansions, {len(s.table)} entries, "
                f"{time.process_time() - started:.0f} CPU s, pn {pn} dn {dn}",
                file=sys.stderr,
                flush=True,
            )

        solver.progress = report
        won = solver.wins(1 << point, 0, 1)
        result: dict[str, object] = {
            "opening": [names[p] for p in orbit],
            "wins": won,
            "expansions": solver.nodes - first,
            "entries": len(solver.table),
            "cpu_seconds": round(time.process_time() - started, 1),
        }
        if won:
            strategy: dict[str, str] = {}
            for p in orbit if seat == 1 else orbit[:1]:
                strategy.update(solver.strategy(1 << p, 0, 1))
            if seat == 0:
                strategy[solver.text(0, 0, 0)] = names[point]
            result["strategy"] = strategy
        (work_dir / f"orbit-{point}.json").write_text(json.dumps(result, sort_keys=True))
        print(json.dumps({k: v for k, v in result.items() if k != "strategy"}), flush=True)
        if won and seat == 0:
            break  # one winning first move is the first seat's whole proof
    return 0


def _settled(work_dir: Path, seat: int) -> bool:
    """Is the question answered: an orbit refuted for the second seat (who must answer every
    first move), or one proven for the first seat (who needs one)?"""
    return any(
        bool(json.loads(path.read_text())["wins"]) == (seat == 0)
        for path in work_dir.glob("orbit-*.json")
    )


def merge(name: str, size: int, seat: int, work_dir: Path) -> int:
    results = {
        orbit[0]: json.loads(path.read_text())
        for orbit in orbits(name, size)
        if (path := work_dir / f"orbit-{orbit[0]}.json").exists()
    }
    proven = [r for r in results.values() if r["wins"]]
    if seat == 1 and (len(results) < len(orbits(name, size)) or len(proven) < len(results)):
        print("not every first move is proven for the second seat", file=sys.stderr)
        return 1
    if seat == 0 and not proven:
        print("no first move is proven for the first seat", file=sys.stderr)
        return 1
    merged: dict[str, str] = {}
    for result in proven if seat == 1 else proven[:1]:
        merged.update(result["strategy"])
    strategy = reached(name, size, seat, merged)
    document = {"game": name, "size": size, "winner_seat": SEATS[seat], "strategy": strategy}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    data = gzip.compress(text.encode(), compresslevel=9, mtime=0)
    path = work_dir / f"{name}-{size}.json.gz"
    path.write_bytes(data)
    summary = {
        "file": str(path),
        "file_bytes": len(data),
        "proof_positions": len(strategy),
        "expansions": sum(int(r["expansions"]) for r in results.values()),
        "cpu_seconds": round(sum(float(r["cpu_seconds"]) for r in results.values()), 1),
    }
    print(json.dumps(summary), flush=True)
    return 0


def reached(name: str, size: int, seat: int, strategy: dict[str, str]) -> dict[str, str]:
    """The entries of ``strategy`` its own lines reach from the start: where two orbits'
    proofs overlap, the merged moves leave some of either's entries unused."""
    solver = BitsDfpn(name, size, seat)
    index = {point: p for p, point in enumerate(solver.rules.grid.names)}
    out: dict[str, str] = {}
    seen: set[tuple[int, int, int]] = set()
    stack = [(0, 0, 0)]
    while stack:
        black, white, mover = stack.pop()
        _, mover, legal = solver.evaluate(black, white, mover)
        if (black, white, mover) in seen or not legal:
            continue
        seen.add((black, white, mover))
        if mover == seat:
            text = solver.text(black, white, mover)
            out[text] = strategy[text]
            moves = [index[strategy[text]]]
        else:
            moves = [p for p in range(size * size) if legal >> p & 1]
        for p in moves:
            b, w = (black | 1 << p, white) if mover == 0 else (black, white | 1 << p)
            if not solver._joins(b if mover == 0 else w, p, mover):
                stack.append((b, w, mover ^ 1))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(BITS_GAMES))
    parser.add_argument("size", type=int)
    parser.add_argument("--seat", choices=SEATS, default="second")
    parser.add_argument("--work-dir", type=Path, required=True)
    parser.add_argument("--every", type=int, default=1 << 20, help="progress every N expansions")
    parser.add_argument("--merge", action="store_true", help="join the orbits' proofs")
    parser.add_argument(
        "--outside-in",
        action="store_true",
        help="take the orbits from the edges inwards (a second process finishes small ones)",
    )
    args = parser.parse_args(argv)
    seat = SEATS.index(args.seat)
    if args.merge:
        return merge(args.game, args.size, seat, args.work_dir)
    args.work_dir.mkdir(parents=True, exist_ok=True)
    return solve(args.game, args.size, seat, args.work_dir, args.every, args.outside_in)


if __name__ == "__main__":
    raise SystemExit(main())
