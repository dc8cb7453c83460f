"""``crosspath play``: a local two-player game in the terminal, through the real service and store.

It is the way to try Crosspath without a Discord token, and it is scriptable: one move per line
on standard input, so ``printf 'e5\\nd4\\n' | crosspath play minefield`` works.  The last line
printed starts with ``<colour> wins`` (against the computer followed by "You win!" or "The
computer wins.") or is ``draw`` when the game ends.

With ``--db FILE`` the game lives in that file.  The file's one unfinished game is resumed
when the command line fits it, with the computer's seat and level as stored; otherwise the
unfinished games are listed and the player picks one with ``--game N`` or starts another with
``--new``, so no game is ever left behind without a word.

Seats are users 1 and 2.  Each seat is driven by a :data:`MoveProvider`; ``None`` means a
human typing on standard input.  Another front end plugs in by registering a factory in
:data:`OPPONENTS`, without touching the game loop; ``--vs ai`` is the computer opponent, which
thinks on a daemon thread of this process (abandoned at once on Ctrl-C) while the loop counts
the seconds on the "thinking…" line.

The package's parts: :mod:`.board` (the text board and what is printed), :mod:`.options` (the
command line), :mod:`.seats` (who plays which seat), :mod:`.resume` (which game ``--db`` plays),
:mod:`.game` (the game loop),
:mod:`.signals` (Ctrl-C) and :mod:`.command` (the entry point).
"""

from __future__ import annotations

from rules import Game

from .board import commands_line, describe_event, goal_line, rules_lines, text_board
from .command import main
from .game import Console, final_line, open_service, play
from .options import level_argument, parser, path_problem
from .seats import (
    COMPUTER_LABEL,
    COMPUTER_SEAT_OPTION,
    CONSOLE_GUILD,
    LEVEL_OPTION,
    OPPONENT_OPTION,
    OPPONENTS,
    PLAYER_ONE,
    PLAYER_TWO,
    MoveProvider,
    OpponentFactory,
    Seating,
    computer_opponent,
    seating,
)
from .signals import interrupt_at_once

__all__ = [
    "COMPUTER_LABEL",
    "COMPUTER_SEAT_OPTION",
    "CONSOLE_GUILD",
    "LEVEL_OPTION",
    "OPPONENTS",
    "OPPONENT_OPTION",
    "PLAYER_ONE",
    "PLAYER_TWO",
    "Console",
    "Game",
    "MoveProvider",
    "OpponentFactory",
    "Seating",
    "commands_line",
    "computer_opponent",
    "describe_event",
    "final_line",
    "goal_line",
    "interrupt_at_once",
    "level_argument",
    "main",
    "open_service",
    "parser",
    "path_problem",
    "play",
    "rules_lines",
    "seating",
    "text_board",
]
