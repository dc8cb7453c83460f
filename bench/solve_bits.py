"""Solve a board with a bitboard df-pn (Minefield: ai/dfpn_bits.py; Clearcut, whose
positions repeat: ai/dfpn_clearcut.py) and write its proof.

    python -m bench.solve_bits minefield 5 --seat first --out-dir /tmp/proofs
    python -m bench.solve_bits clearcut 4 --out-dir /tmp/proofs
    python -m bench.solve_bits minefield 5 --max-nodes 100000     # a timing run

Prints progress lines (expansions, table entries, expansions a second) to stderr every
``--every`` expansions and one JSON line at the end: the verdict, the expansions, the proof
size and file.  The proof is written in the format of ai/solved/ (see docs/solved.md); check
it with ``python -m bench.verify_proof`` before shipping it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import sys
import time
from pathlib import Path

from ai.dfpn_bits import BITS_GAMES, BitsDfpn
from ai.dfpn_clearcut import ClearcutDfpn
from ai.solver import SearchLimit

SEATS = ("first", "second")
GAMES = sorted([*BITS_GAMES, "clearcut"])
"""Clearcut has its own search (its checkers leave the board, so BitsDfpn's pruning fails)."""

Solver = BitsDfpn | ClearcutDfpn


def _report(solver: Solver, started: float) -> None:
    seconds = time.perf_counter() - started
    cpu = time.process_time()
    tainted = getattr(solver, "tainted", None)
    extra = f", {len(tainted)} tainted" if tainted is not None else ""
    print(
        f"{solver.nodes} expansions, {len(solver.table)} entries{extra}, {seconds:.0f} s, "
        f"{cpu:.0f} s CPU, {solver.nodes / max(cpu, 1e-9):.0f}/s of CPU, "
        f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB",
        file=sys.stderr,
        flush=True,
    )


def make_solver(game: str, size: int, attacker: int, max_nodes: int | None) -> Solver:
    if game == "clearcut":
        return ClearcutDfpn(size, attacker, max_nodes=max_nodes)
    return BitsDfpn(game, size, attacker, max_nodes=max_nodes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("size", type=int)
    parser.add_argument(
        "--seat", choices=SEATS, default="first", help="the seat to prove a win for"
    )
    parser.add_argument("--max-nodes", type=int, default=None)
    parser.add_argument(
        "--every",
        type=int,
        default=None,
        help="progress every N expansions (default 2^20; with --max-nodes, none unless given)",
    )
    parser.add_argument("--out-dir", type=Path, default=None, help="where to write the proof")
    args = parser.parse_args(argv)
    if not 4 <= args.size <= 8:
        print("the bitboard solver takes sizes 4 to 8", file=sys.stderr)
        return 2
    solver = make_solver(args.game, args.size, SEATS.index(args.seat), args.max_nodes)
    started = time.perf_counter()
    if args.max_nodes is None or args.every is not None:
        # With a budget the budget is checked only every N expansions too.
        solver.every = args.every or 1 << 20
        solver.progress = lambda s: _report(s, started)
    summary: dict[str, object] = {"game": args.game, "size": args.size, "seat": args.seat}
    try:
        won = solver.wins()
    except SearchLimit:
        won = None
    seconds = time.perf_counter() - started
    summary.update(
        wins=won,
        expansions=solver.nodes,
        entries=len(solver.table),
        seconds=round(seconds, 1),
        cpu_seconds=round(time.process_time(), 1),
        per_second=round(solver.nodes / seconds),
    )
    if won and args.out_dir is not None:
        strategy = solver.strategy()
        document = {
            "game": args.game,
            "size": args.size,
            "winner_seat": args.seat,
            "strategy": strategy,
        }
        text = json.dumps(document, sort_keys=True, separators=(",", ":"))
        data = gzip.compress(text.encode(), compresslevel=9, mtime=0)
        args.out_dir.mkdir(parents=True, exist_ok=True)
        path = args.out_dir / f"{args.game}-{args.size}.json.gz"
        path.write_bytes(data)
        summary.update(proof_positions=len(strategy), file=str(path), file_bytes=len(data))
    print(json.dumps(summary), flush=True)
    return 0 if won is not None else 1


if __name__ == "__main__":
    raise SystemExit(main())
