"""The SVG output of the drawing model: writes a :class:`~render.model.Scene` as an SVG document.

The same scene the PNG is painted from, shape for shape: a web page shows exactly the board a
Discord message shows, at any zoom.  Each sprite (a cell tile, a caption chip) is defined once
and placed with ``<use>``, as the PNG pastes its one painted copy; a cell's ``<use>`` carries
its point name (``data-label="e5"``) and every shape its role as its class (``piece``,
``path``, ``number``, ``last``...), so a page can find and style them.

The XML is written with the standard library's streaming writer
(:class:`xml.sax.saxutils.XMLGenerator`), which escapes names and every other text and
attribute; characters XML cannot hold at all (control characters) are dropped first.  It is
several times faster than building an ElementTree, and a board's still layer (frame, edges,
coordinates, the empty board) and each sprite are written once and reused as finished XML.

Text keeps the font stack of :mod:`render.fonts` as a CSS list: the browser falls back per
character as the PNG does.  Emoji runs get the emoji face, in their own colours (the PNG draws
them in the text's colour).  Coordinates are exact where the PNG rounds them to its
supersampled grid (a quarter or half of a pixel): nothing a reader can see.
"""

from __future__ import annotations

import hashlib
import io
import math
import re
from collections.abc import Callable
from functools import lru_cache
from xml.sax.saxutils import XMLGenerator
from xml.sax.xmlreader import AttributesImpl

from .fonts import baseline_below_middle, css_families, runs
from .model import Arc, Circle, Layer, Line, Polygon, Rect, Scene, Shape, Sprite, Stamp, Text
from .themes import RGB

SVG_NS = "http://www.w3.org/2000/svg"

# Characters XML 1.0 forbids even escaped: control characters, surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` without the characters an XML document cannot contain."""
    return _NOT_XML.sub("", text)


