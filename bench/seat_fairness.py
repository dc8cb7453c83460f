"""The seat-fairness table (docs/rules.md, "How fair is each seat?"): level 3 against itself.

Players ask "is the first seat favoured, and should I play with the pie rule?".  This script
measures it: level 3 plays itself from the empty board, at 7×7 and 9×9 in every game (Crosscut,
whose default is 8×8, at 8×8 and 9×9), with and without the pie rule where the game offers it
as an option (Clear Path always plays with it; Crosscut never).  With the pie rule on, the
computer decides the swap as it does for players (:mod:`ai.pie`), and "first seat" stays the
person who moved first, whichever colour they end with.

Level 3 plays at its playout cap only (1,000; Minefield 7×7: 200), without its 3 s cap: the
seconds would make the games depend on the machine's load, and a seeded game must replay the
same on any machine.  Game ``i`` of a board uses seed ``i``, so a run can stop anywhere and be
resumed (seeds already in the results file are skipped) or extended (``--games``), and any
line can be replayed.  Boards are played round-robin (seed 0 on every board, then seed 1, ...),
each round cheapest first by the mean CPU seconds of the board's games so far, so a run cut
short by ``--hours`` gives every board games.  Each finished game is one JSON line, appended
at once:

    {"game": "minefield", "size": 7, "pie": false, "seed": 0, "winner": "first",
     "swapped": false, "plies": 31, "cpu": 21.4, "record": "minefield 7: ..."}

``winner`` is "first", "second" or null (a draw).  ``cpu`` is the process CPU seconds of the
game, so it does not depend on how busy the machine was.

    nice -n 19 python bench/seat_fairness.py --workers 1 --hours 1.5
    python bench/seat_fairness.py --table
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# bench/'s scripts import each other by plain name (as bench/ai_ladder.py does); imported from
# the tests, bench/ is not on sys.path.
sys.path.insert(1, str(Path(__file__).resolve().parent))

from accumulate import append_row, read_rows, remaining
from ai_bench import wilson

from ai.levels import LEVELS
from ai.pool import think
from ai.search import Budget
from rules import Game, new_game
from rules.base import SWAP

LEVEL = 3
RESULTS = Path(__file__).resolve().parent / "results" / "seat_fairness.jsonl"
TARGET_GAMES = 200
"""Games per board the table aims at (issue 49)."""


@dataclass(frozen=True, order=True)
class Board:
    game: str
    size: int
    pie: bool

    @property
    def label(self) -> str:
        return f"{self.game} {self.size}{'+pie' if self.pie else ''}"


def all_boards() -> list[Board]:
    """Every board of the table, in the order the run plays them within a round: 7×7 (and
    Crosscut 8×8) before 9×9, since a smaller board's game costs less."""
    boards: list[Board] = []
    for small in (True, False):
        for name in ("clearcut", "clearpath", "crosscut", "minefield", "nakeddiagonal"):
            size = (8 if name == "crosscut" else 7) if small else 9
            pies = {"never": [False], "always": [True], "option": [False, True]}
            boards.extend(Board(name, size, pie) for pie in pies[new_game(name).pie_rule])
    return boards


def parse_board(text: str) -> Board:
    """``minefield 7``, ``minefield 7+pie`` or ``minefield:7:pie``, as a board of the table."""
    words = text.replace(":", " ").replace("+", " ").split()
    choices = all_boards()
    if len(words) in (2, 3) and words[1].isdigit() and words[2:] in ([], ["pie"]):
        wanted = Board(words[0].lower(), int(words[1]), words[2:] == ["pie"])
        if wanted in choices:
            return wanted
    names = ", ".join(b.label for b in choices)
    raise argparse.ArgumentTypeError(f"unknown board {text!r}: choose among {names}")


# ----- playing ---------------------------------------------------------------------------------
def play_game(board: Board, seed: int) -> dict[str, object]:
    """One seeded game of level 3 against itself, as one results line."""
    started = time.process_time()
    game = new_game(board.game, board.size, pie=board.pie)
    first_colour = str(game.to_move)
    budget = Budget(playouts=_level_playouts(board))
    swapped = False
    while not game.is_over:
        move = think(game, LEVEL, seed, budget).move
        swapped |= move == SWAP
        game.play(move)
    return {
        "game": board.game,
        "size": board.size,
        "pie": board.pie,
        "seed": seed,
        "winner": winning_seat(game, first_colour, swapped),
        "swapped": swapped,
        "plies": len(game.history),
        "cpu": round(time.process_time() - started, 2),
        "record": game.record(),
    }


def winning_seat(game: Game, first_colour: str, swapped: bool) -> str | None:
    """The seat ("first" or "second") of the person who won the finished ``game``, whose first
    move was ``first_colour``'s; None for a draw.  After a swap the person in the first seat
    owns the second colour."""
    if game.winner is None:
        return None
    return "first" if (str(game.winner) == first_colour) != swapped else "second"


def _level_playouts(board: Board) -> int | None:
    return LEVELS[LEVEL].budget_for(board.game, board.size).playouts


