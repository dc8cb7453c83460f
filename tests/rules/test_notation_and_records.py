"""Point names, the text record format, and the error messages players see."""

from __future__ import annotations

import pytest

from rules import (
    InvalidNotation,
    InvalidRecord,
    game_class,
    game_names,
    new_game,
    parse_point,
    parse_record,
    point_name,
)
from rules.errors import IllegalMove, UnknownGame


def test_point_names_round_trip_on_every_size() -> None:
    for size in range(4, 20):
        for i in range(size * size):
            assert parse_point(point_name(i, size), size) == i
    assert point_name(0, 9) == "a1" and point_name(80, 9) == "i9"
    assert point_name(19 * 19 - 1, 19) == "s19"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("z99", "off the board"),
        ("c0", "off the board"),
        ("j1", "off the board"),
        ("3c", "not a point"),
        ("", "no point given"),
        ("hello", "not a point"),
    ],
)
def test_bad_points_say_why(text: str, reason: str) -> None:
    with pytest.raises(InvalidNotation, match=reason):
        parse_point(text, 9)


def test_illegal_move_is_a_value_error() -> None:
    assert issubclass(IllegalMove, ValueError)
    assert issubclass(InvalidNotation, IllegalMove)


def test_registry_names_and_aliases() -> None:
    assert {"clearpath", "minefield", "crosscut", "clearcut"} <= set(game_names())
    assert new_game("Clear Path").name == "clearpath"
    assert new_game("clear-path", 5).size == 5
    with pytest.raises(UnknownGame, match="choose one of"):
        new_game("chess")


def test_record_format_example() -> None:
    g = new_game("minefield", 9)
    for move in ("e5", "d4", "c3"):
        g.play(move)
    assert g.record() == "minefield 9: e5 d4 c3"
    assert new_game("crosscut").record() == "crosscut 8:"
    assert parse_record("crosscut 8:").history == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("minefield 9 e5", "colon is missing"),
        ("minefield: e5", "starts with"),
        ("minefield x: e5", "size must be a number"),
        ("chess 8: e4", "unknown game"),
        ("minefield 30: e5", "4×4"),
        ("minefield 9: e5 e5", "move 2 'e5': e5 is occupied"),
        ("minefield 9: e5 d4 zz9", "move 3 'zz9'"),
        ("minefield 9: e5 - d4", "no turn was skipped"),
    ],
)
def test_bad_records_name_the_first_bad_token(text: str, message: str) -> None:
    with pytest.raises(InvalidRecord, match=message):
        parse_record(text)


def test_a_finished_game_refuses_moves_with_the_result() -> None:
    g = parse_record("minefield 4: b1 a2 b2 d2 b3 d3 b4")
    assert g.winner == "black"
    with pytest.raises(IllegalMove, match="the game is over: black won"):
        g.play("c1")


@pytest.mark.parametrize("name", game_names())
def test_every_game_states_its_title_goal_and_special_rules(name: str) -> None:
    """The bot and the console show these texts as they are: they must read as sentences."""
    cls = game_class(name)
    assert cls.title and cls.title[0].isupper()
    for size in (None, cls.min_size, cls.max_size):
        goal = cls.goal(size)
        assert goal and not goal.endswith(".")
    assert cls.special_rules.endswith(".") and cls.special_rules[0].isupper()


def test_a_leading_zero_is_named_as_such_not_off_the_board() -> None:
    with pytest.raises(InvalidNotation) as refused:
        parse_point("c03", 9)
    assert str(refused.value) == "c03 has a leading zero: write c3"
    with pytest.raises(InvalidNotation, match="off the board"):
        parse_point("c00", 9)  # no point to suggest
    with pytest.raises(InvalidNotation, match="off the board"):
        parse_point("c10", 9)
