"""``crosspath puzzle [game]``: solve a puzzle in the terminal.

A puzzle near the local player's puzzle rating (the starter set, issue 48), drawn as the
console's text board; answer with a point, or ``give up``.  Kept in ``--db`` (a SQLite file
or postgresql:// URL; default ``crosspath-puzzles.db`` here), so the rating and the puzzles
already tried carry over from one run to the next.  Bad input ends with one sentence.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable

from rules import game_names

from .entry import clip

EXIT_BAD_INPUT = 1
PROG = "crosspath puzzle"
LOCAL_PLAYER = 1
"""The console's one player (a puzzle rating is per player id)."""
GIVE_UP = ("give up", "giveup", "resign", "q", "quit")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Solve a puzzle from a real game.")
    p.add_argument("game", nargs="?", default=None, help=", ".join(sorted(game_names())))
    p.add_argument("--db", default="crosspath-puzzles.db", help="a SQLite file or URL")
    return p


async def session(target: str, game: str | None, ask: Callable[[str], str]) -> int:
    from ai.puzzles import replay
    from bot.console.board import text_board
    from bot.service import GameService, ServiceError
    from bot.store import open_store

    async with await open_store(target) as store:
        puzzles = GameService(store).puzzles
        try:
            view = await puzzles.start(LOCAL_PLAYER, None, game)
        except ServiceError as exc:
            print(f"{PROG}: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        print(f"Puzzle {view.puzzle_id} ({view.game} {view.size}×{view.size}, rated {view.rating})")
        print(f"{view.to_move} to play and win.")
        while True:
            board = replay(view.game, view.size, [*view.moves, *view.played])
            print(text_board(board))
            text = ask("your move (or 'give up'): ").strip()
            try:
                if text.lower() in GIVE_UP:
                    result = await puzzles.give_up(view.attempt_id, LOCAL_PLAYER)
                else:
                    result = await puzzles.answer(view.attempt_id, LOCAL_PLAYER, text)
            except ServiceError as exc:
                print(str(exc))
                if exc.__class__.__name__ == "PuzzleOver":
                    return EXIT_BAD_INPUT
                continue
            view = result.view
            if result.correct and result.solved:
                print(f"Solved! Puzzle rating {result.rating}, streak {result.streak}.")
                return 0
            if result.correct:
                print(f"Right. The reply: {result.defence}.")
                continue
            if result.move is not None:
                why = "wins by force"
                if result.connects:
                    why = "connects"
                reason = f"after {result.move}, {result.reply} {why}" if result.reply else ""
                print(f"Not this one: {reason}." if reason else "Not this one.")
            print(f"The solution: {' '.join(result.solution)}. Puzzle rating {result.rating}.")
            return 0


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if args.game is not None and args.game.lower() not in game_names():
        names = ", ".join(sorted(game_names()))
        print(f"{PROG}: unknown game '{clip(args.game)}': choose one of {names}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return asyncio.run(session(args.db, args.game, input))
    except EOFError:
        print()
        return 0
