"""Describes one position in the drawing model (:mod:`render.model`): three layers.

1. ``board``, still: frame, owned edges, coordinates and the empty board's cells.  It depends
   only on the board size, game and theme, so it is described (and painted) once.
2. ``pieces``: a tile stamped on every cell that differs from the empty board.  Every piece and
   mark lies inside its cell (see :mod:`render.tiles`).
3. ``caption``: the strip of text above the board.

The PNG and the SVG are both written from this one description.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any

from PIL import Image

from rules import Game
from rules.notation import COLUMNS, parse_point, point_names

from .caption import ENGLISH, Caption, PlayerChip, Speaker, caption_for
from .fonts import fit_options, text_width
from .layout import Layout, board_layout
from .looks import Look, look_for
from .model import Circle, Layer, Rect, Scene, Shape, Sprite, Stamp, Text
from .raster import scene_image
from .themes import RGB, Palette, PieceColours, get_theme
from .tiles import MARK_RING, PIECE_SAMPLE, SUPERSAMPLE, Background, Tile, tile_sprite

__all__ = [
    "MARK_RING",
    "PIECE_SAMPLE",
    "board_scene",
    "caption_plan",
    "draw_board",
    "last_turn_notes",
    "still_layer",
]


@dataclass(frozen=True, slots=True)
class Annotations:
    """The last turn and the game's end, in point indices, as the board shows them."""

    last: int | None
    chain: tuple[int, ...]
    flipped: tuple[int, ...]
    ghosts: tuple[tuple[int, str], ...]  # (point, owner colour) of pieces that just left
    path: tuple[int, ...]
    illegal: tuple[int, ...]


def last_turn_notes(game: Game, show_illegal: bool) -> Annotations:
    size = game.size
    records = game.last_turn()
    placed = [parse_point(r.point, size) for r in records if r.point is not None]
    last = records[-1] if records else None
    ghosts: list[tuple[int, str]] = []
    flipped: tuple[int, ...] = ()
    if last is not None:
        if last.point is not None and not last.stays:
            ghosts.append((parse_point(last.point, size), last.player))
        if last.removed:
            victim = next(c for c in game.players if c != last.player)
            ghosts += [(parse_point(p, size), victim) for p in last.removed]
        flipped = tuple(parse_point(p, size) for p in last.flipped)
    cells = game.cells()
    illegal: tuple[int, ...] = ()
    if show_illegal and not game.is_over:
        illegal = tuple(parse_point(p, size) for p in game.illegal_points())
    return Annotations(
        last=placed[-1] if placed else None,
        chain=tuple(placed) if len(placed) > 1 else (),
        flipped=flipped,
        ghosts=tuple((i, owner) for i, owner in ghosts if cells[i] is None),
        path=tuple(parse_point(p, size) for p in game.winning_path),
        illegal=illegal,
    )


