"""Solve one small board and write its proof file (ai/solved/<game>-<size>.json.gz).

    python -m bench.solve minefield 4
    python -m bench.solve crosscut 5 --max-nodes 2000000 --out-dir /tmp/proofs
    python -m bench.solve minefield 5 --dfpn --max-nodes 2000000

Prints one JSON line: who wins, the winning first moves, the proof size (positions where the
winner is to move), the search nodes, the solve time and the file size.  A proof file that
would pass 20 MB compressed is not written (docs/solved.md says what ships instead).  The file
is written deterministically (sorted keys, no gzip timestamp), so re-solving gives the same
bytes when the search finds the same strategy.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

from ai.dfpn import DfpnSolver
from ai.solver import SearchLimit, Solution, Solver, solve
from rules import game_class, game_names

MAX_PROOF_BYTES = 20 * 1024 * 1024
DEFAULT_DIR = Path(__file__).resolve().parent.parent / "ai" / "solved"


def proof_bytes(solution: Solution) -> bytes:
    text = json.dumps(solution.proof_document(), sort_keys=True, separators=(",", ":"))
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=game_names())
    parser.add_argument("size", type=int)
    parser.add_argument("--max-nodes", type=int, default=None, help="node budget per seat")
    parser.add_argument("--out-dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument(
        "--no-first-moves", action="store_true", help="skip listing every winning first move"
    )
    parser.add_argument("--dfpn", action="store_true", help="search with df-pn (ai/dfpn.py)")
    args = parser.parse_args(argv)
    cls = game_class(args.game)
    if not cls.min_size <= args.size <= cls.max_size:
        print(f"{cls.title} is played from {cls.min_size} to {cls.max_size}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        solution = solve(
            args.game,
            args.size,
            max_nodes=args.max_nodes,
            first_moves=not args.no_first_moves,
            solver_class=DfpnSolver if args.dfpn else Solver,
        )
    except SearchLimit as exc:
        seconds = round(time.perf_counter() - started, 1)
        print(
            json.dumps(
                {"game": args.game, "size": args.size, "unsolved": str(exc), "seconds": seconds}
            )
        )
        return 1
    seconds = time.perf_counter() - started
    summary: dict[str, object] = {
        "game": args.game,
        "size": args.size,
        "winner_seat": solution.winner_seat,
        "winning_first_moves": list(solution.winning_first_moves),
        "proof_positions": len(solution.strategy),
        "nodes": solution.nodes,
        "seconds": round(seconds, 1),
    }
    if solution.winner_seat is not None:
        data = proof_bytes(solution)
        summary["file_bytes"] = len(data)
        if len(data) <= MAX_PROOF_BYTES:
            args.out_dir.mkdir(parents=True, exist_ok=True)
            path = args.out_dir / f"{args.game}-{args.size}.json.gz"
            path.write_bytes(data)
            summary["file"] = str(path)
        else:
            summary["file"] = None
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
