"""The words on the image and in the alt text: whose turn, the last move, counts, events."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import render
from render.caption import caption_for, clean_name, describe_last_turn
from render.fonts import bold, fit_text, text_width
from rules import new_game

Games = Callable[..., Any]


def test_alt_text_of_a_new_game() -> None:
    text = render.alt_text(new_game("clearpath", 9))
    assert text.startswith("Clear Path, 9×9 board. Turn 1, Red to move.")
    assert "Last move: none yet." in text
    assert "Red has 0 stones, Blue has 0 stones." in text


def test_alt_text_names_whose_turn_the_last_move_and_counts() -> None:
    game = new_game("minefield", 9)
    for move in ("e5", "d4", "c3"):
        game.play(move)
    text = render.alt_text(game, {"black": "Alice", "white": "Bob"})
    assert "Turn 4, White (Bob) to move." in text
    assert "Last move: Black played c3." in text
    assert "Black has 2 stones, White has 1 stone." in text
    assert len(text) < 300


def test_alt_text_uses_each_games_piece_word(random_game: Games) -> None:
    assert "discs" in render.alt_text(random_game("crosscut", 8, 6, 1))
    assert "checkers" in render.alt_text(random_game("clearcut", 9, 6, 1))


def test_winner_and_path_are_announced(random_game: Games) -> None:
    game = random_game("clearpath", 9, 400, 1)
    assert game.winner is not None
    winner = game.winner.capitalize()
    assert f"{winner} won." in render.alt_text(game)
    cap = caption_for(game)
    assert cap.title.endswith(f"{winner} wins")
    assert [c.winner for c in cap.players] == [c == game.winner for c in game.players]
    assert not any(c.to_move for c in cap.players)


def test_a_skip_is_stated(turn_finder: Games) -> None:
    game = turn_finder("minefield", lambda g, turn: turn[-1].skipped is not None)
    skipped = game.last_move.skipped.capitalize()
    assert f"{skipped} is skipped" in describe_last_turn(game)
    assert f"{skipped} is skipped" in render.alt_text(game)


def test_a_swap_is_stated() -> None:
    game = new_game("clearpath", 9)
    game.play("e5")
    assert "swap" in game.legal_moves()
    game.play("swap")
    assert "swapped" in describe_last_turn(game)
    assert "swapped" in render.alt_text(game)


@pytest.mark.parametrize("name", ["minefield", "clearcut", "nakeddiagonal"])
def test_the_pie_option_is_on_the_caption_in_every_form(name: str) -> None:
    game = new_game(name, 9, pie=True)
    game.play("e5")
    game.play("swap")
    cap = caption_for(game)
    title = f"{game.title} (pie rule)"
    assert cap.title.startswith(f"{title} 9×9")
    assert all(form.startswith(title) for form in cap.title_options)
    assert "swapped" in cap.event
    assert render.alt_text(game).startswith(f"{title}, 9×9 board.")
    plain = caption_for(new_game(name, 9))
    assert "pie" not in " ".join(plain.title_options)


def test_crosscut_flips_and_removals_are_stated(turn_finder: Games) -> None:
    game = turn_finder("crosscut", lambda g, t: bool(t[-1].flipped) and not t[-1].stays)
    record = game.last_move
    text = describe_last_turn(game)
    assert f"played {record.point} (perimeter: removed)" in text
    assert "flipped " + " ".join(record.flipped) in text


def test_clear_path_chain_is_listed(turn_finder: Games) -> None:
    game = turn_finder("clearpath", lambda g, turn: len(turn) >= 2)
    points = [r.point for r in game.last_turn()]
    assert " → ".join(points) in describe_last_turn(game)


def test_caption_marks_the_player_to_move_and_shows_names() -> None:
    game = new_game("crosscut", 8)
    game.play("d4")
    cap = caption_for(game, {"red": "Zoë", "blue": "Bob\n\tthe\x00 builder"})
    assert cap.title == "Crosscut 8×8 · Turn 2 · Blue to move"
    assert [c.to_move for c in cap.players] == [False, True]
    assert [c.label for c in cap.players] == ["Red: Zoë", "Blue: Bob the builder"]


def test_clean_name_removes_control_characters() -> None:
    assert clean_name("  a\nb\x07  c ") == "a b c"
    assert clean_name("evil\u202etxt.exe") == "evil txt.exe"  # no direction override


def test_clean_name_keeps_emoji_sequences_whole() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # 👨‍👩‍👧, joined by ZWJ
    scotland = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + "\U000e007f"
    assert clean_name(f"{family} {scotland} Ann") == f"{family} {scotland} Ann"


def test_long_text_is_ellipsised_to_fit() -> None:
    text = "a really very long display name " * 4
    fitted = fit_text(text, 20, 200)
    assert fitted.endswith("…") and text_width(fitted, 20) <= 200
    assert fit_text("short", 20, 200) == "short"


def test_fitting_is_the_longest_prefix_that_fits() -> None:
    text = "x" * 5000
    fitted = fit_text(text, 18, 300)
    assert text_width(fitted, 18) <= 300
    longer = text[: len(fitted)] + "…"  # one more character than kept
    assert text_width(longer, 18) > 300


def test_long_names_are_capped_in_alt_text() -> None:
    game = new_game("minefield", 9)
    text = render.alt_text(game, {"black": "N" * 5000})
    assert len(text) <= 1000
    assert "Black (" + "N" * 39 + "…) to move" in text
    assert clean_name("ab" * 100).endswith("…") and len(clean_name("ab" * 100)) == 40


def test_pillows_default_font_stands_in_if_the_shipped_font_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from render import fonts

    monkeypatch.setattr(fonts, "FONT_FILE", tmp_path / "missing.ttf")
    fonts.bold.cache_clear()
    try:
        fallback = fonts.bold(21)
        assert fonts.text_width("abc", 21) > 0
        assert "DejaVu" not in " ".join(getattr(fallback, "getname", lambda: ("",))())
    finally:
        fonts.bold.cache_clear()  # the shipped font again once the patch is undone


def test_the_shipped_font_is_used() -> None:
    assert bold(21).getname() == ("DejaVu Sans", "Bold")
