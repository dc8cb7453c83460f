"""The compiled glyph mask (rules/_minecore.c) answers exactly as rules.minefield's Python one.

Side by side on random stones at every size from 2 to 19 (every word boundary of the
bitboard), dense and sparse, and on the positions of random Minefield games; and whole games
replayed with the core switched off (``CROSSPATH_PURE_PYTHON=1`` in a child process) end the
same.  The Python function stays the reference.

Where the core is not built these tests are skipped with one line saying so, except under CI
(``CI`` set), where that is a failure: ``.ci/run`` installs with a compiler.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from rules import minefield, new_game
from rules.geometry import grid
from rules.minefield import py_glyph_mask

ROOT = Path(__file__).resolve().parents[2]


def _compiled() -> ModuleType:
    try:
        from rules import _minecore
    except ImportError as error:  # pragma: no cover - only where no compiler was present
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
            pytest.fail(f"Minefield's compiled core is not built under CI: {error}")
        pytest.skip(f"Minefield's compiled core is not built ({error})")
    if minefield.CORE is None:  # switched off: hand it the terms as the module would
        _minecore.set_glyph_terms(
            [
                [(w, dx, dy) for w, offsets in enumerate(groups) for dx, dy in offsets]
                for _, groups in minefield.GLYPH_TERMS
            ]
        )
    return _minecore


@pytest.mark.parametrize("size", range(2, 20))
def test_the_compiled_glyph_mask_is_the_pythons_on_random_stones(size: int) -> None:
    core = _compiled()
    g = grid(size)
    rng = random.Random(size)
    for _ in range(150):
        density = rng.choice([0.05, 0.2, 0.4, 0.7, 0.95])
        own = opp = 0
        for p in range(g.area):
            if rng.random() < density:
                if rng.random() < 0.5:
                    own |= 1 << p
                else:
                    opp |= 1 << p
        empty = g.full & ~(own | opp)
        assert core.glyph_mask(size, own, opp, empty) == py_glyph_mask(g, own, opp, empty)
        assert core.glyph_mask(size, opp, own, empty) == py_glyph_mask(g, opp, own, empty)


def test_the_compiled_glyph_mask_is_the_pythons_in_random_games() -> None:
    core = _compiled()
    rng = random.Random(7)
    checked = 0
    for size in (5, 7, 9, 11, 13, 19):
        g = grid(size)
        for _ in range(6):
            game = new_game("minefield", size)
            while not game.is_over:
                a, b = game.state_key()[2]
                empty = g.full & ~(a | b)
                for own, opp in ((a, b), (b, a)):
                    assert core.glyph_mask(size, own, opp, empty) == py_glyph_mask(
                        g, own, opp, empty
                    )
                    checked += 1
                moves = game.legal_moves()
                game.play(moves[rng.randrange(len(moves))])
    assert checked > 500


def test_the_compiled_glyph_mask_refuses_bad_input() -> None:
    core = _compiled()
    with pytest.raises(TypeError):
        core.glyph_mask(9, 0, 0)
    with pytest.raises(TypeError):
        core.glyph_mask(9, "a", 0, 0)
    with pytest.raises(ValueError, match="size"):
        core.glyph_mask(20, 0, 0, 0)
    with pytest.raises(OverflowError):
        core.glyph_mask(9, 1 << 400, 0, 0)
    with pytest.raises(ValueError, match="out of range"):
        core.set_glyph_terms([[(3, 0, 0)]])


GAME = """
import random, sys
from rules import minefield, new_game
print(minefield.CORE is not None)
rng = random.Random(int(sys.argv[1]))
game = new_game("minefield", 9)
while not game.is_over:
    moves = game.legal_moves()
    game.play(moves[rng.randrange(len(moves))])
print(game.record())
"""


@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_game_plays_the_same_with_the_core_switched_off(seed: int) -> None:
    _compiled()
    outs = []
    for pure in ("0", "1"):
        env = {**os.environ, "CROSSPATH_PURE_PYTHON": pure, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [sys.executable, "-c", GAME, str(seed)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outs.append(run.stdout.split("\n", 1))
    assert [o[0] for o in outs] == ["True", "False"]
    assert outs[0][1] == outs[1][1]
