"""One-ply tactics: moves that win at once, and moves that hand the opponent a win at once.

Connection games are decided suddenly, so a search that merely samples can overlook a
one-move win or walk into a one-move loss.  These exact checks run at the root of every search
(and are the whole of the greedy benchmark opponent), so such blunders cannot happen.
"""

from __future__ import annotations

import time

from rules import Game

from .connection import (
    PATH_GAMES,
    RUN_GAMES,
    edges,
    mover_index,
    run_win_candidates,
    stone_masks,
)
from .fast.crosscut import winning_points
from .moves import Move, fast_legal_mask, legal_among, legal_moves, play


def win_candidates(game: Game, player: int | None = None) -> int | None:
    """Points where the player to move (or colour index ``player``) could possibly win at once
    by placing there, or None if unknown.

    In the path games a placement wins only by joining the mover's two edges, so it must touch
    both the stones already joined to edge A (or edge A itself) and those joined to edge B.
    In Crosscut a placement wins only by completing an interior line
    (:func:`ai.connection.run_win_candidates`).  This is a superset, always confirmed by
    playing the move; it spares the engine a trial placement on every other point.
    """
    if game.is_over:
        return None
    stones = stone_masks(game)
    if player is None:
        player = mover_index(game)
    own = stones[player]
    if game.name in RUN_GAMES:
        return run_win_candidates(game.size, own, stones[1 - player])
    if game.name not in PATH_GAMES:
        return None
    g = game.grid
    edge_a, edge_b = edges(g, player)
    seed_a, seed_b = own & edge_a, own & edge_b
    reach_a = g.flood(seed_a, own) if seed_a else 0
    reach_b = g.flood(seed_b, own) if seed_b else 0
    empty = g.full & ~(stones[0] | stones[1])
    return (g.dilate4(reach_a) | edge_a) & (g.dilate4(reach_b) | edge_b) & empty


def candidate_moves(game: Game, moves: list[Move]) -> list[Move]:
    """The moves of ``moves`` that might win at once (all of them when unknown)."""
    mask = win_candidates(game)
    if mask is None:
        return moves
    return [m for m in moves if isinstance(m, int) and mask >> m & 1]


def wins_at_once(game: Game, move: Move) -> bool:
    """True if ``move`` (legal) ends the game with the mover as the winner: from the compiled
    core where it knows the game (:func:`ai.fast.crosscut.winning_points`), else played."""
    if isinstance(move, int):
        won = winning_points(game, 1 << move)
        if won is not None:
            return bool(won)
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
    for move in candidate_moves(game, moves):
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
        mask = win_candidates(game)
        legal = fast_legal_mask(game)
        if legal is not None:
            won = winning_points(game, legal if mask is None else legal & mask)
            if won is not None:
                return bool(won)
        points = game.legal_points() if mask is None else legal_among(game, mask)
        for point in points:
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


def safe_moves(game: Game, moves: list[Move]) -> list[Move]:
    """The moves that do not hand the opponent a win at once, or all of ``moves`` if every one
    does (the reference players' "block when you must")."""
    lost = set(losing_moves(game, moves))
    return [m for m in moves if m not in lost] or moves


def loses_in_two(game: Game, move: Move, deadline: float | None = None) -> bool:
    """True if after ``move`` the opponent has a reply after which every answer lets them win
    with their next placement: a double threat, or a threat whose block can be undone (in
    Crosscut, a blocking disc flipped back from the perimeter).

    Exact but one-sided: only replies that leave the opponent a possible winning point
    (:func:`win_candidates`) are examined, and whenever a turn does not simply pass to the
    other side (a Clear Path chain, a skip, a swap) the line is given up on as not lost.
    Past ``deadline`` it answers False.
    """
    me = play(game, move).player
    try:
        if game.is_over:
            return game.winner is not None and game.winner != me
        opponent = game.to_move
        if opponent == me:
            return False
        them = game.players.index(opponent)
        for reply in game.legal_points():
            if deadline is not None and time.perf_counter() > deadline:
                return False
            game.play_index(reply)
            try:
                if game.is_over:
                    if game.winner == opponent:
                        return True
                    continue
                if game.to_move != me or not win_candidates(game, them):
                    continue
                answers = legal_moves(game)
                if all(opponent_can_win_after(game, answer) for answer in answers):
                    return True
            finally:
                game.pop()
        return False
    finally:
        game.pop()


def losing_in_two(game: Game, moves: list[Move], deadline: float | None = None) -> list[Move]:
    """The moves of ``moves`` that :func:`loses_in_two` proves lost (those found by
    ``deadline``)."""
    found: list[Move] = []
    for move in moves:
        if deadline is not None and time.perf_counter() > deadline:
            break
        if loses_in_two(game, move, deadline):
            found.append(move)
    return found


def wins_in_two(game: Game, move: Move, deadline: float | None = None) -> bool:
    """True if after ``move`` every reply of the opponent leaves the mover a winning
    placement: ``move`` makes a threat that cannot be stopped (two threats at once, or a block
    the mover can flip back).

    Exact but one-sided, like :func:`loses_in_two`: if a turn does not simply pass to the
    other side, or ``deadline`` passes, it answers False.
    """
    me = play(game, move).player
    try:
        if game.is_over:
            return game.winner == me
        opponent = game.to_move
        if opponent == me:
            return False
        mine = game.players.index(me)
        replies = legal_moves(game)
        if not replies:
            return False
        for reply in replies:
            if deadline is not None and time.perf_counter() > deadline:
                return False
            play(game, reply)
            try:
                if game.is_over:
                    if game.winner == me:
                        continue
                    return False
                mask = win_candidates(game, mine) if game.to_move == me else None
                if not mask or not any(wins_at_once(game, p) for p in legal_among(game, mask)):
                    return False
            finally:
                game.pop()
        return True
    finally:
        game.pop()
