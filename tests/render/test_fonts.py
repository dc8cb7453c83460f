"""Names in any script: emoji, CJK and other scripts are drawn from fallback faces, a character
no face has is left out (never a box), and cutting a name never splits an emoji sequence.

The fallback faces are Debian's Noto packages.  Where they are missing these tests skip with
the install line, except under CI (``CI`` set), where a missing face fails them.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass

import pytest
from PIL import Image, ImageChops, ImageDraw

import render
from render import fonts
from render.board import caption_plan
from render.caption import caption_for
from render.layout import board_layout
from render.reports import leaderboard
from render.themes import RGB, get_theme
from rules import new_game

INSTALL_HINT = "apt-get install " + " ".join(fonts.FALLBACK_PACKAGES)
# Printable (so names keep them) but in no face: Khitan Small Script.
NO_FONT = "\U00018b00\U00018b01\U00018b02"


def ci_required() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(autouse=True)
def fallback_faces() -> None:
    missing = fonts.missing_fallbacks()
    if missing:
        message = f"fallback fonts missing ({missing[0].file}, ...): {INSTALL_HINT}"
        if ci_required():
            pytest.fail(message)
        pytest.skip(message)


SAMPLES = {
    "emoji": "🐉",
    "emoji sequence": "👨‍👩‍👧",
    "flag": "🇫🇷",
    "chinese": "張偉",
    "japanese": "さくら",
    "korean": "김민",
    "devanagari": "नमस्ते",
    "thai": "สมชาย",
    "bengali": "রাহুল",
    "tamil": "தமிழ்",
    "ethiopic": "አበበ",
}

PANEL: RGB = (245, 241, 232)
INK: RGB = (31, 27, 22)


def drawn(text: str, size: int = 40) -> Image.Image:
    image = Image.new("RGB", (400, 80), PANEL)
    fonts.draw_text(image, (10, 40), text, size, INK, "lm")
    return image


def boxes(text: str, size: int = 40) -> Image.Image:
    """``text`` as DejaVu alone draws it: a .notdef box for each character it lacks."""
    image = Image.new("RGB", (400, 80), PANEL)
    ImageDraw.Draw(image).text((10, 40), text, font=fonts.bold(size), fill=INK, anchor="lm")
    return image


def ink(image: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(image, Image.new("RGB", image.size, PANEL)).getbbox()


@pytest.mark.parametrize("script", SAMPLES)
def test_each_script_is_drawn_with_real_glyphs_not_boxes(script: str) -> None:
    text = SAMPLES[script]
    assert all(run.face is not None for run in fonts.runs(text)), fonts.runs(text)
    image = drawn(text)
    box = ink(image)
    assert box is not None, "nothing drawn"
    assert box[3] - box[1] >= 20, box  # glyphs, at the text's size
    assert ImageChops.difference(image, boxes(text)).getbbox() is not None, "a .notdef box"
    assert fonts.text_width(text, 40) > 20


def test_an_emoji_is_drawn_in_the_text_colour_only() -> None:
    """Emoji are shades between the text colour and the background, no colour of their own,
    so the fixed theme colour table never turns them into a player's colour."""
    image = drawn("🐉🌸")
    colours = {c for _, c in image.getcolors(1 << 16) or []}
    assert len(colours) > 4  # the emoji's light and shade survive
    for colour in colours:
        shares = [(c - p) / (i - p) for c, p, i in zip(colour, PANEL, INK, strict=True) if i != p]
        assert max(shares) - min(shares) <= 0.05, colour


def test_a_character_no_font_has_is_left_out() -> None:
    assert NO_FONT.isprintable()
    assert not any(fonts._covers(face, ord(NO_FONT[0])) for face in (None, *fonts.FALLBACKS))
    assert fonts.runs(NO_FONT) == ()
    assert fonts.text_width(NO_FONT, 40) == 0
    assert ink(drawn(NO_FONT)) is None
    assert fonts.runs(f"a{NO_FONT}b") == (fonts.Run("ab", None),)


