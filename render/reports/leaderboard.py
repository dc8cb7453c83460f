"""A leaderboard page as a PNG table in the boards' style, and the alt text that goes with it.

Rows come from the caller as anything with a ``Standing``'s fields (``bot.service``'s
``Standing`` fits; ``render`` does not import the bot), names as ``{user_id: display name}``.
The table is drawn at final size: it is rectangles and text, which FreeType already smooths,
so there is nothing to supersample.  Colours come from the board themes and the image goes
through the same fixed colour table (:mod:`render.encode`), so equal pages give equal bytes
and theme colours stay exact for the pixel tests.

It is opaque and light with a thin dark frame, like a board, so it reads the same on
Discord's dark and light backgrounds; rows are 54 px with 30 px figures, which stay readable
when a phone shrinks the 960 px image to the width of its screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from PIL import Image, ImageDraw

from ..caption import ENGLISH, MAX_ALT_TEXT, SEP, Speaker, clean_name
from ..encode import png_bytes, to_indexed
from ..fonts import draw_text, fit_text, text_width
from ..themes import DEFAULT_THEME, RGB, Palette, get_theme

__all__ = [
    "MAX_ROWS",
    "LeaderboardLayout",
    "StandingRow",
    "leaderboard_alt_text",
    "leaderboard_layout",
    "render_leaderboard",
]

PLAYERS = ("red", "blue")
"""The theme palette the table takes its colours from (panel, text, stripes, frame)."""

MAX_ROWS = 25
WIDTH = 960
PAD = 20
FRAME = 2
TITLE_FONT = 34
SUB_FONT = 22
HEAD_FONT = 22
ROW_FONT = 30
SMALL_FONT = 22
TITLE_Y = PAD + 24
SUB_Y = TITLE_Y + 40
HEAD_TOP = SUB_Y + 26
HEAD_H = 40
ROW_H = 54
EMPTY_H = 90

# Columns: (right edge of rank, left of name, right of the rating figure, left of "± u",
# right of games, right of W–L–D).
RANK_RIGHT = 84
NAME_LEFT = 104
NAME_RIGHT = 470
RATING_RIGHT = 592
PLUS_MINUS_LEFT = 600
GAMES_RIGHT = 770
RECORD_RIGHT = WIDTH - PAD - 8
RECORD_ROOM = RECORD_RIGHT - GAMES_RIGHT - 24

PROVISIONAL_MARK = "?"


class StandingRow(Protocol):
    """What the table needs from one leaderboard row (``bot.service``'s ``Standing``)."""

    @property
    def user_id(self) -> int: ...
    @property
    def rank(self) -> int: ...
    @property
    def rating(self) -> float: ...
    @property
    def uncertainty(self) -> float: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def losses(self) -> int: ...
    @property
    def draws(self) -> int: ...
    @property
    def provisional(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class LeaderboardLayout:
    """Where the table's parts are, in pixels; kept apart so tests can probe them."""

    rows: int
    width: int
    height: int
    head_top: int
    body_top: int

    def row_box(self, index: int) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) of row ``index`` (0 = first on the page), exclusive."""
        top = self.body_top + index * ROW_H
        return (FRAME, top, self.width - FRAME, top + ROW_H)

    def row_centre_y(self, index: int) -> float:
        return self.body_top + index * ROW_H + ROW_H / 2


def leaderboard_layout(rows: int) -> LeaderboardLayout:
    body_top = HEAD_TOP + HEAD_H
    body_h = rows * ROW_H if rows else EMPTY_H
    return LeaderboardLayout(
        rows=rows,
        width=WIDTH,
        height=body_top + body_h + PAD,
        head_top=HEAD_TOP,
        body_top=body_top,
    )


def _rating_text(row: StandingRow) -> str:
    return f"{round(row.rating)}{PROVISIONAL_MARK if row.provisional else ''}"


def _record(row: StandingRow) -> str:
    return f"{row.wins}–{row.losses}–{row.draws}"


def _name(names: Mapping[int, str], user_id: int, tr: Speaker = ENGLISH) -> str:
    return clean_name(names.get(user_id, "")) or tr.gettext("user {id}", id=user_id)


def _span(rows: Sequence[StandingRow], total: int | None, tr: Speaker = ENGLISH) -> str:
    """``Ranks 11–20 of 42``, one whole message per form."""
    first, last = rows[0].rank, rows[-1].rank
    if first == last:
        if total is None:
            return tr.gettext("Rank {first}", first=first)
        return tr.gettext("Rank {first} of {total}", first=first, total=total)
    if total is None:
        return tr.gettext("Ranks {first}–{last}", first=first, last=last)
    return tr.gettext("Ranks {first}–{last} of {total}", first=first, last=last, total=total)


def _subtitle(rows: Sequence[StandingRow], total: int | None, tr: Speaker = ENGLISH) -> str:
    if not rows:
        return tr.ngettext("{n} ranked player", "{n} ranked players", total) if total else ""
    provisional = tr.gettext("{mark} provisional", mark=PROVISIONAL_MARK)
    return f"{_span(rows, total, tr)}{SEP}{provisional}"


def _empty(total: int | None, tr: Speaker = ENGLISH) -> str:
    if total:
        return tr.gettext("No players on this page")
    return tr.gettext("Nobody has played a rated game yet")


def stripe_colour(palette: Palette) -> RGB:
    """Every other row's background: the board colour, or the perimeter shade where a theme's
    board is the panel colour (high-contrast), so the stripes always show."""
    return palette.board if palette.board != palette.panel else palette.perimeter


def fitting_size(text: str, size: int, room: float) -> int:
    """The largest font size up to ``size`` in which ``text`` fits ``room`` (figures are never
    cut short with an ellipsis)."""
    while size > 12 and text_width(text, size) > room:
        size -= 2
    return size


def draw_table_frame(
    image: Image.Image,
    palette: Palette,
    *,
    heading: str,
    subtitle: str,
    body_top: int,
    row_boxes: Sequence[tuple[int, int, int, int]],
    empty: str,
) -> None:
    """What every table page in the boards' style shares, around the caller's own columns:
    the fitted ``heading`` and the ``subtitle``, the rule under the column headings, the
    stripe of every other row (or ``empty`` centred where there are no rows) and the frame.
    The leaderboard and the tournament standings both draw through it, so they stay alike."""
    draw = ImageDraw.Draw(image)
    width, height = image.size
    draw_text(image, (PAD + 4, TITLE_Y), heading, TITLE_FONT, palette.text, "lm")
    draw_text(image, (PAD + 4, SUB_Y), subtitle, SUB_FONT, palette.muted, "lm")
    rule_y = body_top - 2
    draw.rectangle((PAD, rule_y, width - PAD - 1, rule_y + 1), fill=palette.grid)
    if not row_boxes:
        draw_text(image, (width / 2, body_top + EMPTY_H / 2), empty, 26, palette.muted, "mm")
    stripe = stripe_colour(palette)
    for index, (left, top, right, bottom) in enumerate(row_boxes):
        if index % 2 == 1:
            draw.rectangle((left, top, right - 1, bottom - 1), fill=stripe)
    draw.rectangle((0, 0, width - 1, height - 1), outline=palette.frame, width=FRAME)


def _check(rows: Sequence[StandingRow]) -> None:
    if len(rows) > MAX_ROWS:
        raise ValueError(f"a leaderboard page holds at most {MAX_ROWS} rows, not {len(rows)}")


def render_leaderboard(
    rows: Sequence[StandingRow],
    names: Mapping[int, str],
    *,
    title: str,
    total: int | None = None,
    theme: str = DEFAULT_THEME,
    tr: Speaker = ENGLISH,
) -> bytes:
    """One page of a leaderboard as PNG bytes.

    ``title`` names the board (e.g. ``"Minefield"``); ``total`` is the number of ranked
    players, for "Ranks 11–20 of 42".  Provisional ratings are shown muted with a ``?``.
    """
    _check(rows)
    palette = get_theme(theme).palette(PLAYERS)
    image = draw_leaderboard(rows, names, title=title, total=total, palette=palette, tr=tr)
    return png_bytes(to_indexed(image, get_theme(theme).name, PLAYERS))


def draw_leaderboard(
    rows: Sequence[StandingRow],
    names: Mapping[int, str],
    *,
    title: str,
    total: int | None,
    palette: Palette,
    tr: Speaker = ENGLISH,
) -> Image.Image:
    """The table as an RGB image at final size."""
    _check(rows)
    lay = leaderboard_layout(len(rows))
    image = Image.new("RGB", (lay.width, lay.height), palette.panel)
    room = lay.width - 2 * (PAD + 4)
    draw_table_frame(
        image,
        palette,
        heading=fit_text(clean_name(title), TITLE_FONT, room, SEP + tr.gettext("Leaderboard")),
        subtitle=_subtitle(rows, total, tr),
        body_top=lay.body_top,
        row_boxes=[lay.row_box(index) for index in range(len(rows))],
        empty=_empty(total, tr),
    )

    def text(at: tuple[float, float], words: str, size: int, colour: RGB, anchor: str) -> None:
        draw_text(image, at, words, size, colour, anchor)

    head_y = lay.head_top + HEAD_H / 2
    head = HEAD_FONT
    text((RANK_RIGHT, head_y), "#", head, palette.muted, "rm")
    text((NAME_LEFT, head_y), tr.gettext("Player"), head, palette.muted, "lm")
    text((RATING_RIGHT, head_y), tr.gettext("Rating"), head, palette.muted, "rm")
    text((GAMES_RIGHT, head_y), tr.gettext("Games"), head, palette.muted, "rm")
    text((RECORD_RIGHT, head_y), tr.gettext("W–L–D"), head, palette.muted, "rm")

    figures = ROW_FONT
    small = SMALL_FONT
    for index, row in enumerate(rows):
        y = lay.row_centre_y(index)
        text((RANK_RIGHT, y), str(row.rank), figures, palette.text, "rm")
        name = fit_text(_name(names, row.user_id, tr), figures, NAME_RIGHT - NAME_LEFT)
        text((NAME_LEFT, y), name, figures, palette.text, "lm")
        rating_colour = palette.muted if row.provisional else palette.text
        text((RATING_RIGHT, y), _rating_text(row), figures, rating_colour, "rm")
        text((PLUS_MINUS_LEFT, y + 2), f"± {round(row.uncertainty)}", small, palette.muted, "lm")
        text((GAMES_RIGHT, y), str(row.games), figures, palette.text, "rm")
        record = _record(row)
        text((RECORD_RIGHT, y), record, fitting_size(record, 26, RECORD_ROOM), palette.text, "rm")
    return image


def leaderboard_alt_text(
    rows: Sequence[StandingRow],
    names: Mapping[int, str],
    *,
    title: str,
    total: int | None = None,
    tr: Speaker = ENGLISH,
) -> str:
    """What the table says, for screen readers: one short sentence per row."""
    _check(rows)
    head = tr.gettext("{title} leaderboard", title=clean_name(title))
    if not rows:
        if total:
            return tr.gettext("{head}: no players on this page.", head=head)
        return tr.gettext("{head}: nobody has played a rated game yet.", head=head)
    first, last = rows[0].rank, rows[-1].rank
    # mid-sentence forms of the subtitle: whole messages, as each language capitalises its own
    if first == last and total is None:
        span = tr.gettext("{head}, rank {first}.", head=head, first=first)
    elif first == last:
        span = tr.gettext("{head}, rank {first} of {total}.", head=head, first=first, total=total)
    elif total is None:
        span = tr.gettext("{head}, ranks {first}–{last}.", head=head, first=first, last=last)
    else:
        span = tr.gettext(
            "{head}, ranks {first}–{last} of {total}.",
            head=head,
            first=first,
            last=last,
            total=total,
        )
    parts = [span]
    for row in rows:
        games = tr.ngettext("{n} game", "{n} games", row.games)
        values = {
            "rank": row.rank,
            "name": _name(names, row.user_id, tr),
            "rating": round(row.rating),
            "uncertainty": round(row.uncertainty),
            "games": games,
            "wins": row.wins,
            "losses": row.losses,
            "draws": row.draws,
        }
        if row.provisional:
            said = tr.gettext(
                "{rank}. {name}: {rating} ± {uncertainty}, provisional, {games} "
                "({wins} won, {losses} lost, {draws} drawn).",
                **values,
            )
        else:
            said = tr.gettext(
                "{rank}. {name}: {rating} ± {uncertainty}, {games} "
                "({wins} won, {losses} lost, {draws} drawn).",
                **values,
            )
        parts.append(said)
    text = " ".join(parts)
    return text if len(text) <= MAX_ALT_TEXT else text[: MAX_ALT_TEXT - 1] + "…"
