"""PNG encoding through a fixed per-palette colour table.

Board images hold a few dozen flat colours plus anti-aliased edges between them, so mapping
them onto a 256-entry table of theme colours and their blends costs about a millisecond, and
an 8-bit PNG encodes several times faster and smaller than an RGB one.  The table is fixed per
theme, so identical positions always give identical bytes.
"""

from __future__ import annotations

import io
from functools import cache
from itertools import combinations

from PIL import Image

from .themes import RGB, Palette, get_theme

PNG_COMPRESS_LEVEL = 3
BLEND_STEPS = (0.5, 0.25, 0.75)
# Index 255 stays free: GIF replays use it as the see-through colour.
MAX_COLOURS = 255
NEAR = 8


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def colour_table(palette: Palette) -> list[RGB]:
    """The base colours first (exact), then blends between every pair, up to 255 entries."""
    base = palette.base_colours()
    table = list(base)
    pairs = list(combinations(base, 2))
    for t in BLEND_STEPS:
        for a, b in pairs:
            c = _mix(a, b, t)
            if len(table) < MAX_COLOURS and all(_far(c, other) for other in table):
                table.append(c)
    return table


def _far(a: RGB, b: RGB) -> bool:
    """Pillow's palette lookup caches by coarse colour cells; a blend sharing a cell with a
    theme colour could capture it, so blends keep clear of every entry already present."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2])) > NEAR


@cache
def _palette_image(theme: str, players: tuple[str, str]) -> Image.Image:
    table = colour_table(get_theme(theme).palette(players))
    flat = [v for c in table for v in c]
    flat += [0] * (768 - len(flat))
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def to_indexed(image: Image.Image, theme: str, players: tuple[str, str]) -> Image.Image:
    return image.quantize(palette=_palette_image(theme, players), dither=Image.Dither.NONE)


JPEG_QUALITY = 90


def jpeg_bytes(image: Image.Image) -> bytes:
    """A JPEG of the full-colour image (for tools that want one; PNG is smaller and exact)."""
    out = io.BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=JPEG_QUALITY)
    return out.getvalue()


def png_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()
