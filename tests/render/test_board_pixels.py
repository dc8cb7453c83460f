"""Pixel-level checks on real rendered PNGs: pieces, empty cells, edges, marks, overlays."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

import render
from render.layout import board_layout
from render.looks import look_for
from rules import new_game

Probe = Any
ProbeFactory = Callable[..., Probe]
Games = Callable[..., Any]


def empty_colour(p: Probe, point: str) -> tuple[int, int, int]:
    """An empty cell shows the board, or Crosscut's perimeter zone on the perimeter."""
    index = p.point(point)
    on_perimeter = p.game.grid.perimeter >> index & 1
    if look_for(p.game.name).perimeter_zone and on_perimeter:
        return p.palette.perimeter
    return p.palette.board


def assert_pieces_and_empties(p: Probe) -> None:
    for point, owner in p.cells():
        if owner is None:
            assert p.centre(point) == empty_colour(p, point), f"{point} should look empty"
            assert set(p.piece_samples(point)) == {empty_colour(p, point)}, point
        else:
            fill = p.palette.pieces[owner].fill
            assert p.piece_samples(point) == [fill] * 4, f"{point} should show {owner}"


@pytest.mark.parametrize("size", [4, 9, 13, 19])
def test_dimensions_follow_the_layout(probe: ProbeFactory, size: int, random_game: Games) -> None:
    game = random_game("minefield", size, 6, seed=size)
    p = probe(game)
    lay = board_layout(size)
    assert p.image.size == (lay.width, lay.height)
    assert lay.x0 + lay.board_px < lay.width and lay.y0 + lay.board_px < lay.height
    # Cells are never so small that coordinates stop being readable on a phone.
    assert lay.cell >= 44 and lay.coord_font >= 20


@pytest.mark.parametrize("theme", render.THEMES)
@pytest.mark.parametrize(
    ("name", "size", "turns", "seed"),
    [
        ("minefield", 9, 30, 1),
        ("clearpath", 9, 20, 2),
        ("crosscut", 8, 12, 3),
        ("clearcut", 9, 40, 4),
        ("nakeddiagonal", 7, 12, 5),
    ],
)
def test_each_piece_shows_its_owner_and_empty_cells_stay_empty(
    probe: ProbeFactory, theme: str, name: str, size: int, turns: int, seed: int, random_game: Games
) -> None:
    game = random_game(name, size, turns, seed)
    assert any(game.cells()) and None in game.cells()
    assert_pieces_and_empties(probe(game, theme=theme))


def test_edges_are_coloured_by_owner(probe: ProbeFactory) -> None:
    game = new_game("clearpath", 9)
    game.play("e5")
    p = probe(game)
    lay = p.layout
    red, blue = p.palette.pieces["red"].fill, p.palette.pieces["blue"].fill
    mid = lay.x0 + lay.board_px / 2
    half_bar = lay.bar / 2
    assert p.pixel(mid, lay.y0 - half_bar) == red  # top edge: first player
    assert p.pixel(mid, lay.y0 + lay.board_px + half_bar) == red  # bottom
    assert p.pixel(lay.x0 - half_bar, lay.y0 + lay.board_px / 2) == blue  # left: second
    assert p.pixel(lay.x0 + lay.board_px + half_bar, lay.y0 + lay.board_px / 2) == blue


def test_minefield_edges_are_black_and_white(probe: ProbeFactory) -> None:
    p = probe(new_game("minefield", 9))
    lay = p.layout
    assert p.pixel(lay.x0 + 10, lay.y0 - lay.bar / 2) == p.palette.pieces["black"].fill
    assert p.pixel(lay.x0 - lay.bar / 2, lay.y0 + 10) == p.palette.pieces["white"].fill


def test_crosscut_has_no_owned_edges_but_a_shaded_perimeter(probe: ProbeFactory) -> None:
    p = probe(new_game("crosscut", 8))
    lay = p.layout
    assert p.pixel(lay.x0 + lay.board_px / 2, lay.y0 - lay.bar / 2) == p.palette.panel
    assert p.centre("a1") == p.centre("h4") == p.centre("d8") == p.palette.perimeter
    assert p.centre("b2") == p.centre("d5") == p.centre("g7") == p.palette.board


def test_last_placement_is_marked_and_only_it(probe: ProbeFactory) -> None:
    game = new_game("minefield", 9)
    for move in ("e5", "d4", "c3"):
        game.play(move)
    p = probe(game)
    black = p.palette.pieces["black"]
    assert p.mark_ring("c3") == black.mark
    assert p.mark_ring("e5") == black.fill
    assert p.mark_ring("d4") == p.palette.pieces["white"].fill


