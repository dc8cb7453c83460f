"""The one typeface used on board images: DejaVu Sans Bold, shipped inside this package.

Shipping the font keeps images identical on every machine (CI has no system fonts); Pillow's
bundled default font is the fallback if the file was stripped from an installation.
"""

from __future__ import annotations

from collections.abc import Sequence
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


SMALLEST_SHARE = 0.75
"""Text may shrink to this share of its intended size before it is shortened."""


def fit_options(options: Sequence[str], size: int, width: float) -> tuple[str, int]:
    """The first of ``options`` (longest first) that fits ``width`` pixels, and its font size.

    Each option is tried at ``size`` and then at smaller sizes down to :data:`SMALLEST_SHARE`
    of it, before the next, shorter one: a line shrinks a little before it loses words.  Only
    if no option fits at all is the last one cut with an ellipsis (a single word longer than
    the whole line, such as a name without spaces).
    """
    smallest = max(8, round(size * SMALLEST_SHARE))
    for text in options:
        for pixels in range(size, smallest - 1, -1):
            if text_width(bold(pixels), text) <= width:
                return text, pixels
    return fit_text(bold(smallest), options[-1], width), smallest
