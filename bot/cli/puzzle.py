"""``crosspath puzzle [game]``: solve a puzzle in the terminal.

A puzzle near the local player's puzzle rating (the starter set, issue 48), drawn as the
console's text board; answer with a point, or ``give up``.  Kept in ``--db`` (a SQLite file
or postgresql:// URL; default ``crosspath-puzzles.db`` here), so the rating and the puzzles
already tried carry over from one run to the next.  Bad input ends with one sentence.
It speaks the terminal's language (``--lang``, else ``LC_ALL``/``LC_MESSAGES``/``LANG``), with
the same sentences as the Discord answers (:mod:`bot.puzzle_words`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable

from bot.i18n import ENGLISH_TONGUE, Tongue, terminal_language, tongue
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
    p.add_argument(
        "--lang",
        default=None,
        metavar="LANG",
        help="the language to answer in: de, es, fr, pt_BR, ru, ja, ko, zh_Hans or en "
        "(default: from LC_ALL, LC_MESSAGES or LANG)",
    )
    return p


async def session(
    target: str, game: str | None, ask: Callable[[str], str], tr: Tongue = ENGLISH_TONGUE
) -> int:
    from ai.puzzles import replay
    from bot.console.board import text_board
    from bot.puzzle_words import outcome_text, task_line
    from bot.service import GameService, PuzzleOver, ServiceError
    from bot.store import open_store

    async with await open_store(target) as store:
        puzzles = GameService(store).puzzles
        try:
            view = await puzzles.start(LOCAL_PLAYER, None, game)
        except ServiceError as exc:
            print(f"{PROG}: {tr.refusal(exc)}", file=sys.stderr)
            return EXIT_BAD_INPUT
        print(task_line(view, tr))
        prompt = tr.gettext("your move (or 'give up'): ")
        while True:
            board = replay(view.game, view.size, [*view.moves, *view.played])
            print(text_board(board, tr=tr))
            text = ask(prompt).strip()
            try:
                if text.lower() in GIVE_UP:
                    result = await puzzles.give_up(view.attempt_id, LOCAL_PLAYER)
                else:
                    result = await puzzles.answer(view.attempt_id, LOCAL_PLAYER, text)
            except ServiceError as exc:
                print(tr.refusal(exc))
                if isinstance(exc, PuzzleOver):
                    return EXIT_BAD_INPUT
                continue
            view = result.view
            print(outcome_text(result, tr))
            if result.correct and not result.solved:
                continue
            return 0


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if args.game is not None and args.game.lower() not in game_names():
        names = ", ".join(sorted(game_names()))
        print(f"{PROG}: unknown game '{clip(args.game)}': choose one of {names}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        tr = tongue(terminal_language(os.environ, args.lang))
        return asyncio.run(session(args.db, args.game, input, tr))
    except EOFError:
        print()
        return 0
