"""Connection knowledge and the distance reference player, against independent brute force."""

from __future__ import annotations

import heapq
import random

import pytest
from positions import live_positions

from ai.connection import (
    INFINITE,
    path_distance,
    run_distance,
    shortest_path_points,
    stone_masks,
)
from ai.reference import distance_move, distance_score, shadow_move, shadow_points
from ai.tactics import win_candidates
from rules import new_game
from rules.geometry import grid


def dijkstra(size: int, own: int, opp: int, player: int, sources: list[int]) -> list[int]:
    """Cost to reach every point from ``sources`` (each source's own cost included)."""
    g = grid(size)
    cost = [INFINITE] * g.area
    heap: list[tuple[int, int]] = []
    for p in sources:
        if not opp >> p & 1:
            c = 0 if own >> p & 1 else 1
            if c < cost[p]:
                cost[p] = c
                heapq.heappush(heap, (c, p))
    while heap:
        c, p = heapq.heappop(heap)
        if c > cost[p]:
            continue
        for q in g.orth[p]:
            if opp >> q & 1:
                continue
            nc = c + (0 if own >> q & 1 else 1)
            if nc < cost[q]:
                cost[q] = nc
                heapq.heappush(heap, (nc, q))
    return cost


def edge_points(size: int, player: int) -> tuple[list[int], list[int]]:
    n = size
    if player == 0:
        return list(range(n)), [n * (n - 1) + c for c in range(n)]
    return [r * n for r in range(n)], [r * n + n - 1 for r in range(n)]


def brute_distance(size: int, own: int, opp: int, player: int) -> tuple[int, int]:
    a, b = edge_points(size, player)
    from_a = dijkstra(size, own, opp, player, a)
    best = min(from_a[p] for p in b)
    if best >= INFINITE:
        return INFINITE, 0
    from_b = dijkstra(size, own, opp, player, b)
    on_path = 0
    for p in range(size * size):
        if (own | opp) >> p & 1:
            continue
        if from_a[p] + from_b[p] - 1 == best:
            on_path |= 1 << p
    return best, on_path


@pytest.mark.parametrize("size", [4, 5, 7, 9])
def test_distance_and_shortest_path_points_match_dijkstra(size: int) -> None:
    rng = random.Random(size)
    g = grid(size)
    for _ in range(300):
        own = opp = 0
        for p in range(g.area):
            roll = rng.random()
            if roll < 0.3:
                own |= 1 << p
            elif roll < 0.55:
                opp |= 1 << p
        for player in (0, 1):
            want_distance, want_points = brute_distance(size, own, opp, player)
            assert path_distance(g, own, opp, player) == want_distance
            got_distance, got_points = shortest_path_points(g, own, opp, player)
            assert got_distance == want_distance
            if want_distance not in (0, INFINITE):
                assert got_points == want_points


def test_empty_board_distances_and_a_blocked_player() -> None:
    g = grid(5)
    assert path_distance(g, 0, 0, 0) == 5 and path_distance(g, 0, 0, 1) == 5
    wall = g.rows[2]  # a whole row of the opponent's stones cuts every bottom-top path
    assert path_distance(g, 0, wall, 0) == INFINITE
    assert path_distance(g, g.cols[0], 0, 0) == 0


def test_run_distance_counts_missing_points_of_the_best_interior_line() -> None:
    g = grid(8)
    row = g.rows[3] & g.interior
    four = sum(1 << p for p in list(_bits(row))[:4])
    assert run_distance(8, four, 0) == 2
    blocker = 1 << list(_bits(row))[5]
    assert run_distance(8, four, blocker) == 2.5
    assert run_distance(8, 0, 0) == 6


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


@pytest.mark.parametrize("name", ["clearpath", "minefield", "clearcut", "nakeddiagonal"])
def test_win_candidates_contain_every_winning_point(name: str) -> None:
    rng = random.Random(11)
    checked = 0
    for game in live_positions(lambda: new_game(name, 5), rng, 120, (6, 26)):
        mask = win_candidates(game)
        assert mask is not None
        mover = game.to_move
        for p in game.legal_points():
            record = game.play_index(p)
            won = game.winner is not None and game.winner == record.player == mover
            game.pop()
            if won:
                assert mask >> p & 1, (game.record(), p)
                checked += 1
    assert checked > 0


@pytest.mark.slow
@pytest.mark.parametrize("size", [5, 6, 8])
def test_crosscut_win_candidates_contain_every_winning_point(size: int) -> None:
    """Random play rarely reaches a win in one, so half the moves are the distance player's,
    which builds lines; every legal point is tried, perimeter flips included."""
    rng = random.Random(size)
    checked = 0
    for _ in range(60):
        game = new_game("crosscut", size)
        while not game.is_over:
            mask = win_candidates(game)
            assert mask is not None
            for p in game.legal_points():
                record = game.play_index(p)
                won = game.winner is not None and game.winner == record.player
                game.pop()
                if won:
                    assert mask >> p & 1, (game.record(), game.grid.names[p])
                    checked += 1
            if rng.random() < 0.5:
                game.play(distance_move(game, rng))
            else:
                moves = game.legal_moves()
                game.play(moves[rng.randrange(len(moves))])
    assert checked > 20


@pytest.mark.parametrize(
    ("name", "size"),
    [("clearpath", 5), ("minefield", 5), ("crosscut", 6), ("clearcut", 5), ("nakeddiagonal", 5)],
)
def test_distance_player_plays_legal_games_to_the_end(name: str, size: int) -> None:
    rng = random.Random(3)
    game = new_game(name, size)
    while not game.is_over:
        before = game.state_key()
        move = distance_move(game, rng)
        assert game.state_key() == before, "the reference player must not change the game"
        assert move in game.legal_moves()
        game.play(move)
    assert game.winner is not None or game.is_draw


