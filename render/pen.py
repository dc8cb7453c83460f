"""Drawing in final-pixel coordinates on a supersampled canvas.

Everything is drawn ``k`` times larger and shrunk once with ``Image.reduce(k)`` (a box filter
in C): smooth circle edges and text for a few milliseconds, instead of a resampling filter.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from .fonts import bold, draw_text
from .themes import RGB

Point = tuple[float, float]


class Pen:
    def __init__(
        self, width: int, height: int, k: int, background: RGB, origin: Point = (0, 0)
    ) -> None:
        """A ``width``×``height`` canvas (final pixels) whose top-left is ``origin``."""
        self.k = k
        self.ox, self.oy = origin
        self.image = Image.new("RGB", (width * k, height * k), background)
        self.draw = ImageDraw.Draw(self.image)

    def _x(self, value: float) -> int:
        return round((value - self.ox) * self.k)

    def _y(self, value: float) -> int:
        return round((value - self.oy) * self.k)

    def _w(self, width: float) -> int:
        return max(1, round(width * self.k))

    def rect(
        self,
        box: tuple[float, float, float, float],
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 0,
    ) -> None:
        """A rectangle; ``box`` is (left, top, right, bottom) with right/bottom exclusive."""
        left, top, right, bottom = (
            self._x(box[0]),
            self._y(box[1]),
            self._x(box[2]),
            self._y(box[3]),
        )
        self.draw.rectangle(
            (left, top, right - 1, bottom - 1),
            fill=fill,
            outline=outline,
            width=self._w(width) if outline else 0,
        )

    def circle(
        self,
        centre: Point,
        radius: float,
        fill: RGB | None = None,
        outline: RGB | None = None,
        width: float = 0,
    ) -> None:
        box = self._box(centre, radius)
        self.draw.ellipse(box, fill=fill, outline=outline, width=self._w(width) if outline else 0)

    def arc(
        self, centre: Point, radius: float, start: float, end: float, colour: RGB, width: float
    ) -> None:
        """An arc stroke centred on ``radius``; degrees, clockwise from three o'clock."""
        box = self._box(centre, radius + width / 2)
        self.draw.arc(box, start, end, fill=colour, width=self._w(width))

    def _box(self, centre: Point, radius: float) -> tuple[int, int, int, int]:
        x, y = centre
        r = radius
        # Pillow's box is inclusive; pixel i spans [i, i + 1), so the far edge is one less.
        return (self._x(x - r), self._y(y - r), self._x(x + r) - 1, self._y(y + r) - 1)

    def line(self, points: Sequence[Point], colour: RGB, width: float) -> None:
        pts = [(self._x(x), self._y(y)) for x, y in points]
        self.draw.line(pts, fill=colour, width=self._w(width))

    def polygon(self, points: Sequence[Point], colour: RGB) -> None:
        self.draw.polygon([(self._x(x), self._y(y)) for x, y in points], fill=colour)

    def text(self, at: Point, text: str, size: int, colour: RGB, anchor: str = "mm") -> None:
        x, y = at
        draw_text(self.image, (self._x(x), self._y(y)), text, size * self.k, colour, anchor)

    def squeezed_text(self, at: Point, text: str, size: int, colour: RGB, squeeze: float) -> None:
        """DejaVu text centred on ``at``, narrowed to ``squeeze`` of its width (numbers that
        must fit inside a piece while staying tall enough to read)."""
        if squeeze >= 1:
            self.text(at, text, size, colour)
            return
        font = bold(size * self.k)
        left, top, right, bottom = (round(v) for v in font.getbbox(text, anchor="mm"))
        mask = Image.new("L", (right - left, bottom - top), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor="mm")
        size_x = max(1, round(mask.width * squeeze))
        narrow = mask.resize((size_x, mask.height), Image.Resampling.BOX)
        x = self._x(at[0]) - round(narrow.width / 2)
        y = self._y(at[1]) + top
        self.image.paste(colour, (x, y, x + narrow.width, y + narrow.height), narrow)

    def paste(self, image: Image.Image, at: tuple[int, int]) -> None:
        """A final-size image with its top-left at ``at``: enlarged ``k`` times, it shrinks
        back to exactly its own pixels."""
        if self.k > 1:
            image = image.resize(
                (image.width * self.k, image.height * self.k), Image.Resampling.NEAREST
            )
        self.image.paste(image, (self._x(at[0]), self._y(at[1])))

    def finish(self) -> Image.Image:
        return self.image.reduce(self.k) if self.k > 1 else self.image
