"""The console's clocks: ``--clock`` (banks and per move), ``clock``, ``vacation N`` and
``back``, on a real (temporary) database."""

from __future__ import annotations

import io

import pytest

from bot import console


def run_main(argv: list[str], lines: list[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    code = console.main(argv, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out)
    return code, out.getvalue(), ""


def test_a_bank_shows_its_time_and_vacations_start_and_end() -> None:
    script = ["clock", "vacation 2", "vacation 1", "back", "back", "vacation x", "c3", "resign"]
    code, text, _ = run_main(["minefield", "--size", "5", "--clock", "3d+1d max 5d"], script)
    assert code == 0
    assert "time left: player 1 3d · player 2 3d" in text
    assert "player 1 is on vacation until" in text and "28 of 30 days left" in text
    assert "You are already on vacation until" in text
    assert "player 1 is back: the clocks run again (29 of 30 vacation days left)" in text
    assert "You are not on vacation." in text
    assert "write vacation and a number of days" in text
    assert "time left: player 1 4d · player 2 3d" in text  # +1 day after black's turn


def test_an_untimed_game_says_it_has_no_clock() -> None:
    code, text, _ = run_main(["minefield", "--size", "5"], ["clock", "resign"])
    assert code == 0 and "no clock" in text and "time left" not in text


@pytest.mark.parametrize("clock", ["3d+", "6d+1d max 5d", "3d+" + "9" * 500])
def test_a_bad_clock_is_refused_before_the_game(
    clock: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text, _ = run_main(["minefield", "--clock", clock], ["c3"])
    err = capsys.readouterr().err
    assert code == 2 and text == ""
    assert err.startswith("crosspath play: --clock: ") and "Traceback" not in err
    assert len(err) < 400
