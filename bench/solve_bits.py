"""Solve a board with a bitboard df-pn and write its proof: Minefield and Naked Diagonal with
ai/dfpn_bits.py, Clear Path (chains and the pie rule) with ai/dfpn_clearpath.py, Clearcut
(whose positions repeat) with ai/dfpn_clearcut.py.

    python -m bench.solve_bits minefield 5 --seat first --out-dir /tmp/proofs
    python -m bench.solve_bits clearcut 4 --out-dir /tmp/proofs
    python -m bench.solve_bits minefield 5 --max-nodes 100000     # a timing run
    python -m bench.solve_bits clearpath 5 --seat second --max-seconds 2400
    python -m bench.solve_bits clearpath 5 --seat second --first-turns --turn-nodes 500000

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
from ai.dfpn_clearpath import OFFERED, ClearPathDfpn
from ai.dfpn_step import INF
from ai.solver import SearchLimit, game_symmetries

SEATS = ("first", "second")
GAMES = sorted({*BITS_GAMES, "clearpath", "clearcut"})
"""Clear Path and Clearcut have searches of their own (chains and the pie rule; checkers that
leave the board, so positions repeat and BitsDfpn's pruning fails)."""

Solver = BitsDfpn | ClearcutDfpn


def make_solver(game: str, size: int, seat: int, max_nodes: int | None) -> Solver:
    if game == "clearpath":
        return ClearPathDfpn(size, seat, max_nodes=max_nodes)
    if game == "clearcut":
        return ClearcutDfpn(size, seat, max_nodes=max_nodes)
    return BitsDfpn(game, size, seat, max_nodes=max_nodes)


def first_turns(
    solver: ClearPathDfpn, per_turn: int, started: float, only: list[str] | None = None
) -> list[dict[str, object]]:
    """Red's first stones one by one (one per symmetry orbit), each asked with its own
    budget of expansions on one shared table: does the attacker win after it?  With the
    second seat asking, Blue to move may answer it or swap."""
    size = solver.size
    names = solver.cp.grid.names
    seen: set[int] = set()
    rows: list[dict[str, object]] = []
    for p in solver.order:
        if p in seen:
            continue
        orbit = sorted({sym.perm[p] for sym in game_symmetries("clearpath", size)})
        seen.update(orbit)
        if only and not {names[q] for q in orbit} & set(only):
            continue
        before = solver.nodes
        solver.max_nodes = before + per_turn
        try:
            won: bool | None = solver.wins(1 << p, 0, 1, OFFERED)
        except SearchLimit:
            won = None
        row: dict[str, object] = {
            "red_first": [names[q] for q in orbit],
            "wins": won,
            "expansions": solver.nodes - before,
            "seconds": round(time.perf_counter() - started, 1),
        }
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    return rows


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


def _report(
    solver: Solver, started: float, max_cpu: float | None = None, max_rss: int | None = None
) -> None:
    seconds = time.perf_counter() - started
    cpu = time.process_time()
    # Clear Path's and Clearcut's searches key their positions otherwise than root_numbers.
    root = " root pn {} dn {}".format(*root_numbers(solver)) if type(solver) is BitsDfpn else ""
    # Clearcut's positions repeat: how often the search met one, and kept disproofs apart.
    extra = (
        f", {solver.repetitions} repetitions met, {len(solver.tainted)} tainted"
        if isinstance(solver, ClearcutDfpn)
        else ""
    )
    print(
        f"{solver.nodes} expansions, {len(solver.table)} entries{extra}, {seconds:.0f} s, "
        f"{cpu:.0f} CPU s, {solver.nodes / max(cpu, 1e-9):.0f}/CPU s, "
        f"max RSS {_rss_mb()} MB{root}",
        file=sys.stderr,
        flush=True,
    )
    if max_cpu is not None and cpu > max_cpu:
        raise SearchLimit(f"passed {max_cpu:.0f} CPU seconds")
    if max_rss is not None and _rss_mb() > max_rss:
        raise SearchLimit(f"passed {max_rss} MB")


def _rss_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


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
    parser.add_argument(
        "--max-seconds", type=float, default=None, help="stop after this much CPU time"
    )
    parser.add_argument(
        "--max-rss-mb", type=int, default=None, help="stop once the process is this big"
    )
    parser.add_argument(
        "--first-turns",
        action="store_true",
        help="Clear Path: ask after each of Red's first stones in turn, not from the start",
    )
    parser.add_argument("--turn-nodes", type=int, default=1_000_000, help="with --first-turns")
    parser.add_argument(
        "--red-first", nargs="+", default=None, help="with --first-turns: only these stones"
    )
    args = parser.parse_args(argv)
    if not 4 <= args.size <= 8:
        print("the bitboard solver takes sizes 4 to 8", file=sys.stderr)
        return 2
    solver = make_solver(args.game, args.size, SEATS.index(args.seat), args.max_nodes)
    started = time.perf_counter()
    if args.max_nodes is None or args.every is not None:
        # With a budget the budget is checked only every N expansions too.
        solver.every = args.every or 1 << 20
        solver.progress = lambda s: _report(s, started, args.max_seconds, args.max_rss_mb)
    summary: dict[str, object] = {"game": args.game, "size": args.size, "seat": args.seat}
    if args.first_turns:
        if not isinstance(solver, ClearPathDfpn) or args.max_nodes is not None:
            print("--first-turns is for clearpath, without --max-nodes", file=sys.stderr)
            return 2
        # The per-turn budget is checked (and progress shown) this often.
        solver.every = min(args.every or 1 << 20, args.turn_nodes, 1 << 16)
        summary["first_turns"] = first_turns(solver, args.turn_nodes, started, args.red_first)
    try:
        won = None if args.first_turns else solver.wins()
    except SearchLimit:
        won = None
    seconds = time.perf_counter() - started
    summary.update(
        wins=won,
        expansions=solver.nodes,
        entries=len(solver.table),
        seconds=round(seconds, 1),
        cpu_seconds=round(time.process_time(), 1),
        max_rss_mb=_rss_mb(),
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
