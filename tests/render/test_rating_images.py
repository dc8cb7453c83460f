"""Pixel-level checks on the real leaderboard and rating-chart PNGs, like the board tests.

Rows and points are built with the real rating model (``bot.service.ratings.model``), so the images
are checked on the values the bot will really draw.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from itertools import pairwise

import pytest
from PIL import Image
from png_probe import colours_in, pixel, png

import render
from bot.service.ratings import model as R
from bot.service.ratings.types import RatingPoint, Standing
from render.reports import leaderboard as L
from render.reports import rating_chart as C
from render.themes import RGB, get_theme

NOW = datetime(2026, 3, 1, tzinfo=UTC)


# --- leaderboard ----------------------------------------------------------------------------


def board_rows(players: int = 12) -> list[Standing]:
    """A real board: a double round robin where strength follows the player number, plus
    one newcomer who won their only game (provisional)."""
    games = [
        R.RatedGame(a, b, "win" if a < b else "loss")
        for _ in range(2)
        for a in range(1, players + 1)
        for b in range(a + 1, players + 1)
    ]
    games.append(R.RatedGame(500, players, "win"))
    return R.standings(R.rebuild(games))


NAMES = {uid: f"Player {uid}" for uid in range(1, 600)}
THEME_NAMES = render.THEMES


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_leaderboard_rows_show_rank_and_stripes_and_nothing_after_the_last(theme: str) -> None:
    rows = board_rows()[:10]
    image = png(L.render_leaderboard(rows, NAMES, title="Minefield", total=13, theme=theme))
    lay = L.leaderboard_layout(len(rows))
    palette = get_theme(theme).palette(L.PLAYERS)
    assert image.size == (lay.width, lay.height)
    stripe = L.stripe_colour(palette)
    assert stripe != palette.panel
    for index in range(len(rows)):
        left, top, _, bottom = lay.row_box(index)
        background = stripe if index % 2 else palette.panel
        # The row's background, at its left end and between the name and the rating.
        assert pixel(image, left + 4, top + ROW_MID) == background
        assert pixel(image, L.NAME_RIGHT + 2, top + 3) == background
        # The rank's digits are drawn in the text colour inside the rank column.
        rank_cells = colours_in(image, (L.PAD, top + 4, L.RANK_RIGHT + 1, bottom - 4))
        assert palette.text in rank_cells, f"row {index} shows no rank"
    # Below the last row: only the panel until the frame.
    last_bottom = lay.row_box(len(rows) - 1)[3]
    below = colours_in(image, (4, last_bottom, lay.width - 4, lay.height - 4))
    assert below == {palette.panel}
    assert pixel(image, 0, 0) == pixel(image, lay.width - 1, lay.height - 1) == palette.frame


ROW_MID = L.ROW_H // 2


def rank_bands(image: Image.Image, text: RGB) -> int:
    """How many separate runs of text-coloured pixels the rank column has below the header:
    the number of rows drawn, found without the layout's row boxes."""
    lay_top = L.HEAD_TOP + L.HEAD_H
    bands, inside = 0, False
    for y in range(lay_top, image.height - 4):
        hit = any(pixel(image, x, y) == text for x in range(L.PAD, L.RANK_RIGHT + 1))
        bands += hit and not inside
        inside = hit
    return bands


@pytest.mark.parametrize("count", [1, 7, L.MAX_ROWS])
def test_leaderboard_draws_exactly_one_row_per_standing(count: int) -> None:
    rows = (board_rows(30) * 2)[:count]
    rows = [replace(s, rank=i + 1) for i, s in enumerate(rows)]
    image = png(L.render_leaderboard(rows, NAMES, title="Crosscut"))
    palette = get_theme(render.THEMES[0]).palette(L.PLAYERS)
    assert rank_bands(image, palette.text) == count
    assert image.height == L.leaderboard_layout(count).height


def rating_cell(lay: L.LeaderboardLayout, index: int) -> tuple[int, int, int, int]:
    _, top, _, bottom = lay.row_box(index)
    return (L.RATING_RIGHT - 120, top + 4, L.RATING_RIGHT + 1, bottom - 4)


