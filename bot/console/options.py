"""``crosspath play``'s command line: the options, their help, and the checks of paths."""

from __future__ import annotations

import argparse
from pathlib import Path

import ai
from rules import game_names

from ..cli import clip
from .seats import OPPONENTS


def level_argument(text: str) -> ai.Level:
    """argparse type for ``--level``: a number or a name, with the list of levels on error."""
    try:
        return ai.parse_level(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def level_choices() -> str:
    return ", ".join(level.describe() for level in ai.LEVELS.values())


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="crosspath play",
        description="Play a game in the terminal, against another human at the same keyboard "
        "or against the computer (--vs ai); one move per line on standard input.",
    )
    p.add_argument(
        "game",
        nargs="?",
        help=f"one of: {', '.join(sorted(game_names()))} (may be left out to resume with --db)",
    )
    p.add_argument("--size", type=int, default=None, help="board size (default: the game's)")
    p.add_argument(
        "--pie",
        action="store_true",
        help="play Minefield, Clearcut or Naked Diagonal with the pie rule: after the first "
        "turn the second player may swap colours (Clear Path always has it)",
    )
    p.add_argument(
        "--hints",
        action="store_true",
        help="allow the `hint` command (the computer's suggested move) between two players; "
        "always allowed against the computer",
    )
    p.add_argument(
        "--db",
        default=None,
        help="database to keep the game in: a SQLite file or a postgresql:// URL (default: a "
        "temporary file, discarded at the end); its one unfinished game is resumed, and with "
        "several they are listed to pick from",
    )
    p.add_argument(
        "--game",
        dest="game_id",
        type=int,
        default=None,
        metavar="N",
        help="with --db: resume the unfinished game number N (as listed)",
    )
    p.add_argument(
        "--new",
        action="store_true",
        help="with --db: start a new game even if the file holds unfinished ones",
    )
    p.add_argument(
        "--clock",
        default="none",
        metavar="TIME",
        help="a new game's clock: none (the default), a time per move such as 12h, or a bank "
        "such as '3d+1d max 5d' (3 days, a day more after each turn, at most 5); in the game, "
        "'clock' shows the time left, 'vacation N' stops the clocks of the player to move for "
        "N days and 'back' ends their vacation",
    )
    p.add_argument("--images", default=None, help="write a board PNG per turn into this folder")
    p.add_argument(
        "--lang",
        default=None,
        metavar="LANG",
        help="the language of refusals, rules and board images: de, es, fr, pt_BR, ru, ja, ko, "
        "zh_Hans or en (default: from LC_ALL, LC_MESSAGES or LANG; unknown ones read English)",
    )
    p.add_argument(
        "--vs",
        default=None,
        choices=sorted(OPPONENTS),
        help="who plays the other seat: human (another human at the same keyboard, the "
        "default) or ai (the computer; --level, --seed and --ai-first imply it)",
    )
    p.add_argument(
        "--level",
        type=level_argument,
        default=None,
        help=f"with --vs ai: the computer's strength, a number or name: {level_choices()} "
        f"(default: {ai.LEVELS[ai.DEFAULT_LEVEL].label})",
    )
    p.add_argument(
        "--seed", type=int, default=None, help="with --vs ai: make the computer's play repeatable"
    )
    p.add_argument(
        "--ai-first",
        action="store_true",
        help="with --vs ai: the computer takes seat 1 and moves first (default: seat 2)",
    )
    return p


def path_problem(flag: str, path: Path, want_dir: bool) -> str | None:
    """Why ``path`` cannot serve ``flag`` (a folder or a file), or None if it can."""
    shown = clip(str(path))
    if want_dir:
        if path.exists() and not path.is_dir():
            return f"{flag} {shown} is a file, not a folder: give a folder for the board images"
        return None
    if path.is_dir():
        return f"{flag} {shown} is a folder: give the path of a database file"
    parent = path.parent
    if not parent.is_dir():
        if parent.exists():
            return f"cannot keep the game in {shown}: {clip(str(parent))} is a file, not a folder"
        return f"cannot keep the game in {shown}: the folder {clip(str(parent))} does not exist"
    return None
