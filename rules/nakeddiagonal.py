"""Naked Diagonal (Mark Steere, 2024): no naked diagonal and no naked diagonal-equivalent area.

A placement is illegal if the new stone forms a naked diagonal (a like-coloured diagonal pair
with neither common orthogonal neighbour of that colour), or if afterwards some empty area could
not be filled, in any order and with any colours, without a naked diagonal (an NDE area).

The first check is a handful of bitboard shifts.  The second is delegated to
:mod:`rules.nd_area`, which answers exactly and is called only for the areas a placement can
change: the area it lands in (possibly split in several) and any area diagonally next to it.
Every other area keeps its verdict, because a verdict depends only on the area and the stones
around it.

A ``play`` needs far fewer verdicts than a whole legal mask: "is this point legal?" and "does
the next player have any legal placement?" (the skip rule).
:meth:`NakedDiagonal.point_is_legal` answers for one point from the areas next to it only, and
the skip rule stops at the first legal placement found instead of computing the full mask at
every placement; the whole mask is computed only when asked for (``legal_moves()``), so a
replayed record pays about two verdicts a move.  Given a search's random source
(:meth:`NakedDiagonal.use_quick_turns`), the skip check scans in a random order, so the point
it finds is also the next random playout move and a playout pays for one verdict per move
instead of two.  Both give exactly the verdicts of
:meth:`_legal_mask` (tests/rules/test_nakeddiagonal_fast.py checks them against it); the
witnesses behind them are memoised by the area solver across playouts.

Every board size up to 19x19 is allowed: over 10,000 plays of random, crowded and contested
19x19 games the slowest ``play`` measured took 20 ms (``bench/nd_play_bench.py``; figures in
docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Effects, Game
from .errors import N_, Wording
from .nd_area import UNDECIDED, AreaSolver, Move, Timeline, Undecided, area_solver
from .nd_core import CORE
from .path_game import PathGame
from .registry import register

SHOWN_POINTS = 6
QUICK_NODES = 400
"""Search nodes the lazy skip check spends on one point before trying the others first."""


@register
class NakedDiagonal(PathGame):
    name = "nakeddiagonal"
    title = "Naked Diagonal"
    special_rules = N_(
        "No placement may form a naked diagonal (two diagonal stones of one colour with neither "
        "shared neighbour of that colour) or leave an empty area that could only be filled by "
        "forming one. A player with no legal point is skipped."
    )
    default_size = 7
    pie_rule = "option"
    min_size = 4
    max_size = 19
    costly_play = True

    def _reset_extra(self) -> None:
        super()._reset_extra()
        self._quick_turns = False
        self._quick_rand: Callable[[], float] | None = None
        self._drawn: tuple[int, int, int, int] | None = None

    def _copy_extra_from(self, other: Game) -> None:
        super()._copy_extra_from(other)
        self._drawn = None  # a pending draw belongs to one game object: handed out once

    @property
    def _solver(self) -> AreaSolver:
        """This thread's area solver (see :func:`rules.nd_area.area_solver` for why)."""
        return area_solver(self.size)

    # ----- fast paths for searches ------------------------------------------------------------
    def use_quick_turns(self, rand: Callable[[], float] | None = None) -> None:
        """Draw the skip check's points with ``rand`` from now on (this game object and its
        copies only).

        Every game applies the skip rule lazily (the next player's mask is left to be computed
        on demand; the skip check stops at the first legal placement it finds).  With ``rand``
        the skip check tries the points in a random order.  The first legal
        point of a random order is a uniformly random legal point, so
        :meth:`sample_legal_point` hands it out as its next draw instead of deciding more
        points: a random playout then pays for one verdict per move, not two or more.
        """
        self._quick_turns = True
        self._quick_rand = rand

    def point_is_legal(self, point: int, nodes: int | None = None) -> bool:
        """Exactly ``legal_mask() >> point & 1``, deciding only this point when the mask is not
        known yet.

        With ``nodes``, a point whose area check needs more than that many nodes of the
        complete search counts as not legal (a search may skip it; it never plays it).
        """
        return self.point_verdict(point, nodes) is True

    def point_verdict(self, point: int, nodes: int | None = None) -> bool | None:
        """:meth:`point_is_legal` with a third answer: None when ``nodes`` search nodes of the
        complete area search did not settle the point (never without ``nodes``)."""
        if self._over:
            return False
        if self._legal is not None:
            return bool(self._legal >> point & 1)
        return self._point_legal(point, self._turn, nodes)

    def candidate_mask(self) -> int:
        """The empty points where the player to move forms no naked diagonal: every legal
        placement is among them, and finding them takes a few bitboard shifts and no area
        check.  A search tree node lists these and decides a point (:meth:`point_verdict`)
        only when the search first tries it, so a node visited once pays for one or two
        verdicts instead of a whole mask."""
        if self._over:
            return 0
        if self._legal is not None:
            return self._legal
        red, blue = self._stones
        empty = self.grid.full & ~(red | blue)
        return empty & ~self._solver.naked_mask(self._stones[self._turn])

    def proven_legal_mask(self, nodes: int) -> tuple[int, bool]:
        """(legal points proven within ``nodes`` search nodes each, True if that is all of
        them): the move list of a search tree node, which must never wait on one hard proof.
        """
        if self._over:
            return 0, True
        if self._legal is not None:
            return self._legal, True
        player = self._turn
        mask, complete = 0, True
        for p in _bits(self.candidate_mask()):
            verdict = self._point_legal(p, player, nodes)
            if verdict is True:
                mask |= 1 << p
            elif verdict is None:
                complete = False
        if complete:
            self._legal = mask
        return mask, complete

    def sample_legal_point(self, rand: Callable[[], float], nodes: int | None = None) -> int | None:
        """A random legal placement for the player to move (None if there is none).

        Rejection sampling over the points that form no naked diagonal: each draw is decided
        alone, so a playout pays for one or two verdicts per move, not a whole mask.  The draw
        is uniform; with ``nodes``, points whose verdict needs a longer proof are passed over
        while any other legal point remains.
        """
        if self._over:
            return None
        if self._legal is not None:
            points = _bits(self._legal)
            return points[int(rand() * len(points))] if points else None
        player = self._turn
        red, blue = self._stones
        drawn = self._drawn
        if drawn is not None and drawn[:3] == (red, blue, player):
            self._drawn = None  # a draw is handed out once
            return drawn[3]
        empty = self.grid.full & ~(red | blue)
        points = _bits(empty & ~self._solver.naked_mask(self._stones[player]))
        found, undecided = self._first_legal(points, player, nodes, rand)
        if found is not None:
            return found
        return next((p for p in undecided if self._point_legal(p, player)), None)

    def _first_legal(
        self,
        points: list[int],
        player: int,
        nodes: int | None,
        rand: Callable[[], float] | None,
    ) -> tuple[int | None, list[int]]:
        """The first of ``points`` proven legal within ``nodes`` (None if none is), tried in
        index order or, with ``rand``, in a random order (it is then a uniformly random one
        of them); and the points passed over as undecided.  ``points`` is used up."""
        undecided: list[int] = []
        if rand is None:
            points.reverse()  # taken from the end: index order
        while points:
            i = int(rand() * len(points)) if rand is not None else len(points) - 1
            p = points[i]
            verdict = self._point_legal(p, player, nodes)
            if verdict is True:
                return p, undecided
            if verdict is None:
                undecided.append(p)
            points[i] = points[-1]
            points.pop()
        return None, undecided

    def _placement_legal(self, point: int) -> bool:
        # One verdict, exactly the mask's (see point_verdict): validating a move no longer
        # needs the whole mask, which the lazy skip rule below leaves unknown.
        return self.point_verdict(point) is True

    def _pass_turn(self, mover: int) -> tuple[int | None, bool]:
        # The skip rule is always settled lazily: the first legal placement found for the
        # opponent is enough, and the whole mask is computed only when someone asks for it.
        # A replayed record (a cold game's first view or /move) then pays about two verdicts
        # a move instead of a whole mask, which at 19x19 is most of the area checks.
        if self._has_legal(1 - mover):
            self._turn = 1 - mover
            self._legal = None
            return None, False
        return super()._pass_turn(mover)

    def _has_legal(self, player: int) -> bool:
        red, blue = self._stones
        empty = self.grid.full & ~(red | blue)
        candidates = _bits(empty & ~self._solver.naked_mask(self._stones[player]))
        found, undecided = self._first_legal(candidates, player, QUICK_NODES, self._quick_rand)
        if found is not None:
            if self._quick_rand is not None:
                self._drawn = (red, blue, player, found)
            return True
        return any(self._point_legal(p, player) for p in undecided)

    def _point_legal(self, point: int, player: int, nodes: int | None = None) -> bool | None:
        """The verdict :meth:`_legal_mask` gives ``point``, from the areas next to it only
        (None if ``nodes`` search nodes did not settle it)."""
        red, blue = self._stones
        return point_legal(self._solver, point, player, red, blue, nodes)

    # ----- legality ---------------------------------------------------------------------------
    def _legal_mask(self, player: int) -> int:
        solver = self._solver
        red, blue = self._stones
        empty = self.grid.full & ~(red | blue)
        candidates = empty & ~solver.naked_mask(self._stones[player])
        areas = solver.components(empty, diagonal=False)
        hints = self._area_hints(areas)
        timelines = [
            (area, solver.timeline(red, blue, hints[area]) if hints[area] else None)
            for area in areas
        ]
        ring = self.grid.ring_bits
        legal = 0
        for p in _bits(candidates):
            near = ring[p] | 1 << p
            if (
                all(
                    timeline is not None
                    and solver.fills_after_recolouring(timeline, p, player, red, blue)
                    for area, timeline in timelines
                    if area & near
                )
                or self._blocking_area(p, player, areas, hints) is None
            ):
                legal |= 1 << p
        return legal

    def _area_hints(self, areas: list[int]) -> dict[int, tuple[Move, ...]]:
        """Witnesses of the current areas (() for an area that cannot be filled).

        The witnesses found for the previous position seed the search for new ones; they are
        only hints (repaired and checked), so a stale one can cost time but never a verdict.
        """
        red, blue = self._stones
        previous = self._solver.hint_pool
        hints: dict[int, tuple[Move, ...]] = {}
        for area in areas:
            hint = next((w for old, w in previous.items() if old & area), ())
            witness = self._solver.solve(area, red, blue, hint)
            hints[area] = witness if witness is not None else ()
        self._solver.hint_pool = hints
        return hints

    def _blocking_area(
        self,
        point: int,
        player: int,
        areas: list[int],
        hints: dict[int, tuple[Move, ...]],
        nodes: int | None = None,
    ) -> int | Undecided | None:
        """The first empty area placing on ``point`` would leave NDE (see
        :func:`blocking_area`)."""
        red, blue = self._stones
        return blocking_area(self._solver, point, player, red, blue, areas, hints, nodes)

    def _why_illegal(self, point: int, player: int) -> Wording:
        name = self.grid.names[point]
        if self._solver.forms_naked(point, self._stones[player]):
            return Wording(N_("{point} would form a naked diagonal"), {"point": name})
        empty = self.grid.full & ~(self._stones[0] | self._stones[1])
        areas = self._solver.components(empty, diagonal=False)
        bad = self._blocking_area(point, player, areas, self._area_hints(areas))
        if bad is None or isinstance(bad, Undecided):  # exact checks are never undecided
            return Wording(N_("{point} is not a legal placement"), {"point": name})
        names = [self.grid.names[i] for i in _bits(bad)]
        shown = ", ".join(names[:SHOWN_POINTS]) + (", ..." if len(names) > SHOWN_POINTS else "")
        return Wording(
            N_(
                "{point} would leave an area that can't be filled without a naked diagonal "
                "({points})"
            ),
            {"point": name, "points": shown},
        )

    # ----- placing ----------------------------------------------------------------------------
    def _place(self, point: int, player: int) -> Effects:
        self._stones[player] |= 1 << point
        return Effects(won=self._joins(point, player))


