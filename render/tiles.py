"""One board cell as a sprite of the drawing model: background, piece, and whatever marks it
carries.

Everything a position draws lies inside its cells, so a board is the still layer with a tile
stamped on every occupied or marked cell.  Each distinct tile is described once (and painted
once by the PNG output, supersampled and shrunk with ``Image.reduce``), then reused: rendering
a position is mostly pasting.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .looks import PieceShape
from .model import Arc, Circle, Line, Point, Polygon, Rect, Shape, Sprite, Text, ring
from .themes import RGB, PieceColours

SUPERSAMPLE = 2  # the static layer (text and bars: 2x is plenty)
# Pieces and marks: tiles are small and drawn once each, so they can afford 4x.
TILE_SUPERSAMPLE = 4
PIECE_RADIUS = 0.42  # of the cell
# Radii as fractions of a piece's radius.  Marks stay inside MARK_RING; a piece's own colour
# is guaranteed at PIECE_SAMPLE (the tests check pixels there).
MARK_RING = 0.4
PIECE_SAMPLE = 0.72
GHOST_RING = 0.9
BADGE_RADIUS = 0.66  # the disc behind a chain number or last-move ring on the winning path
HALO_RING = 0.9  # the ring that singles out a chain's last placement, over the piece's rim
# Chain numbers by digit count: font size (share of the cell) and horizontal squeeze, so two
# digits stay as tall as one and still clear PIECE_SAMPLE (the digits end above it).
NUMBER_STYLE = {1: (0.5, 1.0), 2: (0.5, 0.72)}
LONG_NUMBER_STYLE = (0.38, 0.7)

# Directions a winning path leaves a cell by, as offsets in image space.
DIRECTIONS = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


@dataclass(frozen=True, slots=True)
class Background:
    colour: RGB
    grid: RGB
    line: float  # grid line width; each cell draws its half on sides with a neighbour
    sides: tuple[bool, bool, bool, bool]  # neighbour to the left, right, above, below


@dataclass(frozen=True, slots=True)
class Tile:
    cell: int
    background: Background
    shape: PieceShape = "stone"
    piece: PieceColours | None = None
    ghost: PieceColours | None = None
    cross: RGB | None = None
    path: tuple[str, ...] | None = None  # directions to the neighbours on the path
    path_colours: tuple[RGB, RGB] | None = None  # (core, casing)
    flip: RGB | None = None
    number: int | None = None
    ring: RGB | None = None
    mark: RGB | None = None  # colour of the number
    halo: RGB | None = None  # a chain's last placement


@lru_cache(maxsize=1024)
def tile_sprite(tile: Tile) -> Sprite:
    """The tile as shapes in its own pixels (cached: a board needs only a few dozen)."""
    c = tile.cell
    bg = tile.background
    shapes: list[Shape] = []
    half = bg.line / 2
    left, right, up, down = bg.sides
    if left:
        shapes.append(Rect((0, 0, half, c), bg.grid, role="grid"))
    if right:
        shapes.append(Rect((c - half, 0, c, c), bg.grid, role="grid"))
    if up:
        shapes.append(Rect((0, 0, c, half), bg.grid, role="grid"))
    if down:
        shapes.append(Rect((0, c - half, c, c), bg.grid, role="grid"))
    centre = (c / 2, c / 2)
    r = c * PIECE_RADIUS
    if tile.cross is not None:
        shapes += _cross(centre, c * 0.2, tile.cross, c / 14)
    if tile.piece is not None:
        shapes += _piece(tile.shape, centre, r, tile.piece, c)
    if tile.ghost is not None:
        shapes += _ghost(centre, r, tile.ghost, c)
    if tile.path is not None and tile.path_colours is not None:
        shapes += _path(centre, c, tile.path, tile.path_colours)
    on_path = tile.path is not None and tile.path_colours is not None and tile.piece is not None
    if on_path and (tile.number is not None or tile.ring is not None or tile.flip is not None):
        # On the winning path a number, flip mark or the last-move ring sits on a badge of the
        # piece's colour above the line, so the line never hides it (the mark colour is chosen
        # against the piece, not against the yellow line).
        assert tile.path_colours is not None and tile.piece is not None
        casing = tile.path_colours[1]
        badge = Circle(centre, r * BADGE_RADIUS, tile.piece.fill, casing, max(1.5, c / 30), "badge")
        shapes.append(badge)
    if tile.flip is not None:
        x, y = centre
        d = r * 0.34
        shapes.append(Polygon(((x, y - d), (x + d, y), (x, y + d), (x - d, y)), tile.flip, "flip"))
    if tile.number is not None and tile.mark is not None:
        share, squeeze = NUMBER_STYLE.get(len(str(tile.number)), LONG_NUMBER_STYLE)
        size = round(c * share)
        shapes.append(Text(centre, str(tile.number), size, tile.mark, "mm", squeeze, "number"))
    if tile.ring is not None:
        shapes.append(ring(centre, r * MARK_RING, tile.ring, max(2.0, c / 14), "last"))
    if tile.halo is not None:
        shapes.append(ring(centre, r * HALO_RING, tile.halo, max(2.0, c / 11), "halo"))
    return Sprite(c, c, bg.colour, tuple(shapes), TILE_SUPERSAMPLE, "cell")


def _piece(shape: PieceShape, at: Point, r: float, colours: PieceColours, cell: int) -> list[Shape]:
    """The piece: always one shape of role "piece" in the owner's fill colour, centred on the
    cell, plus a disc's rim or a checker's groove."""
    outline = max(1.5, cell / 26)
    if shape == "disc":
        # A flat two-sided disc: a rim in the darker shade around the face.
        return [
            Circle(at, r, colours.shade, colours.outline, outline, "rim"),
            Circle(at, r * 0.86, colours.fill, role="piece"),
        ]
    face = Circle(at, r, colours.fill, colours.outline, outline, "piece")
    if shape == "checker":
        return [face, ring(at, r * 0.58, colours.shade, max(1.5, cell / 30), "groove")]
    return [face]


def _ghost(at: Point, r: float, colours: PieceColours, cell: int) -> list[Shape]:
    """A piece that just left the board: a dashed outline in its owner's colour."""
    width = max(2.0, cell / 16)
    return [
        Arc(at, r * GHOST_RING, k * 30, k * 30 + 18, colours.fill, width, "ghost")
        for k in range(12)
    ]


def _cross(at: Point, arm: float, colour: RGB, width: float) -> list[Shape]:
    x, y = at
    return [
        Line(((x - arm, y - arm), (x + arm, y + arm)), colour, width, "illegal"),
        Line(((x - arm, y + arm), (x + arm, y - arm)), colour, width, "illegal"),
    ]


def _path(
    at: Point, cell: int, directions: tuple[str, ...], colours: tuple[RGB, RGB]
) -> list[Shape]:
    """This cell's share of the winning path: from the centre to each neighbour's edge, so
    neighbouring tiles join seamlessly."""
    core, casing = colours
    x, y = at
    half = cell / 2
    shapes: list[Shape] = []
    for width, colour, role in ((cell * 0.26, casing, "path-casing"), (cell * 0.15, core, "path")):
        w = width / 2
        shapes.append(Circle(at, w, colour, role=role))
        for name in directions:
            dx, dy = DIRECTIONS[name]
            if dx:
                x1 = x + dx * half
                shapes.append(Rect((min(x, x1), y - w, max(x, x1), y + w), colour, role=role))
            else:
                y1 = y + dy * half
                shapes.append(Rect((x - w, min(y, y1), x + w, max(y, y1)), colour, role=role))
    return shapes
