"""Connection knowledge on bitboards: who is closer to winning, and which points matter.

Four of the five games (Clear Path, Minefield, Clearcut, Naked Diagonal) are won by an
orthogonal path of one's own stones between one's two edges: the first player joins the bottom
and top rows, the second the left and right columns.  For those, the *connection distance* of
a player is the least number of empty points they still have to fill to complete such a path
(own stones are free, enemy stones block).  It is computed as layers of a 0-1 breadth-first
search on bitboards, a handful of shifts per layer, so it is cheap enough to run at every new
tree node.

Crosscut is won by a run of N−2 discs in a row or column.  The perimeter is always empty, so
such a run is a whole interior row or column; its distance is the number of that line's points
a player does not hold yet (enemy discs can be flipped, so they count, with a surcharge).

The reference player (:mod:`ai.reference`) and the search's priors (:mod:`ai.search`) both
read this module, so "closer to connecting" means the same thing in the yardstick and in the
program measured against it.
"""

from __future__ import annotations

from functools import cache

from rules import Game
from rules.geometry import Grid, grid
from rules.minefield import glyph_mask
from rules.nd_area import area_solver
from rules.nd_core import CORE

from .fast import core

INFINITE = 10_000
PATH_GAMES = frozenset({"clearpath", "minefield", "clearcut", "nakeddiagonal"})
RUN_GAMES = frozenset({"crosscut"})


def stone_masks(game: Game) -> tuple[int, int]:
    """Both players' stones as bitboards (first player, second player).

    Read from :meth:`rules.Game.state_key`, the engine's public description of a position.
    """
    stones = game.state_key()[2]
    return stones[0], stones[1]


def mover_index(game: Game) -> int:
    """0 if the first colour is to move, else 1 (the colour, not the person after a swap)."""
    return 0 if game.to_move == game.players[0] else 1


def edges(g: Grid, player: int) -> tuple[int, int]:
    """The edges ``player`` joins: rows for the first player, columns for the second."""
    return (g.bottom, g.top) if player == 0 else (g.left, g.right)


def distance_layers(g: Grid, own: int, opp: int, edge_a: int, edge_b: int) -> list[int]:
    """Layers of the 0-1 search from edge A: layer k holds every point reachable from edge A
    by filling at most k empty points (own stones cost nothing, enemy stones block).  The list
    stops at the first layer touching edge B, or when no layer grows (then B is unreachable).
    """
    if CORE is not None:  # the compiled twin (rules/_ndcore.c): the same layers
        return CORE.distance_layers(g.size, own, opp, edge_a, edge_b)
    free = g.full & ~opp
    empty = free & ~own
    seed = own & edge_a
    reach = g.flood(seed, own) if seed else 0
    layers = [reach]
    # A step next to no own stone adds only itself: the flood is needed only where it is.
    own_near = g.dilate4(own)
    while not reach & edge_b:
        step = (g.dilate4(reach) | edge_a) & empty & ~reach
        if not step:
            break
        reach = g.flood(reach | step, reach | step | own) if step & own_near else reach | step
        layers.append(reach)
    return layers


def path_distance(g: Grid, own: int, opp: int, player: int) -> int:
    """Empty points ``player`` still needs for an orthogonal edge-to-edge path (INFINITE if
    enemy stones already cut every path)."""
    edge_a, edge_b = edges(g, player)
    layers = distance_layers(g, own, opp, edge_a, edge_b)
    return len(layers) - 1 if layers[-1] & edge_b else INFINITE


def shortest_path_points(g: Grid, own: int, opp: int, player: int) -> tuple[int, int]:
    """(distance, mask of the empty points that lie on at least one shortest path).

    An empty point first reached from edge A at cost k (itself included) and from edge B at
    cost D − k + 1 lies on a path of total cost D.
    """
    edge_a, edge_b = edges(g, player)
    if CORE is not None:  # the compiled twin (rules/_ndcore.c): the same answer
        found = CORE.path_points(g.size, own, opp, edge_a, edge_b)
        return (INFINITE, 0) if found is None else found
    from_a = distance_layers(g, own, opp, edge_a, edge_b)
    if not from_a[-1] & edge_b:
        return INFINITE, 0
    total = len(from_a) - 1
    if total == 0:
        return 0, 0
    from_b = distance_layers(g, own, opp, edge_b, edge_a)
    empty = g.full & ~(own | opp)
    on_path = 0
    for k in range(1, total + 1):
        new_a = from_a[k] & ~from_a[k - 1] & empty
        j = total - k + 1
        if j < len(from_b):
            new_b = from_b[j] & ~from_b[j - 1] & empty
            on_path |= new_a & new_b
    return total, on_path


# ----- Crosscut: runs ------------------------------------------------------------------------


