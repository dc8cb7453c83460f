"""The compiled twins of Naked Diagonal's hottest loops (``rules/_ndcore.c``) if built, else None.

The area solver (:mod:`rules.nd_area`) hands its flood, timeline, timeline replay and repair to
this core where there is one; each compiled function returns exactly what its pure-Python twin
returns (``tests/rules/test_nd_core.py`` compares them on random inputs at every size).  The
extension is optional (``setup.py``): where no compiler was present at install, or with
``CROSSPATH_PURE_PYTHON=1`` set, the pure-Python code runs, which stays the reference.

Why a copy of ``ai.fast.core``'s switch and not an import of it: rules/ is the bottom layer and
never imports ai/.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Protocol

PURE_ENV = "CROSSPATH_PURE_PYTHON"
"""Set (to anything but "" or "0") to run the pure-Python code though the core is built."""


class Core(Protocol):
    """What the compiled module offers (its stub: rules/_ndcore.pyi)."""

    def bits(self, mask: int, /) -> list[int]: ...
    def flood(self, size: int, seed: int, within: int, diagonal: bool, /) -> int: ...
    def components(self, size: int, cells: int, diagonal: bool, /) -> list[int]: ...
    def timeline(
        self, size: int, red: int, blue: int, witness: Iterable[tuple[int, int]], /
    ) -> str: ...
    def fills_after_recolouring(
        self, size: int, timeline: str, point: int, colour: int, red: int, blue: int, /
    ) -> bool: ...
    def repair(
        self,
        size: int,
        area: int,
        red: int,
        blue: int,
        hint: Iterable[tuple[int, int]],
        base: tuple[int, int, int] | None,
        /,
    ) -> tuple[tuple[int, int], ...] | None: ...
    def timeline_witness(self, size: int, timeline: str, /) -> tuple[tuple[int, int], ...]: ...
    def pack(self, witness: Iterable[tuple[int, int]], /) -> str: ...
    def unpack(self, packed: str, /) -> tuple[tuple[int, int], ...]: ...
    def distance_layers(
        self, size: int, own: int, opp: int, edge_a: int, edge_b: int, /
    ) -> list[int]: ...
    def naked_mask(self, size: int, own: int, wild: int, /) -> int: ...
    def sweep(
        self, size: int, codes: bytearray, pending: list[int], back: int, /
    ) -> tuple[list[tuple[int, int]], list[int]]: ...
    def key(self, size: int, area: int, red: int, blue: int, wild: int, /) -> int: ...
    def reachable(self, size: int, area: int, own: int, wild: int, /) -> int: ...
    def quick_verdict(
        self,
        size: int,
        point: int,
        player: int,
        red: int,
        blue: int,
        timelines: dict[int, str | None],
        /,
    ) -> bool | None: ...
    def path_points(
        self, size: int, own: int, opp: int, edge_a: int, edge_b: int, /
    ) -> tuple[int, int] | None: ...


def _load() -> Core | None:
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    try:
        from rules import _ndcore
    except ImportError:
        return None
    return _ndcore


CORE = _load()
"""The extension module, or None (then the pure-Python twins run)."""
