"""Draws one position: caption strip, owned edges, coordinates, pieces and the last turn's marks.

The drawing order is the reading order of a layered picture: board, pieces, then everything that
annotates pieces (winning path, last-move marks), so no annotation is ever hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from rules import Game
from rules.notation import COLUMNS, parse_point

from .caption import Caption, caption_for
from .fonts import bold, fit_text, text_width
from .layout import Layout, board_layout
from .looks import Look, look_for
from .pen import Pen, Point
from .themes import Palette, PieceColours, get_theme

SUPERSAMPLE = 2
# Radii as fractions of a piece's radius.  Marks stay inside MARK_RING; a piece's own colour
# is guaranteed at PIECE_SAMPLE (the tests check pixels there).
MARK_RING = 0.4
PIECE_SAMPLE = 0.72


@dataclass(frozen=True, slots=True)
class Annotations:
    """The last turn, in point indices, as the board shows it."""

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
    ghosts = [(i, owner) for i, owner in ghosts if cells[i] is None]
    illegal: tuple[int, ...] = ()
    if show_illegal and not game.is_over:
        illegal = tuple(parse_point(p, size) for p in game.illegal_points())
    return Annotations(
        last=placed[-1] if placed else None,
        chain=tuple(placed) if len(placed) > 1 else (),
        flipped=flipped,
        ghosts=tuple(ghosts),
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
    """The board as an RGB image, with the palette it was painted from."""
    palette = get_theme(theme).palette(game.players)
    lay = board_layout(game.size, scale)
    look = look_for(game.name)
    pen = Pen.on(static_layer(game.size, scale, theme, game.players, game.name).copy(), SUPERSAMPLE)
    _caption(pen, lay, palette, caption_for(game, names), look)
    notes = last_turn_notes(game, show_illegal)
    for i in notes.illegal:
        _cross(pen, lay.centre_of(i), lay.cell * 0.2, palette.illegal, lay.cell / 14)
    for i, owner in enumerate(game.cells()):
        if owner is not None:
            _piece(pen, look, lay.centre_of(i), lay.radius, palette.pieces[owner], lay.cell)
    for i, owner in notes.ghosts:
        _ghost(pen, lay.centre_of(i), lay.radius, palette.pieces[owner], lay.cell)
    if notes.path:
        _path(pen, lay, palette, notes.path)
    _marks(pen, lay, palette, game, notes)
    return pen.finish(), palette


@lru_cache(maxsize=6)
def static_layer(
    size: int, scale: float, theme: str, players: tuple[str, str], game_name: str
) -> Image.Image:
    """Everything that never changes during a game (frame, board, edges, coordinates), drawn
    once at supersampled size; a render copies it instead of redrawing 80 labels.

    At most a few are kept: one 19×19 layer is about 12 MB.
    """
    palette = get_theme(theme).palette(players)
    lay = board_layout(size, scale)
    pen = Pen(lay.width, lay.height, SUPERSAMPLE, palette.panel)
    _frame(pen, lay, palette)
    _board(pen, lay, palette, look_for(game_name), players)
    _coordinates(pen, lay, palette)
    return pen.image


def _frame(pen: Pen, lay: Layout, palette: Palette) -> None:
    pen.rect((0, 0, lay.width, lay.height), outline=palette.frame, width=2)
    y = lay.caption_h - round(lay.body_font * 0.35)
    pen.rect((lay.pad, y, lay.width - lay.pad, y + 2), fill=palette.frame)


def _caption(pen: Pen, lay: Layout, palette: Palette, cap: Caption, look: Look) -> None:
    left = lay.pad + 4
    room = lay.width - 2 * left
    y = lay.pad + lay.title_font * 0.6
    title = fit_text(bold(lay.title_font), cap.title, room)
    pen.text((left, y), title, lay.title_font, palette.text, anchor="lm")
    y += lay.title_font * 0.75 + lay.body_font * 0.85
    x = float(left)
    chip_r = lay.body_font * 0.45
    body = bold(lay.body_font)
    half = room / 2
    for chip in cap.players:
        colours = palette.pieces[chip.colour]
        pen.circle((x + chip_r, y), chip_r, colours.fill, colours.outline, max(1.0, chip_r / 6))
        label = chip.label + ("  ★ winner" if chip.winner else "")
        label = fit_text(body, label, half - chip_r * 2 - 16)
        tx = x + chip_r * 2 + lay.body_font * 0.4
        pen.text((tx, y), label, lay.body_font, palette.text, anchor="lm")
        if chip.to_move or chip.winner:
            # Underline the player whose turn it is, in their colour, cased for light colours.
            w = text_width(body, label)
            top = y + lay.body_font * 0.62
            thick = max(3.0, lay.body_font * 0.16)
            pen.rect((tx - 1, top - 1, tx + w + 1, top + thick + 1), fill=colours.outline)
            pen.rect((tx, top, tx + w, top + thick), fill=colours.fill)
        x += half
    y += lay.body_font * 1.45
    event = fit_text(body, cap.event, room)
    pen.text((left, y), event, lay.body_font, palette.muted, anchor="lm")


def _board(pen: Pen, lay: Layout, palette: Palette, look: Look, players: tuple[str, str]) -> None:
    n, c, x0, y0 = lay.size, lay.cell, lay.x0, lay.y0
    side = lay.board_px
    pen.rect((x0, y0, x0 + side, y0 + side), fill=palette.board)
    if look.perimeter_zone and n > 2:
        z = palette.perimeter
        pen.rect((x0, y0, x0 + side, y0 + c), fill=z)
        pen.rect((x0, y0 + side - c, x0 + side, y0 + side), fill=z)
        pen.rect((x0, y0, x0 + c, y0 + side), fill=z)
        pen.rect((x0 + side - c, y0, x0 + side, y0 + side), fill=z)
    thin = max(1.0, c / 40)
    for k in range(1, n):
        pen.rect((x0 + k * c - thin / 2, y0, x0 + k * c + thin / 2, y0 + side), fill=palette.grid)
        pen.rect((x0, y0 + k * c - thin / 2, x0 + side, y0 + k * c + thin / 2), fill=palette.grid)
    b = lay.bar
    if look.owned_edges:
        first, second = palette.pieces[players[0]], palette.pieces[players[1]]
        edge = max(1.0, b / 5)
        for box in ((x0, y0 - b, x0 + side, y0), (x0, y0 + side, x0 + side, y0 + side + b)):
            pen.rect(box, fill=first.fill, outline=first.outline, width=edge)
        for box in ((x0 - b, y0, x0, y0 + side), (x0 + side, y0, x0 + side + b, y0 + side)):
            pen.rect(box, fill=second.fill, outline=second.outline, width=edge)
    pen.rect((x0 - 1, y0 - 1, x0 + side + 1, y0 + side + 1), outline=palette.grid, width=2)


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


def _piece(pen: Pen, look: Look, at: Point, r: float, colours: PieceColours, cell: int) -> None:
    outline = max(1.5, cell / 26)
    if look.shape == "disc":
        # A flat two-sided disc: a rim in the darker shade around the face.
        pen.circle(at, r, colours.shade, colours.outline, outline)
        pen.circle(at, r * 0.86, colours.fill)
    elif look.shape == "checker":
        pen.circle(at, r, colours.fill, colours.outline, outline)
        pen.ring(at, r * 0.58, colours.shade, max(1.5, cell / 30))
    else:
        pen.circle(at, r, colours.fill, colours.outline, outline)


def _ghost(pen: Pen, at: Point, r: float, colours: PieceColours, cell: int) -> None:
    """A piece that just left the board: a dashed outline in its owner's colour."""
    width = max(2.0, cell / 16)
    for k in range(12):
        pen.arc(at, r * 0.9, k * 30, k * 30 + 18, colours.fill, width)


