"""A tournament's standings as PNG pages in the boards' style, with alt text and a text table.

Rows come from the caller as plain values (:class:`StandingsLine`: rank, name, points, the
tiebreak values in the order the format ranks by, games left), so ``render`` knows nothing of
the service; the caller resolves names and chooses the tiebreak headings.  A field of any size
is cut into pages of at most :data:`PAGE_ROWS` rows (:func:`pages`), each drawn on its own, so
a 1,000-player league is a few dozen small images rather than one that no phone can read.

Like the leaderboard (:mod:`render.reports.leaderboard`), the table is drawn at final size,
opaque and light with a thin dark frame, and goes through the fixed colour table of
:mod:`render.encode`, so equal pages give equal bytes. Names in any script are drawn through
:mod:`render.fonts`' per-character fallback. :func:`standings_text` is the same table as plain
text, for a message when an image cannot be sent and for the command line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar
from unicodedata import east_asian_width

from PIL import Image

from ..caption import ENGLISH, MAX_ALT_TEXT, SEP, Speaker, clean_name
from ..encode import png_bytes, to_indexed
from ..fonts import draw_text, fit_text
from ..themes import DEFAULT_THEME, RGB, Palette, get_theme
from .leaderboard import (
    EMPTY_H,
    FRAME,
    PAD,
    SUB_Y,
    TITLE_FONT,
    draw_table_frame,
    fitting_size,
)

__all__ = [
    "MAX_TIEBREAKS",
    "PAGE_ROWS",
    "StandingsLayout",
    "StandingsLine",
    "format_score",
    "pages",
    "render_standings",
    "standings_alt_text",
    "standings_layout",
    "standings_text",
]

T = TypeVar("T")

PLAYERS = ("red", "blue")
"""The theme palette the table takes its colours from (panel, text, stripes, frame)."""

PAGE_ROWS = 20
MAX_TIEBREAKS = 4
WIDTH = 960
HEAD_FONT = 20
HEAD_MIN = 16
"""The smallest a column heading is drawn before it is cut short."""
ROW_FONT = 28
HEAD_TOP = SUB_Y + 26
HEAD_H = 40
ROW_H = 50

RANK_RIGHT = 74
NAME_LEFT = 92
LEFT_RIGHT = WIDTH - PAD - 8
"""The right edge of the last column, games left."""
LEFT_W = 84
POINTS_W = 96
TIEBREAK_W = 104
WITHDRAWN_MARK = "(w)"


@dataclass(frozen=True, slots=True)
class StandingsLine:
    """One row: ``tiebreaks`` in the order of the table's headings; ``games_left`` counts the
    games still to play (0 once done, or for a withdrawn player)."""

    rank: int
    name: str
    points: float
    tiebreaks: tuple[float, ...] = ()
    games_left: int = 0
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class StandingsLayout:
    """Where the table's parts are, in pixels; kept apart so tests can probe them."""

    rows: int
    tiebreaks: int
    width: int
    height: int
    body_top: int

    def row_box(self, index: int) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) of row ``index`` (0 = first on the page), exclusive."""
        top = self.body_top + index * ROW_H
        return (FRAME, top, self.width - FRAME, top + ROW_H)

    def row_centre_y(self, index: int) -> float:
        return self.body_top + index * ROW_H + ROW_H / 2

    @property
    def left_right(self) -> int:
        return LEFT_RIGHT

    def tiebreak_right(self, column: int) -> int:
        """The right edge of tiebreak ``column`` (0 = the first to break a tie)."""
        return LEFT_RIGHT - LEFT_W - (self.tiebreaks - 1 - column) * TIEBREAK_W

    @property
    def points_right(self) -> int:
        return LEFT_RIGHT - LEFT_W - self.tiebreaks * TIEBREAK_W

    @property
    def name_right(self) -> int:
        return self.points_right - POINTS_W


def standings_layout(rows: int, tiebreaks: int) -> StandingsLayout:
    body_top = HEAD_TOP + HEAD_H
    body_h = rows * ROW_H if rows else EMPTY_H
    return StandingsLayout(rows, tiebreaks, WIDTH, body_top + body_h + PAD, body_top)


def format_score(value: float) -> str:
    """Points as players write them: ``3``, ``3½``, ``½``; other fractions (a Sonneborn-Berger
    of 4.25) to two places at most.

    >>> [format_score(v) for v in (3, 3.5, 0.5, 0, 4.25, -1.5)]
    ['3', '3½', '½', '0', '4.25', '-1½']
    """
    sign = "-" if value < 0 else ""
    value = abs(value)
    whole, part = divmod(round(value * 100), 100)
    if part == 0:
        return f"{sign}{whole}"
    if part == 50:
        return f"{sign}{whole or ''}½"
    return f"{sign}{value:.2f}".rstrip("0")


def pages(rows: Sequence[T], per_page: int = PAGE_ROWS) -> list[list[T]]:
    """``rows`` cut into pages of at most ``per_page`` (one empty page for no rows).

    >>> [len(p) for p in pages([StandingsLine(i, "x", 0) for i in range(45)])]
    [20, 20, 5]
    """
    if per_page < 1:
        raise ValueError(f"a page holds at least one row, not {per_page}")
    return [list(rows[i : i + per_page]) for i in range(0, len(rows), per_page)] or [[]]


def _check(rows: Sequence[StandingsLine], headings: Sequence[str]) -> None:
    if len(rows) > PAGE_ROWS:
        raise ValueError(f"a standings page holds at most {PAGE_ROWS} rows, not {len(rows)}")
    if len(headings) > MAX_TIEBREAKS:
        raise ValueError(f"at most {MAX_TIEBREAKS} tiebreak columns, not {len(headings)}")
    for row in rows:
        if len(row.tiebreaks) != len(headings):
            raise ValueError(
                f"rank {row.rank} has {len(row.tiebreaks)} tiebreak values for "
                f"{len(headings)} headings"
            )


def _name(row: StandingsLine, tr: Speaker = ENGLISH) -> str:
    return clean_name(row.name) or tr.gettext("unknown player")


def _subtitle(
    rows: Sequence[StandingsLine],
    page: int,
    page_count: int,
    total: int | None,
    tr: Speaker = ENGLISH,
) -> str:
    if not rows:
        return ""
    first, last = rows[0].rank, rows[-1].rank
    if total is None:
        span = (
            tr.gettext("Rank {first}", first=first)
            if first == last
            else tr.gettext("Ranks {first}–{last}", first=first, last=last)
        )
    elif first == last:
        span = tr.gettext("Rank {first} of {total} players", first=first, total=total)
    else:
        span = tr.gettext(
            "Ranks {first}–{last} of {total} players", first=first, last=last, total=total
        )
    parts = [span]
    if page_count > 1:
        parts.append(tr.gettext("page {page} of {count}", page=page, count=page_count))
    return SEP.join(parts)


def render_standings(
    rows: Sequence[StandingsLine],
    *,
    title: str,
    headings: Sequence[str] = (),
    page: int = 1,
    page_count: int = 1,
    total: int | None = None,
    theme: str = DEFAULT_THEME,
    tr: Speaker = ENGLISH,
) -> bytes:
    """One page of standings as PNG bytes, its words in ``tr``'s language.

    ``headings`` name the tiebreak columns, short (``"SB"``, ``"BH-1"``); ``total`` is the
    number of players, for "Ranks 21–40 of 64 players".
    """
    _check(rows, headings)
    palette = get_theme(theme).palette(PLAYERS)
    image = draw_standings(
        rows,
        title=title,
        headings=headings,
        page=page,
        page_count=page_count,
        total=total,
        palette=palette,
        tr=tr,
    )
    return png_bytes(to_indexed(image, get_theme(theme).name, PLAYERS))


def draw_standings(
    rows: Sequence[StandingsLine],
    *,
    title: str,
    headings: Sequence[str],
    page: int,
    page_count: int,
    total: int | None,
    palette: Palette,
    tr: Speaker = ENGLISH,
) -> Image.Image:
    """The table as an RGB image at final size."""
    _check(rows, headings)
    lay = standings_layout(len(rows), len(headings))
    image = Image.new("RGB", (lay.width, lay.height), palette.panel)
    room = lay.width - 2 * (PAD + 4)
    draw_table_frame(
        image,
        palette,
        heading=fit_text(clean_name(title), TITLE_FONT, room),
        subtitle=_subtitle(rows, page, page_count, total, tr),
        body_top=lay.body_top,
        row_boxes=[lay.row_box(index) for index in range(len(rows))],
        empty=tr.gettext("No players yet"),
    )

    def text(at: tuple[float, float], words: str, size: int, colour: RGB, anchor: str) -> None:
        draw_text(image, at, words, size, colour, anchor)

    head_y = lay.body_top - HEAD_H / 2

    def head(at: float, words: str, room: float, anchor: str = "rm") -> None:
        # A long heading ("Wertung", "Очки") is drawn smaller before it is cut short.
        size = max(fitting_size(words, HEAD_FONT, room), HEAD_MIN)
        text((at, head_y), fit_text(words, size, room), size, palette.muted, anchor)

    text((RANK_RIGHT, head_y), "#", HEAD_FONT, palette.muted, "rm")
    head(NAME_LEFT, tr.gettext("Player"), lay.name_right - NAME_LEFT - 12, "lm")
    head(lay.points_right, tr.gettext("Points"), POINTS_W - 4)
    for column, heading in enumerate(headings):
        head(lay.tiebreak_right(column), clean_name(heading), TIEBREAK_W - 8)
    head(lay.left_right, tr.gettext("Left"), LEFT_W - 4)

    for index, row in enumerate(rows):
        y = lay.row_centre_y(index)
        ink = palette.muted if row.withdrawn else palette.text
        text((RANK_RIGHT, y), str(row.rank), ROW_FONT, ink, "rm")
        mark = f" {WITHDRAWN_MARK}" if row.withdrawn else ""
        name = fit_text(_name(row, tr), ROW_FONT, lay.name_right - NAME_LEFT - 12, mark)
        text((NAME_LEFT, y), name, ROW_FONT, ink, "lm")
        points = format_score(row.points)
        size = fitting_size(points, ROW_FONT, POINTS_W - 8)
        text((lay.points_right, y), points, size, ink, "rm")
        for column, value in enumerate(row.tiebreaks):
            figure = format_score(value)
            size = fitting_size(figure, ROW_FONT - 4, TIEBREAK_W - 8)
            text((lay.tiebreak_right(column), y), figure, size, palette.muted, "rm")
        games_left = "–" if row.withdrawn else str(row.games_left)
        text((lay.left_right, y), games_left, ROW_FONT - 4, ink, "rm")
    return image


def _row_words(row: StandingsLine, headings: Sequence[str], tr: Speaker = ENGLISH) -> str:
    points = format_score(row.points)
    # A fraction takes the plural, as "2½ points" does; the count picks the form.
    said = tr.ngettext(
        "{rank}. {name}: {points} point",
        "{rank}. {name}: {points} points",
        1 if row.points == 1 else 2 if row.points != int(row.points) else int(row.points),
        rank=row.rank,
        name=_name(row, tr),
        points=points,
    )
    breaks = ", ".join(
        f"{h} {format_score(v)}" for h, v in zip(headings, row.tiebreaks, strict=True)
    )
    left = (
        tr.gettext("withdrawn")
        if row.withdrawn
        else tr.gettext("{count} left", count=row.games_left)
    )
    return said + (f" ({breaks})" if breaks else "") + f", {left}."


def standings_alt_text(
    rows: Sequence[StandingsLine],
    *,
    title: str,
    headings: Sequence[str] = (),
    page: int = 1,
    page_count: int = 1,
    total: int | None = None,
    tr: Speaker = ENGLISH,
) -> str:
    """What a page says, for screen readers: one short sentence per row."""
    _check(rows, headings)
    head = tr.gettext("{title} standings", title=clean_name(title))
    if not rows:
        return tr.gettext("{head}: no players yet.", head=head)
    # Not lowered: German capitalises its nouns ("Plätze"), so the subtitle keeps its case.
    parts = [f"{head}, {_subtitle(rows, page, page_count, total, tr)}."]
    parts += [_row_words(row, headings, tr) for row in rows]
    text = " ".join(parts)
    return text if len(text) <= MAX_ALT_TEXT else text[: MAX_ALT_TEXT - 1] + "…"


def cells(text: str) -> int:
    """How many columns ``text`` takes in a monospaced block: two for each wide (CJK)
    character, as terminals and Discord's code blocks draw them."""
    return sum(2 if east_asian_width(c) in "WF" else 1 for c in text)


