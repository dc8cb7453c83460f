"""Clearcut (Mark Steere, 2023): a crosscut is allowed only to a group bigger than its victims.

A placement forming a crosscut (2×2: like colours diagonally opposed) is legal only if the
placed checker's new group is larger than each enemy crosscut group, for every crosscut it
forms.  The two enemy checkers of each crosscut are then removed.  Most placements form no
crosscut, so a bitboard expression finds the few candidates and only those get group sizes.
"""

from __future__ import annotations

from .base import Effects
from .errors import N_, Wording
from .path_game import PathGame
from .quick_turns import QuickTurns
from .registry import register


@register
class Clearcut(QuickTurns, PathGame):
    name = "clearcut"
    title = "Clearcut"
    special_rules = N_(
        "A crosscut (a 2×2 of two diagonal pairs) is allowed only if your new crosscut group is "
        "larger than each enemy crosscut group in it; the crosscut's two enemy checkers are then "
        "removed. A player with no legal point is skipped."
    )
    default_size = 9
    pie_rule = "option"
    stone_word = "checker"

    def _crosscut_candidates(self, player: int) -> int:
        """Empty points where ``player`` would form a crosscut: an own checker diagonally
        next to them and enemy checkers on both points beside that diagonal.  The shifts are
        written out (see :meth:`Grid.shift` for the general one): the skip rule and every
        playout move ask for this mask."""
        g = self.grid
        n, full, not_left, not_right = g.size, g.full, g.not_left, g.not_right
        own, opp = self._stones[player], self._stones[1 - player]
        east = opp >> 1 & not_right  # bit p: an enemy checker one column right of p
        west = opp << 1 & not_left
        north = opp >> n
        south = opp << n & full
        found = (
            (own >> (n + 1) & not_right & east & north)
            | (own << (n - 1) & not_right & east & south)
            | (own >> (n - 1) & not_left & west & north)
            | (own << (n + 1) & not_left & west & south)
        )
        return found & full & ~(own | opp)

    def crosscuts(self, point: int, player: int) -> list[tuple[int, int]]:
        """The enemy checker pairs of every crosscut a placement on ``point`` would form."""
        own, opp = self._stones[player], self._stones[1 - player]
        return [
            (r, s)
            for q, r, s in self.grid.squares[point]
            if own >> q & 1 and opp >> r & 1 and opp >> s & 1
        ]

    def capture_mask(self) -> int:
        """Legal placements for the side to move that form a crosscut, and so remove two
        enemy checkers (0 once the game is over).  A search's playouts prefer them: a uniform
        playout overlooks most captures, which decide Clearcut games (issue 14)."""
        if self.is_over:
            return 0
        return self._crosscut_candidates(self._turn) & self.legal_mask()

    def group_sizes(self, point: int, player: int) -> tuple[int, list[tuple[int, int, int, int]]]:
        """(new group size, [(r, size_r, s, size_s) per crosscut]) for a placement."""
        g = self.grid
        own, opp = self._stones[player], self._stones[1 - player]
        bit = 1 << point
        new_size = g.flood(bit, own | bit).bit_count()
        sizes = [
            (r, g.flood(1 << r, opp).bit_count(), s, g.flood(1 << s, opp).bit_count())
            for r, s in self.crosscuts(point, player)
        ]
        return new_size, sizes

    def _allowed(self, point: int, player: int) -> bool:
        new_size, sizes = self.group_sizes(point, player)
        return all(new_size > a and new_size > b for _, a, _, b in sizes)

    def _quick_masks(self, player: int) -> tuple[int, int]:
        """A placement forming no crosscut is always legal; one forming a crosscut needs the
        group sizes (:meth:`_allowed`).  The legal mask is built from these too."""
        empty = self.grid.full & ~(self._stones[0] | self._stones[1])
        candidates = self._crosscut_candidates(player)
        return empty & ~candidates, candidates

    def _maybe_legal(self, point: int, player: int) -> bool:
        return self._allowed(point, player)

    def _place(self, point: int, player: int) -> Effects:
        removed = sorted({i for pair in self.crosscuts(point, player) for i in pair})
        self._stones[player] |= 1 << point
        if removed:
            self._stones[1 - player] &= ~sum(1 << i for i in removed)
            self._reach[1 - player].rebuild(self._stones[1 - player])
        won = self._joins(point, player)
        return Effects(removed=tuple(removed), won=won)

    def _why_illegal(self, point: int, player: int) -> Wording:
        name = self.grid.names[point]
        new_size, sizes = self.group_sizes(point, player)
        biggest = max(max(a, b) for _, a, _, b in sizes)
        if len(sizes) > 1:
            template = N_(
                "{point} would form crosscuts with a new group of {size}, which is not larger "
                "than the enemy crosscut group of {biggest}"
            )
        else:
            template = N_(
                "{point} would form a crosscut with a new group of {size}, which is not larger "
                "than the enemy crosscut group of {biggest}"
            )
        return Wording(template, {"point": name, "size": new_size, "biggest": biggest})
