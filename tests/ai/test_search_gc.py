"""The search pauses the cyclic garbage collector (``Searcher.run``), which is safe only
because a search leaves no reference cycles behind: these tests check that in every game, and
that the collector is paused during the search and restored after it."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import pytest

from ai import Budget, search
from ai.levels import LEVELS
from ai.search import DEFAULT_CONFIG, Searcher
from rules import Game, game_names, new_game


@pytest.fixture
def collector() -> Iterator[None]:
    """Restore the collector's state, thresholds and debug flags whatever the test does."""
    enabled, thresholds, flags = gc.isenabled(), gc.get_threshold(), gc.get_debug()
    try:
        yield
    finally:
        gc.set_debug(flags)
        gc.set_threshold(*thresholds)
        gc.garbage.clear()
        if enabled:
            gc.enable()
        else:
            gc.disable()


def opening(name: str, plies: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = new_game(name, 5)
    for _ in range(plies):
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(game_names()))
@pytest.mark.usefixtures("collector")
def test_a_search_leaves_no_reference_cycles(name: str) -> None:
    """Everything a search allocates is freed by reference counting alone, so pausing the
    collector cannot let garbage pile up.  A cycle would be found by the collection below."""
    for seed in range(3):
        game = opening(name, 2 * seed, seed)
        gc.collect()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)
        config = LEVELS[5].config if seed != 1 else LEVELS[1].config
        result = search(game, Budget(playouts=300), seed=seed, config=config)
        assert game.is_legal(result.move)
        del result
        found = gc.collect()
        kinds = sorted({type(obj).__name__ for obj in gc.garbage})
        assert found == 0, f"{name}: the search left {found} objects in cycles: {kinds[:10]}"


@pytest.mark.usefixtures("collector")
def test_the_collector_is_paused_during_a_search_and_restored_after() -> None:
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    game = opening("clearpath", 4, 1)
    budget = Budget(playouts=200)
    gc.callbacks.append(count)
    try:
        gc.enable()
        gc.set_threshold(10)  # a collection every few allocations, if the collector runs
        searcher = Searcher(game, 1, DEFAULT_CONFIG)
        collections.clear()
        searcher.run(budget)
        assert collections == []
        assert gc.isenabled()
        searcher = Searcher(game, 1, DEFAULT_CONFIG)
        collections.clear()
        searcher.run_collecting(budget)
        assert len(collections) > 10  # without the pause the same search collects
        gc.disable()  # a caller that paused the collector itself keeps it paused
        Searcher(game, 1, DEFAULT_CONFIG).run(budget)
        assert not gc.isenabled()
    finally:
        gc.callbacks.remove(count)


@pytest.mark.slow
@pytest.mark.usefixtures("collector")
def test_the_pause_changes_no_move() -> None:
    for name in sorted(game_names()):
        game = opening(name, 3, 2)
        paused = search(game, Budget(playouts=150), seed=3)
        running = Searcher(game, 3, DEFAULT_CONFIG).run_collecting(Budget(playouts=150))
        assert (paused.move, paused.playouts) == (running.move, running.playouts)
