"""Shared helpers for render tests: seeded random games and a pixel probe on real PNGs."""

from __future__ import annotations

import io
import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import pytest
from PIL import Image

import render
from render.board import MARK_RING, PIECE_SAMPLE
from render.layout import Layout, board_layout
from render.themes import RGB, Palette, get_theme
from rules import Game, MoveRecord, new_game
from rules.notation import parse_point


def play_random(name: str, size: int | None, turns: int, seed: int) -> Game:
    """A seeded random game of at most ``turns`` turns (stops early if someone wins)."""
    game = new_game(name, size)
    rnd = random.Random(seed)
    while not game.is_over and game.turn_number <= turns:
        game.play(rnd.choice(game.legal_moves()))
    return game


def find_turn(
    name: str, want: Callable[[Game, tuple[MoveRecord, ...]], bool], size: int | None = None
) -> Game:
    """The first position (over seeded random games) whose last turn satisfies ``want``."""
    for seed in range(400):
        game = new_game(name, size)
        rnd = random.Random(seed)
        while not game.is_over:
            game.play(rnd.choice(game.legal_moves()))
            if not game.last_move or game.last_move.continues:
                continue
            if want(game, game.last_turn()):
                return game
    raise AssertionError(f"no {name} game with the wanted turn in 400 seeds")


@dataclass
class Probe:
    game: Game
    image: Image.Image
    layout: Layout
    palette: Palette

    def point(self, name: str) -> int:
        return parse_point(name, self.game.size)

    def centre(self, point: str) -> RGB:
        x, y = self.layout.centre_of(self.point(point))
        return self.pixel(x, y)

    def pixel(self, x: float, y: float) -> RGB:
        got = self.image.getpixel((int(x), int(y)))
        assert isinstance(got, tuple)
        return (int(got[0]), int(got[1]), int(got[2]))

    def piece_samples(self, point: str) -> list[RGB]:
        """Four pixels on the diagonals at the radius where a piece shows only its colour."""
        x, y = self.layout.centre_of(self.point(point))
        d = self.layout.radius * PIECE_SAMPLE / math.sqrt(2)
        return [self.pixel(x + sx * d, y + sy * d) for sx in (-1, 1) for sy in (-1, 1)]

    def mark_ring(self, point: str) -> RGB:
        x, y = self.layout.centre_of(self.point(point))
        return self.pixel(x + self.layout.radius * MARK_RING, y)

    def cells(self) -> Iterator[tuple[str, str | None]]:
        names = self.game.grid.names
        yield from zip(names, self.game.cells(), strict=True)


@pytest.fixture
def probe() -> Callable[..., Probe]:
    def make(
        game: Game,
        *,
        names: Mapping[str, str] | None = None,
        show_illegal: bool = False,
        theme: str = render.THEMES[0],
    ) -> Probe:
        data = render.render_board(game, names=names, show_illegal=show_illegal, theme=theme)
        image = Image.open(io.BytesIO(data))
        assert image.format == "PNG"
        return Probe(
            game,
            image.convert("RGB"),
            board_layout(game.size),
            get_theme(theme).palette(game.players),
        )

    return make


@pytest.fixture
def random_game() -> Callable[[str, int | None, int, int], Game]:
    return play_random


@pytest.fixture
def turn_finder() -> Callable[..., Game]:
    return find_turn