def board_of(row: dict[str, object]) -> Board:
    return Board(str(row["game"]), int(str(row["size"])), bool(row["pie"]))


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    todo = remaining(out, args.boards or all_boards(), args.games, board_of)
    stop_at = time.monotonic() + args.hours * 3600 if args.hours else None
    # Only as many games in flight as workers, so the time cap stops new games promptly.
    running: set[Future[dict[str, object]]] = set()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        while True:
            while len(running) < args.workers and (stop_at is None or time.monotonic() < stop_at):
                task = next(todo, None)
                if task is None:
                    break
                running.add(pool.submit(play_game, *task))
            if not running:
                break
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                row = future.result()
                append_row(out, row)
                print(
                    f"{board_of(row).label} seed {row['seed']}: {row['winner']} "
                    f"({row['plies']} plies, {row['cpu']} s CPU)",
                    flush=True,
                )
    return 0


# ----- the table -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tally:
    board: Board
    games: int
    first_wins: int
    draws: int
    swaps: int
    cpu: float
    recent_cpu: float
    """Mean CPU seconds of the board's last RECENT games: the cost of a game now, where the
    mean over all of them still counts games played before the computer got faster."""

    @property
    def rate(self) -> float:
        """The first seat's share, a draw counting half."""
        return (self.first_wins + self.draws / 2) / self.games


RECENT = 20
"""How many of a board's latest games (in file order) price its remaining ones."""


def tally(rows: Iterable[dict[str, object]]) -> list[Tally]:
    """Per board, in the table's order: games, first-seat wins, draws, swaps, CPU seconds."""
    grouped: dict[Board, list[dict[str, object]]] = {}
    for row in rows:
        grouped.setdefault(board_of(row), []).append(row)
    order = {b: i for i, b in enumerate(all_boards())}
    return [
        Tally(
            board,
            len(games),
            sum(r["winner"] == "first" for r in games),
            sum(r["winner"] is None for r in games),
            sum(bool(r.get("swapped")) for r in games),
            sum(float(str(r["cpu"])) for r in games),
            sum(float(str(r["cpu"])) for r in games[-RECENT:]) / len(games[-RECENT:]),
        )
        for board, games in sorted(grouped.items(), key=lambda kv: order.get(kv[0], len(order)))
    ]


def markdown_table(tallies: list[Tally], target: int = TARGET_GAMES) -> str:
    """The table for docs/rules.md; a board short of ``target`` games says so."""
    draws = any(t.draws for t in tallies)
    head = "| Game | Board | Pie rule | Games | First seat won | 95 % interval |"
    rule = "| --- | --- | --- | --- | --- | --- |"
    if draws:
        head += " Draws |"
        rule += " --- |"
    lines = [head, rule]
    for t in tallies:
        wins = t.first_wins + t.draws / 2
        lo, hi = wilson(wins, t.games)
        games = f"{t.games}" if t.games >= target else f"{t.games} (in progress)"
        pie = "yes" if t.board.pie else "no"
        if t.board.pie:
            pie += f", swapped {t.swaps}"
        line = (
            f"| {t.board.game} | {t.board.size}×{t.board.size} | {pie} | {games} "
            f"| {wins:g} ({t.rate:.0%}) | {lo:.0%}–{hi:.0%} |"
        )
        if draws:
            line += f" {t.draws} |"
        lines.append(line)
    return "\n".join(lines)


def cost_lines(tallies: list[Tally], target: int = TARGET_GAMES) -> str:
    """CPU seconds a game per board (the mean over all its games and over its last RECENT),
    and the CPU hours left to reach ``target`` games, priced at the recent mean."""
    lines = [
        "| Board | Games | CPU s a game | Last 20 | CPU h to reach target |",
        "| --- | --- | --- | --- | --- |",
    ]
    total = 0.0
    for t in tallies:
        left = max(target - t.games, 0) * t.recent_cpu / 3600
        total += left
        lines.append(
            f"| {t.board.label} | {t.games} | {t.cpu / t.games:.1f} | {t.recent_cpu:.1f} "
            f"| {left:.1f} |"
        )
    lines.append(f"| all | | | | {total:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(RESULTS), help="the JSON-lines results file")
    parser.add_argument("--table", action="store_true", help="print the table and stop")
    parser.add_argument("--cost", action="store_true", help="print CPU cost per board and stop")
    parser.add_argument("--games", type=int, default=TARGET_GAMES, help="seeds per board")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--boards",
        nargs="+",
        type=parse_board,
        help="boards to play, e.g. 'minefield 7' 'minefield 7+pie' (default: all)",
    )
    parser.add_argument(
        "--hours", type=float, default=None, help="start no new game after this many hours"
    )
    args = parser.parse_args(argv)
    if args.games < 0 or args.workers < 1 or (args.hours is not None and args.hours <= 0):
        parser.error("--games must be 0 or more, --workers 1 or more, --hours above 0")
    if args.table or args.cost:
        tallies = tally(read_rows(Path(args.out)))
        print(markdown_table(tallies) if args.table else cost_lines(tallies))
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
