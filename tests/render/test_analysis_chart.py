"""The analysis chart: deterministic bytes, marks and proof drawn, and alt text in words."""

from __future__ import annotations

import io

from PIL import Image

from ai.analysis import PlyAnalysis
from bot.i18n import tongue
from render.reports.analysis_chart import (
    BAND,
    MARK_STYLE,
    PLOT,
    PROVEN,
    analysis_chart_alt_text,
    render_analysis_chart,
)

MOVES = (
    PlyAnalysis(1, "c3", "first", 0.55, 0.5, None, None, None, "c3"),
    PlyAnalysis(2, "a1", "second", 0.5, 0.2, None, None, "blunder", "b2"),
    PlyAnalysis(3, "b2", "first", 1.0, 1.0, "win", "win", None, "b2"),
    PlyAnalysis(4, "d4", "second", 0.0, 0.0, "loss", "loss", None, "d4"),
    PlyAnalysis(5, "d1", "first", 1.0, 1.0, "win", "win", None, "d1"),
)


def colours(data: bytes) -> set[tuple[int, int, int]]:
    image = Image.open(io.BytesIO(data)).convert("RGB")
    return {c for _, c in image.getcolors(1 << 20) or []}


def test_same_moves_same_bytes() -> None:
    assert render_analysis_chart(MOVES) == render_analysis_chart(MOVES)


def pixel(data: bytes, at: tuple[int, int]) -> object:
    return Image.open(io.BytesIO(data)).convert("RGB").getpixel(at)


def test_marks_and_proven_band_are_drawn() -> None:
    data = render_analysis_chart(MOVES)
    assert MARK_STYLE["blunder"][1] in colours(data)
    # The first seat is proven to win from move 3: a band above the plot's top right.
    above_end = (PLOT[2] - 5, PLOT[1] - 3 - BAND // 2)
    assert pixel(data, above_end) == PROVEN
    unproven = tuple(m for m in MOVES if m.proven_before is None)
    assert pixel(render_analysis_chart(unproven), above_end) != PROVEN


def test_alt_text_says_it_in_words() -> None:
    text = analysis_chart_alt_text(MOVES)
    assert "over 5 moves" in text
    assert "Blunder: moves 2." in text
    assert "From move 3 the first player's win was proven." in text


def test_chart_and_alt_text_speak_the_readers_language() -> None:
    german = tongue("de")
    text = analysis_chart_alt_text(MOVES, german)
    assert "über 5 Züge" in text and "Ab Zug 3" in text, text
    assert "moves" not in text
    # The words are drawn, not only said: the German chart differs from the English one.
    assert render_analysis_chart(MOVES, german) != render_analysis_chart(MOVES)
