"""A game analysis as a PNG chart: the first player's win chance over the moves, and alt text.

The moves come from the caller as anything shaped like :class:`ai.analysis.PlyAnalysis`
(``render`` imports neither ``bot`` nor needs the search).  The line is the first seat's win
chance before each ply and after the last; a stretch where a position is proven is drawn as a
solid band along the top (first seat proven to win) or the bottom (proven to lose).  Marks sit
on the line at the position the marked move led to, each with its own shape and an Okabe–Ito
colour, so they stay apart for colour-blind readers and in greyscale.

Like the rating chart it is opaque and light with a dark frame, and equal analyses give equal
bytes (no antialiasing that depends on anything but the input; PNG at a fixed compression).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image, ImageDraw

from ..caption import ENGLISH, Speaker
from ..encode import png_bytes
from ..fonts import bold

__all__ = ["AnalysedMove", "analysis_chart_alt_text", "render_analysis_chart"]

WIDTH, HEIGHT = 960, 540
PLOT = (90, 80, WIDTH - 30, HEIGHT - 60)
BAND = 10
BACKGROUND = (250, 250, 247)
FRAME = (40, 40, 40)
GRID = (215, 215, 210)
LINE = (0, 114, 178)  # Okabe–Ito blue
PROVEN = (60, 60, 60)
MARK_STYLE: dict[str, tuple[str, tuple[int, int, int]]] = {
    "inaccuracy": ("circle", (230, 159, 0)),  # orange
    "mistake": ("square", (213, 94, 0)),  # vermillion
    "blunder": ("triangle", (0, 0, 0)),  # black
    "missed_win": ("diamond", (204, 121, 167)),  # reddish purple
}
MARK_RADIUS = 7


def _mark_word(mark: str, tr: Speaker) -> str:
    """A mark's name in the reader's language (the same words as the game page's)."""
    if mark == "inaccuracy":
        return tr.gettext("inaccuracy")
    if mark == "mistake":
        return tr.gettext("mistake")
    if mark == "blunder":
        return tr.gettext("blunder")
    return tr.gettext("missed win")


class AnalysedMove(Protocol):
    @property
    def ply(self) -> int: ...
    @property
    def move(self) -> str: ...
    @property
    def seat(self) -> str: ...
    @property
    def win_chance_before(self) -> float: ...
    @property
    def win_chance_after(self) -> float: ...
    @property
    def proven_before(self) -> str | None: ...
    @property
    def proven_after(self) -> str | None: ...
    @property
    def mark(self) -> str | None: ...


def first_seat_curve(moves: Sequence[AnalysedMove]) -> list[tuple[float, str | None]]:
    """(first seat's win chance, proven for the first seat) before each ply and after the last."""
    curve: list[tuple[float, str | None]] = []
    for m in moves:
        curve.append(_for_first(m.seat, m.win_chance_before, m.proven_before))
    if moves:
        last = moves[-1]
        curve.append(_for_first(last.seat, last.win_chance_after, last.proven_after))
    return curve


def _for_first(seat: str, chance: float, proven: str | None) -> tuple[float, str | None]:
    if seat == "first":
        return chance, proven
    flipped = {"win": "loss", "loss": "win"}.get(proven or "")
    return 1.0 - chance, flipped


def render_analysis_chart(moves: Sequence[AnalysedMove], tr: Speaker = ENGLISH) -> bytes:
    """The chart, its words in ``tr``'s language."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = PLOT
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=FRAME, width=2)
    title = tr.gettext("Win chance of the first player")
    draw.text((left, 24), title, fill=FRAME, font=bold(fitting(title, 26, right - left)))
    for frac, label in ((0.0, "0%"), (0.5, "50%"), (1.0, "100%")):
        y = bottom - frac * (bottom - top)
        draw.line((left, y, right, y), fill=GRID, width=1)
        draw.text((left - 12, y), label, fill=FRAME, font=bold(18), anchor="rm")
    curve = first_seat_curve(moves)
    if len(curve) < 2:
        return png_bytes(image)
    step = (right - left) / (len(curve) - 1)

    def at(i: int, chance: float) -> tuple[float, float]:
        return left + i * step, bottom - chance * (bottom - top)

    # Proven stretches: a solid band at the side the proof favours.
    for i in range(len(curve) - 1):
        proven = curve[i][1]
        if proven is not None and curve[i + 1][1] == proven:
            x0, x1 = at(i, 0)[0], at(i + 1, 0)[0]
            # Just outside the plot, so the line at 0% or 100% does not hide it.
            y0, y1 = (
                (top - 3 - BAND, top - 3) if proven == "win" else (bottom + 3, bottom + 3 + BAND)
            )
            draw.rectangle((x0, y0, x1, y1), fill=PROVEN)
    draw.line([at(i, c) for i, (c, _) in enumerate(curve)], fill=LINE, width=3)
    for i, m in enumerate(moves):
        if m.mark is not None:
            _mark(draw, at(i + 1, curve[i + 1][0]), m.mark)
    first = tr.gettext("move {number}", number=1)
    last = tr.gettext("move {number}", number=len(moves))
    draw.text((left, bottom + 18), first, fill=FRAME, font=bold(18))
    draw.text((right, bottom + 18), last, fill=FRAME, font=bold(18), anchor="ra")
    _legend(draw, tr)
    return png_bytes(image)


def fitting(text: str, size: int, room: float) -> int:
    """The largest font size up to ``size`` at which ``text`` fits in ``room`` pixels (a
    German title is half as long again as the English one)."""
    while size > 10 and bold(size).getlength(text) > room:
        size -= 1
    return size


def _mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], mark: str) -> None:
    shape, colour = MARK_STYLE[mark]
    x, y, r = centre[0], centre[1], MARK_RADIUS
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=FRAME)
    elif shape == "square":
        draw.rectangle((x - r, y - r, x + r, y + r), fill=colour, outline=FRAME)
    elif shape == "triangle":
        draw.polygon([(x, y - r - 2), (x - r - 1, y + r), (x + r + 1, y + r)], fill=colour)
    else:
        draw.polygon([(x, y - r - 2), (x + r + 2, y), (x, y + r + 2), (x - r - 2, y)], fill=colour)


LEGEND = (190, WIDTH - 150)
"""Where the legend may run, between the "move 1" and "move N" labels."""


def _legend(draw: ImageDraw.ImageDraw, tr: Speaker) -> None:
    """The marks' shapes and the proven band, each with its word, in one row whose font
    shrinks until the longest language fits between the axis labels."""
    words = [_mark_word(name, tr) for name in MARK_STYLE] + [tr.gettext("proven")]
    room = LEGEND[1] - LEGEND[0]
    size = 16
    while size > 10 and sum(bold(size).getlength(w) + 40 for w in words) > room:
        size -= 1
    font = bold(size)
    x: float = LEGEND[0] + 10
    y = HEIGHT - 34
    for name, word in zip(MARK_STYLE, words, strict=False):
        _mark(draw, (x, y), name)
        draw.text((x + 12, y), word, fill=FRAME, font=font, anchor="lm")
        x += font.getlength(word) + 40
    draw.rectangle((x - 10, y - 5, x + 10, y + 5), fill=PROVEN)
    draw.text((x + 16, y), words[-1], fill=FRAME, font=font, anchor="lm")


def analysis_chart_alt_text(moves: Sequence[AnalysedMove], tr: Speaker = ENGLISH) -> str:
    """The chart in words: where the game turned, the marks, and where it was proven."""
    curve = first_seat_curve(moves)
    if not moves:
        return tr.gettext("No moves to analyse.")
    start, end = curve[0][0], curve[-1][0]
    parts = [
        tr.ngettext(
            "First player's win chance over {n} move, from {start}% to {end}%.",
            "First player's win chance over {n} moves, from {start}% to {end}%.",
            len(moves),
            start=round(start * 100),
            end=round(end * 100),
        )
    ]
    proven_from = next((i for i, (_, p) in enumerate(curve) if p is not None), None)
    if proven_from is not None and proven_from < len(moves):
        number = proven_from + 1
        if curve[proven_from][1] == "win":
            proof = tr.gettext(
                "From move {number} the first player's win was proven.", number=number
            )
        else:
            proof = tr.gettext(
                "From move {number} the second player's win was proven.", number=number
            )
        parts.append(proof)
    for name in MARK_STYLE:
        plies = [m.ply for m in moves if m.mark == name]
        if plies:
            shown = ", ".join(str(p) for p in plies[:8]) + (" …" if len(plies) > 8 else "")
            word = _mark_word(name, tr)
            parts.append(
                tr.gettext("{mark}: moves {moves}.", mark=word[:1].upper() + word[1:], moves=shown)
            )
    return " ".join(parts)