def test_illegal_overlay_marks_exactly_the_illegal_points(
    probe: ProbeFactory, random_game: Games
) -> None:
    game = random_game("minefield", 9, 24, seed=7)
    illegal = set(game.illegal_points())
    assert illegal, "the seed should give a position with mines"
    shown = probe(game, show_illegal=True)
    hidden = probe(game)
    for point, owner in shown.cells():
        if owner is not None:
            continue
        expected = shown.palette.illegal if point in illegal else shown.palette.board
        assert shown.centre(point) == expected, point
        assert hidden.centre(point) == hidden.palette.board, point


def test_winning_path_is_highlighted(probe: ProbeFactory, random_game: Games) -> None:
    game = random_game("clearcut", 9, 400, seed=0)
    assert game.is_over and game.winning_path
    p = probe(game)
    on_path = set(game.winning_path)
    last = game.last_move.point if game.last_move else None
    for point in on_path - {last}:
        assert p.centre(point) == p.palette.path, point
    # Pieces off the path are untouched at their centres (unless marked as the last move).
    others = [pt for pt, owner in p.cells() if owner and pt not in on_path and pt != last]
    assert others
    for point in others:
        owner = game.at(point)
        assert owner is not None
        assert p.centre(point) in (p.palette.pieces[owner].fill, p.palette.pieces[owner].shade)


def test_clear_path_chain_is_numbered(probe: ProbeFactory, turn_finder: Games) -> None:
    game = turn_finder("clearpath", lambda g, turn: len(turn) >= 3)
    turn = game.last_turn()
    p = probe(game)
    mover = turn[0].player
    mark = p.palette.pieces[mover].mark
    lay = p.layout
    for record in turn:
        assert record.point is not None
        x, y = lay.centre_of(p.point(record.point))
        box = p.image.crop(
            (
                int(x - lay.radius / 2),
                int(y - lay.radius / 2),
                int(x + lay.radius / 2),
                int(y + lay.radius / 2),
            )
        )
        colours = {c for _, c in box.getcolors(4096) or []}
        assert mark in colours, f"{record.point} should carry its number"


def test_crosscut_flips_are_marked_and_a_removed_perimeter_disc_is_a_ghost(
    probe: ProbeFactory, turn_finder: Games
) -> None:
    game = turn_finder("crosscut", lambda g, t: bool(t[-1].flipped) and not t[-1].stays)
    record = game.last_turn()[-1]
    assert record.point is not None
    p = probe(game)
    pieces = p.palette.pieces[record.player]
    for point in record.flipped:
        assert p.centre(point) in (pieces.mark, p.palette.path), point
        assert p.piece_samples(point) == [pieces.fill] * 4
    # The placed disc has left the board: the cell is empty, with a dashed ring in its colour.
    assert game.at(record.point) is None
    assert p.centre(record.point) == p.palette.perimeter
    x, y = p.layout.centre_of(p.point(record.point))
    r = p.layout.radius * 0.9
    dash = math.radians(9)  # the middle of the first dash
    assert p.pixel(x + r * math.cos(dash), y + r * math.sin(dash)) == pieces.fill


def test_clearcut_removed_checkers_show_as_ghosts(probe: ProbeFactory, turn_finder: Games) -> None:
    game = turn_finder("clearcut", lambda g, t: bool(t[-1].removed) and not g.is_over)
    record = game.last_turn()[-1]
    victim = next(c for c in game.players if c != record.player)
    p = probe(game)
    fill = p.palette.pieces[victim].fill
    for point in record.removed:
        assert game.at(point) is None
        assert p.centre(point) == p.palette.board
        x, y = p.layout.centre_of(p.point(point))
        r = p.layout.radius * 0.9
        dash = math.radians(9)
        assert p.pixel(x + r * math.cos(dash), y + r * math.sin(dash)) == fill


def test_png_is_indexed_and_small(random_game: Games) -> None:
    game = random_game("minefield", 19, 150, seed=3)
    data = render.render_board(game, show_illegal=True)
    image = Image.open(io.BytesIO(data))
    assert image.mode == "P"
    assert len(data) <= 300 * 1024


def test_caption_underlines_the_player_to_move(probe: ProbeFactory) -> None:
    game = new_game("clearcut", 9)
    game.play("e5")  # Blue to move
    p = probe(game, names={"red": "Ann", "blue": "Bob"})
    lay = p.layout
    strip = p.image.crop((0, lay.chips_y, lay.width, lay.event_y))
    counts = {colour: n for n, colour in strip.getcolors(65536) or []}
    red, blue = p.palette.pieces["red"].fill, p.palette.pieces["blue"].fill
    # Both chips show; only Blue's name carries a bar in Blue's colour.
    assert counts.get(red, 0) > 0
    assert counts.get(blue, 0) > 2 * counts[red]
