"""Composes one position: the cached static layer, a tile per marked cell, the caption strip.

The static layer (frame, owned edges, coordinates, empty board) depends only on the board size,
game and theme, so it is drawn once.  Every piece and mark lies inside its cell, so the rest is
pasting cached cell tiles (see :mod:`render.tiles`) and drawing the caption.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise
from typing import Any

from PIL import Image

from rules import Game
from rules.notation import COLUMNS, parse_point

from .caption import Caption, caption_for
from .fonts import bold, fit_options, text_width
from .layout import Layout, board_layout
from .looks import Look, look_for
from .pen import Pen
from .themes import RGB, Palette, PieceColours, get_theme
from .tiles import MARK_RING, PIECE_SAMPLE, SUPERSAMPLE, Background, Tile, draw_tile

__all__ = [
    "MARK_RING",
    "PIECE_SAMPLE",
    "caption_plan",
    "draw_board",
    "last_turn_notes",
    "static_layer",
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


def draw_board(
    game: Game,
    *,
    names: Mapping[str, str] | None = None,
    show_illegal: bool = False,
    theme: str = "okabe-ito",
    scale: float = 1.0,
) -> tuple[Image.Image, Palette]:
    """The board as an RGB image at final size, with the palette it was painted from."""
    palette = get_theme(theme).palette(game.players)
    lay = board_layout(game.size, scale)
    look = look_for(game.name)
    image = static_layer(game.size, scale, theme, game.players, game.name).copy()
    for index, tile in cell_tiles(game, lay, palette, look, show_illegal).items():
        left, top, _, _ = lay.cell_box(index % lay.size, index // lay.size)
        image.paste(draw_tile(tile), (left, top))
    box, patch = _caption(lay, palette, caption_for(game, names))
    image.paste(patch, box[:2])
    return image, palette


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
    tiles: dict[int, Tile] = {}

    def add(i: int, **changes: Any) -> None:
        base = tiles.get(i) or Tile(lay.cell, _background(lay, palette, look, i), look.shape)
        tiles[i] = replace(base, **changes)

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
    if notes.last is not None and not notes.chain:
        # In a chain the highest number already marks the last placement.
        add(notes.last, ring=mark_colour(notes.last))
    return tiles


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
def static_layer(
    size: int, scale: float, theme: str, players: tuple[str, str], game_name: str
) -> Image.Image:
    """Everything that never changes during a game, at final size (drawn once per board)."""
    palette = get_theme(theme).palette(players)
    lay = board_layout(size, scale)
    look = look_for(game_name)
    pen = Pen(lay.width, lay.height, SUPERSAMPLE, palette.panel)
    _frame(pen, lay, palette)
    _edges(pen, lay, palette, look, players)
    _coordinates(pen, lay, palette)
    image = pen.finish()
    for index in range(size * size):
        left, top, _, _ = lay.cell_box(index % size, index // size)
        image.paste(draw_tile(Tile(lay.cell, _background(lay, palette, look, index))), (left, top))
    return image


def _frame(pen: Pen, lay: Layout, palette: Palette) -> None:
    pen.rect((0, 0, lay.width, lay.height), outline=palette.frame, width=2)
    y = lay.rule_y
    pen.rect((lay.pad, y, lay.width - lay.pad, y + 2), fill=palette.frame)


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


def caption_plan(lay: Layout, cap: Caption) -> CaptionPlan:
    """Which form of each caption text fits, at which size (see :func:`fonts.fit_options`)."""
    left = lay.pad + 4
    room = lay.width - 2 * left
    chip_r = lay.body_font * 0.45
    chip_room = room / 2 - chip_r * 2 - 16

    def line(options: tuple[str, ...], size: int, width: float) -> CaptionLine:
        text, pixels = fit_options(options, size, width)
        return CaptionLine(text, pixels, width)

    return CaptionPlan(
        line(cap.title_options, lay.title_font, room),
        (
            line(cap.players[0].options, lay.body_font, chip_room),
            line(cap.players[1].options, lay.body_font, chip_room),
        ),
        line(cap.event_options, lay.body_font, room),
    )


def _caption(
    lay: Layout, palette: Palette, cap: Caption
) -> tuple[tuple[int, int, int, int], Image.Image]:
    """The caption strip as a patch, and where it goes."""
    box = (2, 2, lay.width - 2, lay.rule_y)
    plan = caption_plan(lay, cap)
    # Text is anti-aliased by FreeType already, so the strip is drawn at final size; only the
    # round chips come from supersampled sprites.
    pen = Pen(box[2] - box[0], box[3] - box[1], 1, palette.panel, origin=box[:2])
    left = lay.pad + 4
    room = lay.width - 2 * left
    y = float(lay.title_y)
    pen.text((left, y), plan.title.text, plan.title.size, palette.text, anchor="lm")
    y = lay.chips_y
    x = float(left)
    chip_r = lay.body_font * 0.45
    half = room / 2
    for chip, label in zip(cap.players, plan.chips, strict=True):
        colours = palette.pieces[chip.colour]
        chip_image = _chip(colours, round(chip_r), palette.panel)
        pen.image.paste(chip_image, (round(x - box[0]), round(y - chip_image.height / 2 - box[1])))
        tx = x + chip_r * 2 + lay.body_font * 0.4
        pen.text((tx, y), label.text, label.size, palette.text, anchor="lm")
        if chip.to_move or chip.winner:
            # Underline the player whose turn it is, in their colour, cased for light colours.
            w = text_width(bold(label.size), label.text)
            top = y + lay.body_font * 0.62
            thick = max(3.0, lay.body_font * 0.16)
            pen.rect((tx - 1, top - 1, tx + w + 1, top + thick + 1), fill=colours.outline)
            pen.rect((tx, top, tx + w, top + thick), fill=colours.fill)
        x += half
    y = lay.event_y
    pen.text((left, y), plan.event.text, plan.event.size, palette.muted, anchor="lm")
    return box, pen.finish()


@lru_cache(maxsize=64)
def _chip(colours: PieceColours, radius: int, panel: RGB) -> Image.Image:
    """A player's colour chip for the caption, anti-aliased."""
    size = 2 * radius + 2
    pen = Pen(size, size, 4, panel)
    pen.circle((size / 2, size / 2), radius, colours.fill, colours.outline, max(1.0, radius / 6))
    return pen.finish()


