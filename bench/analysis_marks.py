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


def truth(game: Game, empties: int, nodes: int) -> str | None:
    """The exact verdict for the player to move: "win", "loss", or None if not decided."""
    if game.is_over:
        return None
    if empty_points(game) > empties:
        return None
    verdict = Endgame(game, empties).verdict(game, nodes, None)
    if verdict is Verdict.MOVER_WINS:
        return "win"
    if verdict is Verdict.MOVER_LOSES:
        return "loss"
    return None


def check(record: str, settings: Settings, seed: int, empties: int, nodes: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    analysis = analyse(record, settings, seed=seed)
    game, befores = positions(record)
    truths = [truth(parse_record(before), empties, nodes) for before in befores]
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
        if ply.proven_before is not None and ply.proven_before != before:
            counts["wrong verdict"] += 1
        if before == "win" and after == "loss":
            counts["win thrown away"] += 1
            if ply.mark != "blunder":
                counts["unmarked blunder"] += 1
        if before == "win" and after == "win" and ply.mark in BAD:
            counts["kept win marked"] += 1
    return counts


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=200, help="random games per board")
    p.add_argument("--playouts", type=int, default=60)
    p.add_argument("--truth-nodes", type=int, default=400_000)
    p.add_argument("--late-size", type=int, default=6)
    p.add_argument("--late-games", type=int, default=40)
    args = p.parse_args()
    settings = Settings(playouts=args.playouts)
    total: Counter[str] = Counter()
    boards = [(name, size, args.games, size * size) for name, size in BOARDS]
    boards += [(name, args.late_size, args.late_games, 12) for name, _ in BOARDS]
    for name, size, games, empties in boards:
        started = time.perf_counter()
        counts: Counter[str] = Counter()
        for seed in range(games):
            counts += check(
                random_record(name, size, seed), settings, seed, empties, args.truth_nodes
            )
        total += counts
        total["games"] += games
        print(
            f"{name} {size}x{size}: {games} games, {counts['checked']} plies checked, "
            f"{counts['win thrown away']} wins thrown away, "
            f"{counts['wrong verdict']} wrong verdicts, {counts['unmarked blunder']} unmarked "
            f"blunders, {counts['kept win marked']} kept wins marked "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    print(
        f"all: {total['games']} games, {total['checked']} plies checked, "
        f"{total['win thrown away']} wins thrown away; wrong verdicts {total['wrong verdict']}, "
        f"unmarked blunders {total['unmarked blunder']}, kept wins marked "
        f"{total['kept win marked']}"
    )


if __name__ == "__main__":
    main()