def test_provisional_ratings_are_muted_and_settled_ones_are_not() -> None:
    rows = board_rows()
    provisional = [i for i, s in enumerate(rows) if s.provisional]
    settled = [i for i, s in enumerate(rows) if not s.provisional]
    assert provisional and settled, "the fixture should have both kinds"
    image = png(L.render_leaderboard(rows, NAMES, title="Minefield"))
    lay = L.leaderboard_layout(len(rows))
    palette = get_theme(render.THEMES[0]).palette(L.PLAYERS)
    for index in provisional:
        cell = colours_in(image, rating_cell(lay, index))
        assert palette.muted in cell and palette.text not in cell, index
    for index in settled:
        assert palette.text in colours_in(image, rating_cell(lay, index)), index


def test_a_long_name_is_cut_before_the_rating_column() -> None:
    rows = board_rows()[:3]
    names = {**NAMES, rows[0].user_id: "W" * 40}
    image = png(L.render_leaderboard(rows, names, title="Minefield"))
    lay = L.leaderboard_layout(3)
    _, top, _, bottom = lay.row_box(0)
    palette = get_theme(render.THEMES[0]).palette(L.PLAYERS)
    assert palette.text in colours_in(image, (L.NAME_LEFT, top, L.NAME_RIGHT, bottom))
    gap = colours_in(image, (L.NAME_RIGHT + 1, top + 1, L.RATING_RIGHT - 110, bottom - 1))
    assert gap == {palette.panel}


def test_leaderboard_bytes_depend_only_on_the_page() -> None:
    rows = board_rows()[:10]
    first = L.render_leaderboard(rows, NAMES, title="Minefield", total=13)
    L.render_leaderboard(board_rows(5), NAMES, title="Other", theme="high-contrast")
    assert L.render_leaderboard(list(rows), dict(NAMES), title="Minefield", total=13) == first
    assert L.render_leaderboard(rows, NAMES, title="Minefield", total=14) != first
    assert L.render_leaderboard(rows, NAMES, title="Minefield", theme="high-contrast") != first
    renamed = {**NAMES, rows[0].user_id: "Someone else"}
    assert L.render_leaderboard(rows, renamed, title="Minefield", total=13) != first


def test_an_empty_page_says_so() -> None:
    image = png(L.render_leaderboard([], NAMES, title="Clear Path"))
    lay = L.leaderboard_layout(0)
    palette = get_theme(render.THEMES[0]).palette(L.PLAYERS)
    message = colours_in(image, (L.PAD, lay.body_top, lay.width - L.PAD, lay.height - L.PAD))
    assert palette.muted in message and palette.text not in message
    assert L.leaderboard_alt_text([], NAMES, title="Clear Path") == (
        "Clear Path leaderboard: nobody has played a rated game yet."
    )
    assert L.leaderboard_alt_text([], NAMES, title="Clear Path", total=30) == (
        "Clear Path leaderboard: no players on this page."
    )


def test_leaderboard_refuses_bad_input_clearly() -> None:
    rows = (board_rows(30) * 2)[: L.MAX_ROWS + 1]
    with pytest.raises(ValueError, match=f"at most {L.MAX_ROWS} rows, not {L.MAX_ROWS + 1}"):
        L.render_leaderboard(rows, NAMES, title="Minefield")
    with pytest.raises(ValueError, match="unknown theme 'neon'"):
        L.render_leaderboard(rows[:2], NAMES, title="Minefield", theme="neon")


def test_leaderboard_alt_text_reads_every_row() -> None:
    rows = board_rows()[:3]
    text = L.leaderboard_alt_text(rows, {rows[0].user_id: "Ann\n\x00Bot"}, title="Minefield")
    first = rows[0]
    assert text.startswith("Minefield leaderboard, ranks 1–3. 1. Ann Bot: ")
    assert f"{round(first.rating)} ± {round(first.uncertainty)}, {first.games} games" in text
    assert f"({first.wins} won, {first.losses} lost, {first.draws} drawn)" in text
    assert f"2. user {rows[1].user_id}: " in text  # no name given: the id, never blank
    newcomer = next(s for s in board_rows() if s.provisional)
    one = L.leaderboard_alt_text([newcomer], NAMES, title="Minefield")
    assert ", provisional, 1 game (1 won, 0 lost, 0 drawn)." in one
    many = L.leaderboard_alt_text(board_rows(30)[:25], {}, title="Minefield")
    assert len(many) <= 1000 and many.endswith("…")