def num(value: float) -> str:
    """A coordinate with at most two decimals (a hundredth of a pixel is plenty)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def colour(rgb: RGB | None) -> str:
    return "none" if rgb is None else f"#{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x}"


Attrs = dict[str, str]


def _attrs(role: str, **values: str) -> Attrs:
    return {"class": role, **values} if role else values


def _stroke(rgb: RGB, width: float) -> Attrs:
    return {"stroke": colour(rgb), "stroke-width": num(width)}


def _rect(shape: Rect) -> Attrs:
    left, top, right, bottom = shape.box
    # Outlines lie inside the box (as in the PNG); an SVG stroke is centred on its path.
    inset = shape.width / 2 if shape.outline is not None else 0.0
    attrs = _attrs(
        shape.role,
        x=num(left + inset),
        y=num(top + inset),
        width=num(right - left - 2 * inset),
        height=num(bottom - top - 2 * inset),
        fill=colour(shape.fill),
    )
    if shape.outline is not None:
        attrs |= _stroke(shape.outline, shape.width)
    return attrs


def _circle(shape: Circle) -> Attrs:
    x, y = shape.centre
    inset = shape.width / 2 if shape.outline is not None else 0.0
    attrs = _attrs(
        shape.role, cx=num(x), cy=num(y), r=num(shape.radius - inset), fill=colour(shape.fill)
    )
    if shape.outline is not None:
        attrs |= _stroke(shape.outline, shape.width)
    return attrs


def _arc(shape: Arc) -> Attrs:
    x, y = shape.centre
    r = shape.radius
    a, b = math.radians(shape.start), math.radians(shape.end)
    large = 1 if (shape.end - shape.start) % 360 > 180 else 0
    start = f"{num(x + r * math.cos(a))} {num(y + r * math.sin(a))}"
    end = f"{num(x + r * math.cos(b))} {num(y + r * math.sin(b))}"
    # Sweep flag 1: clockwise on screen, as the model's angles run.
    path = f"M {start} A {num(r)} {num(r)} 0 {large} 1 {end}"
    return _attrs(shape.role, d=path, fill="none", **_stroke(shape.colour, shape.width))


def _points(points: tuple[tuple[float, float], ...]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


def _text(shape: Text) -> Attrs:
    x, y = shape.at
    # The model anchors text at its vertical middle, as Pillow does; SVG places the baseline.
    baseline = y + baseline_below_middle(shape.size)
    attrs = _attrs(shape.role, fill=colour(shape.colour), **{"font-size": num(shape.size)})
    if shape.anchor[0] == "m":
        attrs["text-anchor"] = "middle"
    if shape.squeeze < 1:
        attrs["transform"] = f"translate({num(x)} {num(baseline)}) scale({num(shape.squeeze)} 1)"
    else:
        attrs |= {"x": num(x), "y": num(baseline)}
    return attrs


def start(out: XMLGenerator, tag: str, attrs: Attrs) -> None:
    out.startElement(tag, AttributesImpl(attrs))


def write_shape(out: XMLGenerator, shape: Shape) -> None:
    if isinstance(shape, Text):
        start(out, "text", _text(shape))
        _write_runs(out, shape.text)
        out.endElement("text")
        return
    if isinstance(shape, Rect):
        tag, attrs = "rect", _rect(shape)
    elif isinstance(shape, Circle):
        tag, attrs = "circle", _circle(shape)
    elif isinstance(shape, Line):
        stroke = _stroke(shape.colour, shape.width)
        tag, attrs = (
            "polyline",
            _attrs(shape.role, points=_points(shape.points), fill="none", **stroke),
        )
    elif isinstance(shape, Polygon):
        tag, attrs = (
            "polygon",
            _attrs(shape.role, points=_points(shape.points), fill=colour(shape.fill)),
        )
    else:
        tag, attrs = "path", _arc(shape)
    start(out, tag, attrs)
    out.endElement(tag)


def _write_runs(out: XMLGenerator, text: str) -> None:
    """``text`` as the PNG draws it (characters no font has are left out), with emoji runs
    in a ``<tspan>`` of the emoji face."""
    for run in runs(text):
        part = xml_text(run.text)
        if run.face is not None and run.face.emoji:
            start(out, "tspan", {"font-family": css_families(emoji=True)})
            out.characters(part)
            out.endElement("tspan")
        else:
            out.characters(part)


def _written(write: Callable[[XMLGenerator], None]) -> str:
    """What ``write`` writes, as a string (empty elements closed with "/>")."""
    buffer = io.StringIO()
    write(XMLGenerator(buffer, short_empty_elements=True))
    return buffer.getvalue()


def _around(tag: str, attrs: Attrs, inner: str) -> str:
    """``inner`` (written XML) inside a ``tag`` element."""
    buffer = io.StringIO()
    out = XMLGenerator(buffer, short_empty_elements=False)
    start(out, tag, attrs)
    buffer.write(inner)
    out.endElement(tag)
    return buffer.getvalue()


@lru_cache(maxsize=1024)
def sprite_def(sprite: Sprite) -> tuple[str, str]:
    """The sprite's id and its ``<defs>`` entry.  The id comes from the content, so it is the
    same in every document and process (cached documents parts can share it)."""

    def write(out: XMLGenerator) -> None:
        size = {"width": num(sprite.width), "height": num(sprite.height)}
        start(out, "rect", {**size, "fill": colour(sprite.background)})
        out.endElement("rect")
        for shape in sprite.shapes:
            write_shape(out, shape)

    body = _written(write)
    ident = "s" + hashlib.sha1(body.encode(), usedforsecurity=False).hexdigest()[:10]
    return ident, _around("g", _attrs(sprite.role, id=ident), body)


def shape_xml(shape: Shape) -> str:
    return _written(lambda out: write_shape(out, shape))


@lru_cache(maxsize=4096)
def use_xml(stamp: Stamp) -> str:
    """A ``<use>`` of the stamp's sprite (cached: the same stones recur position after
    position)."""
    x, y = stamp.at
    attrs = {"href": f"#{sprite_def(stamp.sprite)[0]}", "x": num(x), "y": num(y)}
    if stamp.label:
        attrs["data-label"] = xml_text(stamp.label)

    def write(out: XMLGenerator) -> None:
        start(out, "use", attrs)
        out.endElement("use")

    return _written(write)


def layer_xml(layer: Layer) -> tuple[str, tuple[Sprite, ...]]:
    """The layer as a ``<g>``, and the sprites it places (their defs go in ``<defs>``)."""
    parts: list[str] = []
    sprites: dict[Sprite, None] = {}
    if layer.background is not None:
        left, top, right, bottom = layer.box
        parts.append(shape_xml(Rect((left, top, right, bottom), layer.background)))
    for item in layer.items:
        if isinstance(item, Stamp):
            sprites[item.sprite] = None
            parts.append(use_xml(item))
        else:
            parts.append(shape_xml(item))
    return _around("g", {"class": layer.name}, "".join(parts)), tuple(sprites)


@lru_cache(maxsize=12)
def _still_layer_xml(layer: Layer) -> tuple[str, tuple[Sprite, ...]]:
    return layer_xml(layer)


def svg_document(scene: Scene, title: str = "") -> str:
    """The scene as a standalone SVG document; ``title`` is its accessible name."""
    layers = [
        _still_layer_xml(layer) if layer.still else layer_xml(layer) for layer in scene.layers
    ]
    sprites = dict.fromkeys(sprite for _, used in layers for sprite in used)
    defs = _around("defs", {}, "".join(sprite_def(sprite)[1] for sprite in sprites))
    left, top, right, bottom = scene.shown
    width, height = right - left, bottom - top
    head = _written(lambda out: _write_title(out, title)) if title else ""
    root = {
        "xmlns": SVG_NS,
        "width": num(width),
        "height": num(height),
        "viewBox": f"{num(left)} {num(top)} {num(width)} {num(height)}",
        "role": "img",
        "font-family": css_families(),
        "font-weight": "bold",
    }
    return _around("svg", root, head + defs + "".join(xml for xml, _ in layers))


def _write_title(out: XMLGenerator, title: str) -> None:
    start(out, "title", {})
    out.characters(xml_text(title))
    out.endElement("title")
