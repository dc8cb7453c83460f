"""The AI tests import their helpers (positions.py) by plain name: pytest runs with
--import-mode=importlib, which does not put test folders on sys.path by itself.  Each module
of search tests also leaves the Naked Diagonal memos empty behind it (see the fixture)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.nd_area import forget_memos

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True, scope="module")
def _forget_naked_diagonal_memos() -> Iterator[None]:
    """Empty this thread's Naked Diagonal area memos after each module of search tests.

    A search fills them towards their 400,000-entry limit, and they live as long as the
    thread: left behind, they made every later full garbage collection in the test process
    slow (0.4–0.5 s with 100,000 entries on a slow host), which tripped the bot tests' loop
    guard (tests/support/loop_guard.py) in tests that have nothing to do with the search.
    """
    yield
    forget_memos()
    gc.collect()
