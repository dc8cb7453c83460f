"""Helpers for the tests that read drawn tables back: a PNG opened and checked opaque, one
pixel's colour, and the colours in a box."""

from __future__ import annotations

import io

from PIL import Image

from render.themes import RGB


def png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    # Opaque: no transparency, so Discord's dark and light backgrounds never show through.
    assert "transparency" not in image.info
    return image.convert("RGB")


def pixel(image: Image.Image, x: float, y: float) -> RGB:
    got = image.getpixel((int(x), int(y)))
    assert isinstance(got, tuple)
    return (int(got[0]), int(got[1]), int(got[2]))


def colours_in(image: Image.Image, box: tuple[float, float, float, float]) -> set[RGB]:
    left, top, right, bottom = (int(v) for v in box)
    return {pixel(image, x, y) for x in range(left, right) for y in range(top, bottom)}
