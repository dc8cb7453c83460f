"""Colour safety: every pair players must tell apart differs in luminance, in every theme."""

from __future__ import annotations

import colorsys
import io
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

import render
from render.encode import colour_table, to_indexed
from render.layout import board_layout
from render.themes import contrast_pairs, get_theme, luminance

PALETTES = [(theme, players) for theme in render.THEMES for players in get_theme(theme).palettes]


def test_required_themes_exist() -> None:
    assert render.THEMES[0] == "okabe-ito"
    assert "high-contrast" in render.THEMES


def test_unknown_theme_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"unknown theme 'sepia'.*okabe-ito"):
        get_theme("sepia")


@pytest.mark.parametrize(("theme", "players"), PALETTES)
def test_every_colour_pair_survives_greyscale(theme: str, players: tuple[str, str]) -> None:
    palette = get_theme(theme).palette(players)
    checked = 0
    for what, a, b, minimum in contrast_pairs(palette):
        diff = abs(luminance(a) - luminance(b))
        assert diff >= minimum, f"{theme} {players}: {what} differ by only {diff:.0f}"
        checked += 1
    assert checked >= 15


def test_luminance_matches_pillow_greyscale() -> None:
    colours = [(224, 96, 26), (0, 88, 138), (247, 247, 242), (12, 200, 77)]
    image = Image.new("RGB", (len(colours), 1))
    image.putdata(colours)
    grey = list(image.convert("L").tobytes())
    assert [round(luminance(c)) for c in colours] == pytest.approx(grey, abs=1)


@pytest.mark.parametrize(("theme", "players"), PALETTES)
def test_theme_colours_survive_palette_encoding_exactly(
    theme: str, players: tuple[str, str]
) -> None:
    palette = get_theme(theme).palette(players)
    base = palette.base_colours()
    assert len(colour_table(palette)) <= 255  # index 255 is the GIF's see-through colour
    image = Image.new("RGB", (len(base), 1))
    image.putdata(base)
    raw = to_indexed(image, theme, players).convert("RGB").tobytes()
    assert [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)] == [tuple(c) for c in base]


@pytest.mark.parametrize("theme", render.THEMES)
def test_players_differ_in_greyscale_on_the_real_image(
    theme: str, random_game: Callable[..., Any]
) -> None:
    game = random_game("clearpath", 9, 10, 11)
    data = render.render_board(game, theme=theme)
    grey = Image.open(io.BytesIO(data)).convert("L")

    lay = board_layout(9)
    levels: dict[str, set[int]] = {"red": set(), "blue": set()}
    for index, owner in enumerate(game.cells()):
        if owner is not None:
            x, y = lay.centre_of(index)
            sample = grey.getpixel((int(x - lay.radius * 0.5), int(y - lay.radius * 0.5)))
            assert isinstance(sample, int)
            levels[owner].add(sample)
    assert levels["red"] and levels["blue"]
    assert min(abs(r - b) for r in levels["red"] for b in levels["blue"]) >= 50


def test_unknown_colour_pairs_fall_back_to_red_and_blue() -> None:
    palette = get_theme("okabe-ito").palette(("green", "gold"))
    reference = get_theme("okabe-ito").palette(("red", "blue"))
    assert palette.pieces["green"] == reference.pieces["red"]
    assert palette.pieces["gold"] == reference.pieces["blue"]


@pytest.mark.parametrize("theme", render.THEMES)
def test_red_pieces_look_red_not_orange(theme: str) -> None:
    """Hue within 10° of pure red: at 20° (Okabe–Ito vermillion) players saw orange."""
    red = get_theme(theme).palette(("red", "blue")).pieces["red"]
    for colour in (red.fill, red.shade):
        hue, _, saturation = colorsys.rgb_to_hls(*(v / 255 for v in colour))
        degrees = hue * 360
        assert min(degrees, 360 - degrees) <= 10, (theme, colour, round(degrees))
        assert saturation > 0.5, (theme, colour)
