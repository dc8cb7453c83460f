"""The pie rule: always on in Clear Path, an option in Minefield, Clearcut and Naked Diagonal.

A swap exchanges the players' colours and leaves the stones where they are; it is offered
only as the second player's answer to the first player's first complete turn.  These tests
play random games with the rule on (swapping at that moment about half of the time) and
check that records replay exactly, undo restores every state, and swap is legal exactly
then.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import Referee

from rules import (
    IllegalMove,
    InvalidOptions,
    InvalidRecord,
    RuleViolation,
    UnknownGame,
    game_class,
    new_game,
    parse_record,
    split_variant,
    variant_title,
)
from rules.base import Game

OPTION_GAMES = ("minefield", "clearcut", "nakeddiagonal")
PIE_GAMES = ("clearpath", *OPTION_GAMES)
SIZES = (4, 5, 6)
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)


def swap_moment(game: Game) -> bool:
    """The pie rule's moment, written out from the rule: the second colour to move, every
    move so far the first colour's, the last one ending its turn, and no swap yet."""
    history = game.history
    return (
        game.pie
        and not game.is_over
        and not game.swapped
        and game.to_move == game.players[1]
        and bool(history)
        and all(r.player == game.players[0] for r in history)
        and not history[-1].continues
    )


def pie_game(name: str, rnd: random.Random, max_plies: int = 60) -> list[tuple[Game, bool]]:
    """A random pie game of ``name``: each position (a copy) and whether swap was offered.

    At the swap moment it swaps half of the time, so both branches are covered."""
    game = new_game(name, rnd.choice(SIZES), pie=True)
    seen: list[tuple[Game, bool]] = []
    while not game.is_over and len(seen) < max_plies:
        moves = game.legal_moves()
        offered = "swap" in moves
        seen.append((game.copy(), offered))
        if offered and rnd.random() < 0.5:
            game.play("swap")
        else:
            points = [m for m in moves if m != "swap"]
            game.play(rnd.choice(points))
    seen.append((game.copy(), "swap" in game.legal_moves()))
    return seen


@pytest.mark.parametrize("name", PIE_GAMES)
@SETTINGS
@given(seed=seeds)
def test_swap_is_legal_exactly_at_the_pie_moment(name: str, seed: int) -> None:
    rnd = random.Random(seed)
    for game, offered in pie_game(name, rnd):
        assert offered == swap_moment(game), game.record()
        trial = game.copy()
        if offered:
            record = trial.play("swap")
            assert record.swap and record.point is None and record.player == game.players[1]
            assert trial.swapped and trial.cells() == game.cells()  # the stones stay
            assert trial.to_move == game.players[1]  # the first player, now second colour
        else:
            with pytest.raises(IllegalMove, match="game is over" if game.is_over else "swap"):
                trial.play("swap")
            assert trial.state_key() == game.state_key()


@pytest.mark.parametrize("name", PIE_GAMES)
@SETTINGS
@given(seed=seeds)
def test_pie_games_replay_exactly_from_their_records(name: str, seed: int) -> None:
    rnd = random.Random(seed)
    game = pie_game(name, rnd, max_plies=400)[-1][0]
    text = game.record()
    assert text.startswith(f"{name} {game.size} pie:" if name in OPTION_GAMES else f"{name} ")
    again = parse_record(text)
    assert again.pie and again.variant == game.variant
    assert again.record() == text
    assert again.state_key() == game.state_key()
    assert again.history == game.history
    assert again.swapped == game.swapped == any(r.swap for r in game.history)


@pytest.mark.parametrize("name", PIE_GAMES)
@SETTINGS
@given(seed=seeds)
def test_undo_restores_every_state_across_a_swap(name: str, seed: int) -> None:
    rnd = random.Random(seed)
    positions = pie_game(name, rnd)
    end = positions[-1][0]
    game = end.copy()
    copy = game.copy()
    for before, offered in reversed(positions[:-1]):
        game.pop()
        assert game.state_key() == before.state_key()
        assert game.swapped == before.swapped
        assert ("swap" in game.legal_moves()) == offered
    assert not game.history and not game.swapped
    # The copy taken at the end kept its own state through all those pops.
    assert copy.state_key() == end.state_key() and copy.history == end.history
    assert parse_record(copy.record()).state_key() == copy.state_key()


def test_the_default_is_the_rule_sheets() -> None:
    assert new_game("clearpath").pie
    for name in (*OPTION_GAMES, "crosscut"):
        game = new_game(name)
        assert not game.pie and game.variant == name
        game.play(game.legal_moves()[0])
        assert "swap" not in game.legal_moves()
        with pytest.raises(RuleViolation, match=r"without the pie rule|has no pie rule"):
            game.play("swap")
    assert new_game("crosscut", pie=False).variant == "crosscut"
    assert new_game("clearpath", pie=True).variant == "clearpath"


