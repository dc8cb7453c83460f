"""Do analysis marks agree with the exact truth?  (issue 48, docs/analysis.md)

Plays seeded random games, analyses each, and compares every ply with an independent exact
verdict from the endgame solver at a large budget (``--truth-nodes``):

* "solved": on the boards with shipped proofs (4×4, Crosscut 5×5) every position is small
  enough to solve outright, so every ply is checked;
* "late": on 7×7 and 9×9 boards of every game, the positions with at most ``--late-empties``
  empty points that the truth decides.

For each checked ply it counts:

* ``wrong verdict``: the analysis called a position proven and the truth disagrees;
* ``unmarked blunder``: the truth goes from a win for the mover to a loss, and the mark is not
  "blunder" (or "missed_win", when the analysis could not decide the position after the move:
  a proven win became unclear, which is what that mark says);
* ``kept win marked``: the truth stays a win for the mover, and the mark is mistake or worse.

All three must be 0.  The last two count only plies whose position the analysis decided
exactly (a shipped proof or its endgame solver): the issue promises them "wherever the endgame
solver proves the position".  A ply the truth decides but the analysis only estimated (by a
search of ``--playouts``) and whose mark disagrees with the truth in either way is counted
apart, as ``estimated_off``: that is the search's error at its budget, not a wrong proof.

The truth is its own solver per board (:class:`Truth`), never the analysis's exact table
(``ai/exact_table.py``), so the two share no proven positions.

The check accumulates across runs, like ``bench/seat_fairness.py``: game ``i`` of a board uses
seed ``i``; each finished game is appended at once as one JSON line to
``bench/results/analysis_marks.jsonl``, and a run skips the seeds already there.  Boards are
taken round robin (seed 0 on every board, then seed 1, ...), each round cheapest first by the
mean CPU seconds of the board's games so far, so a run cut short covers every board.  One
line::

    {"game": "minefield", "size": 4, "kind": "solved", "seed": 0, "plies": 10,
     "checked": 10, "unproven": 0, "thrown": 2, "wrong": 0, "unmarked": 0, "kept_marked": 0,
     "estimated_off": 0, "cpu": 12.3, "cpu_analysis": 4.1, "cpu_truth": 8.2, "warm": 0}

``warm`` is how many games of the board this process had checked before (0: its tables were
cold).  ``cpu`` is process CPU seconds, so it does not depend on how busy the machine was.

    nice -n 19 python -u bench/analysis_marks.py --hours 1
    python bench/analysis_marks.py --summary
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# bench/'s scripts import each other by plain name (as bench/seat_fairness.py does).
sys.path.insert(1, str(Path(__file__).resolve().parent))

from accumulate import append_row, read_rows, remaining

from ai.analysis import Settings, analyse, positions
from ai.endgame import Endgame, Verdict, empty_points
from ai.solver import seat_of
from rules import Game, new_game, parse_record

RESULTS = Path(__file__).resolve().parent / "results" / "analysis_marks.jsonl"
TARGET_GAMES = 1000
"""Games the issue asks for, all boards together."""
BAD = ("mistake", "blunder")
COUNTS = ("checked", "unproven", "thrown", "wrong", "unmarked", "kept_marked", "estimated_off")
"""The per-game counts of a results line (see :func:`check`)."""


@dataclass(frozen=True, order=True)
class Board:
    game: str
    size: int
    kind: str
    """"solved" (every ply checked) or "late" (only the plies near the end)."""

    @property
    def label(self) -> str:
        return f"{self.game} {self.size}×{self.size}"


SOLVED = [Board(n, 4, "solved") for n in ("clearcut", "clearpath", "minefield", "nakeddiagonal")]
SOLVED.append(Board("crosscut", 5, "solved"))
GAMES = ("clearcut", "clearpath", "crosscut", "minefield", "nakeddiagonal")
LATE = [Board(n, size, "late") for size in (7, 9) for n in GAMES]


def all_boards() -> list[Board]:
    """Every board, in the summary's order."""
    return SOLVED + LATE


