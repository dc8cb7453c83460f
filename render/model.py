"""The drawing model: an image as plain shapes in image pixels, written out as PNG or SVG.

A board is described once, from the rules state, theme and marks, as layers of shapes
(rectangles, circles, arcs, lines, polygons, text) and stamps of sprites (a small drawing
placed at many points: a cell tile, a caption chip).  :mod:`render.raster` paints the model
with Pillow, :mod:`render.svg` writes it as SVG; neither decides what a board shows, so the
PNG image and the SVG web page cannot drift apart.

Geometry follows the raster, where the model started: boxes are (left, top, right, bottom) with
right and bottom exclusive, and an outline is drawn *inside* its rectangle or circle (a stroke
centred on a radius is a circle ``width / 2`` larger: :func:`ring`).  Angles are degrees
clockwise from three o'clock, as in image coordinates (y grows downwards).

Sprites and layers are compared by value but hash only once (sprites when built, layers when
first asked): both outputs keep their rasters or XML in caches keyed by the model itself, and a
board looks up hundreds of sprites per image.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .themes import RGB

Point = tuple[float, float]
Box = tuple[float, float, float, float]
Anchor = Literal["mm", "lm"]


@dataclass(frozen=True, slots=True)
class Rect:
    box: Box
    fill: RGB | None = None
    outline: RGB | None = None
    width: float = 0
    role: str = ""
    """What the shape is (``"edge"``, ``"path"``...): the SVG's class, so a page can style or
    find it; the PNG ignores it."""


@dataclass(frozen=True, slots=True)
class Circle:
    centre: Point
    radius: float
    fill: RGB | None = None
    outline: RGB | None = None
    width: float = 0
    role: str = ""


@dataclass(frozen=True, slots=True)
class Arc:
    """A stroke along a circle from ``start`` to ``end`` degrees, centred on ``radius``."""

    centre: Point
    radius: float
    start: float
    end: float
    colour: RGB
    width: float
    role: str = ""


@dataclass(frozen=True, slots=True)
class Line:
    """A stroke through ``points`` with flat ends."""

    points: tuple[Point, ...]
    colour: RGB
    width: float
    role: str = ""


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[Point, ...]
    fill: RGB
    role: str = ""


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text, ``size`` pixels tall, in the renderer's font stack (DejaVu Sans Bold,
    then Noto faces per character: :mod:`render.fonts`).

    ``anchor`` is Pillow's: ``"mm"`` centres the text on ``at``, ``"lm"`` starts it there, both
    vertically centred.  ``squeeze`` < 1 narrows the text to that share of its width, keeping
    its height (chain numbers of two digits inside a stone).
    """

    at: Point
    text: str
    size: int
    colour: RGB
    anchor: Anchor = "mm"
    squeeze: float = 1.0
    role: str = ""


Shape = Rect | Circle | Arc | Line | Polygon | Text


def ring(centre: Point, radius: float, colour: RGB, width: float, role: str = "") -> Circle:
    """A circle's stroke centred on ``radius`` (outlines are drawn inside their circle)."""
    return Circle(centre, radius + width / 2, None, colour, width, role)


@dataclass(frozen=True, slots=True)
class Sprite:
    """A small drawing reused at many places: ``shapes`` in its own pixels over an opaque
    ``background``, painted ``supersample`` times larger and shrunk in the PNG output."""

    width: int
    height: int
    background: RGB
    shapes: tuple[Shape, ...]
    supersample: int
    role: str = ""
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        key = (self.width, self.height, self.background, self.shapes, self.supersample)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True, slots=True)
class Stamp:
    """A sprite with its top-left corner at ``at``; ``label`` names what it shows (a point)."""

    sprite: Sprite
    at: tuple[int, int]
    label: str = ""


Item = Shape | Stamp


@dataclass(frozen=True, slots=True)
class Layer:
    """Shapes and stamps in drawing order, over the layers before.

    A layer with a ``background`` is an opaque patch over ``box`` whose shapes are painted
    ``supersample`` times larger in the PNG output (stamps are pasted at final size).  A layer
    without one has only stamps, pasted straight onto the image.  A ``still`` layer is the same
    for every position of a game (frame, edges, coordinates, the empty board): the outputs
    paint or write it once and reuse it.
    """

    name: str
    box: tuple[int, int, int, int]
    background: RGB | None
    supersample: int
    items: tuple[Item, ...] = ()
    still: bool = False
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.background is None and any(not isinstance(i, Stamp) for i in self.items):
            raise ValueError(f"layer {self.name!r}: shapes need a background to be painted on")

    def __hash__(self) -> int:
        # Only still layers are ever looked up, so the hash is computed when first asked for.
        if self._hash is None:
            key = (self.name, self.box, self.background, self.supersample, self.items)
            object.__setattr__(self, "_hash", hash(key))
        assert self._hash is not None
        return self._hash

    @property
    def stamps(self) -> tuple[Stamp, ...]:
        return tuple(i for i in self.items if isinstance(i, Stamp))


@dataclass(frozen=True, slots=True)
class Scene:
    """A whole image: ``layers`` in drawing order, the first covering the image, and the part
    of it shown (``view``: left, top, right, bottom; the whole image unless given)."""

    width: int
    height: int
    layers: tuple[Layer, ...]
    view: tuple[int, int, int, int] | None = None

    @property
    def shown(self) -> tuple[int, int, int, int]:
        return self.view or (0, 0, self.width, self.height)