def point_legal(
    solver: AreaSolver,
    point: int,
    player: int,
    red: int,
    blue: int,
    nodes: int | None = None,
    *,
    asked_core: bool = False,
) -> bool | None:
    """Is placing ``player``'s stone on ``point`` legal with the stones ``red`` and ``blue``?

    Exactly the bit :meth:`NakedDiagonal._legal_mask` gives ``point`` (None if ``nodes`` search
    nodes did not settle it), from the areas next to it only.  A function of the stones and
    not of a game, so a search over bare bitboards (``ai/dfpn_nd.py``) asks the engine's own
    check and shares its memos.  ``asked_core``: the caller has just had None from the
    compiled shortcut (``quick_verdict``) for this point, so it is not asked again."""
    core = solver._core
    if core is not None and not asked_core:
        # The compiled shortcut: the same answer where every area near the point has a
        # timeline in the memo, else None and the path below from the start.
        quick = core.quick_verdict(solver.size, point, player, red, blue, solver.timelines)
        if quick is not None:
            return quick
    bit = 1 << point
    if (red | blue) & bit or solver.forms_naked(point, (red, blue)[player]):
        return False
    empty = solver.full & ~(red | blue)
    seeds = (solver.grid.ring_bits[point] | bit) & empty
    areas: list[int] = []
    timelines: list[Timeline | None] = []
    shortcut = True
    while seeds:
        area = solver.flood(seeds & -seeds, empty, diagonal=False)
        seeds &= ~area
        areas.append(area)
        timeline = solver.area_timeline(area, red, blue, None)  # the pool's hint if needed
        timelines.append(timeline)
        if shortcut and (
            timeline is None
            or not solver.fills_after_recolouring(timeline, point, player, red, blue)
        ):
            shortcut = False
    if shortcut:
        return True
    hints = {
        a: (solver.timeline_witness(t) if t is not None else ())
        for a, t in zip(areas, timelines, strict=True)
    }
    blocked = blocking_area(solver, point, player, red, blue, areas, hints, nodes)
    if blocked is UNDECIDED:
        return None
    return blocked is None