def _cross(pen: Pen, at: Point, arm: float, colour: tuple[int, int, int], width: float) -> None:
    x, y = at
    pen.line([(x - arm, y - arm), (x + arm, y + arm)], colour, width)
    pen.line([(x - arm, y + arm), (x + arm, y - arm)], colour, width)


def _path(pen: Pen, lay: Layout, palette: Palette, path: tuple[int, ...]) -> None:
    points = [lay.centre_of(i) for i in path]
    casing, core = lay.cell * 0.26, lay.cell * 0.15
    for width, colour in ((casing, palette.casing), (core, palette.path)):
        if len(points) > 1:
            pen.line(points, colour, width)
        for p in points:
            pen.circle(p, width / 2, colour)


def _marks(pen: Pen, lay: Layout, palette: Palette, game: Game, notes: Annotations) -> None:
    r, cell = lay.radius, lay.cell
    cells = game.cells()
    ghost_owner = dict(notes.ghosts)

    def mark_colour(i: int) -> tuple[int, int, int]:
        owner = cells[i]
        if owner is not None:
            return palette.pieces[owner].mark
        return palette.pieces[ghost_owner.get(i, game.players[0])].fill

    for i in notes.flipped:
        x, y = lay.centre_of(i)
        d = r * 0.34
        pen.polygon([(x, y - d), (x + d, y), (x, y + d), (x - d, y)], mark_colour(i))
    ring = max(2.0, cell / 14)
    for number, i in enumerate(notes.chain, start=1):
        size = max(8, round(cell * (0.42 if number < 10 else 0.34)))
        pen.text(lay.centre_of(i), str(number), size, mark_colour(i))
    if notes.last is not None and not notes.chain:
        # In a chain the highest number already marks the last placement.
        pen.ring(lay.centre_of(notes.last), r * MARK_RING, mark_colour(notes.last), ring)
