"""The compiled search tree (ai/_fastcore_tree.h) builds exactly the pure tree of ai.tree.

Property: from random positions of every game, a search with each tree chooses the same move
with the same value, leaves the random generator in the same state, and builds node for node
the same tree: the same children in the same order with the same statistics, to the bit.
Then the compiled parts alone, on hand-made nodes: the choice, the backup, a draw, bad input.
"""

from __future__ import annotations

import os
import random
import struct
from collections.abc import Iterator
from types import ModuleType

import pytest
from positions import live_positions, random_position

from ai import tree
from ai.connection import engine_move_priors, shortest_path_points
from ai.levels import LEVELS
from ai.search import Budget, Searcher
from ai.tree import PURE, Node, Tree
from rules import new_game
from rules.geometry import grid

BOARDS = (
    ("clearpath", 7),
    ("minefield", 7),
    ("crosscut", 7),
    ("nakeddiagonal", 7),
    ("clearcut", 7),
    ("clearcut", 9),
)


def _core() -> ModuleType:
    try:
        from ai import _fastcore
    except ImportError as error:  # pragma: no cover - only where no compiler was present
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
            pytest.fail(f"the compiled core is not built under CI: {error}")
        pytest.skip(f"the compiled core is not built ({error})")
    return _fastcore


def _compiled() -> Tree:
    if tree.COMPILED is not None:
        return tree.COMPILED
    from ai.fast import core

    if os.environ.get(core.PURE_ENV, "") not in ("", "0"):
        # The pure pass of .ci/run: build the compiled tree anyway, to compare with.
        try:
            from ai import _fastcore
        except ImportError as error:  # pragma: no cover - only where no compiler was present
            pytest.skip(f"the compiled core is not built ({error})")
        return Tree(_fastcore.Node, _fastcore.uct_choice, _fastcore.backup, "compiled")  # type: ignore[arg-type]
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail("the compiled core is not built under CI")  # pragma: no cover
    pytest.skip("the compiled core is not built")  # pragma: no cover


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def walk(node: Node) -> Iterator[tuple[object, ...]]:
    """Every node's every attribute, depth first in the children's order (floats as bits)."""
    yield (
        node.move,
        node.person,
        node.mover,
        node.visits,
        bits(node.wins),
        node.amaf_visits,
        bits(node.amaf_wins),
        bits(node.prior),
        node.proven,
        node.terminal,
        node.needs_prior,
        node.complete,
        node.unchecked,
        node.point_mask,
        sorted(node.by_point),
        None if node.children is None else len(node.children),
    )
    for child in node.children or []:
        yield from walk(child)


def searched(game_name: str, size: int, plies: int, level: int, seed: int, kind: Tree) -> tuple:
    game = random_position(new_game(game_name, size), random.Random(seed), plies)
    if game.is_over:
        return ()
    searcher = Searcher(game, seed, LEVELS[level].config, tree=kind)
    # Naked Diagonal's tree questions are dear in pure Python: fewer playouts there.
    playouts = 40 if game_name == "nakeddiagonal" else 150 if size < 9 else 80
    result = searcher.run(Budget(playouts=playouts))
    chosen = (result.move, result.playouts, bits(result.value), result.proven, result.reason)
    return (chosen, searcher.rng.getstate(), list(walk(searcher.root)))


@pytest.mark.parametrize(("game_name", "size"), BOARDS)
@pytest.mark.parametrize(
    "level", [pytest.param(2, marks=pytest.mark.slow), 3, pytest.param(5, marks=pytest.mark.slow)]
)
def test_both_trees_search_alike_from_random_positions(
    game_name: str, size: int, level: int
) -> None:
    compiled = _compiled()
    compared = 0
    for seed in range(3):
        plies = (0, 6, 15)[seed]
        pure = searched(game_name, size, plies, level, seed, PURE)
        fast = searched(game_name, size, plies, level, seed, compiled)
        assert pure[:2] == fast[:2], (game_name, size, plies, level, seed)
        assert pure[2:] == fast[2:]
        compared += bool(pure)
    assert compared


def _stats(node: Node, visits: int, wins: float, amaf: int, amaf_wins: float, prior: float) -> Node:
    node.visits, node.wins, node.amaf_visits, node.amaf_wins = visits, wins, amaf, amaf_wins
    node.prior = prior
    return node


@pytest.mark.parametrize("rave", [False, True])
@pytest.mark.parametrize("bias", [0.0, 1.0, 3.5])
def test_both_choices_pick_the_same_child_from_random_statistics(rave: bool, bias: float) -> None:
    compiled = _compiled()
    rng = random.Random(f"{rave}{bias}")
    for _ in range(300):
        count = rng.randrange(1, 30)
        moves: list[int | str] = list(range(count))
        if rng.random() < 0.3:
            moves.append("swap")
        parents = []
        for kind in (PURE, compiled):
            parent = kind.node("", 0)
            parent.expand(moves, 1, random.Random(count))
            parents.append(parent)
        parents[0].visits = parents[1].visits = rng.randrange(0, 5000)
        for a, b in zip(parents[0].children or [], parents[1].children or [], strict=True):
            assert a.move == b.move
            visits = rng.choice([0, 0, 1, 2, rng.randrange(1000)])
            stats = (
                visits,
                rng.random() * visits,
                rng.choice([0, rng.randrange(1, 2000)]),
                rng.random() * 2000,
                rng.random(),
            )
            _stats(a, *stats)
            _stats(b, *stats)
            a.proven = b.proven = rng.choice([0] * 20 + [-1, 1])
        settings = (0.25 + rng.random(), 400.0, rave, rng.choice([1.0, 0.5]), bias)
        chosen = [
            kind.uct_choice(p, *settings) for kind, p in zip((PURE, compiled), parents, strict=True)
        ]
        assert chosen[0].move == chosen[1].move


