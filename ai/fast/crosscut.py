"""Crosscut's uniform playout on bitboards (see :mod:`ai.fast`).

The engine's search copy (``QuickTurns``) draws a playout move uniformly from the empty
interior points (always legal) and the empty perimeter points next to an enemy disc, and
tests only a drawn perimeter point (it must flip).  The perimeter is always empty (a
perimeter disc is removed at once), so the empty interior points are kept as a sorted list;
flanks and runs are walked along rays listed once per board size.
"""

from __future__ import annotations

import time
from functools import cache
from typing import TYPE_CHECKING

from rules import Game
from rules.geometry import bits_list, grid

from . import Random, Resume, core, resume

if TYPE_CHECKING:
    from ai.evaluators import Leaf

Ray = tuple[int, ...]


@cache
def rays(size: int) -> tuple[tuple[Ray, Ray, Ray, Ray], ...]:
    """Per point, the points beyond it east, west, north and south (nearest first): the
    order of ``rules.geometry.ORTHOGONAL``, which ``rules.crosscut`` walks."""
    g = grid(size)
    n = size
    found = []
    for p in range(g.area):
        c, r = p % n, p // n
        found.append(
            (
                tuple(r * n + x for x in range(c + 1, n)),
                tuple(r * n + x for x in range(c - 1, -1, -1)),
                tuple(y * n + c for y in range(r + 1, n)),
                tuple(y * n + c for y in range(r - 1, -1, -1)),
            )
        )
    return tuple(found)


