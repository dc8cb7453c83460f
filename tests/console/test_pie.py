"""``crosspath play --pie``: the pie rule chosen for a console game."""

from __future__ import annotations

import io
from typing import Any

from bot import console


def run_main(argv: list[str], lines: list[str]) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = console.main(argv, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out)
    return code, out.getvalue().splitlines()


def test_a_pie_game_offers_swap_and_says_so() -> None:
    code, lines = run_main(["minefield", "--size", "5", "--pie"], ["rules", "c3", "swap", "resign"])
    text = "\n".join(lines)
    assert "Minefield (pie rule) 5×5" in text
    assert (
        "Pie rule (chosen for this game): After Black's first turn, White may answer swap" in text
    )
    assert "swap (second player's first turn)" in text
    assert "white swaps (pie rule)" in text
    # After the swap white is still to move in the engine, now played by player 1, who resigns.
    assert "white (player 1) to move>" in text
    assert code == 0 and lines[-1] == "black wins"


def test_without_the_option_swap_is_refused() -> None:
    code, lines = run_main(["minefield", "--size", "5"], ["c3", "swap", "resign"])
    text = "\n".join(lines)
    assert "swap is not a move: this Minefield game is played without the pie rule" in text
    assert "swap (second player" not in text
    assert code == 0 and lines[-1] == "black wins"


def test_a_game_without_the_option_refuses_it(capsys: Any) -> None:
    assert console.main(["crosscut", "--pie"]) == 2
    assert "crosspath play: Crosscut has no pie rule" in capsys.readouterr().err


def test_the_computer_answers_the_first_turn_of_a_pie_game() -> None:
    code, lines = run_main(
        ["clearcut", "--size", "5", "--pie", "--vs", "ai", "--level", "1", "--seed", "3"],
        ["c3", "resign"],
    )
    text = "\n".join(lines)
    assert code == 0 and "Clearcut (pie rule) 5×5" in text
    # Its answer is a swap or a placement, and then it is the person's turn again.
    assert "blue (computer) swaps (pie rule)" in text or "blue (computer) plays" in text
    assert lines[-1].startswith(("red wins", "blue wins")) and "The computer wins" in lines[-1]
