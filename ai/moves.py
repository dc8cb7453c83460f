"""One move representation for the whole search: a point index, or a special token.

Placements dominate and are cheapest as ints (``Game.play_index`` skips validation), while
the rare special moves (Clear Path's ``swap``) go through ``Game.play``.  Keeping the choice in
one place lets every other module stay generic over :class:`rules.Game`.
"""

from __future__ import annotations

from rules import Game, MoveRecord

Move = int | str


def legal_moves(game: Game) -> list[Move]:
    """Every legal move: placements in index order, then special moves such as ``swap``."""
    points: list[Move] = list(game.legal_points())
    if game.is_over:
        return points
    # Game.legal_moves lists the placements first, then the special moves.
    specials: list[Move] = list(game.legal_moves()[len(points) :])
    return points + specials


def play(game: Game, move: Move) -> MoveRecord:
    """Apply a move already known to be legal."""
    if isinstance(move, int):
        return game.play_index(move)
    return game.play(move)


def move_name(game: Game, move: Move) -> str:
    """The text a player (or :meth:`Game.play`) would use for ``move``."""
    return game.grid.names[move] if isinstance(move, int) else move
