"""Solve a board with the bitboard df-pn (ai/dfpn_bits.py) and write its proof.

    python -m bench.solve_bits minefield 5 --seat first --out-dir /tmp/proofs
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
import sys
import time
from pathlib import Path

from ai.dfpn_bits import BITS_GAMES, INF, BitsDfpn
from ai.solver import SearchLimit

SEATS = ("first", "second")


def root_numbers(
    solver: BitsDfpn, black: int = 0, white: int = 0, mover: int = 0
) -> tuple[int, int]:
    """A search's root's (pn, dn) as its children stand in the table now: which way a long
    search is heading (the root's own entry is written only when the search ends)."""
    settled, mover, legal = solver.evaluate(black, white, mover)
    if settled is not None:
        return settled
    children = solver._children(black, white, mover, legal, solver.keys_of(black, white))
    values = [child[4] or solver.table.get(child[5], child[6]) for child in children]
    pns, dns = [v[0] for v in values], [v[1] for v in values]
    if mover == solver.attacker:
        return min(pns), min(sum(dns), INF)
    return min(sum(pns), INF), min(dns)


def _report(solver: BitsDfpn, started: float) -> None:
    seconds = time.perf_counter() - started
    cpu = time.process_time()
    pn, dn = root_numbers(solver)
    print(
        f"{solver.nodes} expansions, {len(solver.table)} entries, {seconds:.0f} s, "
        f"{solver.nodes / seconds:.0f}/s, {cpu:.0f} CPU s, root pn {pn} dn {dn}",
        file=sys.stderr,
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(BITS_GAMES))
    parser.add_argument("size", type=int)
    parser.add_argument(
        "--seat", choices=SEATS, default="first", help="the seat to prove a win for"
    )
    parser.add_argument("--max-nodes", type=int, default=None)
    parser.add_argument("--every", type=int, default=1 << 20, help="progress every N expansions")
    parser.add_argument("--out-dir", type=Path, default=None, help="where to write the proof")
    args = parser.parse_args(argv)
    if not 4 <= args.size <= 8:
        print("the bitboard solver takes sizes 4 to 8", file=sys.stderr)
        return 2
    solver = BitsDfpn(args.game, args.size, SEATS.index(args.seat), max_nodes=args.max_nodes)
    started = time.perf_counter()
    if args.max_nodes is None:
        solver.every = args.every
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
