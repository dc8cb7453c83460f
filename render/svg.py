"""The SVG output of the drawing model: writes a :class:`~render.model.Scene` as an SVG document.

The same scene the PNG is painted from, shape for shape: a web page shows exactly the board a
Discord message shows, at any zoom.  Each sprite (a cell tile, a caption chip) is defined once
and placed with ``<use>``, as the PNG pastes its one painted copy; a cell's ``<use>`` carries
its point name (``data-label="e5"``) and every shape its role as its class (``piece``,
``path``, ``number``, ``last``...), so a page can find and style them.

The XML is written with :mod:`xml.etree.ElementTree`, which escapes names and every other
text; characters XML cannot hold at all (control characters) are dropped first.  Text keeps the
font stack of :mod:`render.fonts` as a CSS list: the browser falls back per character as the
PNG does.  Emoji runs get the emoji face, in their own colours (the PNG draws them in the
text's colour).  Coordinates are exact where the PNG
rounds them to its supersampled grid (a quarter or half of a pixel): nothing a reader can see.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

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


def _points(points: tuple[tuple[float, float], ...]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)


def _attrs(role: str, **values: str) -> dict[str, str]:
    return {"class": role, **values} if role else values


def _rect(shape: Rect) -> ET.Element:
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
        attrs |= {"stroke": colour(shape.outline), "stroke-width": num(shape.width)}
    return ET.Element("rect", attrs)


def _circle(shape: Circle) -> ET.Element:
    x, y = shape.centre
    inset = shape.width / 2 if shape.outline is not None else 0.0
    attrs = _attrs(
        shape.role, cx=num(x), cy=num(y), r=num(shape.radius - inset), fill=colour(shape.fill)
    )
    if shape.outline is not None:
        attrs |= {"stroke": colour(shape.outline), "stroke-width": num(shape.width)}
    return ET.Element("circle", attrs)


def _arc(shape: Arc) -> ET.Element:
    x, y = shape.centre
    r = shape.radius
    a, b = math.radians(shape.start), math.radians(shape.end)
    large = 1 if (shape.end - shape.start) % 360 > 180 else 0
    start = f"{num(x + r * math.cos(a))} {num(y + r * math.sin(a))}"
    end = f"{num(x + r * math.cos(b))} {num(y + r * math.sin(b))}"
    # Sweep flag 1: clockwise on screen, as the model's angles run.
    path = f"M {start} A {num(r)} {num(r)} 0 {large} 1 {end}"
    stroke = {"stroke": colour(shape.colour), "stroke-width": num(shape.width)}
    return ET.Element("path", _attrs(shape.role, d=path, fill="none", **stroke))


def _line(shape: Line) -> ET.Element:
    stroke = {"stroke": colour(shape.colour), "stroke-width": num(shape.width)}
    return ET.Element(
        "polyline", _attrs(shape.role, points=_points(shape.points), fill="none", **stroke)
    )


def _polygon(shape: Polygon) -> ET.Element:
    return ET.Element(
        "polygon", _attrs(shape.role, points=_points(shape.points), fill=colour(shape.fill))
    )


def _text(shape: Text) -> ET.Element:
    x, y = shape.at
    # The model anchors text at its vertical middle, as Pillow does; SVG places the baseline.
    baseline = y + baseline_below_middle(shape.size)
    attrs = _attrs(
        shape.role,
        fill=colour(shape.colour),
        **{"font-size": num(shape.size)},
    )
    if shape.anchor[0] == "m":
        attrs["text-anchor"] = "middle"
    if shape.squeeze < 1:
        attrs["transform"] = f"translate({num(x)} {num(baseline)}) scale({num(shape.squeeze)} 1)"
    else:
        attrs |= {"x": num(x), "y": num(baseline)}
    element = ET.Element("text", attrs)
    _write_runs(element, shape.text)
    return element


def _write_runs(element: ET.Element, text: str) -> None:
    """``text`` as the PNG draws it (characters no font has are left out), with emoji runs
    in a ``<tspan>`` of the emoji face."""
    element.text = ""
    last: ET.Element | None = None
    for run in runs(text):
        part = xml_text(run.text)
        if run.face is not None and run.face.emoji:
            last = ET.SubElement(element, "tspan", {"font-family": css_families(emoji=True)})
            last.text = part
        elif last is None:
            element.text += part
        else:
            last.tail = (last.tail or "") + part


def shape_element(shape: Shape) -> ET.Element:
    if isinstance(shape, Rect):
        return _rect(shape)
    if isinstance(shape, Circle):
        return _circle(shape)
    if isinstance(shape, Text):
        return _text(shape)
    if isinstance(shape, Line):
        return _line(shape)
    if isinstance(shape, Polygon):
        return _polygon(shape)
    return _arc(shape)


class _Writer:
    """One document: its ``<defs>`` grow by one entry per distinct sprite."""

    def __init__(self, root: ET.Element) -> None:
        self.defs = ET.SubElement(root, "defs")
        self.ids: dict[Sprite, str] = {}

    def sprite_id(self, sprite: Sprite) -> str:
        found = self.ids.get(sprite)
        if found is not None:
            return found
        found = f"s{len(self.ids)}"
        self.ids[sprite] = found
        group = ET.SubElement(self.defs, "g", _attrs(sprite.role, id=found))
        size = {"width": num(sprite.width), "height": num(sprite.height)}
        ET.SubElement(group, "rect", {**size, "fill": colour(sprite.background)})
        group.extend(shape_element(shape) for shape in sprite.shapes)
        return found

    def use(self, parent: ET.Element, stamp: Stamp) -> None:
        x, y = stamp.at
        attrs = {"href": f"#{self.sprite_id(stamp.sprite)}", "x": num(x), "y": num(y)}
        if stamp.label:
            attrs["data-label"] = xml_text(stamp.label)
        ET.SubElement(parent, "use", attrs)

    def layer(self, parent: ET.Element, layer: Layer) -> None:
        group = ET.SubElement(parent, "g", {"class": layer.name})
        if layer.background is not None:
            left, top, right, bottom = layer.box
            box = {"x": num(left), "y": num(top), "width": num(right - left)}
            box |= {"height": num(bottom - top), "fill": colour(layer.background)}
            ET.SubElement(group, "rect", box)
        for item in layer.items:
            if isinstance(item, Stamp):
                self.use(group, item)
            else:
                group.append(shape_element(item))


def svg_document(scene: Scene, title: str = "") -> str:
    """The scene as a standalone SVG document; ``title`` is its accessible name."""
    left, top, right, bottom = scene.shown
    width, height = right - left, bottom - top
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": num(width),
            "height": num(height),
            "viewBox": f"{num(left)} {num(top)} {num(width)} {num(height)}",
            "role": "img",
            "font-family": css_families(),
            "font-weight": "bold",
        },
    )
    if title:
        ET.SubElement(root, "title").text = xml_text(title)
    writer = _Writer(root)
    for layer in scene.layers:
        writer.layer(root, layer)
    return ET.tostring(root, encoding="unicode")
