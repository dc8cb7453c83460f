"""Which game ``--db`` plays: the file's one unfinished game when the command line fits it,
the one ``--game N`` names, or a new one with ``--new``; anything else lists the unfinished
games instead of leaving one behind without a word."""

from __future__ import annotations

import argparse

from rules import game_class

from ..service import GameInfo
from .seats import LEVEL_OPTION, OPPONENT_OPTION


class PickProblem(Exception):
    """``--db`` holds unfinished games and the command line does not say which to play: the
    message lists them (a usage error: nothing was changed)."""


def opponent_words(info: GameInfo) -> str:
    """How a stored console game was set up, for the list of unfinished games."""
    if info.options.get(OPPONENT_OPTION, "human") == "human":
        return "two players"
    level = info.options.get(LEVEL_OPTION)
    return "against the computer" + (f" (level {level})" if level else "")


def unfinished_list(where: str, games: list[GameInfo]) -> str:
    many = f"{len(games)} unfinished games" if len(games) > 1 else "an unfinished game"
    lines = [f"{where} holds {many}; resume one with --game N, or start another with --new:"]
    lines += [
        f"  --game {info.id}: {info.title} {info.size}×{info.size}, {opponent_words(info)}, "
        f"turn {info.turn_number}"
        for info in games
    ]
    return "\n".join(lines)


def pick_game(args: argparse.Namespace, where: str, waiting: list[GameInfo]) -> GameInfo | None:
    """The unfinished game to resume, None to start a new one; PickProblem when unclear.

    A game is resumed without being named only when it is the one unfinished game in the
    file and matches what the command line asks for; anything else would leave a game behind
    without a word, so the games are listed instead.
    """
    if args.game_id is not None:
        found = next((info for info in waiting if info.id == args.game_id), None)
        if found is None:
            listing = f"\n{unfinished_list(where, waiting)}" if waiting else ""
            raise PickProblem(f"{where} holds no unfinished game number {args.game_id}{listing}")
        if args.game is not None and game_class(args.game).name != found.game:
            raise PickProblem(
                f"--game {found.id} is a {found.title} game, not {game_class(args.game).title}"
            )
        return found
    if args.new or not waiting:
        return None
    if len(waiting) == 1 and matches(waiting[0], args):
        return waiting[0]
    raise PickProblem(unfinished_list(where, waiting))


def matches(info: GameInfo, args: argparse.Namespace) -> bool:
    """Whether ``info`` is the game the command line describes (what it leaves open, any)."""
    if args.game is not None and game_class(args.game).name != info.game:
        return False
    if args.size is not None and args.size != info.size:
        return False
    return args.vs is None or info.options.get(OPPONENT_OPTION, "human") == args.vs
