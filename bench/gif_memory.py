"""Peak memory and CPU of drawing one replay GIF, for one or more source trees in one run.

Each measurement runs in a fresh child process (so one tree's cached fonts or freed-but-kept
heap cannot hide another's cost): the child imports the renderer, replays the record, reads
its peak RSS (``resource.getrusage``'s ``ru_maxrss``), draws the GIF with ``render_gif`` and
reads the peak again.  The games: the 341-move 19x19 Naked Diagonal record in
``bench/nd_replay_records.json`` and a long random 19x19 Clear Path game (seeded, so every
tree draws the same one).  Prints figures; never fails on them.  Example::

    python bench/gif_memory.py --tree /work/main --tree .
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from rules import new_game  # noqa: E402

CHILD = textwrap.dedent(
    """
    import resource, sys, time
    from rules import parse_record
    from render import render_gif

    record = sys.stdin.read()
    game = parse_record(record)
    names = {c: f"{c.capitalize()} player" for c in game.players}
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cpu = time.process_time()
    data = render_gif(game, names=names)
    cpu = time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if len(sys.argv) > 1:
        open(sys.argv[1], "wb").write(data)
    print(base, peak, cpu, len(data), len(game.history))
    """
)


def clearpath_record(size: int, plies: int, seed: int) -> str:
    """A random Clear Path game of up to ``plies`` moves (wins avoided while others exist)."""
    rnd = random.Random(seed)
    game = new_game("clearpath", size)
    while not game.is_over and len(game.history) < plies:
        legal = game.legal_moves()
        for attempt in range(8):
            game.play(rnd.choice(legal))
            if not game.is_over or attempt == 7 or len(legal) == 1:
                break
            game.pop()
    return game.record()


def measure(tree: Path, record: str, out: Path | None) -> tuple[float, float, float, int, int]:
    """(base MiB, peak MiB, CPU s, GIF bytes, moves) of ``tree`` drawing ``record``."""
    argv = [sys.executable, "-c", CHILD] + ([str(out)] if out else [])
    done = subprocess.run(
        argv, input=record, cwd=tree, capture_output=True, text=True, check=False,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the child failed:\n{done.stderr}")
    base, peak, cpu, size, moves = done.stdout.split()
    return int(base) / 1024, int(peak) / 1024, float(cpu), int(size), int(moves)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tree", action="append", type=Path, required=True)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--keep", type=Path, help="write each tree's GIFs into this folder")
    args = p.parse_args()
    nd = json.loads((HERE / "bench" / "nd_replay_records.json").read_text())
    records = {
        "nakeddiagonal 19x19": max(nd, key=lambda r: len(r.split())),
        "clearpath 19x19": clearpath_record(19, 341, seed=46),
    }
    for label, record in records.items():
        for r in range(args.rounds):
            for i, tree in enumerate(t.resolve() for t in args.tree):
                out = None
                if args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    out = args.keep / f"{label.split()[0]}-tree{i}.gif"
                base, peak, cpu, size, moves = measure(tree, record, out)
                print(
                    f"{label}, {moves} moves, round {r + 1}: base {base:5.0f} MiB, "
                    f"peak {peak:5.0f} MiB (+{peak - base:4.0f}), CPU {cpu:5.2f} s, "
                    f"GIF {size / 2**20:4.2f} MiB  {tree}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