# --- rating chart ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Point:
    rating: float
    uncertainty: float


def points(ratings: Iterable[float], uncertainty: float = 60.0) -> list[Point]:
    return [Point(r, uncertainty) for r in ratings]


def dot_centre_y(image: Image.Image, x: float, colour: RGB) -> float:
    """The middle of the run of ``colour`` pixels in column ``x`` (a dot, found by scanning)."""
    ys = [y for y in range(C.PLOT[1], C.PLOT[3]) if pixel(image, x, y) == colour]
    assert ys, f"no {colour} in column {x}"
    assert ys[-1] - ys[0] == len(ys) - 1, "one run expected"
    return (ys[0] + ys[-1] + 1) / 2


def grid_rows(image: Image.Image, colour: RGB) -> list[int]:
    """Rows of the horizontal grid lines, read in the plot's left margin (left of any point)."""
    x = C.PLOT[0] + 6
    return [y for y in range(C.PLOT[1] + 2, C.PLOT[3] - 2) if pixel(image, x, y) == colour]


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_the_line_passes_through_each_point(theme: str) -> None:
    history = points([1500, 1600, 1500, 1600, 1550])
    image = png(C.render_rating_chart(history, player="Ann", game="Minefield", theme=theme))
    palette = get_theme(theme).palette(C.PLAYERS)
    line = palette.pieces[C.LINE_PLAYER].fill
    geo = C.chart_geometry([p.rating for p in history])
    for i, p in enumerate(history[:-1]):
        assert pixel(image, geo.x(i), geo.y(p.rating)) == line, i
    # Found by scanning, without the geometry's y: equal ratings sit level, and 100 points
    # of rating are as far apart as the grid lines say (ticks are ``step`` apart).
    ys = [dot_centre_y(image, geo.x(i), line) for i in range(4)]
    assert abs(ys[0] - ys[2]) <= 1 and abs(ys[1] - ys[3]) <= 1
    grid = grid_rows(image, palette.grid)
    gaps = [b - a for a, b in pairwise(grid) if b - a > 2]
    step = geo.y_ticks[1] - geo.y_ticks[0]
    per_point = sum(gaps) / len(gaps) / step
    assert ys[0] - ys[1] == pytest.approx(100 * per_point, abs=1.5)
    # The last point has its own larger dot, ringed in the text colour.
    x, y = geo.x(4), geo.y(1550)
    assert pixel(image, x, y) == line
    assert pixel(image, x + C.LAST_DOT_RADIUS - 1, y) == palette.text


def test_a_long_history_is_one_unbroken_line() -> None:
    history = points([1500.0] * 20 + [1500 + 4 * i for i in range(60)])
    assert len(history) > C.MAX_DOTS
    image = png(C.render_rating_chart(history, player="Ann", game="Minefield"))
    palette = get_theme(render.THEMES[0]).palette(C.PLAYERS)
    line = palette.pieces[C.LINE_PLAYER].fill
    geo = C.chart_geometry([p.rating for p in history])
    # Halfway between two flat points there is no dot, only the line.
    for i in (3, 10, 17):
        assert pixel(image, (geo.x(i) + geo.x(i + 1)) / 2, geo.y(1500)) == line
    # Every column from the first point to the last crosses the line.
    for x in range(int(geo.x(0)) + 1, int(geo.x(len(history) - 1) - C.LAST_DOT_RADIUS)):
        assert any(pixel(image, x, y) == line for y in range(C.PLOT[1], C.PLOT[3])), x


