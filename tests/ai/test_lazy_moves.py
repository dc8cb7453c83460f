"""Naked Diagonal tree nodes that decide a point only when the search first selects it.

The search lists the points that form no naked diagonal (``NakedDiagonal.candidate_mask``) and
proves one legal (``point_verdict``) only when it is about to play it.  These tests walk whole
search trees and check each node against the engine's own full legal mask: no legal move is
ever missing, no point shown to be illegal stays, every move the tree played was legal, and
the solver still proves a lost position.
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from positions import live_positions, opponent_wins_after, wins_now

from ai import Budget, search
from ai.search import DEFAULT_CONFIG, Node, SearchConfig, Searcher
from rules import Game, new_game, parse_record
from rules.geometry import bits_list


def nd_positions(size: int, count: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    return list(live_positions(lambda: new_game("nakeddiagonal", size), rng, count, (0, 14)))


def walk(node: Node, game: Game, seen: list[tuple[Node, Game]]) -> None:
    """Every expanded node of the tree under ``node``, with a plain engine copy of its position."""
    if node.children is None:
        return
    seen.append((node, game))
    for child in node.children:
        if child.visits and not child.terminal:
            assert isinstance(child.move, int)
            below = game.copy()
            below.play_index(child.move)
            walk(child, below, seen)


def searched_tree(
    game: Game, playouts: int, seed: int, config: SearchConfig = DEFAULT_CONFIG
) -> list[tuple[Node, Game]]:
    searcher = Searcher(game, seed, config)
    searcher.run(Budget(playouts=playouts))
    seen: list[tuple[Node, Game]] = []
    walk(searcher.root, parse_record(game.record()), seen)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize(("size", "seed"), [(5, 1), (7, 2)])
def test_every_node_keeps_each_legal_move_and_only_plays_legal_ones(size: int, seed: int) -> None:
    nodes = 0
    lazy_nodes = 0
    for game in nd_positions(size, 6, seed):
        for node, position in searched_tree(game, 300, seed):
            assert node.children is not None
            legal = position.legal_mask()  # the engine's exact, complete verdicts
            listed = node.point_mask
            nodes += 1
            only = node.children[0].move
            names = position.grid.names
            if (
                len(node.children) == 1
                and isinstance(only, int)
                and wins_now(position, names[only])
            ):
                # The win check keeps only the winning child: a legal point.
                assert legal >> only & 1
                continue
            # Points still unchecked may be illegal; every other listed point is legal.
            assert listed & ~node.unchecked & ~legal == 0, (position.moves, node.unchecked)
            # No legal point is missing from a node that claims to list them all.
            if node.complete:
                assert legal & ~listed == 0, (position.moves, bits_list(legal & ~listed))
            # Every child the tree played through was legal where it was played.
            for child in node.children:
                if child.visits and isinstance(child.move, int):
                    assert legal >> child.move & 1, (position.moves, child.move)
            if node.unchecked:
                lazy_nodes += 1
    assert nodes > 100
    assert lazy_nodes > 10, "the trees should hold nodes with points not decided yet"


@pytest.mark.slow
def test_a_node_visited_once_decides_only_what_it_plays() -> None:
    """The point of the change: a leaf decides one or two points, not its whole list."""
    game = nd_positions(7, 3, 5)[0]
    leaves = [
        node
        for node, _ in searched_tree(game, 200, 5)
        if node.visits == 1 and node.children and len(node.children) > 2
    ]
    assert leaves
    for node in leaves:
        assert node.children is not None
        decided = len(node.children) - bin(node.unchecked).count("1")
        assert decided <= 3, decided


def wins_in_two(game: Game, move: str) -> bool:
    """``move`` does not win at once, the other side must reply, and every reply leaves the
    mover a win at once (brute force over the engine's legal moves)."""
    mover = game.to_move
    if wins_now(game, move):
        return False
    game.play(move)
    try:
        if game.is_over or game.to_move == mover:
            return False
        return all(opponent_wins_after(game, reply) for reply in game.legal_moves())
    finally:
        game.pop()


def first_position(test: str, seed: int) -> Game:
    rng = random.Random(seed)
    for game in live_positions(lambda: new_game("nakeddiagonal", 5), rng, 3_000, (6, 16)):
        moves = game.legal_moves()
        if len(moves) < 2 or any(wins_now(game, m) for m in moves):
            continue
        if test == "lost" and all(opponent_wins_after(game, m) for m in moves):
            return game
        if test == "won" and any(wins_in_two(game, m) for m in moves):
            return game
    raise AssertionError(f"no {test} position found")


def test_the_solver_proves_a_lost_position() -> None:
    game = first_position("lost", 11)
    result = search(game, Budget(playouts=2_000), seed=3)
    assert (result.proven, result.reason) == (-1, "proven loss")


def test_the_solver_proves_a_win_in_two() -> None:
    """The proof needs every reply in the opponent's node proved lost, so a lazy node must
    decide all its points (dropping the illegal ones) before it can be proved."""
    game = first_position("won", 12)
    result = search(game, Budget(playouts=5_000), seed=3)
    assert (result.proven, result.reason) == (1, "proven win")
    assert wins_in_two(game, result.move)


KNOT = ["b2", "e5", "d6", "d3", "b3", "b4", "b5", "b6"]
"""tests/rules/test_nakeddiagonal_fast.py's 7x7 position: red's e3 and e4 are illegal, but the
proof needs far more than the search's 200 area-search nodes."""


def test_a_point_not_proven_within_the_node_budget_leaves_the_node_incomplete() -> None:
    def check() -> None:
        game = parse_record("nakeddiagonal 7: " + " ".join(KNOT[:-1]))
        searcher = Searcher(game, 1, DEFAULT_CONFIG)
        position = searcher.game.copy()  # the search's copy: the engine's search fast paths on
        names = position.grid.names
        position.play_index(names.index(KNOT[-1]))
        hard = [names.index("e3"), names.index("e4")]
        node = Node(names.index(KNOT[-1]), 0)
        searcher._expand(node, position, 0)
        assert node.children is not None
        assert all(node.unchecked >> p & 1 for p in hard), "listed before being decided"
        for child in node.children:
            if child.move not in hard:
                child.proven = -1  # so the selection has to try the hard points
        chosen = searcher._select(node, position)
        assert chosen.proven == -1, "neither hard point may be played"
        assert all(p not in node.by_point and not node.point_mask >> p & 1 for p in hard)
        assert not node.complete, "a node missing unproven points is never proved lost"

    with ThreadPoolExecutor(max_workers=1) as fresh:  # an area solver whose memo is empty
        fresh.submit(check).result()