def test_an_emoji_sequence_stays_one_run_and_a_cut_never_splits_a_joiner() -> None:
    family = "👨‍👩‍👧"
    assert [run.text for run in fonts.runs(family + " fam")] == [family, " fam"]
    assert fonts.runs("❤️")[0].face == fonts.EMOJI  # emoji style asked for: the emoji
    for keep in range(len(family) + 1):
        cut = fonts._cut(family, keep)
        assert not cut.removesuffix("…").endswith("\u200d")


def name_region(data: bytes, size: int) -> Image.Image:
    """The first chip's text after "Red: " on a real board image."""
    lay = board_layout(size)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    start = lay.pad + 4 + lay.body_font * 1.3 + fonts.text_width("Red: ", lay.body_font)
    top = lay.chips_y - lay.body_font * 0.6
    bottom = lay.chips_y + lay.body_font * 0.55  # above the to-move underline
    return image.crop((round(start), round(top), round(lay.width / 2), round(bottom)))


@pytest.mark.parametrize("name", ["🐉🐉", "張偉明", "नमस्ते"])
def test_a_name_in_another_script_is_drawn_on_the_board(name: str) -> None:
    game = new_game("clearpath", 9)
    panel = get_theme(render.THEMES[0]).palette(game.players).panel
    shown = name_region(render.render_board(game, names={"red": name}), 9)
    unknown = name_region(render.render_board(game, names={"red": NO_FONT}), 9)
    assert ImageChops.difference(shown, Image.new("RGB", shown.size, panel)).getbbox()
    assert ImageChops.difference(shown, unknown).getbbox()  # not the same boxes for both
    # Characters no font has leave the chip blank after "Red: ", where boxes used to be.
    assert ImageChops.difference(unknown, Image.new("RGB", unknown.size, panel)).getbbox() is None


def test_a_mixed_name_is_measured_as_drawn() -> None:
    """The caption plan measures a mixed name with the faces that draw it, so the chip's text
    ends where the plan says (the underline under it has the same length)."""
    lay = board_layout(5)
    game = new_game("clearpath", 5)
    plan = caption_plan(lay, caption_for(game, {"red": "Zoë 張偉明 🐉"}))
    assert plan.chips[0].text == "Red: Zoë 張偉明 🐉"
    width = fonts.text_width(plan.chips[0].text, plan.chips[0].size)
    assert width > fonts.text_width("Red: Zoë ", plan.chips[0].size) + 3 * plan.chips[0].size


@dataclass(frozen=True)
class Row:
    user_id: int
    rank: int
    rating: float = 1000.0
    uncertainty: float = 80.0
    games: int = 3
    wins: int = 2
    losses: int = 1
    draws: int = 0
    provisional: bool = False


def test_a_leaderboard_name_in_another_script_is_drawn() -> None:
    rows = [Row(1, 1), Row(2, 2)]

    def name_cell(name: str) -> Image.Image:
        data = leaderboard.render_leaderboard(rows, {1: name, 2: "Bob"}, title="Minefield")
        image = Image.open(io.BytesIO(data)).convert("RGB")
        _, top, _, bottom = leaderboard.leaderboard_layout(2).row_box(0)
        return image.crop((leaderboard.NAME_LEFT, top, leaderboard.NAME_RIGHT, bottom))

    shown, unknown = name_cell("張偉明 🐉"), name_cell(NO_FONT)
    panel = get_theme(render.THEMES[0]).palette(leaderboard.PLAYERS).panel
    blank = Image.new("RGB", shown.size, panel)
    assert ImageChops.difference(shown, blank).getbbox() is not None
    assert ImageChops.difference(unknown, blank).getbbox() is None  # left out, no boxes


def test_names_in_any_script_render_the_same_bytes_every_time() -> None:
    game = new_game("crosscut", 6)
    game.play("c3")
    names = {"red": "Zoë 張偉明 🐉", "blue": "👨‍👩‍👧 नमस्ते"}
    first = render.render_board(game, names=names)
    fonts.runs.cache_clear()
    fonts._emoji_mask.cache_clear()
    render.render_board(new_game("clearpath", 13), names={"red": "🌸" * 9})
    assert render.render_board(game, names=names) == first