def first_round() -> list[Board]:
    """The boards in the order a run takes them before any is measured: the cheap ones first
    (late 7×7 positions and Crosscut 5×5 cost seconds, a cold 4×4 table minutes), so a short
    run on a busy machine still covers most boards."""
    cold = ("minefield", "nakeddiagonal", "clearpath", "clearcut")  # 77 s … 305 s cold
    small = sorted((b for b in all_boards() if b.size == 4), key=lambda b: cold.index(b.game))
    return [b for b in all_boards() if b.size != 4] + small


def parse_board(text: str) -> Board:
    """``minefield 4`` or ``minefield:9`` as a board of the check."""
    words = text.replace(":", " ").split()
    for board in all_boards():
        if len(words) == 2 and [board.game, str(board.size)] == [words[0].lower(), words[1]]:
            return board
    names = ", ".join(f"{b.game} {b.size}" for b in all_boards())
    raise argparse.ArgumentTypeError(f"unknown board {text!r}: choose among {names}")


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
        """The exact verdict for the player to move: "win", "loss", or None if not decided
        (or if more than ``empties`` points are empty)."""
        if game.is_over or empty_points(game) > empties:
            return None
        return self.decide(game, self.nodes)

    def decide(self, game: Game, nodes: int) -> str | None:
        """The exact verdict of ``game`` (not over) within ``nodes`` solver nodes per side."""
        key = (game.variant, game.size)
        endgame = self._solvers.get(key)
        if endgame is None:
            endgame = self._solvers[key] = Endgame(game, game.size * game.size)
        verdict = endgame.verdict(game, nodes, None)
        if verdict is Verdict.MOVER_WINS:
            return "win"
        if verdict is Verdict.MOVER_LOSES:
            return "loss"
        return None


def check(
    record: str,
    settings: Settings,
    seed: int,
    empties: int,
    truth: Truth,
    spent: dict[str, float] | None = None,
    last: tuple[int, int] = (0, 0),
) -> Counter[str]:
    """Compare each ply's analysis with the truth: the positions with at most ``empties``
    empty points at the truth's own budget, and, with ``last`` = (plies, nodes), the last
    ``plies`` positions of the game at ``nodes`` per side (a game can end with many points
    empty, as Crosscut's often do).  ``spent`` (if given) gets the CPU seconds of the analysis
    and of the truth under "analysis" and "truth"."""
    counts: Counter[str] = Counter()
    started = time.process_time()
    analysis = analyse(record, settings, seed=seed)
    analysed = time.process_time()
    game, befores = positions(record)
    truths = verdicts(game, befores, empties, truth, last)
    if spent is not None:
        spent["analysis"] = analysed - started
        spent["truth"] = time.process_time() - analysed
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
            counts["wrong"] += 1
        # The promise holds where the analysis's own solver (or a proof) decided the
        # position; where the analysis only estimated it, a mark that disagrees with the truth
        # is the search's error at its budget, counted apart ("estimated disagreements").
        # A proven win thrown into a position the analysis could not decide is rightly a
        # "missed win" (a proven win became unclear); thrown into a proven loss, a blunder.
        proven = ply.proven_before is not None
        if before == "win" and after == "loss":
            counts["thrown"] += 1
            expected = ("blunder",) if ply.proven_after is not None else ("blunder", "missed_win")
            if ply.mark not in expected:
                counts["unmarked" if proven else "estimated_off"] += 1
        if before == "win" and after == "win" and ply.mark in BAD:
            counts["kept_marked" if proven else "estimated_off"] += 1
    return counts