@cache
def interior_lines(size: int) -> tuple[tuple[int, int], ...]:
    """Per point, the interior points of its row and of its column, as masks."""
    g = grid(size)
    return tuple(
        (g.rows[p // size] & g.interior, g.cols[p % size] & g.interior) for p in range(g.area)
    )


def legal_mask(game: Game) -> int | None:
    """``game.legal_mask()`` for a Crosscut game from the compiled core, or None (another
    game, or the core is not built: then ask the engine).

    The same mask (``tests/ai/test_fast_core.py`` compares it with the engine's): the root's
    threat scans and every node a search expands ask for it, and the engine tests each
    perimeter point by its flips in Python."""
    compiled = core.CORE
    if compiled is None or game.name != "crosscut" or game.is_over:
        return None
    known: int | None = game._legal
    if known is not None:
        return known
    turn = game._turn
    stones = game._stones
    found: int = compiled.crosscut_legal(game.size, stones[turn], stones[1 - turn])
    return found


def winning_points(game: Game, mask: int) -> int | None:
    """The legal points of ``mask`` where the mover of a Crosscut game wins at once, from the
    compiled core, or None (another game, or the core is not built: then try each through the
    engine).  The trial placements of the win checks, without playing and undoing each
    (``tests/ai/test_fast_core.py`` compares them with the engine's)."""
    compiled = core.CORE
    if compiled is None or game.name != "crosscut" or game.is_over:
        return None
    turn = game._turn
    stones = game._stones
    found: int = compiled.crosscut_winning(game.size, stones[turn], stones[1 - turn], mask)
    return found


class CrosscutKernel:
    """Uniform Crosscut playouts; hands a full interior (skips, draws) to the engine."""

    def run(self, game: Game, leaf: Leaf, rand: Random, stop: int) -> int | Resume | None:
        last = leaf.last
        if not getattr(game, "_quick_turns", False):
            return Resume([], 0, last)
        g = game.grid
        n, full, not_left, not_right = g.size, g.full, g.not_left, g.not_right
        perimeter = g.perimeter
        ray = rays(n)
        orth_bits = g.orth_bits
        lines = interior_lines(n)
        stones = list(game._stones)
        if (stones[0] | stones[1]) & perimeter:
            return Resume([], 0, last)  # a set-up position: the runs below assume none there
        turn = game._turn
        inner = bits_list(g.interior & ~(stones[0] | stones[1]))
        known = game._legal
        if known is None and not inner:
            return Resume([], 0, last)  # no interior point: the engine's whole mask decides
        played, flip, deadline = leaf.played, leaf.flip, leaf.deadline
        start = len(played)
        compiled = core.CORE
        if compiled is not None:
            ran = compiled.crosscut(
                *core.context(rand, leaf),
                n,
                stones[0],
                stones[1],
                turn,
                known,
                last,
                stop,
            )
            return ran if ran is None or isinstance(ran, int) else resume(played, start, *ran)
        clock = time.perf_counter
        moves = 0

        def run_through(stones: int, p: int) -> int:
            """The longer of the row and column runs of ``stones`` through ``p``."""
            best = 0
            for a, b in ((0, 1), (2, 3)):
                length = 1
                for i in ray[p][a]:
                    if not stones >> i & 1:
                        break
                    length += 1
                for i in ray[p][b]:
                    if not stones >> i & 1:
                        break
                    length += 1
                if length > best:
                    best = length
            return best

        def flips(point: int, own: int, opp: int) -> list[int]:
            """Crosscut.flips: the discs a placement flips."""
            flanked: list[int] = []
            if not orth_bits[point] & opp:
                return flanked
            for line in ray[point]:
                # rules.crosscut.flanked_segments: enemy discs from the point on, then one of
                # the mover's.
                if line and opp >> line[0] & 1:
                    k, end = 1, len(line)
                    while k < end and opp >> line[k] & 1:
                        k += 1
                    if k < end and own >> line[k] & 1:
                        flanked += line[:k]
            if not flanked:
                return flanked
            bits = 0
            for i in flanked:
                bits |= 1 << i
            if perimeter >> point & 1:
                after, measured = own | bits, flanked
            else:
                after, measured = own | bits | 1 << point, [*flanked, point]
            created = max(run_through(after, p) for p in measured)
            cut = max(run_through(opp, p) for p in flanked)
            return flanked if created > cut else []

        def kth(i: int, edge: int) -> int:
            """The ``i``-th point of the sorted union of ``inner`` and the points of ``edge``:
            walk the perimeter points in order, each one either before the interior point that
            would be the ``i``-th, or that one, or after it."""
            skipped = 0
            end = len(inner)
            while edge:
                low = edge & -edge
                e = low.bit_length() - 1
                j = i - skipped
                if j < end and inner[j] < e:
                    return inner[j]
                if j <= end and (j == 0 or inner[j - 1] < e):
                    return e
                skipped += 1
                edge ^= low
            return inner[i - skipped]

        while True:
            if deadline is not None and clock() > deadline:
                return None
            if moves == stop:
                return resume(played, start, moves, last)
            moves += 1
            own, opp = stones[turn], stones[1 - turn]
            # --- draw a legal point as QuickTurns.sample_legal_point does ---
            if known is not None:
                legal = bits_list(known)
                known = None
                if not legal:
                    return resume(played, start, moves - 1, last)
                point = legal[int(rand() * len(legal))]
                flipped = flips(point, own, opp)
            else:
                m = opp
                edge = (
                    m | (m >> 1 & not_right) | (m << 1 & not_left) | m >> n | (m << n & full)
                ) & perimeter
                # The draw is from the sorted union of the interior list and the few perimeter
                # points; find the drawn one without building the union.
                size = len(inner) + edge.bit_count()
                i = int(rand() * size)
                point = kth(i, edge)
                flipped = flips(point, own, opp) if orth_bits[point] & opp else []
                if not flipped and perimeter >> point & 1:
                    # The rejection of QuickTurns.sample_legal_point, on the union as a list
                    # that is never built: ``moved`` holds the places it has rewritten.
                    moved: dict[int, int] = {}
                    while True:
                        size -= 1
                        if size in moved:
                            moved[i] = moved[size]
                        elif not moved:  # the union's last point: the largest of either
                            moved[i] = max(inner[-1], edge.bit_length() - 1)
                        else:
                            moved[i] = kth(size, edge)
                        i = int(rand() * size)
                        point = moved[i] if i in moved else kth(i, edge)
                        flipped = flips(point, own, opp)
                        if flipped or not perimeter >> point & 1:
                            break
            played.append((point, turn ^ flip))
            # --- place, as Crosscut._place ---
            bits = 0
            for i in flipped:
                bits |= 1 << i
            if perimeter >> point & 1:
                changed = flipped
                own |= bits
            else:
                changed = [*flipped, point]
                own |= bits | 1 << point
                inner.remove(point)
            stones[turn] = own
            stones[1 - turn] = opp & ~bits
            # A run of N-2 is a whole interior line, the perimeter being empty: a win is a line
            # through a changed disc now held whole (Crosscut._place's longest run >= N-2).
            for p in changed:
                row, col = lines[p]
                if own & row == row or own & col == col:
                    return turn
            last = point
            # --- the skip rule, as QuickTurns._pass_turn: an empty interior point is legal for
            # either player; without one the engine decides ---
            if not inner:
                return resume(played, start, moves, last)
            turn = 1 - turn


KERNEL = CrosscutKernel()
