"""Do analysis marks agree with the exact truth?  (issue 48, docs/analysis.md)

Plays seeded random games, analyses each, and compares every ply with an independent exact
verdict from the endgame solver at a large budget (``--truth-nodes``):

* on the boards with shipped proofs (4×4, Crosscut 5×5), every position is small enough to
  solve outright, so every ply is checked;
* on a larger board (``--late-size``), only the late positions the solver can decide are.

For each checked ply it counts:

* ``wrong verdict``: the analysis called a position proven and the truth disagrees;
* ``unmarked blunder``: the truth goes from a win for the mover to a loss, and the mark is not
  "blunder";
* ``kept win marked``: the truth stays a win for the mover, and the mark is mistake or worse.

All three must be 0.  Prints figures; never fails on time.  Example (about 5 CPU minutes)::

    nice -n 10 python bench/analysis_marks.py --games 200
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from ai.analysis import Settings, analyse, positions
from ai.endgame import Endgame, Verdict, empty_points
from rules import Game, new_game, parse_record

BOARDS = (
    ("clearpath", 4),
    ("minefield", 4),
    ("clearcut", 4),
    ("nakeddiagonal", 4),
    ("crosscut", 5),
)
BAD = ("mistake", "blunder")


def random_record(name: str, size: int, seed: int) -> str:
    game = new_game(name, size=size)
    rng = random.Random(seed)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game.record()


class Truth:
    """The independent exact verdicts: one solver per board for the whole run (its own, not
    the analysis's table), so a subtree proved for one game answers the next game's questions
    too; a verdict is exact whenever it is decided."""

    def __init__(self, nodes: int) -> None:
        self.nodes = nodes
        self._solvers: dict[tuple[str, int], Endgame] = {}

    def __call__(self, game: Game, empties: int) -> str | None:
        """The exact verdict for the player to move: "win", "loss", or None if not decided."""
        if game.is_over or empty_points(game) > empties:
            return None
        key = (game.variant, game.size)
        endgame = self._solvers.get(key)
        if endgame is None:
            endgame = self._solvers[key] = Endgame(game, game.size * game.size)
        verdict = endgame.verdict(game, self.nodes, None)
        if verdict is Verdict.MOVER_WINS:
            return "win"
        if verdict is Verdict.MOVER_LOSES:
            return "loss"
        return None


def check(record: str, settings: Settings, seed: int, empties: int, truth: Truth) -> Counter[str]:
    counts: Counter[str] = Counter()
    analysis = analyse(record, settings, seed=seed)
    game, befores = positions(record)
    truths = [truth(parse_record(before), empties) for before in befores]
    plies = analysis.moves
    for i, ply in enumerate(plies):
        before = truths[i]
        if i + 1 == len(plies):
            rec = game.history[i]
            after: str | None = "win" if rec.winner == rec.player else "loss"
        elif plies[i + 1].seat == ply.seat:
            after = truths[i + 1]
        else:
            after = {"win": "loss", "loss": "win", None: None}[truths[i + 1]]
        if before is None:
            continue
        counts["checked"] += 1
        if ply.proven_before is None:
            counts["unproven"] += 1
        if ply.proven_before is not None and ply.proven_before != before:
            counts["wrong verdict"] += 1
        if before == "win" and after == "loss":
            counts["win thrown away"] += 1
            if ply.mark != "blunder":
                counts["unmarked blunder"] += 1
        if before == "win" and after == "win" and ply.mark in BAD:
            counts["kept win marked"] += 1
    return counts


def report(label: str, games: int, counts: Counter[str], took: float, cpu: float) -> str:
    return (
        f"{label}: {games} games, {counts['checked']} plies checked"
        f" ({counts['unproven']} of them not proven by the analysis),"
        f" {counts['win thrown away']} wins thrown away; wrong verdicts"
        f" {counts['wrong verdict']}, unmarked blunders {counts['unmarked blunder']},"
        f" kept wins marked {counts['kept win marked']}"
        f" ({took:.0f} s wall, {cpu:.0f} s CPU, {cpu / max(games, 1):.2f} CPU s/game)"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=200, help="random games per solved board")
    p.add_argument("--playouts", type=int, default=60)
    p.add_argument("--truth-nodes", type=int, default=400_000)
    p.add_argument("--late-size", type=int, default=7)
    p.add_argument("--late-games", type=int, default=40, help="random games per late board")
    p.add_argument("--late-empties", type=int, default=12, help="late: check at most this many")
    p.add_argument("--every", type=int, default=1, help="print running figures every N rounds")
    args = p.parse_args()
    settings = Settings(playouts=args.playouts)
    truth = Truth(args.truth_nodes)
    total: Counter[str] = Counter()
    boards = [(name, size, args.games, size * size) for name, size in BOARDS]
    boards += [(name, args.late_size, args.late_games, args.late_empties) for name, _ in BOARDS]
    run_started = time.perf_counter()
    # Round robin over the boards, so that figures printed along the way cover every board.
    per_board: dict[str, Counter[str]] = {}
    spent: dict[str, float] = {}
    cpu: dict[str, float] = {}
    for seed in range(max(games for *_, games, _ in boards)):
        for name, size, games, empties in boards:
            if seed >= games:
                continue
            label = f"{name} {size}x{size}"
            started, cpu_started = time.perf_counter(), time.process_time()
            counts = check(random_record(name, size, seed), settings, seed, empties, truth)
            spent[label] = spent.get(label, 0.0) + time.perf_counter() - started
            cpu[label] = cpu.get(label, 0.0) + time.process_time() - cpu_started
            per_board.setdefault(label, Counter()).update(counts)
            per_board[label]["games"] += 1
            total.update(counts)
            total["games"] += 1
        if (seed + 1) % args.every == 0:
            took = time.perf_counter() - run_started
            used = time.process_time()
            print(report(f"after {seed + 1} rounds, all", total["games"], total, took, used))
            for label, counts in per_board.items():
                print(
                    "  " + report(label, counts["games"], counts, spent[label], cpu[label]),
                    flush=True,
                )
    for label, counts in per_board.items():
        print(report(label, counts["games"], counts, spent[label], cpu[label]))
    took = time.perf_counter() - run_started
    print(report("all", total["games"], total, took, time.process_time()))


if __name__ == "__main__":
    main()
