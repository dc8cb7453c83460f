"""Board captions and alt text in German, Japanese and Russian: every character of every caption
form is drawn with a real glyph (no character left out, no .notdef box), and the long German
words and CJK captions fit the strip in whole words.

render/ never imports the bot: the test passes the bot's Tongue in as the caption's Speaker,
as the Discord adapter does.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

import render
from bot.i18n import tongue
from render import fonts
from render.caption import caption_for
from rules import Game, new_game

from .test_fonts import INK, PANEL, fallback_faces  # noqa: F401  (skips without Noto)

NAMES = {
    "de": {"black": "Wolfgang Donaudampfschifffahrtsgesellschaft", "white": "Jürgen Weiß"},
    "ja": {"black": "山田 太郎", "white": "さくら"},
    "ru": {"black": "Александр Ковалевский", "white": "Мария"},
}


def positions() -> list[Game]:
    fresh = new_game("minefield", size=9)
    played = new_game("minefield", size=9)
    for move in ("e5", "d4", "c3", "f6"):
        played.play(move)
    swapped = new_game("minefield", size=9, pie=True)
    swapped.play("e5")
    swapped.play("swap")
    flips = new_game("crosscut", size=8)
    for move in ("d4", "e5", "d5", "e4"):
        flips.play(move)
    return [fresh, played, swapped, flips]


def caption_texts(game: Game, language: str) -> list[str]:
    caption = caption_for(game, NAMES[language], tongue(language))
    texts = [*caption.title_options, *caption.event_options]
    for chip in caption.players:
        texts += list(chip.options)
    return texts


@pytest.mark.parametrize("language", ["de", "ja", "ru"])
def test_every_caption_character_has_a_glyph(language: str) -> None:
    for game in positions():
        for text in caption_texts(game, language):
            kept = "".join(run.text for run in fonts.runs(text))
            assert kept == text, (language, text, kept)  # a character no face has is left out


def test_a_japanese_caption_is_drawn_with_cjk_glyphs_not_boxes() -> None:
    [title, *_] = caption_texts(positions()[1], "ja")
    assert any(run.face == fonts.CJK for run in fonts.runs(title)), fonts.runs(title)
    drawn = Image.new("RGB", (900, 80), PANEL)
    fonts.draw_text(drawn, (10, 40), title, 30, INK, "lm")
    boxes = Image.new("RGB", (900, 80), PANEL)
    ImageDraw.Draw(boxes).text((10, 40), title, font=fonts.bold(30), fill=INK, anchor="lm")
    assert ImageChops.difference(drawn, boxes).getbbox() is not None, "drawn as .notdef boxes"


@pytest.mark.parametrize("language", ["de", "ja", "ru"])
def test_the_board_image_and_alt_text_speak_the_language(language: str) -> None:
    game = positions()[1]
    tr = tongue(language)
    png = render.render_board(game, names=NAMES[language], tr=tr)
    assert png.startswith(b"\x89PNG")
    alt = render.alt_text(game, NAMES[language], tr)
    english = render.alt_text(game, NAMES[language])
    assert alt != english and "Minefield" in alt
    assert {"de": "Brett", "ja": "盤", "ru": "доска"}[language] in alt


@pytest.mark.parametrize(
    ("language", "heading", "alt_start"),
    [
        ("de", "Bestenliste", "Bestenliste Minefield, Plätze 1–2 von 42."),
        ("ja", "ランキング", "Minefield ランキング、42 人中 1〜2 位。"),
        ("ru", "Таблица лидеров", "Таблица лидеров Minefield, места 1–2 из 42."),
    ],
)
def test_the_leaderboard_image_and_alt_text_speak_the_language(
    language: str, heading: str, alt_start: str
) -> None:
    from dataclasses import dataclass

    from render.reports.leaderboard import leaderboard_alt_text, render_leaderboard

    @dataclass
    class Row:
        user_id: int
        rank: int
        rating: float
        uncertainty: float
        games: int
        wins: int
        losses: int
        draws: int
        provisional: bool

    rows = [Row(1, 1, 1623, 45, 30, 20, 9, 1, False), Row(2, 2, 1500, 150, 4, 2, 2, 0, True)]
    names = {1: "Donaudampfschifffahrtskapitän", 2: "山田 太郎"}
    tr = tongue(language)
    for text in (heading, tr.gettext("Player"), tr.gettext("Rating"), tr.gettext("W–L–D")):
        assert "".join(run.text for run in fonts.runs(text)) == text
    png = render_leaderboard(rows, names, title="Minefield", total=42, tr=tr)
    assert png.startswith(b"\x89PNG") and png != render_leaderboard(
        rows, names, title="Minefield", total=42
    )
    assert leaderboard_alt_text(rows, names, title="Minefield", total=42, tr=tr).startswith(
        alt_start
    )
