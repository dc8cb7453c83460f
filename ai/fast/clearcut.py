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

from . import Random, Resume, core, orth_flood, resume

if TYPE_CHECKING:
    from ai.evaluators import Leaf


def legal_mask(game: Game) -> int | None:
    """``game.legal_mask()`` for a Clearcut game from the compiled core, or None (another
    game, or the core is not built: then ask the engine).

    The same mask (``tests/ai/test_fast_core.py`` compares it with the engine's): every node
    a search expands lists its moves, and the engine floods the groups of each crosscut
    placement in Python, a quarter of a Clearcut search."""
    compiled = core.CORE
    if compiled is None or game.name != "clearcut" or game.is_over:
        return None
    known: int | None = game._legal
    if known is not None:
        return known
    turn = game._turn
    stones = game._stones
    found: int = compiled.clearcut_legal(game.size, stones[turn], stones[1 - turn])
    return found


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
        turn_number = game._turn_number
        known = game._legal
        played, flip, deadline = leaf.played, leaf.flip, leaf.deadline
        start = len(played)
        compiled = core.CORE
        if compiled is not None:
            ran = compiled.clearcut(
                *core.context(rand, leaf),
                n,
                stones[0],
                stones[1],
                *reach[0],
                *reach[1],
                turn,
                turn_number,
                known,
                last,
                game.pie,
                stop,
            )
            return ran if ran is None or isinstance(ran, int) else resume(played, start, *ran)
        empties = bits_list(full & ~(stones[0] | stones[1]))
        clock = time.perf_counter
        moves = 0

        flood = orth_flood(g)

        def allowed(point: int, own: int, opp: int) -> bool:
            """Clearcut._allowed: the new group is larger than every enemy crosscut group."""
            size = flood(1 << point, own | 1 << point).bit_count()
            return all(
                size > flood(1 << r, opp).bit_count() and size > flood(1 << s, opp).bit_count()
                for q, r, s in squares[point]
                if own >> q & 1 and opp >> r & 1 and opp >> s & 1
            )

        def candidates(own: int, opp: int) -> int:
            """Clearcut._crosscut_candidates (before the mask of empty points)."""
            east = opp >> 1 & not_right
            west = opp << 1 & not_left
            north = opp >> n
            south = opp << n & full
            return (
                (own >> (n + 1) & not_right & east & north)
                | (own << (n - 1) & not_right & east & south)
                | (own >> (n - 1) & not_left & west & north)
                | (own << (n + 1) & not_left & west & south)
            )

        while True:
            if deadline is not None and clock() > deadline:
                return None
            if moves == stop:
                return resume(played, start, moves, last)
            moves += 1
            own, opp = stones[turn], stones[1 - turn]
            cand = candidates(own, opp)
            # --- draw a legal point as QuickTurns.sample_legal_point does ---
            if known is not None:
                legal = bits_list(known)
                known = None
                if not legal:
                    return resume(played, start, moves - 1, last)
                point = legal[int(rand() * len(legal))]
            else:
                i = int(rand() * len(empties))
                point = empties[i]
                if cand >> point & 1 and not allowed(point, own, opp):
                    pool = list(empties)
                    while True:
                        pool[i] = pool[-1]
                        pool.pop()
                        i = int(rand() * len(pool))
                        point = pool[i]
                        if not cand >> point & 1 or allowed(point, own, opp):
                            break
            played.append((point, turn ^ flip))
            # --- place, as Clearcut._place ---
            bit = 1 << point
            own |= bit
            stones[turn] = own
            empties.remove(point)
            if cand & bit:
                removed = 0
                for q, r, s in squares[point]:
                    if own >> q & 1 and opp >> r & 1 and opp >> s & 1:
                        removed |= 1 << r | 1 << s
                if removed:
                    opp &= ~removed
                    stones[1 - turn] = opp
                    ea, eb = edges[1 - turn]
                    reach[1 - turn] = [flood(opp & ea, opp), flood(opp & eb, opp)]
                    for p in bits_list(removed):
                        insort(empties, p)
            mine = reach[turn]
            ea, eb = edges[turn]
            around = orth_bits[point]
            # EdgeReach.add; a stone with no own neighbour outside a reach joins it alone.
            if bit & ea or around & mine[0]:
                rest = own & ~mine[0]
                mine[0] |= flood(bit, rest) if around & rest else bit
            if bit & eb or around & mine[1]:
                rest = own & ~mine[1]
                mine[1] |= flood(bit, rest) if around & rest else bit
            if mine[0] & mine[1]:
                return turn
            last = point
            # --- the skip rule, as QuickTurns._pass_turn: the opponent has a point forming no
            # crosscut (each of their stones makes at most four points crosscut candidates) ---
            if len(empties) <= 4 * opp.bit_count():
                empty = full & ~(own | opp)
                theirs = candidates(opp, own) & empty
                if not empty & ~theirs:
                    # Only crosscuts: the engine lists the whole mask (Game._pass_turn), and the
                    # next draw is from it; with none, the engine skips or ends the game.
                    known = 0
                    for p in bits_list(theirs):
                        if allowed(p, opp, own):
                            known |= 1 << p
                    if not known:
                        # The skip rule (Game._pass_turn): the mover places again, from the
                        # whole mask; a swap on offer, or no placement for either, is the
                        # engine's to play.
                        turn_number += 1
                        if game.pie and turn_number == 2:
                            return resume(played, start, moves, last)
                        turn_number += 1
                        mine_cand = candidates(own, opp) & empty
                        known = empty & ~mine_cand
                        for p in bits_list(mine_cand):
                            if allowed(p, own, opp):
                                known |= 1 << p
                        if not known:
                            return resume(played, start, moves, last)
                        continue
            turn = 1 - turn
            turn_number += 1


KERNEL = ClearcutKernel()