@pytest.mark.parametrize("outcome", [0, 1, -1])
def test_both_backups_count_alike_with_a_draw_and_a_swap(outcome: int) -> None:
    """``outcome`` -1 is a draw (half a win to everyone); a named move in the path is no point
    and updates no sibling's RAVE counts."""
    compiled = _compiled()
    trees = []
    for kind in (PURE, compiled):
        root = kind.node("", 1)
        root.expand([3, 4, 5, "swap"], 0, random.Random(1))
        assert root.children is not None
        swap = next(c for c in root.children if c.move == "swap")
        swap.expand([3, 4, 5, 6], 1, random.Random(2))
        assert swap.children is not None
        leaf = next(c for c in swap.children if c.move == 6)
        kind.backup([root, swap, leaf], [(4, 0), (3, 1), (5, 0)], outcome, True)
        kind.backup([root, swap], [(6, 1)], 1 - max(outcome, 0), True)
        trees.append(list(walk(root)))
    assert trees[0] == trees[1]
    assert any(row[5] for row in trees[0]), "some RAVE counts moved"


def test_the_compiled_node_refuses_bad_input_and_changes_nothing() -> None:
    compiled = _compiled()
    node = compiled.node("", 0)
    with pytest.raises(ValueError, match="not expanded"):
        compiled.uct_choice(node, 0.25, 400.0, True, 1.0, 0.0)
    with pytest.raises(ValueError, match="19x19"):
        compiled.node(400, 0)
    node.expand([1, 2], 1, random.Random(0))
    with pytest.raises(TypeError, match="Node"):
        compiled.backup([node, PURE.node(1, 1)], [], 0, True)
    with pytest.raises(ValueError, match="off the board"):
        compiled.backup([node], [(999, 0)], 0, True)
    assert node.visits == 0 and all(c.amaf_visits == 0 for c in node.children or [])
    with pytest.raises(AttributeError):
        node.move = 3  # type: ignore[misc]
    node.complete = 0  # type: ignore[assignment]  # a flag takes any value by its truth
    assert node.complete is False
    with pytest.raises(AttributeError, match="deleted"):
        del node.complete


def test_a_generator_of_another_kind_shuffles_with_its_own_shuffle() -> None:
    """The compiled expand repeats random.Random's shuffle; any other generator (here one
    that reverses) is asked to shuffle itself, as the pure node does."""
    compiled = _compiled()

    class Reverse(random.Random):
        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            x.reverse()

    for kind in (PURE, compiled):
        node = kind.node("", 0)
        node.expand([1, 2, 3], 1, Reverse())
        assert [c.move for c in node.children or []] == [3, 2, 1]
        assert node.point_mask == 0b1110 and sorted(node.by_point) == [1, 2, 3]


@pytest.mark.parametrize("size", [2, 4, 7, 9, 11, 12, 13, 15, 19])
def test_the_compiled_path_points_are_the_shortest_path_points(size: int) -> None:
    """Both sides' shortest-path masks (the Clear Path priors' input) from random stones, at
    every bitboard width, both players, dense and sparse boards, cut and open."""
    path_points = _core().path_points
    g = grid(size)
    rng = random.Random(size)
    for _ in range(60):
        density = rng.choice([0.05, 0.2, 0.4, 0.7])
        own = opp = 0
        for p in range(g.area):
            if rng.random() < density:
                if rng.random() < 0.5:
                    own |= 1 << p
                else:
                    opp |= 1 << p
        for player in (0, 1):
            expected = (
                shortest_path_points(g, own, opp, player)[1],
                shortest_path_points(g, opp, own, 1 - player)[1],
            )
            assert path_points(size, own, opp, player) == expected
    with pytest.raises(ValueError, match="0 or 1"):
        path_points(size, 0, 0, 2)


@pytest.mark.parametrize("size", [5, 6, 7, 8, 9, 10])
def test_the_compiled_crosscut_priors_are_the_engines(size: int) -> None:
    """Crosscut's priors (every legal placement made and scored) from random games, early,
    mid and late, for either player to move: the compiled list equals the engine's float for
    float, illegal perimeter points and ties (all 0.0) included."""
    crosscut_priors = _core().crosscut_priors
    rng = random.Random(size)
    checked = 0
    for game in live_positions(lambda: new_game("crosscut", size), rng, 120, (0, size * size)):
        stones = game.state_key()[2]
        player = 0 if game.to_move == game.players[0] else 1
        expected = engine_move_priors(game)
        assert crosscut_priors(size, stones[player], stones[1 - player]) == expected
        checked += 1
    assert checked > 30
    with pytest.raises(TypeError):
        crosscut_priors(size, 0)
    with pytest.raises(ValueError, match="size"):
        crosscut_priors(40, 0, 0)