def _edges(pen: Pen, lay: Layout, palette: Palette, look: Look, players: tuple[str, str]) -> None:
    x0, y0, side, b = lay.x0, lay.y0, lay.board_px, lay.bar
    if look.owned_edges:
        first, second = palette.pieces[players[0]], palette.pieces[players[1]]
        edge = max(1.0, b / 5)
        for box in ((x0, y0 - b, x0 + side, y0), (x0, y0 + side, x0 + side, y0 + side + b)):
            pen.rect(box, fill=first.fill, outline=first.outline, width=edge)
        for box in ((x0 - b, y0, x0, y0 + side), (x0 + side, y0, x0 + side + b, y0 + side)):
            pen.rect(box, fill=second.fill, outline=second.outline, width=edge)
    else:
        pen.rect((x0 - 2, y0 - 2, x0 + side + 2, y0 + side + 2), fill=palette.grid)


def _coordinates(pen: Pen, lay: Layout, palette: Palette) -> None:
    n, c = lay.size, lay.cell
    gap = lay.bar + lay.band / 2
    top, bottom = lay.y0 - gap, lay.y0 + lay.board_px + gap
    left, right = lay.x0 - gap, lay.x0 + lay.board_px + gap
    for col in range(n):
        x = lay.x0 + col * c + c / 2
        pen.text((x, top), COLUMNS[col], lay.coord_font, palette.text)
        pen.text((x, bottom), COLUMNS[col], lay.coord_font, palette.text)
    for row in range(n):
        y = lay.y0 + (n - 1 - row) * c + c / 2
        pen.text((left, y), str(row + 1), lay.coord_font, palette.text)
        pen.text((right, y), str(row + 1), lay.coord_font, palette.text)