def verdicts(
    game: Game, befores: list[str], empties: int, truth: Truth, last: tuple[int, int]
) -> list[str | None]:
    """The truth's verdict of each position before each ply of the finished ``game``, for the
    player to move (see :func:`check` for which positions are asked).

    Last position first: a late position is proved in few nodes, and what it proves is in the
    truth's table when an earlier position reaches it.  And a position whose played move
    reaches a position known won for the same player (or wins on the spot) is won, by the
    rules alone: the move played is a winning move, so the solver is not asked."""
    last_plies, last_nodes = last
    truths: list[str | None] = [None] * len(befores)
    for i in reversed(range(len(befores))):
        position = parse_record(befores[i])
        if position.is_over or not (
            empty_points(position) <= empties or i >= len(befores) - last_plies
        ):
            continue
        if _move_played_wins(game, befores, truths, i):
            truths[i] = "win"
            continue
        verdict = truth(position, empties)
        if verdict is None and empty_points(position) > empties:
            verdict = truth.decide(position, last_nodes)  # one of the last plies
        truths[i] = verdict
    return truths


def _move_played_wins(game: Game, befores: list[str], truths: list[str | None], i: int) -> bool:
    """Whether ply ``i``'s move wins for its player: it won the game, or the next position
    is known won (to move again) or known lost (for the opponent to move)."""
    rec = game.history[i]
    if i + 1 == len(befores):
        return rec.winner is not None and rec.winner == rec.player
    following = truths[i + 1]
    if following is None:
        return False
    here, there = parse_record(befores[i]), parse_record(befores[i + 1])
    assert here.to_move is not None and there.to_move is not None
    same = seat_of(here, here.to_move) == seat_of(there, there.to_move)
    return following == ("win" if same else "loss")


# ----- the accumulating run --------------------------------------------------------------------
def board_of(row: dict[str, object]) -> Board:
    return Board(str(row["game"]), int(str(row["size"])), str(row["kind"]))


@dataclass(frozen=True)
class Late:
    """Which positions of a late board's game are checked: those with at most ``empties``
    empty points, and the last ``plies`` positions if the truth decides them within ``nodes``
    solver nodes per side (undecided ones are left out, never guessed)."""

    empties: int = 12
    plies: int = 6
    nodes: int = 50_000


def check_game(
    board: Board, seed: int, settings: Settings, truth: Truth, late: Late, warm: int
) -> dict[str, object]:
    """One seeded random game of ``board``, checked, as one results line."""
    solved = board.kind == "solved"
    empties = board.size * board.size if solved else late.empties
    record = random_record(board.game, board.size, seed)
    spent: dict[str, float] = {}
    started = time.process_time()
    last = (0, 0) if solved else (late.plies, late.nodes)
    counts = check(record, settings, seed, empties, truth, spent, last)
    return {
        "game": board.game,
        "size": board.size,
        "kind": board.kind,
        "seed": seed,
        "plies": len(parse_record(record).history),
        **{name: counts[name] for name in COUNTS},
        "cpu": round(time.process_time() - started, 2),
        "cpu_analysis": round(spent["analysis"], 2),
        "cpu_truth": round(spent["truth"], 2),
        "warm": warm,
    }


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    boards = [b for b in first_round() if b in (args.boards or all_boards())]
    todo = remaining(out, boards, args.games, board_of)
    stop_at = time.monotonic() + args.hours * 3600 if args.hours else None
    settings = Settings(playouts=args.playouts)
    truth = Truth(args.truth_nodes)
    seen: Counter[Board] = Counter()
    for board, seed in todo:
        if stop_at is not None and time.monotonic() >= stop_at:
            break
        late = Late(args.late_empties, args.late_plies, args.late_nodes)
        row = check_game(board, seed, settings, truth, late, seen[board])
        seen[board] += 1
        append_row(out, row)
        print(
            f"{board.label} {board.kind} seed {seed}: {row['checked']} checked, "
            f"{row['thrown']} thrown, wrong {row['wrong']}, unmarked {row['unmarked']}, "
            f"kept marked {row['kept_marked']}, estimated off {row['estimated_off']}"
            f" ({row['cpu']} s CPU: analysis "
            f"{row['cpu_analysis']}, truth {row['cpu_truth']}; warm {row['warm']})",
            flush=True,
        )
    return 0


