"""Every word drawn on the report images and the boards fits, in German, Japanese and
Russian, with long German words, CJK and Cyrillic names: each text's measured box lies inside
the image, and texts on one line never overlap (a long heading is drawn smaller or shortened,
a long name shortened with an ellipsis).

The boxes are measured where the words are drawn: ``render.fonts.draw_text`` is wrapped in
each drawing module, and the box is the text's own width (``fonts.text_width``, the same
per-character faces it is drawn with) placed by its anchor.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from PIL import Image

import render
from bot.i18n import tongue
from bot.service.ratings.types import RatingPoint, Standing
from render import fonts
from render.reports import leaderboard, rating_chart, standings
from render.reports.standings import StandingsLine
from rules import new_game

from .test_fonts import fallback_faces  # noqa: F401  (skips without Noto)

LANGUAGES = ("de", "ja", "ru")
NAMES = {
    1: "Donaudampfschifffahrtsgesellschaftskapitänin",
    2: "山田花子（やまだ はなこ）",
    3: "Александра Владимировна Ковалевская",
    4: "Ευαγγελία 🎲 Öztürk",
}
MODULES = (standings, leaderboard, rating_chart, render.pen)


@dataclass(frozen=True)
class Drawn:
    image: Image.Image
    text: str
    left: float
    right: float
    y: float


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    found: list[Drawn] = []
    real = fonts.draw_text

    def recording(
        image: Image.Image,
        at: tuple[float, float],
        text: str,
        size: int,
        colour: Any,
        anchor: str = "la",
    ) -> None:
        width = fonts.text_width(text, size)
        left = at[0] - width * {"l": 0.0, "m": 0.5, "r": 1.0}.get(anchor[0], 0.0)
        found.append(Drawn(image, text, left, left + width, round(at[1])))
        real(image, at, text, size, colour, anchor)

    for module in MODULES:
        monkeypatch.setattr(module, "draw_text", recording)
    yield found


def check(found: list[Drawn]) -> None:
    assert found
    for d in found:
        assert d.left >= 0 and d.right <= d.image.width, (d.text, d.left, d.right, d.image.width)
    for a in found:
        for b in found:
            if a is not b and a.image is b.image and a.y == b.y and a.left < b.left:
                assert a.right <= b.left, f"{a.text!r} runs into {b.text!r}"


def drawings(language: str) -> list[Callable[[], bytes]]:
    tr = tongue(language)
    lines = [
        StandingsLine(i, NAMES[i], 3.5 - i, (12.25, 1.0, 3.0, 1523.0), i, withdrawn=i == 4)
        for i in NAMES
    ]
    headings = ["SB", "H2H", tr.gettext("Wins"), tr.gettext("Rating")]
    rows = [Standing(i, 1500.0 + 10 * i, 80.0, 12, 7, 4, 1, i == 2, i) for i in NAMES]
    points = [RatingPoint(i, datetime(2026, 11, 1, tzinfo=UTC), 1480.0 + 7 * i, 90.0 - i)
              for i in range(30)]  # fmt: skip
    game = new_game("minefield", size=7)
    for move in ("d4", "c3", "e5", "b2"):
        game.play(move)
    colours = {"black": NAMES[1], "white": NAMES[2]}
    return [
        lambda: standings.render_standings(
            lines, title="Minefield 9×9 " + tr.gettext("Double round robin") + " #12",
            headings=headings, total=40, page=2, page_count=2, tr=tr,
        ),
        lambda: leaderboard.render_leaderboard(rows, NAMES, title="Naked Diagonal", tr=tr),
        lambda: rating_chart.render_rating_chart(
            points, player=NAMES[3], game="Naked Diagonal", tr=tr
        ),
        lambda: rating_chart.render_rating_chart([], player=NAMES[2], game="Clearcut", tr=tr),
        lambda: render.render_board(game, names=colours, tr=tr),
    ]  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("index", range(5), ids=["standings", "leaderboard", "chart",
                                                 "empty-chart", "board"])  # fmt: skip
def test_every_text_fits_its_image_and_its_line(
    drawn: list[Drawn], language: str, index: int
) -> None:
    drawings(language)[index]()
    check(drawn)
