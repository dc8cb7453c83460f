"""Difficulty levels: parsing what players type, and the budgets behind each level."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ai import DEFAULT_LEVEL, LEVELS, AIPlayer, Budget, parse_level
from ai.playouts import OnPaths
from ai.pool import think
from bench import ai_ladder, ai_ratings
from rules import game_names, new_game


@pytest.mark.parametrize(
    ("text", "number"),
    [(None, DEFAULT_LEVEL), (1, 1), ("2", 2), (" 5 ", 5), ("Hard", 4), ("easy", 1), ("medium", 3)],
)
def test_levels_parse_from_numbers_and_names(text: int | str | None, number: int) -> None:
    assert parse_level(text).number == number


@pytest.mark.parametrize("text", [0, 6, "7", "impossible", "", True, "-1"])
def test_unknown_levels_are_refused_with_the_choices(text: int | str) -> None:
    with pytest.raises(ValueError, match=r"unknown AI level .*choose one of 1 \(easy\)"):
        parse_level(text)


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("size", [7, 8, 9])
def test_levels_get_stronger_on_every_board_and_all_have_a_time_cap(game: str, size: int) -> None:
    budgets = [LEVELS[n].budget_for(game, size) for n in sorted(LEVELS)]
    playouts = [b.playouts or 0 for b in budgets]
    seconds = [b.seconds or 0.0 for b in budgets]
    assert all(playouts) and all(seconds), "every level needs both caps to stay responsive"
    assert playouts == sorted(playouts) and len(set(playouts)) == len(playouts)
    assert seconds == sorted(seconds)
    assert not LEVELS[1].config.block and all(LEVELS[n].config.block for n in range(2, 6))


def test_board_playout_caps_name_real_boards_and_change_only_playouts() -> None:
    for level in LEVELS.values():
        for game, size, playouts in level.board_playouts:
            assert game in game_names() and new_game(game, size).size == size
            assert level.budget_for(game, size) == replace(level.budget, playouts=playouts)
    level = replace(LEVELS[3], board_playouts=(("minefield", 7, 200),))
    assert level.budget_for("minefield", 7) == Budget(playouts=200, seconds=level.budget.seconds)
    assert level.budget_for("minefield", 9) == level.budget
    assert level.budget_for("clearpath", 7) == level.budget
    assert level.budget_for("no such game", 7) == level.budget


@pytest.mark.slow
def test_the_search_stops_at_the_boards_own_cap() -> None:
    """``think`` (behind choose_move, ai_move and AIPlayer) asks the level for the budget of
    the board it is given, not the level's general one."""
    level = replace(
        LEVELS[3],
        budget=Budget(playouts=400, seconds=None),
        board_playouts=(("minefield", 7, 37),),
    )
    assert think(new_game("minefield", 7), level, seed=1).playouts == 37
    assert think(new_game("minefield", 9), level, seed=1).playouts == 400
    assert think(new_game("clearcut", 7), level, seed=1).playouts == 400


def test_path_playouts_start_at_level_3_in_minefield_and_naked_diagonal_only() -> None:
    """The A/B matches kept them in Minefield and Naked Diagonal and dropped them in Clearcut
    (docs/ai-experiments.md); the bottom levels stay plain so the steps to level 3 keep their
    width."""
    for n, level in LEVELS.items():
        guided = {
            game
            for game in game_names()
            if level.config.playout_for(game).cut_after
            and any(isinstance(rule, OnPaths) for rule in level.config.playout_for(game).rules)
        }
        assert guided == ({"minefield", "nakeddiagonal"} if n >= 3 else set())


def test_player_repr_names_its_level() -> None:
    assert repr(AIPlayer("hard")) == "AIPlayer(level=4 (hard))"


def test_describe_shows_the_rating_where_one_is_measured() -> None:
    for level in LEVELS.values():
        text = level.describe()
        assert text.startswith(f"{level.number} ({level.name}, ")
        if level.rating is None:
            assert text.endswith("not rated yet)")
        elif level.provisional:
            assert text.endswith(f"about {level.rating} Elo, provisional)")
        else:
            assert text.endswith(f"about {level.rating} Elo)")
    rated = [LEVELS[n].rating for n in sorted(LEVELS) if LEVELS[n].rating is not None]
    assert rated == sorted(rated), "a higher level must not be rated below a lower one"


def test_a_level_without_a_rating_says_so() -> None:
    """Every level is rated now; a new one starts unrated."""
    unrated = replace(LEVELS[5], number=6, name="master", rating=None, provisional=False)
    assert unrated.describe() == "6 (master, not rated yet)"


def test_displayed_ratings_are_the_ladder_fit_rounded() -> None:
    """ai/levels.py carries the ratings bench/ai_ladder.py fits to the recorded games (the
    paired ladder and the older alternating-seat matches), so a new game in the fit without a
    new rating on show (or the other way round) fails here."""
    fitted = ai_ladder.fitted().rating
    for number, level in LEVELS.items():
        assert level.rating == round(fitted[f"level {number}"], -1), number


def test_the_ladder_table_marks_each_cell_against_its_target() -> None:
    rows = [
        ("level 5", "distance", "clearpath", 100, 99.0),
        ("level 5", "level 4", "clearpath", 4, 2.0),
        ("level 1", "distance", "clearpath", 20, 6.0),
    ]
    timed = [("level 5", "distance", "nakeddiagonal", 53, 52.0)]
    table = ai_ratings.ladder_table(rows, timed)
    assert len(table) == 2 + len(ai_ratings.GAMES)
    clear_path = table[2].split(" | ")
    assert clear_path[1] == "6/20 (30%)"  # no target for level 1
    assert clear_path[4] == "99/100 (99%) ✔"
    assert clear_path[8] == "2/4 (50%) ✘ |"
    naked = table[-1].split(" | ")
    assert naked[4] == "52/53 (98%)* ✘"  # fewer than 100 games
    assert naked[1] == "not run"
