"""A player's rating history as a PNG line chart (one point per rated game), and its alt text.

Points come from the caller as anything with ``rating`` and ``uncertainty`` on the display
scale (``bot.service``'s ``RatingPoint`` fits; ``render`` does not import the bot), oldest
first.  The line is drawn in the second player's colour over a band of ± one uncertainty in the
theme's perimeter shade; the vertical scale follows the ratings (not the band, which would
flatten the line for new players), and the band is clipped to the plot.

Shapes are drawn supersampled (:class:`render.pen.Pen`) and shrunk; text is drawn afterwards
at final size, as on the boards.  The image goes through the theme's fixed colour table, so
equal histories give equal bytes and theme colours stay exact for the pixel tests.  Like a
board it is opaque and light with a dark frame, for Discord's dark and light backgrounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from PIL import Image, ImageDraw

from ..caption import ENGLISH, MAX_ALT_TEXT, SEP, Speaker, clean_name
from ..encode import png_bytes, to_indexed
from ..fonts import bold, draw_text, fit_text
from ..pen import Pen
from ..themes import DEFAULT_THEME, Palette, get_theme

__all__ = [
    "ChartGeometry",
    "RatingPointLike",
    "chart_geometry",
    "rating_chart_alt_text",
    "render_rating_chart",
]

PLAYERS = ("red", "blue")
LINE_PLAYER = "blue"

WIDTH, HEIGHT = 960, 600
PAD = 20
FRAME = 2
TITLE_FONT = 32
SUB_FONT = 22
LABEL_FONT = 22
TITLE_Y = PAD + 22
SUB_Y = TITLE_Y + 38
PLOT = (116, 128, WIDTH - 36, HEIGHT - 64)
"""(left, top, right, bottom) of the plot area in final pixels, right/bottom exclusive."""
INSET = 18
"""Room between the plot's side edges and the first and last points."""
SUPERSAMPLE = 3
LINE_WIDTH = 4.0
DOT_RADIUS = 5.5
LAST_DOT_RADIUS = 8.0
MAX_DOTS = 60
"""Beyond this many games the points are joined without a dot each (only the last has one)."""
MIN_SPAN = 100.0
NICE_STEPS = (1.0, 2.0, 2.5, 5.0)
MAX_Y_TICKS = 6
MAX_X_TICKS = 8


class RatingPointLike(Protocol):
    """One point of the history (``bot.service``'s ``RatingPoint``)."""

    @property
    def rating(self) -> float: ...
    @property
    def uncertainty(self) -> float: ...


def _nice_step(span: float, most: int) -> float:
    """The smallest 1/2/2.5/5 × 10^k step that cuts ``span`` into at most ``most`` parts."""
    raw = span / most
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (*NICE_STEPS, 10.0):
        if factor * power >= raw:
            return factor * power
    return 10.0 * power  # pragma: no cover - the loop always returns


@dataclass(frozen=True, slots=True)
class ChartGeometry:
    """How ratings and game numbers map to pixels; kept apart so tests can probe points."""

    count: int
    low: float
    high: float
    y_ticks: tuple[float, ...]
    x_ticks: tuple[int, ...]

    def x(self, index: int) -> float:
        """The x pixel of the ``index``-th point (0 = first rated game)."""
        left, _, right, _ = PLOT
        if self.count <= 1:
            return (left + right) / 2
        return left + INSET + index * (right - left - 2 * INSET) / (self.count - 1)

    def y(self, rating: float) -> float:
        _, top, _, bottom = PLOT
        return bottom - (rating - self.low) * (bottom - top) / (self.high - self.low)


def chart_geometry(ratings: Sequence[float]) -> ChartGeometry:
    """Scales that fit ``ratings`` with round tick values at both ends of the y axis."""
    if ratings:
        lo, hi = min(ratings), max(ratings)
    else:
        lo = hi = 1500.0
    margin = max(MIN_SPAN - (hi - lo), 0.0) / 2 + (hi - lo) * 0.08
    step = _nice_step(hi - lo + 2 * margin, MAX_Y_TICKS - 1)
    low = math.floor((lo - margin) / step) * step
    high = math.ceil((hi + margin) / step) * step
    count = len(ratings)
    # An empty chart shows no scale: only the message that there is nothing to show.
    ticks = round((high - low) / step) + 1
    y_ticks = tuple(low + i * step for i in range(ticks)) if count else ()
    x_ticks: tuple[int, ...] = ()
    if count:
        every = max(1, round(_nice_step(max(count - 1, 1), MAX_X_TICKS - 1)))
        x_ticks = tuple(sorted({1, *range(every, count + 1, every)}))
    return ChartGeometry(count, low, high, y_ticks, x_ticks)


def render_rating_chart(
    points: Sequence[RatingPointLike],
    *,
    player: str,
    game: str,
    theme: str = DEFAULT_THEME,
    tr: Speaker = ENGLISH,
) -> bytes:
    """The history as PNG bytes, its words in ``tr``'s language; ``player`` and ``game`` are
    display names for the title."""
    _check(points)
    palette = get_theme(theme).palette(PLAYERS)
    image = draw_rating_chart(points, player=player, game=game, palette=palette, tr=tr)
    return png_bytes(to_indexed(image, get_theme(theme).name, PLAYERS))


def _check(points: Sequence[RatingPointLike]) -> None:
    for index, p in enumerate(points):
        if not (math.isfinite(p.rating) and math.isfinite(p.uncertainty)):
            raise ValueError(f"point {index + 1} of the history is not a finite rating")


def _title(player: str, game: str, room: float, tr: Speaker = ENGLISH) -> str:
    """``Ann · Minefield rating`` fitted to ``room``: a long name is shortened first, to at
    most about half the line, so the game's name stays readable."""
    who = fit_text(clean_name(player) or tr.gettext("Player"), TITLE_FONT, room * 0.55)
    return fit_text(
        who + SEP + tr.gettext("{game} rating", game=clean_name(game)), TITLE_FONT, room
    )