def blocking_area(
    solver: AreaSolver,
    point: int,
    player: int,
    red: int,
    blue: int,
    areas: list[int],
    hints: dict[int, tuple[Move, ...]],
    nodes: int | None = None,
) -> int | Undecided | None:
    """The first empty area placing ``player``'s stone on ``point`` would leave NDE, or None
    if there is none (UNDECIDED if ``nodes`` search nodes per area did not settle it).
    ``areas`` are empty areas of the position (at least those next to ``point``), ``hints``
    their witnesses."""
    bit = 1 << point
    stones = [red, blue]
    stones[player] |= bit
    after_red, after_blue = stones
    near = solver.dilate8(bit)
    rest = solver.full & ~(red | blue | bit)
    for area in areas:
        if not area & near:
            continue
        hint = hints.get(area, ())
        # Every hint here is a witness the solver made for this area and today's stones
        # (or () for an area it proved NDE), so the repair may trust it (see ``_repair``).
        base = (area, red, blue)
        if area & bit:
            left = area & ~bit
            while left:
                seed = left & -left
                part = solver.flood(seed, left, diagonal=False)
                left &= ~part
                verdict = solver.solve_within(part, after_red, after_blue, hint, nodes, base)
                if verdict is None or verdict is UNDECIDED:
                    return part if verdict is None else UNDECIDED
        else:
            verdict = solver.solve_within(area & rest, after_red, after_blue, hint, nodes, base)
            if verdict is None or verdict is UNDECIDED:
                return area if verdict is None else UNDECIDED
    return None


def _py_bits(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_bits = CORE.bits if CORE is not None else _py_bits
"""The set bits' indices, lowest first (the compiled twin where it is built)."""
