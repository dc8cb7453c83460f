"""The PNG output of the drawing model: paints a :class:`~render.model.Scene` with Pillow.

Each layer is painted supersampled on a :class:`~render.pen.Pen` and shrunk once.  Sprites
(cell tiles, caption chips) are painted once per process and then only pasted, and a ``still``
layer (frame, edges, coordinates, the empty board) once per board, so drawing a position is
mostly pasting.  Cached images are shared: callers must not change what these functions
return, except the scene image, which is always a fresh copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from PIL import Image

from .model import Circle, Layer, Line, Polygon, Rect, Scene, Shape, Sprite, Stamp, Text
from .pen import Pen


def paint(pen: Pen, shapes: Iterable[Shape]) -> None:
    for shape in shapes:
        if isinstance(shape, Rect):
            pen.rect(shape.box, shape.fill, shape.outline, shape.width)
        elif isinstance(shape, Circle):
            pen.circle(shape.centre, shape.radius, shape.fill, shape.outline, shape.width)
        elif isinstance(shape, Text):
            if shape.squeeze < 1:
                pen.squeezed_text(shape.at, shape.text, shape.size, shape.colour, shape.squeeze)
            else:
                pen.text(shape.at, shape.text, shape.size, shape.colour, shape.anchor)
        elif isinstance(shape, Line):
            pen.line(shape.points, shape.colour, shape.width)
        elif isinstance(shape, Polygon):
            pen.polygon(shape.points, shape.fill)
        else:
            pen.arc(shape.centre, shape.radius, shape.start, shape.end, shape.colour, shape.width)


@lru_cache(maxsize=1024)
def sprite_image(sprite: Sprite) -> Image.Image:
    """The sprite at final size (cached: a board needs only a few dozen distinct ones)."""
    pen = Pen(sprite.width, sprite.height, sprite.supersample, sprite.background)
    paint(pen, sprite.shapes)
    return pen.finish()


def layer_image(layer: Layer) -> Image.Image:
    """An opaque layer as a patch the size of its box."""
    assert layer.background is not None
    left, top, right, bottom = layer.box
    pen = Pen(right - left, bottom - top, layer.supersample, layer.background, origin=(left, top))
    # Stamps after the last shape are pasted once the canvas is shrunk (cheaper, and the same).
    last = max((k for k, item in enumerate(layer.items) if not isinstance(item, Stamp)), default=-1)
    for item in layer.items[: last + 1]:
        if isinstance(item, Stamp):
            pen.paste(sprite_image(item.sprite), item.at)
        else:
            paint(pen, (item,))
    image = pen.finish()
    for item in layer.items[last + 1 :]:
        assert isinstance(item, Stamp)
        x, y = item.at
        image.paste(sprite_image(item.sprite), (x - left, y - top))
    return image


@lru_cache(maxsize=12)
def still_layer_image(layer: Layer) -> Image.Image:
    return layer_image(layer)


def scene_image(scene: Scene) -> Image.Image:
    """The whole scene as a new RGB image."""
    first, *rest = scene.layers
    image = (still_layer_image(first) if first.still else layer_image(first)).copy()
    if image.size != (scene.width, scene.height):
        raise ValueError(f"the first layer must cover the image, not {first.box}")
    for layer in rest:
        if layer.background is None:
            for stamp in layer.items:
                assert isinstance(stamp, Stamp)  # a layer without a background has only stamps
                image.paste(sprite_image(stamp.sprite), stamp.at)
        else:
            patch = still_layer_image(layer) if layer.still else layer_image(layer)
            image.paste(patch, layer.box[:2])
    return image if scene.view is None else image.crop(scene.view)