# ----- the summary -----------------------------------------------------------------------------
def summary(rows: Iterable[dict[str, object]]) -> str:
    """Per board and in total: games checked (a game counts only if at least one of its plies
    was checked), plies checked, wins thrown away, the three counts, CPU seconds a game with
    the process's tables cold (its first game of the board) and warm."""
    grouped: dict[Board, list[dict[str, object]]] = {}
    for row in rows:
        grouped.setdefault(board_of(row), []).append(row)
    order = {b: i for i, b in enumerate(all_boards())}
    lines = [
        "| Board | Checked | Games | Plies checked | Not proven | Wins thrown away "
        "| Wrong verdicts | Unmarked blunders | Kept wins marked | Estimated marks off "
        "| CPU s a game cold | warm |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    total: Counter[str] = Counter()
    for board, games in sorted(grouped.items(), key=lambda kv: order.get(kv[0], len(order))):
        checked = [r for r in games if int(str(r["checked"])) > 0]
        sums = Counter({name: sum(int(str(r.get(name, 0))) for r in checked) for name in COUNTS})
        total.update(sums)
        total["games"] += len(checked)
        cold = [float(str(r["cpu"])) for r in games if r["warm"] == 0]
        warm = [float(str(r["cpu"])) for r in games if r["warm"] != 0]
        lines.append(
            f"| {board.label} | {'every ply' if board.kind == 'solved' else 'late plies'} "
            f"| {len(checked)} | {_counts(sums)} | {_mean(cold)} | {_mean(warm)} |"
        )
    lines.append(f"| all | | {total['games']} | {_counts(total)} | | |")
    return "\n".join(lines)


def cost(rows: Iterable[dict[str, object]], target: int = TARGET_GAMES) -> str:
    """CPU hours left to ``target`` checked games spread evenly over the boards, each board's
    games at its mean warm cost (its cold one where no warm game was measured yet; a board
    not measured at all is left out and named)."""
    rows = list(rows)
    boards = all_boards()
    per_board = -(-target // len(boards))
    hours = 0.0
    missing = []
    for board in boards:
        mine = [r for r in rows if board_of(r) == board]
        warm = [float(str(r["cpu"])) for r in mine if r["warm"] != 0]
        spent = warm or [float(str(r["cpu"])) for r in mine]
        if not spent:
            missing.append(board.label)
            continue
        done = sum(int(str(r["checked"])) > 0 for r in mine)
        hours += max(per_board - done, 0) * sum(spent) / len(spent) / 3600
    text = f"{hours:.1f} CPU h left to {target} games ({per_board} a board)"
    return text + (f"; not measured yet: {', '.join(missing)}" if missing else "")


def _counts(c: Counter[str]) -> str:
    return " | ".join(str(c[name]) for name in COUNTS)


def _mean(values: list[float]) -> str:
    return f"{sum(values) / len(values):.1f}" if values else "–"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--out", default=str(RESULTS), help="the JSON-lines results file")
    p.add_argument("--summary", action="store_true", help="print the figures and stop")
    p.add_argument("--cost", action="store_true", help="print the CPU hours left and stop")
    p.add_argument("--games", type=int, default=100, help="seeds per board")
    p.add_argument("--boards", nargs="+", type=parse_board, help="e.g. 'minefield 4' 'crosscut 9'")
    p.add_argument("--playouts", type=int, default=60)
    p.add_argument("--truth-nodes", type=int, default=400_000)
    p.add_argument("--late-empties", type=int, default=12, help="late: check at most this many")
    p.add_argument("--late-plies", type=int, default=6, help="late: and the last N positions")
    p.add_argument("--late-nodes", type=int, default=50_000, help="late: their truth budget")
    p.add_argument("--hours", type=float, default=None, help="start no game after this long")
    args = p.parse_args(argv)
    if args.games < 0 or (args.hours is not None and args.hours <= 0):
        p.error("--games must be 0 or more, --hours above 0")
    if args.summary or args.cost:
        rows = read_rows(Path(args.out))
        print(summary(rows) if args.summary else cost(rows))
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
