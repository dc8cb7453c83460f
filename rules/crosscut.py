"""Crosscut (Mark Steere, 2023): flanking flips, all or nothing, and an always-empty perimeter.

Flanks are looked for only from the placed disc, in the four orthogonal directions.  If the
longest friendly run created (through the placed disc, unless it is on the perimeter, or any
disc that would flip, as if all flipped) is longer than the longest enemy run cut (through any
disc that would flip, before flipping), every flanked segment flips; otherwise none does.
A perimeter placement is legal only if it flips, and the perimeter disc is then removed.
"""

from __future__ import annotations

from .base import Effects
from .errors import N_, Wording
from .geometry import ORTHOGONAL, Grid, iter_bits
from .quick_turns import QuickTurns
from .registry import register


def run_length(g: Grid, stones: int, point: int, dx: int, dy: int) -> int:
    """Length of the run of ``stones`` through ``point`` along the axis (dx, dy)."""
    n = g.size
    col, row = point % n, point // n
    length = 1
    for sign in (1, -1):
        c, r = col + sign * dx, row + sign * dy
        while 0 <= c < n and 0 <= r < n and stones >> (r * n + c) & 1:
            length += 1
            c += sign * dx
            r += sign * dy
    return length


def longest_run(g: Grid, stones: int, points: list[int]) -> int:
    best = 0
    for p in points:
        best = max(best, run_length(g, stones, p, 1, 0), run_length(g, stones, p, 0, 1))
    return best


def flanked_segments(g: Grid, own: int, opp: int, point: int) -> list[list[int]]:
    """Enemy segments between ``point`` and a friendly disc right behind them."""
    n = g.size
    col, row = point % n, point // n
    segments: list[list[int]] = []
    for dx, dy in ORTHOGONAL:
        c, r = col + dx, row + dy
        seg: list[int] = []
        while 0 <= c < n and 0 <= r < n:
            i = r * n + c
            if opp >> i & 1:
                seg.append(i)
            elif own >> i & 1:
                if seg:
                    segments.append(seg)
                break
            else:
                break
            c += dx
            r += dy
    return segments


@register
class Crosscut(QuickTurns):
    name = "crosscut"
    title = "Crosscut"
    special_rules = N_(
        "Placing so that you flank enemy discs in a row or column flips them, but only if the "
        "run you create is longer than the longest enemy run you cut. An edge square may only "
        "be played to flip, and that disc is then removed. A player with no legal point is "
        "skipped."
    )
    min_size = 5
    max_size = 10
    default_size = 8
    stone_word = "disc"

    @classmethod
    def goal_wording(cls, size: int | None = None) -> Wording:
        """A straight run, not a path between edges; its length depends on the board.

        >>> str(Crosscut.goal_wording(8))
        'a straight run of 6 of your discs in one row or column (N−2 on this 8×8 board)'
        """
        if size is None:
            return Wording(
                N_("a straight run of your discs in one row or column, two shorter than the board")
            )
        return Wording(
            N_(
                "a straight run of {run} of your discs in one row or column "
                "(N−2 on this {size}×{size} board)"
            ),
            {"run": size - 2, "size": size},
        )

    def flips(self, point: int, player: int) -> tuple[list[int], int, int]:
        """(discs that would flip, created, cut) for a placement on an empty point."""
        g = self.grid
        own, opp = self._stones[player], self._stones[1 - player]
        segments = flanked_segments(g, own, opp, point)
        if not segments:
            return [], 0, 0
        flanked = [i for seg in segments for i in seg]
        flanked_bits = sum(1 << i for i in flanked)
        on_perimeter = bool(g.perimeter >> point & 1)
        after = own | flanked_bits | (0 if on_perimeter else 1 << point)
        measured = flanked if on_perimeter else [*flanked, point]
        created = longest_run(g, after, measured)
        cut = longest_run(g, opp, flanked)
        return (flanked if created > cut else []), created, cut

    def _quick_masks(self, player: int) -> tuple[int, int]:
        """Every empty interior point is legal; a perimeter point is legal only if it flips
        (:meth:`_maybe_legal`), which needs an enemy disc inwards of it.  The legal mask is
        built from these too."""
        g = self.grid
        own, opp = self._stones[player], self._stones[1 - player]
        empty = g.full & ~(own | opp)
        return empty & g.interior, g.dilate4(opp) & empty & g.perimeter

    def _maybe_legal(self, point: int, player: int) -> bool:
        return bool(self.flips(point, player)[0])

    def _place(self, point: int, player: int) -> Effects:
        g = self.grid
        flipped, _, _ = self.flips(point, player)
        bits = sum(1 << i for i in flipped)
        stays = not g.perimeter >> point & 1
        self._stones[1 - player] &= ~bits
        self._stones[player] |= bits | (1 << point if stays else 0)
        changed = [*flipped, point] if stays else flipped
        won = longest_run(g, self._stones[player], changed) >= self.size - 2
        return Effects(flipped=tuple(flipped), stays=stays, won=won)

    def _why_illegal(self, point: int, player: int) -> Wording:
        name = self.grid.names[point]
        _, created, cut = self.flips(point, player)
        if created == 0:
            return Wording(N_("{point} is on the perimeter and flips nothing"), {"point": name})
        return Wording(
            N_(
                "{point} is on the perimeter and flips nothing: the longest run it would create "
                "({created}) is not longer than the longest enemy run it would cut ({cut})"
            ),
            {"point": name, "created": created, "cut": cut},
        )

    def _compute_winning_path(self, player: int) -> tuple[int, ...]:
        g = self.grid
        n, need = self.size, self.size - 2
        own = self._stones[player]
        last = self.last_move
        for p in iter_bits(own):
            for dx, dy in ((1, 0), (0, 1)):
                if run_length(g, own, p, dx, dy) >= need:
                    col, row = p % n, p // n
                    while g.on_board(col - dx, row - dy) and own >> g.index(col - dx, row - dy) & 1:
                        col, row = col - dx, row - dy
                    run = []
                    while g.on_board(col, row) and own >> g.index(col, row) & 1:
                        run.append(g.index(col, row))
                        col, row = col + dx, row + dy
                    names = {g.names[i] for i in run}
                    if last is None or last.point in names or names & set(last.flipped):
                        return tuple(run)
        return ()
