"""Write the per-position proof sizes beside each shipped proof (ai/solved/sizes/).

The computer on a solved board's losing side plays the move whose proof is largest
(:func:`ai.solver.losing_side_move`); working that out at move time would walk the whole
proof (a minute for Clear Path 4×4), so the sizes are computed once here and shipped.

    python bench/proof_sizes.py              # every shipped proof
    python bench/proof_sizes.py crosscut-5   # one board
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.solver import SOLVED_DIR, proof_sizes, shipped_proof, sizes_path
from rules import new_game


def boards() -> list[tuple[str, int]]:
    found = []
    for path in sorted(SOLVED_DIR.glob("*.json.gz")):
        name, size = path.name.removesuffix(".json.gz").rsplit("-", 1)
        found.append((name, int(size)))
    return found


def write(name: str, size: int) -> tuple[int, float]:
    """Compute and write one board's sizes: (positions, seconds)."""
    started = time.perf_counter()
    proof = shipped_proof(name, size)
    if proof is None:
        raise SystemExit(f"no proof is shipped for {name} {size}×{size}")
    sizes = proof_sizes(new_game(name, size), proof.winner_seat, proof.strategy)
    document = {"game": name, "size": size, "winner_seat": proof.winner_seat, "sizes": sizes}
    # mtime=0: the same sizes give the same bytes, so a rerun changes nothing in git.
    sizes_path(name, size).parent.mkdir(exist_ok=True)
    with (
        open(sizes_path(name, size), "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh,
    ):
        fh.write(json.dumps(document, sort_keys=True, separators=(",", ":")).encode())
    return len(sizes), time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="*", help="GAME-SIZE, e.g. crosscut-5 (default: all)")
    args = parser.parse_args(argv)
    chosen = boards()
    if args.boards:
        wanted = set(args.boards)
        chosen = [(n, s) for n, s in chosen if f"{n}-{s}" in wanted]
        if len(chosen) != len(wanted):
            parser.error("every board named must have a shipped proof in ai/solved/")
    for name, size in chosen:
        count, seconds = write(name, size)
        print(f"{name} {size}×{size}: {count} positions in {seconds:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
