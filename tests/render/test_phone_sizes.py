"""Boards as players see them: a phone shows every image about 400 px wide.

Measured on real images and scaled to that width: caption letters, chain numbers and edge
bars are large enough to read; long names are shortened, never dropped; the last placement of a
chain and a last-move ring on the winning path stand out; flip lists read in board order.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

import render
from render.board import caption_plan
from render.caption import caption_for, describe_last_turn
from render.layout import PHONE_WIDTH, Layout, board_layout
from render.themes import RGB, Palette, get_theme
from render.tiles import BADGE_RADIUS, HALO_RING
from rules import Game, game_class, game_names, new_game
from rules.notation import parse_point

Games = Callable[..., Any]

# DejaVu Sans Bold capitals are 0.73 em tall: 9 px is a 12.3 px font, the least that reads.
MIN_CAPITAL_PX = 9.0
MIN_TITLE_CAPITAL_PX = 10.5
MIN_DIGIT_PX = 6.0  # chain numbers, at least as tall as a lower-case letter of the caption
MIN_BAR_PX = 5.5


def phone(pixels: float, image: Image.Image) -> float:
    return pixels * PHONE_WIDTH / image.width


def board_image(game: Game, names: dict[str, str] | None = None) -> Image.Image:
    return Image.open(io.BytesIO(render.render_board(game, names=names))).convert("RGB")


def palette_of(game: Game) -> Palette:
    return get_theme(render.THEMES[0]).palette(game.players)


def capital_height(image: Image.Image, panel: RGB, left: int, y: int, size: int) -> int:
    """Rows with ink in the first letter's columns of the caption line centred at ``y``."""
    rows = [
        yy
        for yy in range(y - round(size * 0.6), y + round(size * 0.6))
        if any(image.getpixel((x, yy)) != panel for x in range(left, left + round(size * 0.55)))
    ]
    return max(rows) - min(rows) + 1 if rows else 0


@pytest.mark.parametrize(("name", "size"), [("clearpath", 5), ("minefield", 9), ("minefield", 19)])
def test_caption_letters_read_at_phone_width(name: str, size: int, random_game: Games) -> None:
    game = random_game(name, size, 6, 1)
    image = board_image(game)
    lay = board_layout(size)
    panel = palette_of(game).panel
    left = lay.pad + 4
    # Title ("Clear Path…", "Minefield…") and last turn ("Red played…", "White played…").
    title = capital_height(image, panel, left, lay.title_y, lay.title_font)
    event = capital_height(image, panel, left, lay.event_y, lay.body_font)
    assert phone(title, image) >= MIN_TITLE_CAPITAL_PX, phone(title, image)
    assert phone(event, image) >= MIN_CAPITAL_PX, phone(event, image)


LONG_WORD = "xXx_DragonSlayer_9000_TheGrea"


SIZES = [
    # A random 19x19 Naked Diagonal game takes some 15 s to play to its end (every placement's
    # legality is an area search): that case runs in the full suite, not the quick loop.
    pytest.param(
        name, size, marks=[pytest.mark.slow] if size > 13 and name == "nakeddiagonal" else []
    )
    for name in sorted(game_names())
    for size in (game_class(name).min_size, game_class(name).max_size)
]


@pytest.mark.parametrize(("name", "size"), SIZES)
def test_a_long_one_word_name_is_shortened_never_dropped(
    name: str, size: int, turn_finder: Games
) -> None:
    game = turn_finder(name, lambda g, _: g.winner is not None, size)
    names = {colour: LONG_WORD for colour in game.players}
    plan = caption_plan(board_layout(size), caption_for(game, names))
    for colour, line in zip(game.players, plan.chips, strict=True):
        word = colour.capitalize()
        label = line.text.removesuffix("  ★ winner").removesuffix("  ★")
        assert label.startswith(f"{word}: {LONG_WORD[:6]}"), line.text
        assert label == f"{word}: {LONG_WORD}" or label.endswith("…"), line.text


