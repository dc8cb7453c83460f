"""One-ply tactics: moves that win at once, and moves that hand the opponent a win at once.

Connection games are decided suddenly, so a search that merely samples can overlook a
one-move win or walk into a one-move loss.  These exact checks run at the root of every search
(and are the whole of the greedy benchmark opponent), so such blunders cannot happen.
"""

from __future__ import annotations

import time

from rules import Game

from .moves import Move, legal_moves, play


def wins_at_once(game: Game, move: Move) -> bool:
    """True if ``move`` ends the game with the mover as the winner."""
    record = play(game, move)
    try:
        return game.winner is not None and game.winner == record.player
    finally:
        game.pop()


def winning_moves(
    game: Game, moves: list[Move] | None = None, deadline: float | None = None
) -> list[Move]:
    """The moves that win immediately for the player to move (those found by ``deadline``)."""
    if moves is None:
        moves = legal_moves(game)
    found: list[Move] = []
    for move in moves:
        if deadline is not None and time.perf_counter() > deadline:
            break
        if wins_at_once(game, move):
            found.append(move)
    return found


def opponent_can_win_after(game: Game, move: Move, deadline: float | None = None) -> bool:
    """True if after ``move`` the opponent has a placement that wins on the spot.

    A move after which the same colour moves again (a Clear Path chain, a skipped opponent,
    or ``swap``, after which nobody can win in one) counts as safe here.
    """
    record = play(game, move)
    try:
        if game.is_over:
            return game.winner is not None and game.winner != record.player
        opponent = game.to_move
        if opponent == record.player:
            return False
        for point in game.legal_points():
            reply = game.play_index(point)
            won = game.winner is not None and game.winner == reply.player
            game.pop()
            if won:
                return True
            if deadline is not None and time.perf_counter() > deadline:
                return False
        return False
    finally:
        game.pop()


def losing_moves(
    game: Game, moves: list[Move] | None = None, deadline: float | None = None
) -> list[Move]:
    """The moves that let the opponent win with their very next placement.

    With a ``deadline`` the scan stops early and reports only what it proved by then.
    """
    if moves is None:
        moves = legal_moves(game)
    found: list[Move] = []
    for move in moves:
        if deadline is not None and time.perf_counter() > deadline:
            break
        if opponent_can_win_after(game, move, deadline):
            found.append(move)
    return found