@pytest.mark.slow
@pytest.mark.parametrize("name", ["minefield", "clearcut", "nakeddiagonal", "crosscut"])
def test_distance_player_wins_at_once_blocks_and_else_maximises_the_score(name: str) -> None:
    rng = random.Random(5)
    size = 6 if name == "crosscut" else 5
    seen = {"win": 0, "block": 0, "score": 0}
    for game in live_positions(lambda: new_game(name, size), rng, 60, (2, 18)):
        mover = game.to_move
        player = game.players.index(str(mover))
        move = distance_move(game, rng)
        outcomes = {}
        for m in game.legal_moves():
            record = game.play(m)
            won = game.winner == record.player == mover
            score = distance_score(game, player)
            threat = False
            if not game.is_over and game.to_move != mover:
                for reply in game.legal_moves():
                    rec = game.play(reply)
                    threat = threat or (game.winner is not None and game.winner == rec.player)
                    game.pop()
            game.pop()
            outcomes[m] = (won, threat, score)
        if any(w for w, _, _ in outcomes.values()):
            assert outcomes[move][0]
            seen["win"] += 1
            continue
        safe = [m for m, (_, t, _) in outcomes.items() if not t]
        if safe and len(safe) < len(outcomes):
            assert move in safe
            seen["block"] += 1
        pool = safe or list(outcomes)
        assert outcomes[move][2] == max(outcomes[m][2] for m in pool)
        seen["score"] += 1
    assert seen["score"] > 0 and seen["win"] + seen["block"] > 0, seen


def test_stone_masks_read_the_position() -> None:
    game = new_game("minefield", 5)
    game.play("a1")
    game.play("e5")
    black, white = stone_masks(game)
    assert black == 1 and white == 1 << 24


def test_the_legality_aware_score_counts_minefield_points_a_player_may_not_take() -> None:
    """Black's d3 and white's d2 bar e2 and c2 to black (hard corners), so black needs 5, not
    4; white needs 4 either way.  The yardstick itself stays plain."""
    from rules.minefield import Minefield

    stones = {"black": ["d3", "e5"], "white": ["d2"]}
    game = Minefield.from_position(5, stones, to_move="black")
    assert distance_score(game, 0) == 0.0
    assert distance_score(game, 0, legality_aware=True) == -1.0
    assert distance_score(game, 1, legality_aware=True) == 1.0
    # The plain player builds up column e, whose path needs the barred e2 (e1, e4); the
    # aware one never does.
    rng = random.Random(1)
    plain_moves = {distance_move(game, rng) for _ in range(60)}
    aware_moves = {distance_move(game, rng, legality_aware=True) for _ in range(60)}
    assert {"e1", "e4"} <= plain_moves
    assert aware_moves == {"a2", "b2", "e3"}


def test_shadow_points_lie_across_the_last_stone_s_way() -> None:
    """Red (north-south) is answered above or below its stone, Blue beside it; nothing
    answers an empty history or the mover's own stone."""
    game = new_game("nakeddiagonal", 7)
    assert shadow_points(game) == []
    game.play("d4")  # Red
    assert sorted(game.grid.names[p] for p in shadow_points(game)) == ["d3", "d5"]
    game.play("b1")  # Blue on the edge: one neighbour is off the board
    assert sorted(game.grid.names[p] for p in shadow_points(game)) == ["a1", "c1"]
    edge = new_game("nakeddiagonal", 7)
    edge.play("g7")
    assert [edge.grid.names[p] for p in shadow_points(edge)] == ["g6"]
    chain = new_game("clearpath", 7)
    for move in ("a2", "g7"):
        chain.play(move)
    assert chain.play("a1").continues  # a1 is surrounded: Red places again
    assert shadow_points(chain) == []


def test_the_shadow_player_answers_beside_the_stone_when_it_can() -> None:
    """Naked Diagonal: Blue answers Red's stone above or below it; when both points are taken
    it falls back on the distance player's choice."""
    game = new_game("nakeddiagonal", 7)
    game.play("b6")
    for seed in range(5):
        assert shadow_move(game, random.Random(seed)) in {"b5", "b7"}
        assert distance_move(game, random.Random(seed)) not in {"b5", "b7"}
    game = new_game("nakeddiagonal", 7)
    for move in ("d3", "c4", "d5", "e4", "d4"):  # Red d3, d5 around Red's d4; Blue c4, e4
        game.play(move)
    red, blue = stone_masks(game)
    assert shadow_points(game) and all((red | blue) >> p & 1 for p in shadow_points(game))
    for seed in range(5):
        assert shadow_move(game, random.Random(seed)) == distance_move(game, random.Random(seed))


def test_the_shadow_player_still_wins_and_blocks_first() -> None:
    """A win in one beats a shadow answer, and so does blocking the opponent's win in one."""
    game = new_game("nakeddiagonal", 5)
    for move in ("c1", "a1", "c2", "a3", "c3", "a5", "c4", "e1"):
        game.play(move)
    assert shadow_move(game, random.Random(0)) == "c5"  # Red wins rather than shadow e1
    game = new_game("nakeddiagonal", 5)
    for move in ("c1", "a1", "c2", "a3", "c3", "a5", "c4", "e1", "e4"):
        game.play(move)
    assert sorted(game.grid.names[p] for p in shadow_points(game)) == ["e3", "e5"]
    assert shadow_move(game, random.Random(0)) == "c5"  # Blue blocks rather than shadow e4


def test_outside_the_path_games_the_shadow_player_is_the_distance_player() -> None:
    game = new_game("crosscut", 8)
    game.play("d4")
    for seed in range(3):
        assert shadow_move(game, random.Random(seed)) == distance_move(game, random.Random(seed))