def padded(text: str, width: int, *, left: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns (right-aligned unless ``left``)."""
    space = " " * max(0, width - cells(text))
    return text + space if left else space + text


def standings_text(
    rows: Sequence[StandingsLine],
    *,
    headings: Sequence[str] = (),
    name_width: int = 24,
    tr: Speaker = ENGLISH,
) -> str:
    """The table as aligned plain text (for a code block or a terminal), any number of rows.

    >>> print(standings_text([StandingsLine(1, "Ann", 2.5, (3.25,), 1)], headings=["SB"]))
      #  Player                     Points     SB   Left
      1  Ann                            2½   3.25      1
    """
    if any(len(row.tiebreaks) != len(headings) for row in rows):
        raise ValueError("every row needs one tiebreak value per heading")
    head = (tr.gettext("Player"), tr.gettext("Points"), tr.gettext("Left"))
    widths = [max(cells(h), 5) for h in headings]
    points_w, left_w = max(cells(head[1]), 7), max(cells(head[2]), 5)

    def line(rank: str, name: str, points: str, breaks: Sequence[str], left: str) -> str:
        parts = [padded(rank, 3), padded(name, name_width, left=True), padded(points, points_w)]
        parts += [padded(b, w) for b, w in zip(breaks, widths, strict=True)]
        parts.append(padded(left, left_w))
        return "  ".join(parts).rstrip()

    out = [line("#", head[0], head[1], list(headings), head[2])]
    for row in rows:
        name = _name(row, tr) + (f" {WITHDRAWN_MARK}" if row.withdrawn else "")
        if cells(name) > name_width:
            name = name[:name_width]  # at least one column per character: now a few cuts
            while cells(name) > name_width - 1:
                name = name[:-1]
            name += "…"
        out.append(
            line(
                str(row.rank),
                name,
                format_score(row.points),
                [format_score(v) for v in row.tiebreaks],
                "-" if row.withdrawn else str(row.games_left),
            )
        )
    return "\n".join(out)