def _summary(points: Sequence[RatingPointLike], tr: Speaker = ENGLISH) -> str:
    if not points:
        return ""
    last = points[-1]
    best = max(p.rating for p in points)
    games = tr.ngettext("{n} rated game", "{n} rated games", len(points))
    now = tr.gettext(
        "now {rating} ± {uncertainty}",
        rating=round(last.rating),
        uncertainty=round(last.uncertainty),
    )
    return SEP.join([games, now, tr.gettext("best {rating}", rating=round(best))])


def draw_rating_chart(
    points: Sequence[RatingPointLike],
    *,
    player: str,
    game: str,
    palette: Palette,
    tr: Speaker = ENGLISH,
) -> Image.Image:
    """The chart as an RGB image at final size."""
    _check(points)
    geo = chart_geometry([p.rating for p in points])
    left, top, right, bottom = PLOT
    line = palette.pieces[LINE_PLAYER].fill
    pen = Pen(WIDTH, HEIGHT, SUPERSAMPLE, palette.panel)
    pen.rect(PLOT, fill=palette.board)
    if len(points) > 1:
        upper = [(geo.x(i), geo.y(p.rating + p.uncertainty)) for i, p in enumerate(points)]
        lower = [(geo.x(i), geo.y(p.rating - p.uncertainty)) for i, p in enumerate(points)]
        pen.polygon(upper + lower[::-1], palette.perimeter)
    elif points:
        p = points[0]
        x = geo.x(0)
        top_y, bottom_y = geo.y(p.rating + p.uncertainty), geo.y(p.rating - p.uncertainty)
        pen.rect((x - 10, top_y, x + 10, bottom_y), fill=palette.perimeter)
    # Clip the band to the plot by painting the margins again.
    pen.rect((0, 0, WIDTH, top), fill=palette.panel)
    pen.rect((0, bottom, WIDTH, HEIGHT), fill=palette.panel)
    pen.rect((0, top, left, bottom), fill=palette.panel)
    pen.rect((right, top, WIDTH, bottom), fill=palette.panel)
    for value in geo.y_ticks:
        # Snapped to one whole pixel row, so grid lines stay crisp (and exactly grid-coloured).
        y = math.floor(geo.y(value))
        pen.rect((left, y, right, y + 1), fill=palette.grid)
    pen.rect(PLOT, outline=palette.frame, width=1.5)
    xy = [(geo.x(i), geo.y(p.rating)) for i, p in enumerate(points)]
    if len(xy) > 1:
        pen.line(xy, line, LINE_WIDTH)
        if len(xy) <= MAX_DOTS:
            for centre in xy[:-1]:
                pen.circle(centre, DOT_RADIUS, fill=line)
    if xy:
        pen.circle(xy[-1], LAST_DOT_RADIUS, fill=line, outline=palette.text, width=2)
    pen.rect((0, 0, WIDTH, HEIGHT), outline=palette.frame, width=FRAME)
    image = pen.finish()

    draw = ImageDraw.Draw(image)
    room = WIDTH - 2 * (PAD + 4)
    title = _title(player, game, room, tr)
    draw_text(image, (PAD + 4, TITLE_Y), title, TITLE_FONT, palette.text, "lm")
    # draw_text, not ImageDraw: a summary in Japanese or Russian needs the fallback faces
    summary = fit_text(_summary(points, tr), SUB_FONT, room)
    draw_text(image, (PAD + 4, SUB_Y), summary, SUB_FONT, palette.muted, "lm")
    label = bold(LABEL_FONT)
    for value in geo.y_ticks:
        draw.text(
            (left - 10, geo.y(value)), f"{value:.0f}", font=label, fill=palette.muted, anchor="rm"
        )
    for number in geo.x_ticks:
        x = geo.x(number - 1)
        draw.text((x, bottom + 8), str(number), font=label, fill=palette.muted, anchor="mt")
    if not points:
        empty = fit_text(tr.gettext("No rated games yet"), 28, right - left - 20)
        draw_text(image, ((left + right) / 2, (top + bottom) / 2), empty, 28, palette.muted, "mm")
    return image


def rating_chart_alt_text(
    points: Sequence[RatingPointLike], *, player: str, game: str, tr: Speaker = ENGLISH
) -> str:
    """The history in words: where it started and is now, the highest and lowest points."""
    who = clean_name(player)
    head = (
        tr.gettext("Rating history of {player} in {game}", player=who, game=clean_name(game))
        if who
        else tr.gettext("Rating history in {game}", game=clean_name(game))
    )
    if not points:
        return tr.gettext("{head}: no rated games yet.", head=head)
    ratings = [p.rating for p in points]
    last = points[-1]
    best = max(range(len(ratings)), key=lambda i: (ratings[i], -i))
    worst = min(range(len(ratings)), key=lambda i: (ratings[i], i))
    text = tr.ngettext(
        "{head}: {n} rated game. Now {rating} ± {uncertainty}. Highest {best} after game "
        "{best_game}, lowest {worst} after game {worst_game}.",
        "{head}: {n} rated games. Now {rating} ± {uncertainty}. Highest {best} after game "
        "{best_game}, lowest {worst} after game {worst_game}.",
        len(points),
        head=head,
        rating=round(last.rating),
        uncertainty=round(last.uncertainty),
        best=round(ratings[best]),
        best_game=best + 1,
        worst=round(ratings[worst]),
        worst_game=worst + 1,
    )
    return text if len(text) <= MAX_ALT_TEXT else text[: MAX_ALT_TEXT - 1] + "…"
