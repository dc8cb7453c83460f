"""One move representation for the whole search: a point index, or a special token.

Placements dominate and are cheapest as ints (``Game.play_index`` skips validation), while
the rare special moves (Clear Path's ``swap``) go through ``Game.play``.  Keeping the choice in
one place lets every other module stay generic over :class:`rules.Game`.
"""

from __future__ import annotations

from collections.abc import Callable

from rules import Game, MoveRecord
from rules.base import SWAP
from rules.clearpath import surrounded_mask
from rules.geometry import bits_list

from .fast import clearcut, clearpath, crosscut

Move = int | str
SEARCH_NODES = 200
"""Naked Diagonal: area-search nodes a search spends proving one point legal before passing
over it (a rare area can need seconds; a point not proven legal is never played)."""


def tree_moves(game: Game) -> tuple[list[Move], bool]:
    """The moves a search tree node offers, and whether they are all the legal moves.

    Naked Diagonal lists only the placements proven legal within :data:`SEARCH_NODES` each,
    so no tree node waits on one hard proof; a node missing some moves is never proved lost.
    """
    proven = getattr(game, "proven_legal_mask", None)
    if proven is not None:
        mask, complete = proven(SEARCH_NODES)
        if mask:
            return list(bits_list(mask)), complete
    return legal_moves(game), True


def lazy_candidates(game: Game) -> int | None:
    """For games that decide legality point by point (Naked Diagonal): the points a tree node
    may list before deciding them, a superset of the legal placements (see
    :func:`point_verdict`); None for the games whose nodes list their legal moves at once."""
    candidates = getattr(game, "candidate_mask", None)
    if candidates is None:
        return None
    mask: int = candidates()
    return mask


def point_verdict(game: Game, point: int) -> bool | None:
    """Whether ``point`` is a legal placement, None if :data:`SEARCH_NODES` did not settle it;
    only for the games :func:`lazy_candidates` answers for."""
    verdict: bool | None = game.point_verdict(point, SEARCH_NODES)  # type: ignore[attr-defined]
    return verdict


def fast_legal_mask(game: Game) -> int | None:
    """``game.legal_mask()`` from the compiled core where it has the game's rules (Clear Path,
    Crosscut, Clearcut), else None: the same mask, without the engine's costly per-point tests."""
    if game.name == "clearpath":
        return clearpath.legal_mask(game)
    if game.name == "crosscut":
        return crosscut.legal_mask(game)
    if game.name == "clearcut":
        return clearcut.legal_mask(game)
    return None


def legal_moves(game: Game) -> list[Move]:
    """Every legal move: placements in index order, then special moves such as ``swap``
    (Clear Path's placements from the compiled core where it is built: the same mask)."""
    mask = fast_legal_mask(game)
    points: list[Move] = list(game.legal_points() if mask is None else bits_list(mask))
    points.extend(game.special_moves())  # where Game.legal_moves lists them: last
    return points


def play(game: Game, move: Move) -> MoveRecord:
    """Apply a move already known to be legal."""
    if isinstance(move, int):
        return game.play_index(move)
    return game.play(move)


def move_name(game: Game, move: Move) -> str:
    """The text a player (or :meth:`Game.play`) would use for ``move``."""
    return game.grid.names[move] if isinstance(move, int) else move


def prepare(game: Game, rand: Callable[[], float] | None = None) -> None:
    """Switch a search's private copy of a game to the engine's search fast paths, if any
    (Naked Diagonal's lazy skip rule); play stays exactly the same.

    With ``rand`` (the search's random source) the skip check also draws the next random
    placement, which :func:`random_point` then takes at no further cost.
    """
    quick = getattr(game, "use_quick_turns", None)
    if quick is not None:
        quick(rand)


def chain_points(game: Game) -> int:
    """The legal placements after which the mover places again (Clear Path's chain reaction:
    a placement on a surrounded point, unless it wins), as a mask; 0 in the other games."""
    if game.name != "clearpath" or game.is_over:
        return 0
    stones = game.state_key()[2]
    return surrounded_mask(game.grid, stones[0] | stones[1]) & game.legal_mask()


def placements_this_turn(game: Game) -> int:
    """How many placements the player to move has already made in this turn (a Clear Path
    chain under way), 0 at the start of a turn."""
    last = game.last_move
    return len(game.last_turn()) if last is not None and last.continues else 0


def legal_among(game: Game, mask: int) -> list[int]:
    """The legal placements among the points of ``mask``.

    Games with a per-point legality test (Naked Diagonal) decide only these points instead of
    the whole board's mask; where the compiled core knows the game's rules, it gives the
    whole mask at once.
    """
    known = fast_legal_mask(game)
    if known is not None:
        return bits_list(known & mask)
    check = getattr(game, "point_is_legal", None)
    if check is None:
        return bits_list(game.legal_mask() & mask)
    return [p for p in bits_list(mask) if check(p)]


def random_point(game: Game, rand: Callable[[], float]) -> int | None:
    """A uniformly random legal placement, None if there is none (then a special move, such as
    Clear Path's swap, may still be legal)."""
    sample = getattr(game, "sample_legal_point", None)
    if sample is not None:
        point: int | None = sample(rand, SEARCH_NODES)
        return point
    mask = game.legal_mask()
    if not mask:
        return None
    points = bits_list(mask)
    return points[int(rand() * len(points))]


def local_point(game: Game, near: int, rand: Callable[[], float]) -> int | None:
    """A uniformly random legal placement among the points of ``near``, None if there is none."""
    check = getattr(game, "point_is_legal", None)
    if check is None:
        points = bits_list(game.legal_mask() & near)
        return points[int(rand() * len(points))] if points else None
    points = bits_list(near)
    while points:
        i = int(rand() * len(points))
        p = points[i]
        if check(p, SEARCH_NODES):
            return p
        points[i] = points[-1]
        points.pop()
    return None


def swap_offered(game: Game) -> bool:
    """Is the swap a legal move now?  Cheap outside its moment: the second colour has no
    stone then, so the move list is built only in the position right after the first turn."""
    return (
        game.pie
        and not game.swapped
        and not game.is_over
        and game.count(game.players[1]) == 0
        and SWAP in game.legal_moves()
    )
