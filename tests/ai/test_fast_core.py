"""The compiled playout core (ai/_fastcore.c) plays exactly the pure-Python kernels' playouts.

Every game with a compiled kernel, at every board size from 4 to 13 and 19 (where the game
allows it), with and without the pie rule: random positions, each played out with each
playout a level uses three ways from the same seed, through the engine
(``PlayoutEvaluator(fast=False)``), the pure-Python kernel and the compiled one.  Every move
and its person, the winner, the colour flip, the Resume's hand-back and the random generator's
state afterwards must be the same.  The pure-Python engine stays the reference.

Where the core is not built these tests are skipped with one line saying so, except under CI
(``CI`` set), where that is a failure: ``.ci/run`` installs with a compiler.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest
from positions import random_position, random_stones

from ai.evaluators import Leaf, PlayoutEvaluator
from ai.fast import core, kernel_for
from ai.fast.crosscut import winning_points
from ai.moves import fast_legal_mask, legal_among, prepare
from ai.playouts import NEAR_LAST, ON_PATHS, UNIFORM, Playout
from rules import Game, game_class, new_game
from rules.geometry import grid
from rules.minefield import glyph_mask

ROOT = Path(__file__).resolve().parents[2]
SIZES = (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 19)
COMPILED_GAMES = ("clearpath", "minefield", "crosscut", "clearcut")
"""The games whose kernels have a compiled twin."""
PLAYOUTS: tuple[Playout, ...] = (UNIFORM, NEAR_LAST, ON_PATHS)


def _compiled() -> ModuleType:
    try:
        from ai import _fastcore
    except ImportError as error:  # pragma: no cover - only where no compiler was present
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
            pytest.fail(f"the compiled playout core is not built under CI: {error}")
        pytest.skip(f"the compiled playout core is not built ({error})")
    core.set_terms(_fastcore)  # done on loading ai.fast, unless the pure kernels are forced
    return _fastcore


def _variants() -> list[object]:
    """(game, size, pie), the boards of 9×9 and up marked slow (a second or more each)."""
    found: list[object] = []
    for name in COMPILED_GAMES:
        cls = game_class(name)
        pies = (False, True) if cls.pie_rule == "option" else (cls.pie_rule == "always",)
        for size in SIZES:
            if not cls.min_size <= size <= cls.max_size:
                continue
            marks = [pytest.mark.slow] if size >= 9 else []
            found += [pytest.param(name, size, pie, marks=marks) for pie in pies]
    return found


def _play_out(
    way: str, game: Game, playout: Playout, seed: int, warm: bool, deadline: float | None = None
) -> tuple[object, ...]:
    work = game.copy()
    rng = random.Random(seed)
    prepare(work, rng.random)
    if warm:
        work.legal_mask()  # a tree node listed its moves: the first draw is from the mask
    last = work.last_move
    point = None if last is None or last.point is None else work.grid.names.index(last.point)
    index = {colour: i for i, colour in enumerate(work.players)}
    leaf = Leaf(0, flip=seed % 2, last=point, deadline=deadline)
    evaluator = PlayoutEvaluator(playout, rng.random, index, fast=way != "engine")
    outcome = evaluator.evaluate(work, leaf)
    return outcome, leaf.flip, leaf.played, rng.getstate(), work.record()


def _ways(
    monkeypatch: pytest.MonkeyPatch, compiled: ModuleType, *args: object
) -> dict[str, tuple[object, ...]]:
    found = {}
    for way, module in (("engine", None), ("pure", None), ("compiled", compiled)):
        monkeypatch.setattr(core, "CORE", module)
        found[way] = _play_out(way, *args)  # type: ignore[arg-type]
    return found


@pytest.mark.parametrize(("name", "size", "pie"), _variants())
def test_the_compiled_kernel_plays_the_pure_kernels_playout(
    name: str, size: int, pie: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = _compiled()
    rng = random.Random(f"core{name}{size}{pie}")
    used = 0
    rounds = 8 if size >= 13 else 20
    for round_ in range(rounds):
        # From the empty board to nearly full: the hand-backs come late in a game.
        plies = rng.randrange(size * size * 3 // 4 + 1)
        game = random_position(new_game(name, size, pie=pie), rng, plies)
        if game.is_over:
            continue
        for playout in PLAYOUTS:
            if kernel_for(game, playout) is None:
                continue
            used += 1
            for seed in range(3):
                warm = (round_ + seed) % 3 == 0
                ways = _ways(monkeypatch, compiled, game, playout, seed, warm)
                context = (game.record(), playout, seed, warm)
                # The whole result, down to the moves a Resume handed back to the engine.
                assert ways["compiled"] == ways["pure"], context
                # The engine plays every move on the game, a kernel only the handed-back ones.
                assert ways["pure"][:-1] == ways["engine"][:-1], context
    assert used


@pytest.mark.parametrize("name", COMPILED_GAMES)
def test_a_passed_deadline_stops_both_kernels_before_a_move(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = _compiled()
    game = new_game(name, 9)
    playout = {"minefield": ON_PATHS, "clearpath": NEAR_LAST}.get(name, UNIFORM)
    ways = _ways(monkeypatch, compiled, game, playout, 1, False, time.perf_counter() - 1)
    assert ways["compiled"] == ways["pure"] == ways["engine"]  # none played, none handed back
    outcome, _, played, _, _ = ways["compiled"]
    assert outcome is None
    assert played == []


@pytest.mark.parametrize("size", [4, 5, 9, 13, 19])
def test_the_compiled_glyph_masks_are_the_rules_glyph_masks(size: int) -> None:
    compiled = _compiled()
    g = grid(size)
    rng = random.Random(size)
    for first, second in random_stones(g.area, rng, (0.1, 0.3, 0.5), 100):
        empty = g.full & ~(first | second)
        assert compiled.glyphs(size, first, second, empty) == (
            glyph_mask(g, first, second, empty),
            glyph_mask(g, second, first, empty),
        )


def test_bad_arguments_are_refused_with_a_clear_error() -> None:
    compiled = _compiled()
    with pytest.raises(ValueError, match="board size"):
        compiled.glyphs(20, 0, 0, 0)
    with pytest.raises(TypeError, match="bitboard"):
        compiled.glyphs(9, "x", 0, 0)
    with pytest.raises(OverflowError):
        compiled.glyphs(9, 1 << 400, 0, 0)
    with pytest.raises(TypeError, match="arguments"):
        compiled.clearpath()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("value", "absent", "pure"),
    [("1", False, True), ("0", False, False), ("", False, False), ("", True, True)],
)
def test_the_environment_or_a_missing_core_gives_the_pure_kernels(
    value: str, absent: bool, pure: bool
) -> None:
    """CROSSPATH_PURE_PYTHON=1 (what .ci/run's second pass sets) runs the pure kernels, as
    does a core that was never built (here: its import made to fail), and the first search
    says once which kernels play: a warning when the core is missing."""
    _compiled()
    code = (
        ("import sys; sys.modules['ai._fastcore'] = None\n" if absent else "")
        + "import logging; logging.basicConfig(format='%(levelname)s %(message)s')\n"
        + "logging.getLogger().setLevel(logging.INFO)\n"
        + "from ai.fast import core\n"
        + "from ai import search, Budget\n"
        + "from rules import new_game\n"
        + "for _ in range(2): search(new_game('clearpath', 5), Budget(playouts=20), seed=1)\n"
        + "print(core.CORE is None)\n"
    )
    env = {**os.environ, core.PURE_ENV: value, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == str(pure)
    said = [line for line in out.stderr.splitlines() if "playout kernels" in line]
    assert len(said) == 1, out.stderr
    assert ("pure-Python" in said[0]) == pure
    assert said[0].startswith("WARNING") == absent


@pytest.mark.parametrize("size", [4, 5, 7, 9, 12, 13, 19])
def test_the_compiled_clear_path_legal_mask_is_the_engines(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ai.fast.clearpath.legal_mask`` (the tree's move lists) against the engine's own
    ``_legal_mask``: in random games, chains and swaps included, and from random stones set up
    as diagrams (diagonal links made, edges joined, boards nearly full), for either colour."""
    compiled = _compiled()
    monkeypatch.setattr(core, "CORE", compiled)  # the wrappers too, in the pure pass
    rng = random.Random(size)
    g = grid(size)
    games: list[Game] = []
    for _ in range(4):
        game = new_game("clearpath", size)
        while not game.is_over:
            games.append(game.copy())
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
    cls = game_class("clearpath")
    for first, second in random_stones(g.area, rng, (0.1, 0.25, 0.4, 0.48), 15):
        stones = {"red": [g.names[p] for p in range(g.area) if first >> p & 1]}
        stones["blue"] = [g.names[p] for p in range(g.area) if second >> p & 1]
        for colour in ("red", "blue"):
            games.append(cls.from_position(size, stones, colour))
    for game in games:
        turn = game._turn
        state = [*game._stones]
        for reach in (*game._oip, *game._odip):  # type: ignore[attr-defined]
            state += [reach.a, reach.b]
        expected = game._legal_mask(turn)
        oip, odip = state[2:6], state[6:10]
        assert compiled.clearpath_legal(size, *state[:2], *oip, *odip, turn) == expected
        if not game.is_over:
            assert fast_legal_mask(game) == game.legal_mask()
    with pytest.raises(ValueError, match="0 or 1"):
        compiled.clearpath_legal(size, *[0] * 10, 2)
    with pytest.raises(TypeError):
        compiled.clearpath_legal(size, 0)


@pytest.mark.parametrize("size", [5, 6, 8, 9, 10])
def test_the_compiled_crosscut_legal_mask_is_the_engines(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ai.moves.fast_legal_mask`` for Crosscut against the engine's ``_legal_mask``, in
    random games (flips, removed perimeter discs, skips) and from random interior discs set up
    as diagrams, for either colour; and ``legal_among`` gives the engine's points."""
    compiled = _compiled()
    monkeypatch.setattr(core, "CORE", compiled)  # the wrappers too, in the pure pass
    rng = random.Random(size)
    g = grid(size)
    games: list[Game] = []
    for _ in range(5):
        game = new_game("crosscut", size)
        while not game.is_over:
            games.append(game.copy())
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
    cls = game_class("crosscut")
    for first, second in random_stones(g.area, rng, (0.1, 0.3, 0.45), 20):
        first &= g.interior
        second &= g.interior
        stones = {"red": [g.names[p] for p in range(g.area) if first >> p & 1]}
        stones["blue"] = [g.names[p] for p in range(g.area) if second >> p & 1]
        for colour in ("red", "blue"):
            games.append(cls.from_position(size, stones, colour))
    for game in games:
        turn = game._turn
        own, opp = game._stones[turn], game._stones[1 - turn]
        expected = game._legal_mask(turn)
        assert compiled.crosscut_legal(size, own, opp) == expected
        if not game.is_over:
            assert fast_legal_mask(game.copy()) == expected
            some = rng.getrandbits(g.area)
            assert legal_among(game, some) == [
                p for p in range(g.area) if (expected & some) >> p & 1
            ]
    with pytest.raises(TypeError):
        compiled.crosscut_legal(size, 0)


@pytest.mark.parametrize("size", [5, 6, 8, 9, 10])
def test_the_compiled_crosscut_wins_are_the_engines_trial_placements(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ai.fast.crosscut.winning_points`` against each legal placement played and undone
    through the engine (a win by the placed disc, by a flipped one, from the perimeter), in
    random games late enough for runs, for either colour; illegal points are never wins."""
    monkeypatch.setattr(core, "CORE", _compiled())  # the wrapper, in the pure pass too
    rng = random.Random(size)
    g = grid(size)
    wins = checked = 0
    for _ in range(12):
        game = new_game("crosscut", size)
        while not game.is_over:
            expected = 0
            for point in game.legal_points():
                game.play_index(point)
                if game.winner is not None and game.winner == game.last_move.player:  # type: ignore[union-attr]
                    expected |= 1 << point
                game.pop()
            assert winning_points(game, g.full) == expected
            some = rng.getrandbits(g.area)
            assert winning_points(game, some) == expected & some
            wins += bool(expected)
            checked += 1
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
    assert wins > 5 and checked > 60
    with pytest.raises(TypeError):
        _compiled().crosscut_winning(size, 0, 0)


@pytest.mark.parametrize("size", [4, 5, 7, 9, 12, 13, 19])
def test_the_compiled_clearcut_legal_mask_is_the_engines(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ai.moves.fast_legal_mask`` for Clearcut against the engine's ``_legal_mask``, in
    random games (crosscuts made and refused, checkers removed) and from random checkers set up
    as diagrams, for either colour, at every bitboard width."""
    compiled = _compiled()
    monkeypatch.setattr(core, "CORE", compiled)  # the wrapper too, in the pure pass
    rng = random.Random(size)
    g = grid(size)
    games: list[Game] = []
    for _ in range(3):
        game = new_game("clearcut", size)
        while not game.is_over:
            games.append(game.copy())
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
    cls = game_class("clearcut")
    for first, second in random_stones(g.area, rng, (0.15, 0.3, 0.45), 15):
        stones = {"red": [g.names[p] for p in range(g.area) if first >> p & 1]}
        stones["blue"] = [g.names[p] for p in range(g.area) if second >> p & 1]
        for colour in ("red", "blue"):
            games.append(cls.from_position(size, stones, colour))
    refused = 0
    for game in games:
        turn = game._turn
        own, opp = game._stones[turn], game._stones[1 - turn]
        expected = game._legal_mask(turn)
        assert compiled.clearcut_legal(size, own, opp) == expected
        refused += expected != g.full & ~(own | opp)
        if not game.is_over:
            assert fast_legal_mask(game.copy()) == expected
    assert refused > 0
    with pytest.raises(TypeError):
        compiled.clearcut_legal(size, 0)
