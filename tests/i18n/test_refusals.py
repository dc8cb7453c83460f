"""Service and rules refusals carry their wording, and each shipped language reads it whole.

``str(exc)`` stays the English sentence (logs, the console and tests read it); a
:class:`~bot.i18n.Tongue` translates the template, fills in the values as given (points, what
was typed), translates a nested wording (the board's columns and rows, a colour) first, and
picks each language's plural form.
"""

from __future__ import annotations

import pytest

from bot.i18n import ENGLISH_TONGUE, SHIPPED, tongue
from bot.service import IllegalMoveError, NotYourTurn, TimeControl
from bot.service.clocks.softtime import _days
from rules import new_game
from rules.errors import N_, GameOver, IllegalMove, Wording


def refused(move: str) -> IllegalMove:
    game = new_game("minefield", size=5)
    game.play("c3")
    with pytest.raises(IllegalMove) as caught:
        game.play(move)
    return caught.value


def test_english_is_the_sentence_itself() -> None:
    off = refused("z9")
    assert str(off) == "z9 is off the board: this 5×5 board has columns a–e, rows 1–5"
    assert ENGLISH_TONGUE.refusal(off) == str(off)
    assert ENGLISH_TONGUE.refusal(NotYourTurn("It's not your turn.")) == "It's not your turn."


def test_a_rules_refusal_reads_whole_in_german_with_its_nested_board() -> None:
    de = tongue("de")
    wrapped = IllegalMoveError(refused("z9").wording, "z9")
    assert de.refusal(wrapped) == (
        "z9 liegt außerhalb des Bretts: dieses 5×5-Brett hat Spalten a–e, Zeilen 1–5"
    )
    assert de.refusal(refused("c3")) == "c3 ist besetzt"


def test_a_colour_inside_a_rules_sentence_is_translated() -> None:
    over = GameOver(N_("the game is over: {colour} won"), colour=Wording("black"))
    assert str(over) == "the game is over: black won"
    assert tongue("ru").refusal(over) == "партия окончена: победили чёрные"


@pytest.mark.parametrize("language", SHIPPED)
def test_every_language_translates_a_service_refusal(language: str) -> None:
    exc = NotYourTurn("It's not your turn.")
    assert tongue(language).refusal(exc) != str(exc)


def test_the_time_control_refusal_quotes_what_was_typed_in_japanese() -> None:
    from bot.service import InvalidTimeControl

    with pytest.raises(InvalidTimeControl) as caught:
        TimeControl.parse("soon")
    text = tongue("ja").refusal(caught.value)
    assert text.startswith("'soon' は持ち時間の指定ではありません"), text


@pytest.mark.parametrize(
    ("seconds", "english", "russian"),
    [(86400, "1 day", "1 день"), (3 * 86400, "3 days", "3 дня"), (5 * 86400, "5 days", "5 дней")],
)
def test_counted_wordings_take_each_languages_plural(
    seconds: int, english: str, russian: str
) -> None:
    limit = _days(seconds)
    assert str(limit) == english
    assert tongue("ru").say(limit) == russian


def test_a_wording_without_values_keeps_its_braces() -> None:
    assert str(Wording("{not a placeholder}")) == "{not a placeholder}"
