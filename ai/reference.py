"""The connection-distance reference player: the yardstick the levels are rated against.

It plays as a careful beginner would:

1. a move that wins at once;
2. otherwise only moves that do not hand the opponent a win with their next placement (when
   any such move exists), which blocks every win in one;
3. among those, the placement that most improves (opponent's distance − own distance) after
   the move, ties broken at random.

In the path games the distance is the number of empty points still needed for an orthogonal
path between one's edges (:func:`ai.connection.path_distance`); in Crosscut it is how far a
side is from owning a whole interior row or column (:func:`ai.connection.run_distance`).
Every candidate is played through the engine and taken back, so it only ever considers legal
moves and sees each game's side effects (Crosscut flips, Clearcut removals, Clear Path chains).
It never plays Clear Path's ``swap`` unless that is the only legal move.

:func:`shadow_move` is a second yardstick for the path games, made for Naked Diagonal: it
answers the opponent's last stone on the point next to it across the opponent's way (above or
below a stone of the north–south player, beside one of the east–west player) whenever that
point is legal and safe, and plays the distance player's move otherwise.
In Naked Diagonal a stone there bars both diagonal steps past it until the stone's owner
fills a point beside it first, and it is how the levels' searches beat each other from the
second seat.
"""

from __future__ import annotations

import random

from rules import Game
from rules.geometry import bits_list
from rules.notation import parse_point

from .connection import (
    INFINITE,
    PATH_GAMES,
    across_bits,
    closed_points,
    mover_index,
    path_distance,
    run_distance,
    stone_masks,
)
from .moves import Move, legal_moves, move_name, play, prepare
from .tactics import safe_moves, winning_moves


def distance_score(game: Game, player: int, legality_aware: bool = False) -> float:
    """(opponent's distance − ``player``'s distance) in the current position; higher is better
    for ``player``.  Unreachable goals count as one more than the board has points.

    ``legality_aware`` makes each side's paths avoid the points barred to it
    (:func:`ai.connection.closed_points`, Minefield only): not the yardstick, a measure of
    that knowledge (``bench/distance_players.py``)."""
    stones = stone_masks(game)
    own, opp = stones[player], stones[1 - player]
    if game.name in PATH_GAMES:
        cap = game.grid.area + 1
        own_block = closed_points(game, own, opp) if legality_aware else opp
        opp_block = closed_points(game, opp, own) if legality_aware else own
        mine = min(path_distance(game.grid, own, own_block, player), cap)
        theirs = min(path_distance(game.grid, opp, opp_block, 1 - player), cap)
        return float(theirs - mine)
    mine_run = min(run_distance(game.size, own, opp), INFINITE)
    theirs_run = min(run_distance(game.size, opp, own), INFINITE)
    return theirs_run - mine_run


def distance_move(game: Game, rng: random.Random, legality_aware: bool = False) -> str:
    """The reference player's move for the player to move (``game`` is left unchanged)."""
    return _distance_choice(game, rng, legality_aware, shadow=False)


def shadow_move(game: Game, rng: random.Random) -> str:
    """The shadow player's move: the distance player's, except that it answers the opponent's
    last stone on a point next to it across the opponent's way when one is legal and safe (the
    better of the two by the distance score).  Outside the path games it is the distance
    player."""
    return _distance_choice(game, rng, False, shadow=game.name in PATH_GAMES)


def shadow_points(game: Game) -> list[int]:
    """The points next to the opponent's last stone across the opponent's way, on the board and
    empty or not (legality is the caller's).  Empty when the last move placed no stone of the
    opponent's (an opening, a swap, or the mover's own earlier stone before a skipped turn)."""
    if not game.history:
        return []
    last = game.history[-1]
    if last.point is None or last.player == str(game.to_move) or not last.stays:
        return []
    point = parse_point(last.point, game.size)
    return bits_list(across_bits(game.size)[1 - mover_index(game)][point])


def _distance_choice(game: Game, rng: random.Random, legality_aware: bool, shadow: bool) -> str:
    work = game.copy()
    prepare(work)
    moves = legal_moves(work)
    wins = winning_moves(work, moves)
    if wins:
        return move_name(work, wins[rng.randrange(len(wins))])
    safe = safe_moves(work, moves)
    placements = [m for m in safe if isinstance(m, int)] or safe
    if shadow:
        answers = set(shadow_points(work))
        placements = [m for m in placements if m in answers] or placements
    player = mover_index(work)
    best: list[Move] = []
    best_score = -float("inf")
    for move in placements:
        record = play(work, move)
        score = distance_score(work, player, legality_aware) if not record.swap else -float("inf")
        work.pop()
        if score > best_score:
            best, best_score = [move], score
        elif score == best_score:
            best.append(move)
    return move_name(work, best[rng.randrange(len(best))])
