"""Same state, same bytes: renders depend on the position only, never on history of calls."""

from __future__ import annotations

import io
import math
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

import render
from render.board import PIECE_SAMPLE
from render.layout import board_layout
from render.themes import get_theme
from rules import new_game, parse_record

Games = Callable[..., Any]


def test_identical_states_give_identical_bytes(random_game: Games) -> None:
    game = random_game("clearpath", 9, 25, 3)
    first = render.render_board(game, names={"red": "A"}, show_illegal=True)
    # A different size in between must not leak through any cache.
    render.render_board(random_game("clearpath", 13, 5, 1))
    replayed = parse_record(game.record())
    assert render.render_board(replayed, names={"red": "A"}, show_illegal=True) == first
    assert render.render_board(game.copy(), names={"red": "A"}, show_illegal=True) == first


def test_different_states_give_different_bytes() -> None:
    a = new_game("minefield", 9)
    a.play("e5")
    b = new_game("minefield", 9)
    b.play("e4")
    assert render.render_board(a) != render.render_board(b)


def test_options_change_the_image(random_game: Games) -> None:
    game = random_game("minefield", 9, 20, 6)
    plain = render.render_board(game)
    assert render.render_board(game, show_illegal=True) != plain
    assert render.render_board(game, theme="high-contrast") != plain
    assert render.render_board(game, names={"black": "Ann"}) != plain


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(["minefield", "clearpath", "clearcut", "crosscut"]),
    turns=st.integers(min_value=0, max_value=40),
    seed=st.integers(min_value=0, max_value=10_000),
    theme=st.sampled_from(render.THEMES),
)
def test_any_position_shows_exactly_its_pieces(
    name: str, turns: int, seed: int, theme: str
) -> None:
    game = new_game(name)
    rnd = random.Random(seed)
    while not game.is_over and game.turn_number <= turns:
        game.play(rnd.choice(game.legal_moves()))
    image = Image.open(io.BytesIO(render.render_board(game, theme=theme))).convert("RGB")
    lay = board_layout(game.size)
    palette = get_theme(theme).palette(game.players)
    d = lay.radius * PIECE_SAMPLE / math.sqrt(2)
    zone = name == "crosscut"
    for index, owner in enumerate(game.cells()):
        x, y = lay.centre_of(index)
        got = {
            image.getpixel((int(x + sx * d), int(y + sy * d))) for sx in (-1, 1) for sy in (-1, 1)
        }
        if owner is not None:
            assert got == {palette.pieces[owner].fill}
        elif zone and game.grid.perimeter >> index & 1:
            assert got == {palette.perimeter}
        else:
            assert got == {palette.board}
