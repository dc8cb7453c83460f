"""The compiled playout core (``ai/_fastcore.c``) if it is built, else None.

The kernels of :mod:`ai.fast` hand their playout to the compiled core where there is one: the
same playout, move for move and draw for draw (``tests/ai/test_fast_core.py`` plays both side
by side).  The extension is optional (``setup.py``): where no compiler was present at install,
or with ``CROSSPATH_PURE_PYTHON=1`` set, the pure-Python kernels run, which stay the
reference.  Which of the two runs is logged once, at the first search's first playout.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ai.evaluators import Leaf

log = logging.getLogger(__name__)

PURE_ENV = "CROSSPATH_PURE_PYTHON"
"""Set (to anything but "" or "0") to run the pure-Python kernels though the core is built:
``.ci/run`` tests both ways."""


def set_terms(compiled: ModuleType) -> None:
    """Hand ``rules.minefield.GLYPH_TERMS`` to the core: the glyph terms are written once, in
    rules/, and the core takes them as data."""
    from rules.minefield import GLYPH_TERMS

    compiled.set_glyph_terms(
        [
            [(which, dx, dy) for which, offsets in enumerate(groups) for dx, dy in offsets]
            for _, groups in GLYPH_TERMS
        ]
    )


def context(
    rand: Callable[[], float], leaf: Leaf
) -> tuple[Callable[[], float], Callable[[], float] | None, float, list[tuple[int, int]], int]:
    """The five arguments every compiled playout takes first (the core's ``Ctx``): the random
    draw, the clock and the deadline (None and 0.0 when the search has none), the leaf's list
    of placements made and its swap flag."""
    deadline = leaf.deadline
    return (
        rand,
        None if deadline is None else time.perf_counter,
        0.0 if deadline is None else deadline,
        leaf.played,
        leaf.flip,
    )


def _load() -> tuple[ModuleType | None, str]:
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None, f"pure-Python playout kernels ({PURE_ENV} is set)"
    try:
        from ai import _fastcore
    except ImportError as error:
        return None, f"pure-Python playout kernels: the compiled core is not built ({error})"
    set_terms(_fastcore)
    return _fastcore, "compiled playout kernels (ai._fastcore)"


CORE, _SAYS = _load()
"""The extension module, or None: read at each playout, so a test may set it to None."""
_said = False


def announce() -> None:
    """Log once per process which kernels play the playouts."""
    global _said
    if not _said:
        _said = True
        if CORE is None and PURE_ENV not in _SAYS:
            log.warning(_SAYS)
        else:
            log.info(_SAYS)