def board_scene(
    game: Game,
    *,
    names: Mapping[str, str] | None = None,
    show_illegal: bool = False,
    theme: str = "okabe-ito",
    scale: float = 1.0,
    caption: bool = True,
    tr: Speaker = ENGLISH,
) -> Scene:
    """The position in the drawing model.  Without ``caption`` the scene shows only the board
    (for a page that writes the caption itself): the strip is cut off under its rule."""
    palette = get_theme(theme).palette(game.players)
    lay = board_layout(game.size, scale)
    look = look_for(game.name)
    board = still_layer(game.size, scale, theme, game.players, game.name)
    points = point_names(game.size)
    stamps = tuple(
        Stamp(tile_sprite(tile), lay.cell_box(i % lay.size, i // lay.size)[:2], points[i])
        for i, tile in cell_tiles(game, lay, palette, look, show_illegal).items()
    )
    pieces = Layer("pieces", (0, 0, lay.width, lay.height), None, 1, stamps)
    if caption:
        strip = caption_layer(lay, palette, caption_for(game, names, tr))
        return Scene(lay.width, lay.height, (board, pieces, strip))
    # The rule under the strip becomes the frame's top edge, across the whole width.
    top = Layer("frame-top", (0, lay.rule_y, lay.width, lay.rule_y + 2), palette.frame, 1)
    return Scene(
        lay.width, lay.height, (board, pieces, top), (0, lay.rule_y, lay.width, lay.height)
    )


def draw_board(
    game: Game,
    *,
    names: Mapping[str, str] | None = None,
    show_illegal: bool = False,
    theme: str = "okabe-ito",
    scale: float = 1.0,
    tr: Speaker = ENGLISH,
) -> tuple[Image.Image, Palette]:
    """The board as an RGB image at final size, with the palette it was painted from; the
    caption speaks ``tr``'s language."""
    scene = board_scene(
        game, names=names, show_illegal=show_illegal, theme=theme, scale=scale, tr=tr
    )
    return scene_image(scene), get_theme(theme).palette(game.players)


def _background(lay: Layout, palette: Palette, look: Look, index: int) -> Background:
    n = lay.size
    col, row = index % n, index // n
    on_edge = col in (0, n - 1) or row in (0, n - 1)
    colour = palette.perimeter if look.perimeter_zone and on_edge else palette.board
    sides = (col > 0, col < n - 1, row < n - 1, row > 0)
    return Background(colour, palette.grid, max(1.0, lay.cell / 40), sides)


def cell_tiles(
    game: Game, lay: Layout, palette: Palette, look: Look, show_illegal: bool
) -> dict[int, Tile]:
    """The tile of every cell that differs from the empty board."""
    notes = last_turn_notes(game, show_illegal)
    cells = game.cells()
    ghosts = dict(notes.ghosts)
    marks: dict[int, dict[str, Any]] = {}

    def add(i: int, **changes: Any) -> None:
        marks.setdefault(i, {}).update(changes)

    def mark_colour(i: int) -> RGB:
        owner = cells[i]
        if owner is not None:
            return palette.pieces[owner].mark
        return palette.pieces[ghosts.get(i, game.players[0])].fill

    for i, owner in enumerate(cells):
        if owner is not None:
            add(i, piece=palette.pieces[owner])
    for i in notes.illegal:
        add(i, cross=palette.illegal)
    for i, owner in notes.ghosts:
        add(i, ghost=palette.pieces[owner])
    for i, directions in _path_directions(notes.path, lay.size).items():
        add(i, path=directions, path_colours=(palette.path, palette.casing))
    for i in notes.flipped:
        add(i, flip=mark_colour(i))
    for number, i in enumerate(notes.chain, start=1):
        add(i, number=number, mark=mark_colour(i))
    if notes.chain:
        # The highest number is the last placement; in a long chain a ring singles it out.
        add(notes.chain[-1], halo=mark_colour(notes.chain[-1]))
    elif notes.last is not None:
        add(notes.last, ring=mark_colour(notes.last))
    return {
        i: Tile(lay.cell, _background(lay, palette, look, i), look.shape, **changes)
        for i, changes in marks.items()
    }


def _path_directions(path: tuple[int, ...], n: int) -> dict[int, tuple[str, ...]]:
    """For each path point, the image directions of its neighbours along the path."""
    found: dict[int, list[str]] = {i: [] for i in path}
    for a, b in pairwise(path):
        for src, dst in ((a, b), (b, a)):
            dc, dr = dst % n - src % n, dst // n - src // n
            if abs(dc) + abs(dr) != 1:
                continue  # not orthogonal neighbours: draw the points, not a link
            found[src].append(
                {(1, 0): "right", (-1, 0): "left", (0, 1): "up", (0, -1): "down"}[(dc, dr)]
            )
    return {i: tuple(sorted(d)) for i, d in found.items()}


@lru_cache(maxsize=12)
def still_layer(
    size: int, scale: float, theme: str, players: tuple[str, str], game_name: str
) -> Layer:
    """Everything that never changes during a game (described once per board)."""
    palette = get_theme(theme).palette(players)
    lay = board_layout(size, scale)
    look = look_for(game_name)
    side = lay.board_px
    # The cells cover this square exactly.  Under them it keeps an SVG viewer's anti-aliasing
    # from showing the panel through the seams between cells when the board is scaled.
    under = Rect((lay.x0, lay.y0, lay.x0 + side, lay.y0 + side), palette.board, role="underlay")
    shapes = [*_frame(lay, palette), *_edges(lay, palette, look, players), under]
    shapes += _coordinates(lay, palette)
    points = point_names(size)
    stamps = tuple(
        Stamp(
            tile_sprite(Tile(lay.cell, _background(lay, palette, look, i))),
            lay.cell_box(i % size, i // size)[:2],
            points[i],
        )
        for i in range(size * size)
    )
    box = (0, 0, lay.width, lay.height)
    return Layer("board", box, palette.panel, SUPERSAMPLE, (*shapes, *stamps), still=True)


def _frame(lay: Layout, palette: Palette) -> list[Shape]:
    y = lay.rule_y
    return [
        Rect((0, 0, lay.width, lay.height), outline=palette.frame, width=2, role="frame"),
        Rect((lay.pad, y, lay.width - lay.pad, y + 2), fill=palette.frame, role="rule"),
    ]


@dataclass(frozen=True, slots=True)
class CaptionLine:
    """One text of the caption strip as drawn: the words chosen, their size, the room."""

    text: str
    size: int
    room: float


@dataclass(frozen=True, slots=True)
class CaptionPlan:
    title: CaptionLine
    chips: tuple[CaptionLine, CaptionLine]
    event: CaptionLine
    split: float
    """Where the second player's chip starts, from the caption's left margin."""


def chip_split(lay: Layout, cap: Caption) -> float:
    """Where the second chip starts: half-way, unless one name needs more room than half and
    the other leaves it (a long name beside a short one stays whole)."""
    room = lay.width - 2 * (lay.pad + 4)
    half = room / 2
    overhead = lay.body_font * (0.9 + CHIP_GAP)
    first, second = (text_width(chip.text, lay.body_font) + overhead for chip in cap.players)
    if first <= half and second <= half:
        return half
    if first + second <= room:
        return min(max(half, first), room - second)
    if first <= half:
        return first
    if second <= half:
        return room - second
    return half


CHIP_GAP = 0.8  # em between the end of the first chip's text and the second chip


def caption_plan(lay: Layout, cap: Caption) -> CaptionPlan:
    """Which form of each caption text fits, at which size (see :func:`fonts.fit_options`)."""
    left = lay.pad + 4
    room = lay.width - 2 * left
    chip_r = lay.body_font * 0.45
    split = chip_split(lay, cap)
    overhead = chip_r * 2 + lay.body_font * CHIP_GAP
    rooms = (split - overhead, room - split - overhead)

    def line(options: tuple[str, ...], size: int, width: float, suffix: str = "") -> CaptionLine:
        text, pixels = fit_options(options, size, width, suffix, smallest=lay.min_font)
        return CaptionLine(text, pixels, width)

    def chip_line(chip: PlayerChip, width: float) -> CaptionLine:
        # The full winner mark while the name keeps a whole word; else the short mark, and
        # only then is the name cut.
        for mark in chip.marks[:-1]:
            if text_width(chip.labels[-1] + mark, lay.min_font) <= width:
                return line(chip.labels, lay.body_font, width, mark)
        return line(chip.labels, lay.body_font, width, chip.marks[-1])

    first, second = cap.players
    return CaptionPlan(
        line(cap.title_options, lay.title_font, room),
        (chip_line(first, rooms[0]), chip_line(second, rooms[1])),
        line(cap.event_options, lay.body_font, room),
        split,
    )


def caption_layer(lay: Layout, palette: Palette, cap: Caption) -> Layer:
    """The caption strip over the top of the image."""
    box = (2, 2, lay.width - 2, lay.rule_y)
    plan = caption_plan(lay, cap)
    left = lay.pad + 4
    title = plan.title
    items: list[Shape | Stamp] = [
        Text((left, lay.title_y), title.text, title.size, palette.text, "lm", role="title")
    ]
    y = lay.chips_y
    chip_r = lay.body_font * 0.45
    for chip, label, start in zip(cap.players, plan.chips, (0, plan.split), strict=True):
        x = left + start
        colours = palette.pieces[chip.colour]
        sprite = chip_sprite(colours, round(chip_r), palette.panel)
        items.append(Stamp(sprite, (round(x), round(y - sprite.height / 2)), chip.colour))
        tx = x + chip_r * 2 + lay.body_font * 0.4
        items.append(Text((tx, y), label.text, label.size, palette.text, "lm", role="player"))
        if chip.to_move or chip.winner:
            # Underline the player whose turn it is, in their colour, cased for light colours.
            w = text_width(label.text, label.size)
            top = y + lay.body_font * 0.62
            thick = max(3.0, lay.body_font * 0.16)
            box_out = (tx - 1, top - 1, tx + w + 1, top + thick + 1)
            items.append(Rect(box_out, colours.outline, role="underline"))
            items.append(Rect((tx, top, tx + w, top + thick), colours.fill, role="underline"))
    event = plan.event
    items.append(
        Text((left, lay.event_y), event.text, event.size, palette.muted, "lm", role="event")
    )
    # Text is anti-aliased by FreeType already, so the strip is painted at final size; only the
    # round chips are supersampled sprites.
    return Layer("caption", box, palette.panel, 1, tuple(items))


@lru_cache(maxsize=64)
def chip_sprite(colours: PieceColours, radius: int, panel: RGB) -> Sprite:
    """A player's colour chip for the caption."""
    size = 2 * radius + 2
    chip = Circle((size / 2, size / 2), radius, colours.fill, colours.outline, max(1.0, radius / 6))
    return Sprite(size, size, panel, (chip,), 4, "chip")


def _edges(lay: Layout, palette: Palette, look: Look, players: tuple[str, str]) -> list[Shape]:
    x0, y0, side, b = lay.x0, lay.y0, lay.board_px, lay.bar
    if not look.owned_edges:
        return [Rect((x0 - 2, y0 - 2, x0 + side + 2, y0 + side + 2), palette.grid, role="edge")]
    first, second = palette.pieces[players[0]], palette.pieces[players[1]]
    edge = max(1.0, b / 5)
    shapes: list[Shape] = []
    for box in ((x0, y0 - b, x0 + side, y0), (x0, y0 + side, x0 + side, y0 + side + b)):
        shapes.append(Rect(box, first.fill, first.outline, edge, f"edge {players[0]}"))
    for box in ((x0 - b, y0, x0, y0 + side), (x0 + side, y0, x0 + side + b, y0 + side)):
        shapes.append(Rect(box, second.fill, second.outline, edge, f"edge {players[1]}"))
    return shapes


def _coordinates(lay: Layout, palette: Palette) -> list[Shape]:
    n, c = lay.size, lay.cell
    gap = lay.bar + lay.band / 2
    top, bottom = lay.y0 - gap, lay.y0 + lay.board_px + gap
    left, right = lay.x0 - gap, lay.x0 + lay.board_px + gap
    shapes: list[Shape] = []
    for col in range(n):
        x = lay.x0 + col * c + c / 2
        for y in (top, bottom):
            shapes.append(Text((x, y), COLUMNS[col], lay.coord_font, palette.text, role="coord"))
    for row in range(n):
        y = lay.y0 + (n - 1 - row) * c + c / 2
        for x in (left, right):
            shapes.append(Text((x, y), str(row + 1), lay.coord_font, palette.text, role="coord"))
    return shapes