def test_the_option_is_refused_where_the_rules_do_not_allow_it() -> None:
    with pytest.raises(InvalidOptions, match="Crosscut has no pie rule"):
        new_game("crosscut", pie=True)
    with pytest.raises(InvalidOptions, match="Clear Path is always played with the pie rule"):
        new_game("clearpath", pie=False)
    with pytest.raises(InvalidOptions, match="true or false"):
        new_game("minefield", pie="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", OPTION_GAMES)
def test_a_swap_in_each_option_game(name: str) -> None:
    game = new_game(name, 5, pie=True)
    first, second = game.players
    assert game.variant == f"{name}+pie"
    assert game.variant_title == f"{game.title} (pie rule)"
    game.play("c3")
    assert game.legal_moves()[-1] == "swap"
    game.play("swap")
    assert game.at("c3") == first and game.to_move == second and game.swapped
    assert game.turn_number == 3
    game.play("b2")
    assert game.record() == f"{name} 5 pie: c3 swap b2"
    with pytest.raises(RuleViolation, match=f"{second}'s reply"):
        game.play("swap")


@pytest.mark.parametrize("name", PIE_GAMES)
def test_a_first_turn_is_one_placement_so_swap_answers_it(name: str) -> None:
    # The rule says "after the first player's first turn, with every placement of it"; on an
    # empty board no point is surrounded (a corner has two open sides), so no game's first
    # turn goes on, and the swap is offered right after the first placement.
    for size in (4, 5):
        game = new_game(name, size, pie=True)
        for point in list(game.legal_moves()):
            record = game.play(point)
            assert not record.continues and "swap" in game.legal_moves()
            game.pop()


def test_records_say_the_option_and_readers_check_it() -> None:
    assert parse_record("minefield 5 pie: c3 swap").swapped
    assert parse_record("minefield 5 PIE: c3").pie
    assert parse_record("clearpath 5 pie: c3 swap").record() == "clearpath 5: c3 swap"
    with pytest.raises(InvalidRecord, match="move 2 'swap'"):
        parse_record("minefield 5: c3 swap")
    with pytest.raises(InvalidRecord, match="Crosscut has no pie rule"):
        parse_record("crosscut 6 pie: c3")
    with pytest.raises(InvalidRecord, match="not a game option"):
        parse_record("minefield 5 pi: c3")
    with pytest.raises(InvalidRecord, match="starts with"):
        parse_record("minefield 5 pie pie: c3")


def test_variant_names() -> None:
    assert split_variant("minefield+pie") == (game_class("minefield"), True)
    assert split_variant("clearcut") == (game_class("clearcut"), None)
    assert variant_title("nakeddiagonal+pie") == "Naked Diagonal (pie rule)"
    assert variant_title("clearpath") == "Clear Path"
    for bad in ("crosscut+pie", "clearpath+pie", "minefield+swap", "chess+pie"):
        with pytest.raises(UnknownGame):
            split_variant(bad)


def test_a_set_up_position_offers_swap_only_after_a_first_turn_played_in_it() -> None:
    cls = game_class("minefield")
    game = cls.from_position(5, {"black": ["c3"]}, "white", pie=True)
    assert game.pie and "swap" not in game.legal_moves()
    game = cls.from_position(5, {"white": ["c3"]}, "black", pie=True)
    game.play("b2")
    assert "swap" in game.legal_moves()


@pytest.mark.parametrize("name", ["minefield", "clearcut"])
def test_pie_games_agree_with_the_literal_reference(name: str) -> None:
    # The reference (tests/rules/reference.py) runs the pie rule as the ruling reads: swap
    # offered to the second player while every move so far is the first player's.
    rnd = random.Random(f"pie-{name}")
    for index in range(12):
        n = 4 + index % 2
        game, ref = new_game(name, n, pie=True), Referee(name, n, pie=True)
        while not game.is_over:
            assert set(game.legal_moves()) == ref.moves(), game.record()
            assert game.to_move == game.players[ref.turn]
            moves = sorted(ref.moves())
            move = "swap" if "swap" in moves and index % 3 else rnd.choice(moves)
            game.play(move)
            ref.play(move)
        assert ref.over and game.winner == (
            None if ref.winner is None else game.players[ref.winner]
        )


def test_no_swap_in_the_middle_of_the_second_players_first_chain() -> None:
    game = new_game("clearpath", 4)
    game.play("b1")
    record = game.play("a1")  # a corner next to b1: surrounded, so Blue places again
    assert record.continues and game.to_move == "blue" and game.turn_number == 2
    assert "swap" not in game.legal_moves()
    with pytest.raises(RuleViolation, match="blue's reply to red's first turn"):
        game.play("swap")
