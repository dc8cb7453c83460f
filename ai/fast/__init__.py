"""Playout kernels: the search's playouts on plain ints, move for move the engine's own.

A playout through :class:`rules.Game` pays for what a game played by people needs: a
snapshot for undo, a :class:`rules.MoveRecord` with point names, the whole legal mask for the
skip rule.  A playout needs none of it, only the stones and the turn.  A kernel here replays a
playout of one game on bitboards held in local variables, drawing from the search's random
source exactly as :class:`ai.evaluators.PlayoutEvaluator` does through the engine (the same
draws in the same order, so the same moves and the same winner for the same seed;
``tests/ai/test_fast_playouts.py`` plays both side by side in every game with a kernel).

A kernel handles the common case and hands anything rare back to the engine (a swap, a drawn
game, a skip where the kernel does not repeat the skip rule): it returns a :class:`Resume`
naming the placements it made, which the evaluator plays through the engine before going on
there, so the rare rules are written once, in ``rules/``.

Where the compiled core is built (``ai/_fastcore.c``, see :mod:`ai.fast.core`), each kernel
reads the game and hands the playout itself to its C twin, which makes the same draws; the
Python kernels here run where it is not, and stay the reference.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from rules import Game

if TYPE_CHECKING:
    from ai.evaluators import Leaf
    from ai.playouts import Playout
    from rules.geometry import Grid

Random = Callable[[], float]


@dataclass(slots=True)
class Resume:
    """Where a kernel stopped without an outcome: ``points`` (already recorded in the leaf's
    ``played``) are to be played through the engine, then the playout goes on there with
    ``moves`` moves made and ``last`` the previous placement."""

    points: list[int]
    moves: int
    last: int | None


def orth_flood(g: Grid) -> Callable[[int, int], int]:
    """``g.flood`` (orthogonal) as a closure over the grid's masks: a kernel calls it in its
    inner loop, where reading the masks as closure cells beats attribute lookups on ``g``."""
    n, full, not_left, not_right = g.size, g.full, g.not_left, g.not_right

    def flood(seed: int, within: int) -> int:
        region = seed
        while True:
            m = region
            nxt = (
                (m | (m >> 1 & not_right) | (m << 1 & not_left) | m >> n | (m << n & full)) & within
            ) | seed
            if nxt == region:
                return region
            region = nxt

    return flood


def resume(played: list[tuple[int, int]], start: int, moves: int, last: int | None) -> Resume:
    """A :class:`Resume` for the placements a kernel recorded in ``played`` from ``start``."""
    return Resume([point for point, _ in played[start:]], moves, last)


class Kernel(Protocol):
    """One game's playout on bitboards."""

    def run(self, game: Game, leaf: Leaf, rand: Random, stop: int) -> int | Resume | None:
        """Play ``game`` out from its position (the game object is only read): the winning
        colour index (not yet flipped, the evaluator does that), a :class:`Resume`, or None
        when the leaf's deadline passed.  ``stop``: the move count at which a playout is cut
        short (-1: never); a kernel that cannot judge a cut playout resumes there."""
        ...  # pragma: no cover


_KERNELS: dict[tuple[str, Playout], Kernel | None] = {}


def kernel_for(game: Game, playout: Playout) -> Kernel | None:
    """The kernel for ``game`` played out with ``playout``, None where there is none (then the
    engine plays the playout)."""
    key = (game.name, playout)
    if key not in _KERNELS:
        _KERNELS[key] = _find_kernel(game.name, playout)
    return _KERNELS[key]


def _find_kernel(name: str, playout: Playout) -> Kernel | None:
    from ai.playouts import NearLast, OnPaths

    from . import clearcut, clearpath, core, crosscut, minefield

    core.announce()
    uniform = not playout.rules and not playout.cut_after
    if name == "clearpath" and not playout.cut_after:
        if uniform:
            return clearpath.kernel(None)
        rule = playout.rules[0]
        if len(playout.rules) == 1 and isinstance(rule, NearLast):
            return clearpath.kernel(rule.chance)
    if name == "clearcut" and uniform:
        return clearcut.KERNEL
    if name == "crosscut" and uniform:
        return crosscut.KERNEL
    if name == "minefield":
        # Which bars the verdict's distances and the paths route round (ai.connection).
        verdict_bars = "minefield" in playout.barred
        if not playout.rules:
            return minefield.kernel(None, verdict_bars, verdict_bars)
        rule = playout.rules[0]
        if len(playout.rules) == 1 and isinstance(rule, OnPaths):
            return minefield.kernel(rule.chance, "minefield" in rule.barred, verdict_bars)
    return None