def test_the_band_shows_the_uncertainty_and_stays_inside_the_plot() -> None:
    history = [Point(1500, 240), Point(1540, 200), Point(1520, 150)]
    image = png(C.render_rating_chart(history, player="Ann", game="Minefield"))
    palette = get_theme(render.THEMES[0]).palette(C.PLAYERS)
    geo = C.chart_geometry([p.rating for p in history])
    grid = {round(geo.y(v)) for v in geo.y_ticks}
    x = geo.x(1)
    left, top, right, bottom = C.PLOT
    # Inside the band, away from the line, the grid lines and the plot's edge: band colour.
    ys = [
        y
        for y in range(max(top + 3, int(geo.y(1540 + 150))), int(geo.y(1540 + 20)))
        if all(abs(y - g) > 2 for g in grid)
    ]
    assert ys and {pixel(image, x, y) for y in ys} == {palette.perimeter}
    # The band is taller than the plot here, but nothing is drawn above or below the plot.
    assert palette.perimeter not in colours_in(image, (left, 4, right, top - 2))
    assert palette.perimeter not in colours_in(image, (left, bottom + 2, right, bottom + 6))


@pytest.mark.slow
def test_one_point_and_no_points() -> None:
    palette = get_theme(render.THEMES[0]).palette(C.PLAYERS)
    line = palette.pieces[C.LINE_PLAYER].fill
    one = png(C.render_rating_chart(points([1522.0]), player="Ann", game="Clear Path"))
    geo = C.chart_geometry([1522.0])
    assert geo.x(0) == (C.PLOT[0] + C.PLOT[2]) / 2
    assert pixel(one, geo.x(0), geo.y(1522.0)) == line
    assert geo.y_ticks[0] < 1522 < geo.y_ticks[-1]
    empty = png(C.render_rating_chart([], player="Ann", game="Clear Path"))
    assert line not in colours_in(empty, C.PLOT)
    assert palette.muted in colours_in(empty, C.PLOT)  # the "no rated games yet" message
    assert palette.grid not in colours_in(empty, (C.PLOT[0] + 4, C.PLOT[1] + 4, 200, 200))
    assert C.rating_chart_alt_text([], player="Ann", game="Clear Path") == (
        "Rating history of Ann in Clear Path: no rated games yet."
    )


def test_chart_bytes_depend_only_on_the_history() -> None:
    history = points([1500, 1480, 1530, 1555])
    first = C.render_rating_chart(history, player="Ann", game="Minefield")
    C.render_rating_chart(points([1400, 1700]), player="Bob", game="Crosscut")
    assert C.render_rating_chart(list(history), player="Ann", game="Minefield") == first
    changed = points([1500, 1480, 1530, 1556])
    assert C.render_rating_chart(changed, player="Ann", game="Minefield") != first
    themed = C.render_rating_chart(history, player="Ann", game="Minefield", theme="high-contrast")
    assert themed != first


def test_chart_from_the_real_model_and_its_alt_text() -> None:
    me = R.initial_rating()
    history: list[RatingPoint] = []
    for n, outcome in enumerate(("win", "win", "loss", "draw", "win", "loss", "loss")):
        me, _ = R.update(me, R.Rating(26.0, 3.0), outcome)  # type: ignore[arg-type]
        history.append(RatingPoint(n, NOW, me.rating, me.uncertainty))
    image = png(C.render_rating_chart(history, player="Ann", game="Minefield"))
    assert image.size == (C.WIDTH, C.HEIGHT)
    ratings = [p.rating for p in history]
    best, worst = ratings.index(max(ratings)), ratings.index(min(ratings))
    assert C.rating_chart_alt_text(history, player="Ann", game="Minefield") == (
        f"Rating history of Ann in Minefield: 7 rated games. Now {round(me.rating)} ± "
        f"{round(me.uncertainty)}. Highest {round(max(ratings))} after game {best + 1}, "
        f"lowest {round(min(ratings))} after game {worst + 1}."
    )


def test_chart_refuses_bad_input_clearly() -> None:
    with pytest.raises(ValueError, match="unknown theme 'neon'"):
        C.render_rating_chart(points([1500]), player="Ann", game="Minefield", theme="neon")
    with pytest.raises(ValueError, match="finite"):
        C.render_rating_chart(points([1500, float("nan")]), player="Ann", game="Minefield")
