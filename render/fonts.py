"""The one typeface used on board images: DejaVu Sans Bold, shipped inside this package.

Shipping the font keeps images identical on every machine (CI has no system fonts); Pillow's
bundled default font is the fallback if the file was stripped from an installation.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT_FILE = Path(__file__).with_name("DejaVuSans-Bold.ttf")

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def bold(size: int) -> Font:
    """A bold font ``size`` pixels tall (cached: loading a face costs about a millisecond)."""
    try:
        return ImageFont.truetype(str(FONT_FILE), size)
    except OSError:
        return ImageFont.load_default(size=size)


def text_width(font: Font, text: str) -> float:
    return float(font.getlength(text))


def fit_text(font: Font, text: str, width: float) -> str:
    """``text`` shortened with an ellipsis so it fits ``width`` pixels."""
    if text_width(font, text) <= width:
        return text
    # Binary search for the longest prefix that fits with the ellipsis (names can be long).
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(font, text[:mid] + "…") <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"
