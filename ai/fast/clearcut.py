"""Clearcut's uniform playout on bitboards (see :mod:`ai.fast`).

The engine's search copy (``QuickTurns``) draws a playout move uniformly from the empty points
and tests only a drawn point that forms a crosscut (group sizes); a placement forming none is
always legal.  The same here, with the empty points kept as a sorted list (the engine lists
them afresh from the mask at every move) and edge reach updated as the engine's
:class:`rules.connectivity.EdgeReach` does.
"""

from __future__ import annotations

import time
from bisect import insort
from typing import TYPE_CHECKING

from rules import Game
from rules.geometry import bits_list

from . import Random, Resume

if TYPE_CHECKING:
    from ai.evaluators import Leaf


class ClearcutKernel:
    """Uniform Clearcut playouts; hands skips and anything but a placement to the engine."""

    def run(self, game: Game, leaf: Leaf, rand: Random, stop: int) -> int | Resume | None:
        last = leaf.last
        if not getattr(game, "_quick_turns", False):
            return Resume([], 0, last)
        g = game.grid
        n, full, not_left, not_right = g.size, g.full, g.not_left, g.not_right
        squares, orth_bits = g.squares, g.orth_bits
        edges = ((g.bottom, g.top), (g.left, g.right))
        stones = list(game._stones)
        reach = [[r.a, r.b] for r in game._reach]  # type: ignore[attr-defined]
        turn = game._turn
        empties = bits_list(full & ~(stones[0] | stones[1]))
        known = game._legal
        played, flip, deadline = leaf.played, leaf.flip, leaf.deadline
        clock = time.perf_counter
        points: list[int] = []
        moves = 0

        def flood(seed: int, within: int) -> int:
            region = seed
            while True:
                m = region
                nxt = (
                    (m | (m >> 1 & not_right) | (m << 1 & not_left) | m >> n | (m << n & full))
                    & within
                ) | seed
                if nxt == region:
                    return region
                region = nxt

        while True:
            if deadline is not None and clock() > deadline:
                return None
            if moves == stop:
                return Resume(points, moves, last)
            moves += 1
            own, opp = stones[turn], stones[1 - turn]
            # --- draw a legal point as QuickTurns.sample_legal_point does ---
            if known is not None:
                legal = bits_list(known)
                known = None
                if not legal:
                    return Resume(points, moves - 1, last)
                point = legal[int(rand() * len(legal))]
            else:
                pool = empties
                while True:
                    i = int(rand() * len(pool))
                    point = pool[i]
                    cuts = [
                        (r, s)
                        for q, r, s in squares[point]
                        if own >> q & 1 and opp >> r & 1 and opp >> s & 1
                    ]
                    if not cuts:
                        break
                    size = flood(1 << point, own | 1 << point).bit_count()
                    if all(
                        size > flood(1 << r, opp).bit_count()
                        and size > flood(1 << s, opp).bit_count()
                        for r, s in cuts
                    ):
                        break
                    if pool is empties:
                        pool = list(empties)
                    pool[i] = pool[-1]
                    pool.pop()
            played.append((point, turn ^ flip))
            points.append(point)
            # --- place, as Clearcut._place ---
            bit = 1 << point
            removed = 0
            for q, r, s in squares[point]:
                if own >> q & 1 and opp >> r & 1 and opp >> s & 1:
                    removed |= 1 << r | 1 << s
            own |= bit
            stones[turn] = own
            empties.remove(point)
            if removed:
                opp &= ~removed
                stones[1 - turn] = opp
                ea, eb = edges[1 - turn]
                reach[1 - turn] = [flood(opp & ea, opp), flood(opp & eb, opp)]
                for p in bits_list(removed):
                    insort(empties, p)
            ea, eb = edges[turn]
            mine = reach[turn]
            around = orth_bits[point]
            if bit & ea or around & mine[0]:
                mine[0] |= flood(bit, own & ~mine[0])
            if bit & eb or around & mine[1]:
                mine[1] |= flood(bit, own & ~mine[1])
            if mine[0] & mine[1]:
                return turn
            last = point
            # --- the skip rule, as QuickTurns._pass_turn: the opponent has a point forming no
            # crosscut (each of their stones makes at most four points crosscut candidates) ---
            other = stones[1 - turn]
            if len(empties) <= 4 * other.bit_count():
                east = own >> 1 & not_right
                west = own << 1 & not_left
                north = own >> n
                south = own << n & full
                found = (
                    (other >> (n + 1) & not_right & east & north)
                    | (other << (n - 1) & not_right & east & south)
                    | (other >> (n - 1) & not_left & west & north)
                    | (other << (n + 1) & not_left & west & south)
                )
                if not full & ~(own | other) & ~found:
                    return Resume(points, moves, last)
            turn = 1 - turn


KERNEL = ClearcutKernel()