def ink_box(image: Image.Image, lay: Layout, point: int, colour: RGB) -> tuple[int, int]:
    """Width and height of the ``colour`` pixels inside a piece (its number)."""
    x, y = lay.centre_of(point)
    r = lay.radius * 0.7
    crop = image.crop((int(x - r), int(y - r), int(x + r), int(y + r)))
    found = [
        (i, j)
        for i in range(crop.width)
        for j in range(crop.height)
        if crop.getpixel((i, j)) == colour
    ]
    assert found
    xs, ys = [i for i, _ in found], [j for _, j in found]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def long_chain(turn_finder: Games) -> Game:
    game: Game = turn_finder("clearpath", lambda _, turn: len(turn) >= 12, 19)
    return game


def test_two_digit_chain_numbers_read_at_phone_width(turn_finder: Games) -> None:
    game = long_chain(turn_finder)
    turn = game.last_turn()
    image = board_image(game)
    lay = board_layout(19)
    mark = palette_of(game).pieces[turn[0].player].mark
    for number in (5, 10, 11, 12):
        point = turn[number - 1].point
        assert point is not None
        width, height = ink_box(image, lay, parse_point(point, 19), mark)
        assert phone(height, image) >= MIN_DIGIT_PX, (number, phone(height, image))
        assert width < lay.radius * 2 * 0.75, number  # inside the piece, clear of its rim


def test_the_last_placement_of_a_chain_is_ringed(turn_finder: Games) -> None:
    game = long_chain(turn_finder)
    turn = game.last_turn()
    image = board_image(game)
    lay = board_layout(19)
    pieces = palette_of(game).pieces[turn[0].player]
    for k, record in enumerate(turn):
        assert record.point is not None
        x, y = lay.centre_of(parse_point(record.point, 19))
        rim = [
            image.getpixel((x + dx * lay.radius * HALO_RING, y + dy * lay.radius * HALO_RING))
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        ]
        last = k == len(turn) - 1
        assert (rim == [pieces.mark] * 4) == last, (record.point, rim)


def test_a_last_move_ring_on_the_winning_path_sits_on_a_badge(turn_finder: Games) -> None:
    def last_on_path(game: Game, turn: tuple[Any, ...]) -> bool:
        return game.winner is not None and turn[-1].point in game.winning_path

    game = turn_finder("minefield", last_on_path, 9)
    point = game.last_turn()[-1].point
    image = board_image(game)
    lay = board_layout(9)
    palette = palette_of(game)
    pieces = palette.pieces[game.last_turn()[-1].player]
    x, y = lay.centre_of(parse_point(point, 9))
    half = lay.radius * BADGE_RADIUS * 0.7
    box = image.crop((int(x - half), int(y - half), int(x + half), int(y + half)))
    colours = {c for _, c in box.getcolors(1 << 16) or []}
    assert pieces.mark in colours and pieces.fill in colours  # the ring, on the badge
    assert palette.path not in colours  # the line passes under the badge, not over the ring


def test_flips_are_listed_in_board_order(turn_finder: Games) -> None:
    def unsorted_flips(game: Game, turn: tuple[Any, ...]) -> bool:
        flips = list(turn[-1].flipped)
        return len(flips) >= 3 and flips != sorted(flips, key=board_order(game.size))

    game = turn_finder("crosscut", unsorted_flips)
    flips = game.last_turn()[-1].flipped
    listed = describe_last_turn(game).split("flipped ")[1].split(" · ")[0].split()
    assert listed == sorted(flips, key=board_order(game.size))


def board_order(size: int) -> Callable[[str], tuple[int, int]]:
    def key(point: str) -> tuple[int, int]:
        row, col = divmod(parse_point(point, size), size)
        return col, row

    return key


@pytest.mark.parametrize("size", [4, 9, 13, 19])
def test_minefield_edge_bars_read_at_phone_width(size: int) -> None:
    game = new_game("minefield", size)
    image = board_image(game)
    lay = board_layout(size)
    white = palette_of(game).pieces["white"]
    # The white bar left of the board, measured across on its middle row.
    y = lay.y0 + lay.board_px // 2
    inside = [x for x in range(0, lay.x0) if image.getpixel((x, y)) == white.fill]
    assert phone(len(inside) + 2 * math.ceil(lay.bar / 5), image) >= MIN_BAR_PX
    assert phone(lay.bar, image) >= MIN_BAR_PX
