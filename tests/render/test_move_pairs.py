"""The costliest moves drawn (render/reports/move_pairs.py): a row per move, two boards a row."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from render.reports.move_pairs import BOARD, render_move_pairs
from rules import new_game


def position(seed: int) -> object:
    game = new_game("minefield", 7)
    rng = random.Random(seed)
    for _ in range(8):
        game.play(rng.choice(game.legal_moves()))
    return game


def test_each_move_is_a_row_of_two_small_boards() -> None:
    one = Image.open(io.BytesIO(render_move_pairs([(position(1), "a", position(2), "b")])))
    three = Image.open(
        io.BytesIO(render_move_pairs([(position(s), "a", position(s + 1), "b") for s in range(3)]))
    )
    assert one.width == three.width < 3 * BOARD  # two boards side by side, phone-sized
    assert three.height > 2.5 * one.height  # three rows
    # The two boards of a row differ where the positions differ.
    assert (
        one.crop((0, 40, one.width // 2, one.height)).tobytes()
        != one.crop((one.width // 2, 40, one.width, one.height)).tobytes()
    )


def test_nothing_to_draw_is_refused() -> None:
    with pytest.raises(ValueError, match="no moves"):
        render_move_pairs([])
