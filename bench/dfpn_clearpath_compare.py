"""The Clear Path bitboard df-pn (ai/dfpn_clearpath.py) against the engine df-pn (ai/dfpn.py).

    nice -n 10 python -m bench.dfpn_clearpath_compare [--size 5] [--budget 5000]

Both searches in one process, one after the other, from the empty board for the second seat
(the seat the pie rule favours), each stopped after ``--budget`` expansions: expansions a
second on the same position, the node's cost (both expand the same tree from the same
start, the bitboard one settling more children at once).  CPU seconds are given as well as
wall seconds, since the machine is shared.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable

from ai.dfpn import DfpnSolver
from ai.dfpn_clearpath import ClearPathDfpn
from ai.solver import SearchLimit
from rules import new_game


def timed(run: Callable[[], int]) -> tuple[int, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    nodes = run()
    return nodes, time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--budget", type=int, default=5_000)
    args = parser.parse_args(argv)

    def engine() -> int:
        solver = DfpnSolver("clearpath", args.size, "second", max_nodes=args.budget)
        with contextlib.suppress(SearchLimit):
            solver.wins(new_game("clearpath", args.size))
        return solver.nodes

    def bits() -> int:
        solver = ClearPathDfpn(args.size, 1, max_nodes=args.budget)
        with contextlib.suppress(SearchLimit):
            solver.wins()
        return solver.nodes

    rates = {}
    for name, run in (("engine", engine), ("bits", bits)):
        nodes, wall, cpu = timed(run)
        rates[name] = nodes / cpu
        print(
            f"{name:<7} {nodes:>8} expansions  {wall:7.1f} s wall  {cpu:7.1f} s CPU  "
            f"{nodes / cpu:7.0f}/CPU s",
            flush=True,
        )
    print(f"bits/engine per CPU second: {rates['bits'] / rates['engine']:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
