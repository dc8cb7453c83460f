"""Minefield's playouts on bitboards (see :mod:`ai.fast`): uniform, or drawn from both sides'
shortest legality-aware paths and cut short for a verdict by distance
(:class:`ai.playouts.OnPaths`, ``cut_after``: the levels' ``ON_PATHS``).

In a position the engine computes the same glyph masks several times: the mover's legal
mask for the skip rule, then both sides' bars for the paths (one of them the mover's glyphs
again).  Here each side's glyph mask is computed once per position, and the distances are
:mod:`ai.connection`'s layers with the floods written out.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rules import Game
from rules.geometry import bits_list

from ..connection import INFINITE
from . import Random, Resume, core, orth_flood, resume
from .glyphs import both_glyphs

if TYPE_CHECKING:
    from ai.evaluators import Leaf


class MinefieldKernel:
    """Minefield playouts: a path move with probability ``on_paths`` (None: uniform), the
    paths routed round the bars if ``path_bars``, the verdict's distances if ``verdict_bars``
    (the cut is the evaluator's ``stop``); hands a skip or a swap to the engine."""

    def __init__(self, on_paths: float | None, path_bars: bool, verdict_bars: bool) -> None:
        self.on_paths = on_paths
        self.path_bars = path_bars
        self.verdict_bars = verdict_bars

    def run(self, game: Game, leaf: Leaf, rand: Random, stop: int) -> int | Resume | None:
        last = leaf.last
        on_paths, path_bars, verdict_bars = self.on_paths, self.path_bars, self.verdict_bars
        g = game.grid
        n, full, not_left, not_right = g.size, g.full, g.not_left, g.not_right
        orth_bits = g.orth_bits
        edges = ((g.bottom, g.top), (g.left, g.right))
        stones = list(game._stones)
        reach = [[r.a, r.b] for r in game._reach]  # type: ignore[attr-defined]
        turn = game._turn
        played, flip, deadline = leaf.played, leaf.flip, leaf.deadline
        start = len(played)
        compiled = core.CORE
        if compiled is not None:
            ran = compiled.minefield(
                *core.context(rand, leaf),
                n,
                stones[0],
                stones[1],
                *reach[0],
                *reach[1],
                turn,
                last,
                on_paths,
                path_bars,
                verdict_bars,
                stop,
            )
            return ran if ran is None or isinstance(ran, int) else resume(played, start, *ran)
        clock = time.perf_counter
        moves = 0

        flood = orth_flood(g)

        def layers(own: int, opp: int, ea: int, eb: int) -> list[int]:
            """ai.connection.distance_layers."""
            empty = full & ~opp & ~own
            m = own
            own_near = m | (m >> 1 & not_right) | (m << 1 & not_left) | m >> n | (m << n & full)
            seed = own & ea
            reach = flood(seed, own) if seed else 0
            found = [reach]
            while not reach & eb:
                m = reach
                step = (
                    (
                        (m | (m >> 1 & not_right) | (m << 1 & not_left) | m >> n | (m << n & full))
                        | ea
                    )
                    & empty
                    & ~reach
                )
                if not step:
                    break
                # The flood through own stones; none next to the step: nothing to flood.
                if step & own_near:
                    reach = flood(reach | step, reach | step | own)
                else:
                    reach |= step
                found.append(reach)
            return found

        def distance(own: int, closed: int, player: int) -> int:
            """ai.connection.path_distance."""
            ea, eb = edges[player]
            found = layers(own, closed, ea, eb)
            return len(found) - 1 if found[-1] & eb else INFINITE

        def on_path(own: int, closed: int, player: int) -> int:
            """ai.connection.shortest_path_points' mask."""
            ea, eb = edges[player]
            from_a = layers(own, closed, ea, eb)
            if not from_a[-1] & eb:
                return 0
            total = len(from_a) - 1
            if total == 0:
                return 0
            from_b = layers(own, closed, eb, ea)
            empty = full & ~(own | closed)
            found = 0
            for k in range(1, total + 1):
                j = total - k + 1
                if j < len(from_b):
                    found |= from_a[k] & ~from_a[k - 1] & empty & from_b[j] & ~from_b[j - 1]
            return found

        # The glyph mask of each side in the position (a side's bars; the mover's legal
        # mask is the empty points outside its own).
        both = both_glyphs(n)
        empty = full & ~(stones[0] | stones[1])
        glyphs = both(stones[0], stones[1], empty)
        legal = empty & ~glyphs[turn]
        while True:
            if deadline is not None and clock() > deadline:
                return None
            if moves == stop:
                # Playout.verdict: ai.connection.distance_leader.
                if verdict_bars:
                    d0 = distance(stones[0], stones[1] | glyphs[0], 0)
                    d1 = distance(stones[1], stones[0] | glyphs[1], 1)
                else:
                    d0 = distance(stones[0], stones[1], 0)
                    d1 = distance(stones[1], stones[0], 1)
                if d0 != d1:
                    return 0 if d0 < d1 else 1
                return turn
            moves += 1
            if not legal:
                # Only a swap: the engine's.
                return resume(played, start, moves - 1, last)
            point = -1
            # --- Playout.point: the OnPaths rule, tried with its chance ---
            if on_paths is not None and rand() < on_paths:
                if path_bars:
                    near = on_path(stones[0], stones[1] | glyphs[0], 0) | on_path(
                        stones[1], stones[0] | glyphs[1], 1
                    )
                else:
                    near = on_path(stones[0], stones[1], 0) | on_path(stones[1], stones[0], 1)
                pool = bits_list(legal & near)
                if pool:
                    point = pool[int(rand() * len(pool))]
            # --- else ai.moves.random_point ---
            if point < 0:
                pool = bits_list(legal)
                point = pool[int(rand() * len(pool))]
            played.append((point, turn ^ flip))
            # --- place, as Minefield._place ---
            bit = 1 << point
            own = stones[turn] | bit
            stones[turn] = own
            ea, eb = edges[turn]
            mine = reach[turn]
            around = orth_bits[point]
            if bit & ea or around & mine[0]:
                rest = own & ~mine[0]
                mine[0] |= flood(bit, rest) if around & rest else bit
            if bit & eb or around & mine[1]:
                rest = own & ~mine[1]
                mine[1] |= flood(bit, rest) if around & rest else bit
            if mine[0] & mine[1]:
                return turn
            last = point
            # --- the skip rule (Game._pass_turn): the opponent's whole legal mask ---
            empty &= ~bit
            glyphs = both(stones[0], stones[1], empty)
            legal = empty & ~glyphs[1 - turn]
            if not legal:
                return resume(played, start, moves, last)
            turn = 1 - turn


KERNELS: dict[tuple[float | None, bool, bool], MinefieldKernel] = {}


def kernel(on_paths: float | None, path_bars: bool, verdict_bars: bool) -> MinefieldKernel:
    """The kernel for these settings (see :class:`MinefieldKernel`)."""
    key = (on_paths, path_bars, verdict_bars)
    found = KERNELS.get(key)
    if found is None:
        found = KERNELS[key] = MinefieldKernel(on_paths, path_bars, verdict_bars)
    return found
