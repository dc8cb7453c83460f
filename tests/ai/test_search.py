"""The search against the real engines: legality, tactics, budgets and determinism."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import live_positions, opponent_wins_after, random_position, wins_now

from ai import Budget, SearchConfig, choose_move, search
from bench.ai_bench import PLAIN_UCT
from rules import Game, game_names, new_game, parse_record

SMALL = {"crosscut": 6}
FAST_GAMES = [
    name for name in ("minefield", "crosscut", "clearcut", "clearpath") if name in game_names()
]


def small_game(name: str) -> Game:
    return new_game(name, SMALL.get(name, 5))


def positions_where(name: str, want: str, count: int, seed: int) -> list[Game]:
    """Random mid-game positions where the mover can win at once ("win"), or where some moves
    lose at once and some do not ("block")."""
    rng = random.Random(seed)
    found: list[Game] = []
    for game in live_positions(lambda: small_game(name), rng, 400, (4, 30)):
        moves = game.legal_moves()
        if want == "win":
            ok = any(wins_now(game, m) for m in moves)
        else:
            losing = [opponent_wins_after(game, m) for m in moves]
            ok = not any(wins_now(game, m) for m in moves) and any(losing) and not all(losing)
        if ok:
            found.append(game)
            if len(found) == count:
                break
    assert len(found) == count, f"only {len(found)} {want} positions found in {name}"
    return found


# ----- legality ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", FAST_GAMES)
def test_self_play_games_are_legal_to_the_end(name: str) -> None:
    game = small_game(name)
    plies = 0
    while not game.is_over:
        move = choose_move(game, budget=Budget(playouts=8), seed=plies)
        assert move in game.legal_moves()
        game.play(move)  # raises IllegalMove if the AI were wrong
        plies += 1
    assert game.winner is not None or game.is_draw
    assert parse_record(game.record()).state_key() == game.state_key()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(FAST_GAMES),
    plies=st.integers(min_value=0, max_value=25),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_chosen_move_is_always_legal(name: str, plies: int, seed: int) -> None:
    game = random_position(small_game(name), random.Random(seed), plies)
    if game.is_over:
        return
    before = game.state_key()
    result = search(game, Budget(playouts=20), seed=seed)
    assert game.state_key() == before, "the search must not change the caller's game"
    assert result.move in game.legal_moves()


@pytest.mark.parametrize("name", game_names())
def test_every_registered_game_gets_a_legal_move(name: str) -> None:
    """Generic over rules.Game: any game in the registry (slow ones too) works unchanged."""
    game = random_position(small_game(name), random.Random(1), 4)
    assert not game.is_over
    result = search(game, Budget(playouts=4, seconds=20.0), seed=1)
    assert result.move in game.legal_moves()


def test_finished_game_is_refused() -> None:
    game = parse_record("minefield 5: c1 a1 c2 a2 c3 a3 c4 e1 c5")
    assert game.is_over
    with pytest.raises(ValueError, match="the game is over"):
        choose_move(game, budget=Budget(playouts=5))


# ----- tactics ----------------------------------------------------------------------------


def test_takes_the_win_in_a_known_position() -> None:
    game = parse_record("minefield 5: c1 a1 c2 a2 c3 a3 c4 e1")
    result = search(game, Budget(playouts=50), seed=0)
    assert result.move == "c5"
    assert result.reason == "wins at once"


def test_blocks_in_a_known_position() -> None:
    game = parse_record("minefield 5: c1 a1 c2 a2 c3 a3 c4")
    assert game.to_move == "white"
    assert wins_now(parse_record(game.record() + " e1"), "c5"), "black must threaten c5"
    move = choose_move(game, budget=Budget(playouts=50), seed=0)
    assert not opponent_wins_after(game, move)


@pytest.mark.parametrize("name", FAST_GAMES)
def test_takes_an_immediate_win(name: str) -> None:
    for i, game in enumerate(positions_where(name, "win", 4, seed=11)):
        move = choose_move(game, budget=Budget(playouts=10), seed=i)
        assert wins_now(game, move), f"{game.record()}: chose {move}"


@pytest.mark.parametrize("name", FAST_GAMES)
def test_blocks_an_immediate_loss(name: str) -> None:
    for i, game in enumerate(positions_where(name, "block", 4, seed=12)):
        move = choose_move(game, budget=Budget(playouts=10), seed=i)
        assert not opponent_wins_after(game, move), f"{game.record()}: chose {move}"


def test_level_one_does_not_look_for_blocks() -> None:
    """Easy mode is allowed to blunder: without the scan it often ignores the threat."""
    game = parse_record("minefield 5: c1 a1 c2 a2 c3 a3 c4")
    easy = SearchConfig(block=False)
    moves = {search(game, Budget(playouts=1), seed=s, config=easy).move for s in range(20)}
    assert any(opponent_wins_after(game, m) for m in moves)


def forced_wins_in_two(game: Game) -> list[str]:
    """Brute force: moves after which every reply leaves the mover a win in one."""
    forced = []
    for move in game.legal_moves():
        game.play(move)
        if not game.is_over and all(
            _reply_leaves_a_win(game, reply) for reply in game.legal_moves()
        ):
            forced.append(move)
        game.pop()
    return forced


def _reply_leaves_a_win(game: Game, reply: str) -> bool:
    game.play(reply)
    try:
        return not game.is_over and any(wins_now(game, m) for m in game.legal_moves())
    finally:
        game.pop()


@pytest.mark.parametrize("config", [SearchConfig(), SearchConfig(win_check=False)])
def test_solver_proves_a_double_threat_win(config: SearchConfig) -> None:
    # Black b1 b2 / d1 d2 below, c4 c5 above: c3 (among others) threatens b3 and d3 at once.
    game = parse_record("minefield 5: b1 a5 b2 e5 d1 a4 d2 e4 c5 a1 c4 e1")
    assert not any(wins_now(game, m) for m in game.legal_moves())
    forced = forced_wins_in_two(game)
    assert "c3" in forced
    result = search(game, Budget(playouts=400), seed=1, config=config)
    assert result.reason == "proven win"
    assert result.move in forced
    assert result.playouts < 400, "a solved root stops the search early"


def test_solver_proves_a_lost_position() -> None:
    # Black's columns b and d each need one more stone (b5, d5): White cannot stop both.
    lost = parse_record("minefield 5: b1 a3 b2 a4 b3 e3 b4 e1 d1 e2 d2 a1 d3 e4 d4")
    assert lost.to_move == "white"
    result = search(lost, Budget(playouts=300), seed=3)
    assert result.move in lost.legal_moves()
    assert result.proven == -1
    assert result.reason == "proven loss"
    assert all(opponent_wins_after(lost, m) for m in lost.legal_moves())


# ----- budgets and determinism -------------------------------------------------------------


@pytest.mark.parametrize("playouts", [1, 37, 200])
def test_playout_budget_is_exact(playouts: int) -> None:
    result = search(new_game("minefield", 7), Budget(playouts=playouts), seed=5)
    assert result.reason == "search"
    assert result.playouts == playouts


def test_time_budget_is_respected_with_a_generous_margin() -> None:
    result = search(new_game("minefield", 7), Budget(seconds=0.4), seed=5)
    assert result.playouts > 0
    assert result.seconds < 0.4 + 1.5


def test_both_limits_stop_at_whichever_comes_first() -> None:
    result = search(new_game("minefield", 7), Budget(playouts=25, seconds=30.0), seed=5)
    assert result.playouts == 25
    assert result.seconds < 30.0


@pytest.mark.parametrize("config", [SearchConfig(), PLAIN_UCT])
def test_same_seed_same_move(config: SearchConfig) -> None:
    game = random_position(new_game("minefield", 7), random.Random(4), 6)
    first = search(game, Budget(playouts=150), seed=99, config=config)
    again = search(game, Budget(playouts=150), seed=99, config=config)
    assert (first.move, first.value, first.playouts) == (again.move, again.value, again.playouts)


def test_different_seeds_explore_differently() -> None:
    game = new_game("minefield", 7)
    moves = {search(game, Budget(playouts=3), seed=s).move for s in range(8)}
    assert len(moves) > 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "needs a number of playouts"),
        ({"playouts": 0}, "at least 1"),
        ({"playouts": 2.5}, "whole number"),
        ({"seconds": -1.0}, "positive number"),
        ({"seconds": float("nan")}, "positive number"),
    ],
)
def test_bad_budgets_are_refused(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Budget(**kwargs)  # type: ignore[arg-type]
