"""The compiled connection distances (rules/_ndcore.c) equal ai.connection's pure ones.

``distance_layers`` and ``shortest_path_points`` run in C where the core is built: every
playout of Naked Diagonal reads them at each move.  Here both run side by side (the pure code
with ``ai.connection.CORE`` set to None) on random stones at every size from 4 to 19, for
both players, with and without enemy walls that cut every path.
"""

from __future__ import annotations

import os
import random

import pytest

from ai import connection
from rules.geometry import grid


def _compiled() -> None:
    try:
        from rules import _ndcore  # noqa: F401 (only its presence is checked)
    except ImportError as error:  # pragma: no cover - only where no compiler was present
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
            pytest.fail(f"Naked Diagonal's compiled core is not built under CI: {error}")
        pytest.skip(f"Naked Diagonal's compiled core is not built ({error})")


def _mask(rnd: random.Random, area: int, density: float) -> int:
    return sum(1 << p for p in range(area) if rnd.random() < density)


@pytest.mark.parametrize("size", range(4, 20))
def test_distances_and_path_points_match_the_pure_code(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    _compiled()
    from rules import _ndcore

    g = grid(size)
    rnd = random.Random(size)
    cut = 0
    for _ in range(150):
        density = rnd.choice((0.0, 0.1, 0.3, 0.45))
        own = _mask(rnd, g.area, density)
        opp = _mask(rnd, g.area, rnd.choice((0.0, 0.2, 0.5, 0.7))) & ~own
        for player in (0, 1):
            a, b = connection.edges(g, player)
            monkeypatch.setattr(connection, "CORE", _ndcore)
            fast = (
                connection.distance_layers(g, own, opp, a, b),
                connection.shortest_path_points(g, own, opp, player),
                connection.path_distance(g, own, opp, player),
            )
            monkeypatch.setattr(connection, "CORE", None)
            pure = (
                connection.distance_layers(g, own, opp, a, b),
                connection.shortest_path_points(g, own, opp, player),
                connection.path_distance(g, own, opp, player),
            )
            assert fast == pure, (size, own, opp, player)
            cut += pure[2] == connection.INFINITE
    assert cut  # the walls that cut every path were met too
