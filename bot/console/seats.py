"""Who sits where in a console game: the seats, the opponents ``--vs`` offers, and the
options stored with a game so that ``--db`` resumes it as it was set up."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

import ai
from rules import Game

CONSOLE_GUILD = 1  # ids are 1..2^63-1 (the service refuses 0)
PLAYER_ONE = 1
PLAYER_TWO = 2

MoveProvider = Callable[[Game], str]
"""Picks a move (a point name or ``swap``) for the player to move in a copy of the position."""

OpponentFactory = Callable[[argparse.Namespace], MoveProvider]


def computer_opponent(args: argparse.Namespace) -> MoveProvider:
    """``--vs ai``: the MCTS player at ``--level`` (default: ai's default), seeded by ``--seed``."""
    return ai.AIPlayer(getattr(args, "level", None), getattr(args, "seed", None)).choose


OPPONENTS: dict[str, OpponentFactory | None] = {"human": None, "ai": computer_opponent}
"""``--vs`` choices: name -> factory building the provider for the computer's seat (None: a
human)."""

COMPUTER_LABEL = "computer"
YOU = "you"
"""The human's label in a game against the computer (two humans are "player 1" and "2")."""

# Options stored with each console game, so ``--db`` can resume it as it was set up.
OPPONENT_OPTION = "console_vs"
COMPUTER_SEAT_OPTION = "console_computer_seat"
LEVEL_OPTION = "ai_level"  # the same option the Discord adapter stores for its computer games


@dataclass(frozen=True)
class Seating:
    """Who sits where: the providers per seat, their labels, and the options that record it."""

    providers: dict[int, MoveProvider | None]
    labels: dict[int, str]
    options: dict[str, str]


def seating(args: argparse.Namespace, stored: dict[str, str] | None = None) -> Seating:
    """The seats for ``args``, or, for a resumed game, as its stored options say."""
    if stored is not None:
        vs = stored.get(OPPONENT_OPTION, "human")
        if vs not in OPPONENTS:  # stored by a front end this console does not have
            vs = "human"
    else:
        vs = args.vs or "human"
    providers: dict[int, MoveProvider | None] = {PLAYER_ONE: None, PLAYER_TWO: None}
    labels: dict[int, str] = {}
    options = {OPPONENT_OPTION: vs}
    factory = OPPONENTS[vs]
    if factory is None:
        return Seating(providers, labels, options)
    if stored is not None:
        seat = int(stored.get(COMPUTER_SEAT_OPTION, str(PLAYER_TWO)))
        level = stored.get(LEVEL_OPTION)
        args = argparse.Namespace(
            **{**vars(args), "level": ai.parse_level(level) if level else None}
        )
    else:
        seat = PLAYER_ONE if getattr(args, "ai_first", False) else PLAYER_TWO
    providers[seat] = factory(args)
    labels[seat] = COMPUTER_LABEL if vs == "ai" else vs
    labels[PLAYER_TWO if seat == PLAYER_ONE else PLAYER_ONE] = YOU
    options[COMPUTER_SEAT_OPTION] = str(seat)
    level = getattr(args, "level", None)
    if vs == "ai":
        options[LEVEL_OPTION] = str(ai.parse_level(level).number)
    return Seating(providers, labels, options)