def interior_lines(g: Grid) -> tuple[int, ...]:
    """Every interior row and column (the only places a winning run of N−2 can stand)."""
    inner = g.interior
    rows = [row & inner for row in g.rows[1:-1]]
    cols = [col & inner for col in g.cols[1:-1]]
    return tuple(rows + cols)


_LINES: dict[int, tuple[int, ...]] = {}


def lines_of(size: int) -> tuple[int, ...]:
    found = _LINES.get(size)
    if found is None:
        found = _LINES[size] = interior_lines(grid(size))
    return found


def run_win_candidates(size: int, own: int, opp: int) -> int:
    """Every point where a placement might complete an interior line of ``own`` (Crosscut's
    win), a small superset confirmed by playing the move.

    A placement changes a line by the placed disc plus flips.  Placed on the line, it fills
    one empty point and may flip enemy discs along the line; placed off it, it can flip at most
    the one line point its own row or column crosses.  So a line can be completed only if it
    has one empty point (the placement goes there), or no empty point and (a) the discs to
    flip start at one of its ends (the perimeter point beyond that end flips them), or (b)
    one enemy disc (a placement on the crossing line through that disc flips it).
    """
    g = grid(size)
    lines = lines_of(size)
    rows = len(lines) // 2
    empty = g.full & ~(own | opp)
    found = 0
    for index, line in enumerate(lines):
        missing = line & ~own
        if not missing:
            continue
        holes = missing & empty
        if holes:
            if holes & (holes - 1) == 0:
                found |= holes
            continue
        found |= _line_ends(g, line, index < rows)
        if missing & (missing - 1) == 0:
            q = missing.bit_length() - 1
            found |= (g.cols[q % size] if index < rows else g.rows[q // size]) & empty
    return found & empty


def _line_ends(g: Grid, line: int, is_row: bool) -> int:
    """The two perimeter points just beyond an interior line's ends."""
    low = line & -line
    high = 1 << (line.bit_length() - 1)
    if is_row:
        return (low >> 1) | (high << 1)
    return (low >> g.size) | (high << g.size)


def run_distance(size: int, own: int, opp: int) -> float:
    """Least over the interior lines of (points not held + ½ per enemy disc to flip)."""
    best = float(INFINITE)
    for line in lines_of(size):
        need = line.bit_count() - (own & line).bit_count() + 0.5 * (opp & line).bit_count()
        if need < best:
            best = need
    return best


# ----- priors for the search --------------------------------------------------------------


BARRED_GAMES = frozenset({"minefield"})
"""The games whose bars :func:`barred_points` models unless told otherwise.  Naked Diagonal's
are modelled too, but routing the levels' path playouts round them did not pay (``nd-bars`` in
docs/ai-experiments.md)."""


def barred_points(game: Game, own: int, opp: int, games: frozenset[str] = BARRED_GAMES) -> int:
    """Empty points where the player holding ``own`` may not place now (0 where the game bars
    nothing but occupied points, or where this module does not model it, or ``game`` is not
    among ``games``).

    Minefield: a point that would complete a hard corner or a switch for that player
    (:func:`rules.minefield.glyph_mask`).  Such bars mostly last: a point between two enemy
    stones on a diagonal stays barred to you until the enemy fills the other point between
    them, which joins their stones anyway.  So a path through barred points is no path, and a
    distance that ignores the bars counts paths a side can never complete.

    Naked Diagonal: a point that would form a naked diagonal one of whose shared points the
    enemy holds (:meth:`rules.nd_area.AreaSolver.naked_beside_mask`).  Your stone beside an
    enemy row bars you from the row's points diagonal to it until you take the other shared
    point, which the enemy can take first: how the distance player wins with a straight row.
    Naked diagonals with both shared points empty are left out: the path itself may fill one.
    """
    if game.name not in games:
        return 0
    g = game.grid
    empty = g.full & ~(own | opp)
    if game.name == "minefield":
        return glyph_mask(g, own, opp, empty)
    if game.name == "nakeddiagonal":
        return area_solver(g.size).naked_beside_mask(own, opp) & empty
    return 0


def closed_points(game: Game, own: int, opp: int, games: frozenset[str] = BARRED_GAMES) -> int:
    """The points the player holding ``own`` cannot route a path through now: enemy stones and
    the points barred to that player (:func:`barred_points` for ``games``).  The
    legality-aware distance is the plain one with these as the blocking stones."""
    return opp | barred_points(game, own, opp, games)


def move_priors(game: Game) -> list[float] | None:
    """Per point, a prior in 0..1 of how much a placement there matters now, or None when the
    game has no connection knowledge here.

    Path games: points on a shortest path of the player to move (1.0 when also on one of the
    opponent's, else 0.7), on one of the opponent's only (0.6, a block), else 0.
    Crosscut: :func:`run_move_priors`.
    """
    stones = stone_masks(game)
    player = mover_index(game)
    own, opp = stones[player], stones[1 - player]
    if game.name in PATH_GAMES:
        g = game.grid
        mine, theirs = both_path_points(g, own, opp, player)
        priors = [0.0] * g.area
        for mask, value in ((theirs, 0.6), (mine, 0.7), (mine & theirs, 1.0)):
            while mask:
                low = mask & -mask
                priors[low.bit_length() - 1] = value
                mask ^= low
        return priors
    if game.name in RUN_GAMES:
        return run_move_priors(game)
    return None


def both_path_points(g: Grid, own: int, opp: int, player: int) -> tuple[int, int]:
    """The masks of :func:`shortest_path_points` for ``player`` (holding ``own``) and for the
    opponent: from the compiled core where it is built (the same masks, tested side by side in
    ``tests/ai/test_tree_core.py``), since every node the search expands in Clear Path asks."""
    compiled = core.CORE
    if compiled is not None and g.size <= 19:
        masks: tuple[int, int] = compiled.path_points(g.size, own, opp, player)
        return masks
    return (
        shortest_path_points(g, own, opp, player)[1],
        shortest_path_points(g, opp, own, 1 - player)[1],
    )


PRIOR_AFTER_VISITS: dict[str, int] = {"crosscut": 1}
"""Visits a search node waits for before its children get priors, per game (default 0: at
once).  Crosscut's prior plays every legal move through the engine, as much as a playout
costs; most new nodes are leaves never visited again, so it is spent only on revisited ones."""


def run_move_priors(game: Game) -> list[float]:
    """Crosscut prior: each legal placement played through the engine and scored by what it
    does to (opponent's run distance − own run distance), scaled to 0..1 over the legal
    placements (illegal points get 0).

    Flips decide Crosscut: a perimeter placement that flips a blocking disc back, or an
    interior one that cuts a line by flipping, changes both distances at once.  Random
    playouts almost never find those moves, so without this prior the search overlooks them
    (the reference player, which scores every move this way, won that way).

    From the compiled core where it is built: the same placements made without the engine,
    the same floats (``tests/ai/test_tree_core.py`` compares the two on random positions),
    since this was two thirds of a Crosscut search.
    """
    compiled = core.CORE
    if compiled is not None:
        stones = stone_masks(game)
        player = mover_index(game)
        priors: list[float] = compiled.crosscut_priors(
            game.size, stones[player], stones[1 - player]
        )
        return priors
    return engine_move_priors(game)


def engine_move_priors(game: Game) -> list[float]:
    """:func:`run_move_priors` through the engine: the reference the compiled core follows."""
    player = mover_index(game)
    size = game.size
    scores: list[tuple[int, float]] = []
    for point in game.legal_points():
        game.play_index(point)
        stones = stone_masks(game)
        own, opp = stones[player], stones[1 - player]
        scores.append((point, run_distance(size, opp, own) - run_distance(size, own, opp)))
        game.pop()
    priors = [0.0] * game.grid.area
    if not scores:
        return priors
    low = min(score for _, score in scores)
    spread = max(score for _, score in scores) - low
    if spread > 0:
        for point, score in scores:
            priors[point] = (score - low) / spread
    return priors


def distance_leader(game: Game, games: frozenset[str] = BARRED_GAMES) -> int:
    """The colour index closer to connecting, by legality-aware distance (:func:`barred_points`
    for ``games``); on a tie, the player to move, who gets the next placement.  A heuristic
    verdict for playouts cut short (:class:`ai.playouts.Playout`), path games only."""
    g = game.grid
    stones = stone_masks(game)
    distances = [
        path_distance(g, stones[p], closed_points(game, stones[p], stones[1 - p], games), p)
        for p in (0, 1)
    ]
    if distances[0] != distances[1]:
        return 0 if distances[0] < distances[1] else 1
    return mover_index(game)


def path_points(game: Game, games: frozenset[str] = BARRED_GAMES) -> int:
    """The points on a shortest legality-aware path of either side (:func:`closed_points` for
    ``games``), as a mask: where path playouts draw their moves (legality is the sampler's to
    check)."""
    g = game.grid
    stones = stone_masks(game)
    points = 0
    for p in (0, 1):
        own, opp = stones[p], stones[1 - p]
        points |= shortest_path_points(g, own, closed_points(game, own, opp, games), p)[1]
    return points


@cache
def across_bits(size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For each colour, each point's orthogonal neighbours across that colour's way, as masks:
    above and below for the first colour (which joins bottom and top), beside for the second.
    A stone there is the shadow player's answer (:func:`ai.reference.shadow_points`): it
    stands in the way of the stone's next straight step."""
    g = grid(size)
    n = g.size
    vertical = tuple(g.orth_bits[p] & g.cols[p % n] for p in range(g.area))
    horizontal = tuple(g.orth_bits[p] & g.rows[p // n] for p in range(g.area))
    return vertical, horizontal
