"""``crosspath play``'s entry point: check the options, then play with Ctrl-C handled."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TextIO

from rules import game_class, game_names
from rules.errors import InvalidOptions, UnknownGame

from ..cli import clip
from ..service import InvalidTimeControl, TimeControl
from ..store import StoreError, is_postgres
from .game import play
from .options import parser, path_problem
from .resume import PickProblem
from .signals import interrupt_at_once


def main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    err = sys.stderr
    computer_options = [
        flag
        for given, flag in (
            (args.level, "--level"),
            (args.seed, "--seed"),
            (args.ai_first, "--ai-first"),
        )
        if given not in (None, False)
    ]
    if computer_options and args.vs is None:
        args.vs = "ai"  # only the computer has a level, a seed or a first move to take
    elif computer_options and args.vs != "ai":
        p.error(f"{computer_options[0]} only applies to a game against the computer (--vs ai)")
    if args.new and not args.db:
        p.error("--new only applies with --db (without it every game is new)")
    if args.game_id is not None and not args.db:
        p.error("--game only applies with --db (it picks a game kept in that file)")
    if args.game_id is not None and args.new:
        p.error("--game resumes a game and --new starts one: give one of them")
    fresh_file = bool(args.db) and not is_postgres(args.db) and not Path(args.db).exists()
    if args.game is None and (not args.db or fresh_file):  # nothing to resume: say which game
        p.error(f"say which game to play: one of {', '.join(sorted(game_names()))}")
    try:
        TimeControl.parse(args.clock)
    except InvalidTimeControl as exc:
        print(f"crosspath play: --clock: {exc}", file=err)
        return 2
    if args.game is not None:
        try:
            game_class(args.game)(args.size, pie=args.pie or None)
        except (UnknownGame, InvalidOptions) as exc:
            print(f"crosspath play: {exc}", file=err)
            return 2
    for flag, value, want_dir in (("--images", args.images, True), ("--db", args.db, False)):
        if value is None or (flag == "--db" and is_postgres(value)):
            continue
        problem = path_problem(flag, Path(value), want_dir)
        if problem is not None:
            print(f"crosspath play: {problem}", file=err)
            return 2
    try:
        if args.images is not None:  # fail before the first move, not after it
            try:
                Path(args.images).mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                shown = clip(str(args.images))
                print(
                    f"crosspath play: cannot create the folder {shown} for --images: "
                    f"{exc.strerror or exc}",
                    file=err,
                )
                return 1
        with interrupt_at_once():
            return asyncio.run(play(args, stdin or sys.stdin, stdout or sys.stdout))
    except PickProblem as exc:
        print(f"crosspath play: {exc}", file=err)
        return 2
    except StoreError as exc:
        print(f"crosspath play: {exc}", file=err)
        return 1
    except BrokenPipeError:
        raise  # the reader hung up: bot.cli ends quietly
    except OSError as exc:
        where = clip(str(exc.filename)) + ": " if exc.filename else ""
        print(f"crosspath play: {where}{exc.strerror or exc}", file=err)
        return 1
