"""Build the opening book (ai/books/): long searches of the first player's first moves.

For one game and board size it searches the empty board, then every reply the second player
can make to the chosen first move (one of each set of mirror images, :func:`ai.book.canonical`),
and writes the answers as that game and size's book file, ``ai/books/GAME-SIZE.txt``.  Each
position gets ``--playouts`` playouts with level 5's settings (without the book), many times
what level 5's 12 s cap gives it in play; the searches run ``--jobs`` at a time.  It prints
each line as it is found, with its search time.

    python bench/build_book.py --game nakeddiagonal --size 7 --playouts 20000 --jobs 2 \
        --first d4 --second

``--second`` also searches the position after every first move (one per mirror set), so the
book answers each of them for the second player.  ``--first MOVE`` makes MOVE the book's first
move whatever the empty board's search prefers (its line keeps the value that search gave
MOVE): in Naked Diagonal 7×7 the first moves' values are too close to choose by, and the
centre, symmetric under every mirror, needs the fewest lines.  ``--dry-run`` prints the lines
without writing the file.  Playout budgets and seeds make the lines reproducible: the same
arguments give the same book on any machine.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.book import BOOK_DIR as BOOK_DIR_NAME
from ai.book import BookLine, book_file_name, canonical
from ai.levels import LEVELS
from ai.moves import move_name
from ai.search import Budget, Searcher
from rules import game_names, new_game

BOOK_DIR = Path(__file__).resolve().parent.parent / "ai" / BOOK_DIR_NAME
HEADER = (
    "# Crosspath opening book: game size | moves so far | move to play | the building search's\n"
    "# estimated chance that the move wins | its playouts.  Read by ai/book.py; written by\n"
    "# this run of bench/build_book.py:\n"
)


def search_line(
    game_name: str,
    size: int,
    moves: tuple[str, ...],
    playouts: int,
    seed: int,
    chosen: str | None = None,
) -> tuple[BookLine, float]:
    """One position's long search (in a worker): its book line and the seconds it took.

    With ``chosen`` the line plays that move instead of the search's choice, with the value the
    search gave it (``--first``: the empty board's values are too close to choose by)."""
    game = new_game(game_name, size)
    for move in moves:
        game.play(move)
    searcher = Searcher(game, f"{seed}:{' '.join(moves)}", replace(LEVELS[5].config, book=False))
    start = time.perf_counter()
    result = searcher.run(Budget(playouts=playouts))
    reply, value = result.move, result.value
    if chosen is not None:
        child = next(c for c in searcher.root.children or () if move_name(game, c.move) == chosen)
        reply, value = chosen, child.wins / child.visits if child.visits else 0.5
    line = BookLine(game_name, size, moves, reply, value, result.playouts)
    return line, time.perf_counter() - start


def replies(game_name: str, size: int, first: str) -> list[tuple[str, ...]]:
    """The positions after ``first`` and each second-player reply, one per mirror set."""
    game = new_game(game_name, size)
    game.play(first)
    seen: dict[tuple[str, ...], None] = {}
    for reply in game.legal_moves():
        probe = game.copy()
        probe.play(reply)
        if probe.is_over:
            continue
        seen.setdefault(canonical((first, reply), size), None)
    return list(seen)


def first_moves(game_name: str, size: int) -> list[tuple[str, ...]]:
    """The positions after each first move, one per mirror set (``--second``)."""
    game = new_game(game_name, size)
    return list(dict.fromkeys(canonical((move,), size) for move in game.legal_moves()))


def write_book(path: Path, lines: list[BookLine], command: str) -> None:
    """Write one game and size's book file, saying how it was built."""
    text = HEADER + f"# {command}\n" + "".join(f"{line.format()}\n" for line in lines)
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="nakeddiagonal", choices=sorted(game_names()))
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--playouts", type=int, default=20_000, help="playouts per position")
    parser.add_argument("--first", default=None, help="the book's first move")
    parser.add_argument(
        "--second", action="store_true", help="also answer every first move, for the second player"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--dry-run", action="store_true", help="print the lines only")
    parser.add_argument("--out", type=Path, default=None, help="book file (default ai/books/)")
    args = parser.parse_args(argv)
    if args.playouts < 1 or args.jobs < 1:
        parser.error("--playouts and --jobs must be at least 1")
    try:
        empty = new_game(args.game, args.size)
        if args.first is not None and not empty.is_legal(args.first):
            parser.error(f"--first {args.first[:10]!r} is not a legal first move")
    except ValueError as error:
        parser.error(str(error))
    lines: list[BookLine] = []
    pool: Executor | None = None
    if args.jobs > 1:
        pool = ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn"))

    def search_all(positions: list[tuple[str, ...]], chosen: list[str | None]) -> None:
        """Search ``positions`` (in the pool with ``--jobs``), printing and keeping each line."""
        jobs = (
            [args.game] * len(positions),
            [args.size] * len(positions),
            positions,
            [args.playouts] * len(positions),
            [args.seed] * len(positions),
            chosen,
        )
        found = map(search_line, *jobs) if pool is None else pool.map(search_line, *jobs)
        for line, seconds in found:
            print(f"{line.format()}   ({seconds:.0f} s)", flush=True)
            lines.append(line)

    try:
        first = args.first
        if first is None:  # the replies wait for the empty board's choice
            search_all([()], [None])
            first = lines[0].reply
        answers = replies(args.game, args.size, first)
        print(f"answers to the replies to {first}: {len(answers)} positions", flush=True)
        positions: list[tuple[str, ...]] = ([] if args.first is None else [()]) + answers
        if args.second:
            openings = first_moves(args.game, args.size)
            print(f"answers to the first moves: {len(openings)} positions", flush=True)
            positions += openings
        search_all(positions, [first if not moves else None for moves in positions])
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    command = (
        f"bench/build_book.py --game {args.game} --size {args.size} --playouts {args.playouts} "
        f"--seed {args.seed}"
        + (f" --first {args.first}" if args.first else "")
        + (" --second" if args.second else "")
    )
    if not args.dry_run:
        out = args.out or BOOK_DIR / book_file_name(args.game, args.size)
        write_book(out, lines, command)
        print(f"wrote {len(lines)} lines to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
