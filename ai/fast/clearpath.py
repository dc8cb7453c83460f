"""Clear Path's playouts on bitboards (see :mod:`ai.fast`): uniform, or with a chance of a
move next to the previous stone (:class:`ai.playouts.NearLast`).

Legality is the engine's search copy's (``QuickTurns``, ``ClearPath._classify``): winning
points and safe final placements are surely legal, a surrounded point is legal only if the
turn can still end after it.  The position's classification is computed once per placement
(the skip check after a turn needs the next mover's anyway) and reused by every draw of the
move.  The points a uniform draw is made from are the empty points less the few that would
join the mover's edges diagonally only, so the drawn index is mapped past those few instead of
listing the board at every move.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from functools import cache
from typing import TYPE_CHECKING

from rules import Game
from rules.geometry import bits_list, grid

from . import Random, Resume, core, resume

if TYPE_CHECKING:
    from ai.evaluators import Leaf


@cache
def ring_lists(size: int) -> tuple[list[int], ...]:
    """Each point's eight neighbours in index order (``bits_list`` of its ring)."""
    return tuple(bits_list(m) for m in grid(size).ring_bits)


def legal_mask(game: Game) -> int | None:
    """``game.legal_mask()`` for a Clear Path game from the compiled core, or None (another
    game, or the core is not built: then ask the engine).

    The same mask (``tests/ai/test_fast_core.py`` compares it with the engine's): every node
    a search expands lists its moves, and the engine's mask, a costly test per surrounded
    point, was a fifth of a Clear Path search."""
    compiled = core.CORE
    if compiled is None or game.name != "clearpath" or game.is_over:
        return None
    known: int | None = game._legal
    if known is not None:
        return known
    found: int = compiled.clearpath_legal(
        game.size,
        *game._stones,
        *(x for r in game._oip for x in (r.a, r.b)),  # type: ignore[attr-defined]
        *(x for r in game._odip for x in (r.a, r.b)),  # type: ignore[attr-defined]
        game._turn,
    )
    return found


