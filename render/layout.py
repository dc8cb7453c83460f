"""Where everything goes on a board image, in final (not supersampled) pixels.

Kept apart from drawing so tests can ask where a point's cell is and check the pixels there.
Cells stay between 44 and 80 pixels so coordinates and pieces stay readable when a phone
shrinks the image to the width of the screen (:data:`PHONE_WIDTH`); caption text and edge bars
are sized by the image width for the same reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

TARGET_BOARD_PX = 720
MIN_CELL, MAX_CELL = 44, 80

PHONE_WIDTH = 400
"""The width a phone shows an image at; caption text is sized to read there."""
TITLE_PHONE_PX, BODY_PHONE_PX = 15.0, 13.5
READABLE_PHONE_PX = 12.0
"""No caption text is drawn smaller than this at :data:`PHONE_WIDTH` (it shrinks only this far
before it loses words)."""
BAR_SHARE = 0.017
"""Owned edge bars are at least this share of the board: about 6 px at phone width."""


def phone_px(pixels: float, width: int) -> float:
    """How tall ``pixels`` of an image ``width`` wide are when a phone shows it."""
    return pixels * PHONE_WIDTH / width


@dataclass(frozen=True, slots=True)
class Layout:
    size: int
    cell: int
    bar: int
    band: int
    pad: int
    coord_font: int
    title_font: int
    body_font: int
    min_font: int
    title_y: int
    chips_y: int
    event_y: int
    rule_y: int
    caption_h: int
    width: int
    height: int
    x0: int
    y0: int

    @property
    def board_px(self) -> int:
        return self.size * self.cell

    @property
    def radius(self) -> float:
        """Radius of a piece: large, but leaving a visible gap between neighbours."""
        return self.cell * 0.42

    def cell_box(self, col: int, row: int) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) of a cell, right/bottom exclusive; row 0 is the bottom."""
        left = self.x0 + col * self.cell
        top = self.y0 + (self.size - 1 - row) * self.cell
        return left, top, left + self.cell, top + self.cell

    def centre(self, col: int, row: int) -> tuple[float, float]:
        left, top, _, _ = self.cell_box(col, row)
        return left + self.cell / 2, top + self.cell / 2

    def centre_of(self, index: int) -> tuple[float, float]:
        return self.centre(index % self.size, index // self.size)


def board_layout(size: int, scale: float = 1.0) -> Layout:
    """The layout of a ``size``×``size`` board; ``scale`` < 1 shrinks everything (GIF frames)."""
    base_cell = max(MIN_CELL, min(MAX_CELL, round(TARGET_BOARD_PX / size)))
    cell = max(12, round(base_cell * scale))
    # Even cells put every cell centre on a pixel corner, the same for every point.
    cell += cell % 2

    def s(value: float, floor: int = 1) -> int:
        return max(floor, round(value * scale))

    coord_font = s(max(22, min(30, round(base_cell * 0.42))), 8)
    bar = s(max(9, round(base_cell * 0.2), round(size * base_cell * BAR_SHARE)), 3)
    band = round(coord_font * 1.6)
    pad = s(10, 2)
    board_px = size * cell
    width = 2 * (pad + band + bar) + board_px
    # Caption text scales with the image, since a phone shrinks every image to its width.
    title_font = round(width * TITLE_PHONE_PX / PHONE_WIDTH)
    body_font = round(width * BODY_PHONE_PX / PHONE_WIDTH)
    min_font = math.ceil(width * READABLE_PHONE_PX / PHONE_WIDTH)
    # Caption lines, by their vertical centres: title, player chips, last turn; then a rule.
    title_y = pad + round(title_font * 0.65)
    chips_y = title_y + round(title_font * 0.75 + body_font * 0.9)
    event_y = chips_y + round(body_font * 1.5)
    rule_y = event_y + round(body_font * 0.85)
    caption_h = rule_y + 2 + round(body_font * 0.4)
    x0 = pad + band + bar
    y0 = caption_h + band + bar
    height = y0 + board_px + bar + band + pad
    return Layout(
        size=size,
        cell=cell,
        bar=bar,
        band=band,
        pad=pad,
        coord_font=coord_font,
        title_font=title_font,
        body_font=body_font,
        min_font=min_font,
        title_y=title_y,
        chips_y=chips_y,
        event_y=event_y,
        rule_y=rule_y,
        caption_h=caption_h,
        width=width,
        height=height,
        x0=x0,
        y0=y0,
    )