class ClearPathKernel:
    """Clear Path playouts, a move next to the last with probability ``near`` (None: never);
    hands a skip or a swap to the engine."""

    def __init__(self, near: float | None) -> None:
        self.near = near

    def run(self, game: Game, leaf: Leaf, rand: Random, stop: int) -> int | Resume | None:
        last = leaf.last
        if not getattr(game, "_quick_turns", False):
            return Resume([], 0, last)
        near = self.near
        g = game.grid
        n, full, not_left, not_right = g.size, g.full, g.not_left, g.not_right
        ring_bits, orth_bits = g.ring_bits, g.orth_bits
        right, left, top, bottom = g.right, g.left, g.top, g.bottom
        rings = ring_lists(n)
        edges = ((g.bottom, g.top), (g.left, g.right))
        stones = list(game._stones)
        oip = [[r.a, r.b] for r in game._oip]  # type: ignore[attr-defined]
        odip = [[r.a, r.b] for r in game._odip]  # type: ignore[attr-defined]
        turn = game._turn
        turn_number = game._turn_number
        known = game._legal
        played, flip, deadline = leaf.played, leaf.flip, leaf.deadline
        start = len(played)
        compiled = core.CORE
        if compiled is not None:
            ran = compiled.clearpath(
                *core.context(rand, leaf),
                n,
                stones[0],
                stones[1],
                *oip[0],
                *oip[1],
                *odip[0],
                *odip[1],
                turn,
                turn_number,
                known,
                last,
                near,
                stop,
            )
            return ran if ran is None or isinstance(ran, int) else resume(played, start, *ran)
        empties = bits_list(full & ~(stones[0] | stones[1]))
        clock = time.perf_counter
        moves = 0

        def dilate4(m: int) -> int:
            return m | (m >> 1 & not_right) | (m << 1 & not_left) | m >> n | (m << n & full)

        def dilate8(m: int) -> int:
            h = m | (m >> 1 & not_right) | (m << 1 & not_left)
            return h | h >> n | (h << n & full)

        def flood(seed: int, within: int, diagonal: bool = False) -> int:
            """Grid.flood."""
            region = seed
            while True:
                m = region
                if diagonal:
                    h = m | (m >> 1 & not_right) | (m << 1 & not_left)
                    nxt = ((h | h >> n | (h << n & full)) & within) | seed
                else:
                    nxt = (
                        (m | (m >> 1 & not_right) | (m << 1 & not_left) | m >> n | (m << n & full))
                        & within
                    ) | seed
                if nxt == region:
                    return region
                region = nxt

        def surrounded_mask(occupied: int) -> int:
            """rules.clearpath.surrounded_mask."""
            east = (occupied >> 1 & not_right) | right
            west = (occupied << 1 & not_left) | left
            north = occupied >> n | top
            south = (occupied << n & full) | bottom
            return ((east & west & (north | south)) | (north & south & (east | west))) & full

        def chain_legal(p: int, player: int, finals: int, touching: int) -> bool:
            """ClearPath._chain_legal."""
            if not touching >> p & 1 and finals & ~(1 << p | orth_bits[p]):
                return True
            return can_finish_after(p, player)

        # Per player, what ClearPath._classify derives from their edge reach, kept until
        # their next placement changes it: the points joining both orthogonal reaches, the
        # points next to either diagonal reach and to both, and whether those are joined.
        joins = [0, 0]
        touches = [0, 0]
        crosses = [0, 0]
        linked = [False, False]

        def derive_oip(player: int) -> None:
            ea, eb = edges[player]
            oa, ob = oip[player]
            joins[player] = (dilate4(oa) | ea) & (dilate4(ob) | eb)

        def derive_odip(player: int) -> None:
            ea, eb = edges[player]
            da, db = odip[player]
            near_a, near_b = dilate8(da) | ea, dilate8(db) | eb
            touches[player] = near_a | near_b
            crosses[player] = near_a & near_b
            linked[player] = bool(da & db)

        for player in (0, 1):
            derive_oip(player)
            derive_odip(player)

        def classify(player: int) -> tuple[int, int, int, int, int]:
            """ClearPath._classify, with the empty points and _odip_touching:
            (wins, finals, chained, empty, touching)."""
            occupied = stones[0] | stones[1]
            empty = full & ~occupied
            wins = empty & joins[player]
            surrounded = surrounded_mask(occupied) & empty
            finals = 0 if linked[player] else empty & ~crosses[player] & ~surrounded & ~wins
            return wins, finals, surrounded & ~wins, empty, touches[player]

        def can_finish_after(point: int, player: int) -> bool:
            """ClearPath._can_finish_after, on the kernel's stones."""
            own = stones[player] | 1 << point
            opp = stones[1 - player]
            edge_a, edge_b = edges[player]
            empty = full & ~(own | opp)
            bit, around = 1 << point, ring_bits[point]
            odip_a, odip_b = odip[player]
            if bit & edge_a or around & odip_a:
                rest = own & ~odip_a
                odip_a |= flood(bit, rest, True) if around & rest else bit
            if bit & edge_b or around & odip_b:
                rest = own & ~odip_b
                odip_b |= flood(bit, rest, True) if around & rest else bit
            if not odip_a & odip_b:
                creating = (dilate8(odip_a) | edge_a) & (dilate8(odip_b) | edge_b)
                if empty & ~surrounded_mask(own | opp) & ~creating:
                    return True
            while True:
                add = surrounded_mask(own | opp) & ~(own | opp)
                if not add:
                    break
                own |= add
            empty = full & ~(own | opp)
            # Stones were only added: the kept orthogonal reach seeds the floods (the same
            # regions as from the edges alone, in fewer steps).
            reach_a, reach_b = oip[player]
            oip_a = flood(reach_a | own & edge_a, own)
            if oip_a & edge_b:
                return True
            oip_b = flood(reach_b | own & edge_b, own)
            return bool(empty & (dilate4(oip_a) | edge_a) & (dilate4(oip_b) | edge_b))

        def legal(p: int, known: int | None, sure: int, chained: int, finals: int) -> bool:
            """QuickTurns.point_is_legal for the mover: exact, deciding only ``p``."""
            if known is not None:
                return bool(known >> p & 1)
            if sure >> p & 1:
                return True
            return bool(chained >> p & 1) and chain_legal(p, turn, finals, touching)

        wins, finals, chained, empty, touching = classify(turn)
        while True:
            if deadline is not None and clock() > deadline:
                return None
            if moves == stop:
                return resume(played, start, moves, last)
            moves += 1
            sure = wins | finals
            point = -1
            # --- Playout.point: the NearLast rule, tried with its chance ---
            if near is not None and last is not None and rand() < near:
                pool = list(rings[last])
                # legal(): the known mask, or a sure point, or a chain point that can end
                # the turn; checked inline, as most neighbours are taken.
                maybe = known if known is not None else sure | chained
                while pool:
                    i = int(rand() * len(pool))
                    p = pool[i]
                    if maybe >> p & 1 and (
                        known is not None or sure >> p & 1 or chain_legal(p, turn, finals, touching)
                    ):
                        point = p
                        break
                    pool[i] = pool[-1]
                    pool.pop()
            # --- else ai.moves.random_point (QuickTurns.sample_legal_point) ---
            if point < 0:
                if known is not None:
                    pool = bits_list(known)
                    if not pool:
                        # Only a swap: the engine's.
                        return resume(played, start, moves - 1, last)
                    point = pool[int(rand() * len(pool))]
                else:
                    # sure | chained is the empty points less ``off`` (few): map the drawn
                    # index past them instead of listing the board.
                    off = empty & ~(sure | chained)
                    count = len(empties) - off.bit_count()
                    i = int(rand() * count)
                    j = i
                    while off:
                        low = off & -off
                        if bisect_left(empties, low.bit_length() - 1) > j:
                            break
                        j += 1
                        off ^= low
                    point = empties[j]
                    if chained >> point & 1 and not legal(point, known, sure, chained, finals):
                        pool = bits_list(sure | chained)
                        while True:
                            pool[i] = pool[-1]
                            pool.pop()
                            i = int(rand() * len(pool))
                            point = pool[i]
                            if legal(point, known, sure, chained, finals):
                                break
            known = None
            played.append((point, turn ^ flip))
            # --- place, as ClearPath._place and Game._play_point ---
            bit = 1 << point
            again = chained >> point & 1  # surrounded (a win ends the game first)
            own = stones[turn] | bit
            stones[turn] = own
            empties.remove(point)
            ea, eb = edges[turn]
            reach = oip[turn]
            around = orth_bits[point]
            grew = False
            # EdgeReach.add; a stone with no own neighbour outside a reach joins it alone.
            if bit & ea or around & reach[0]:
                rest = own & ~reach[0]
                reach[0] |= flood(bit, rest) if around & rest else bit
                grew = True
            if bit & eb or around & reach[1]:
                rest = own & ~reach[1]
                reach[1] |= flood(bit, rest) if around & rest else bit
                grew = True
            if reach[0] & reach[1]:
                return turn
            if grew:
                derive_oip(turn)
            reach = odip[turn]
            around = ring_bits[point]
            grew = False
            if bit & ea or around & reach[0]:
                rest = own & ~reach[0]
                reach[0] |= flood(bit, rest, True) if around & rest else bit
                grew = True
            if bit & eb or around & reach[1]:
                rest = own & ~reach[1]
                reach[1] |= flood(bit, rest, True) if around & rest else bit
                grew = True
            if grew:
                derive_odip(turn)
            last = point
            if again:
                wins, finals, chained, empty, touching = classify(turn)
                continue
            # --- the skip rule, as QuickTurns._pass_turn: the opponent has a sure point ---
            turn_number += 1
            wins, finals, chained, empty, touching = classify(1 - turn)
            if wins | finals:
                turn = 1 - turn
                continue
            # Else the engine lists the opponent's whole mask (Game._pass_turn), and the next
            # draw is from it.  Without one, the skip (or a draw, or the swap if it might be on
            # offer) is the engine's to play: so rare that the kernel does not repeat it.
            if turn_number == 2:
                return resume(played, start, moves, last)
            known = 0
            for p in bits_list(chained):
                if chain_legal(p, 1 - turn, finals, touching):
                    known |= 1 << p
            if not known:
                return resume(played, start, moves, last)
            turn = 1 - turn


KERNELS: dict[float | None, ClearPathKernel] = {}


def kernel(near: float | None) -> ClearPathKernel:
    """The kernel for a NearLast chance of ``near`` (None: uniform playouts)."""
    found = KERNELS.get(near)
    if found is None:
        found = KERNELS[near] = ClearPathKernel(near)
    return found
