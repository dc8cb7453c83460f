"""Caption texts fit whole words at every game's smallest and largest board, on real images.

For each game at its minimum and maximum size: a won game (so one chip carries "★ winner")
with long multi-word names, and for Clear Path also a turn with a long chain.  The plan the
drawing uses must fit every line in its room without cutting a word, and the pixels agree:
nothing is drawn past a line's room.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

import render
from render.board import CaptionLine, caption_plan
from render.caption import caption_for
from render.fonts import text_width
from render.layout import READABLE_PHONE_PX, Layout, board_layout, phone_px
from render.themes import RGB, get_theme
from rules import Game, game_class, game_names, new_game
from rules.notation import parse_point

NAMES = {
    "red": "Alexandra Montgomery-Smythe of Ravenscroft",
    "blue": "Bartholomew Fitzgerald the Third",
    "black": "Maximiliana Wolkenstein Grünewald",
    "white": "Konstantinos Papadopoulos Junior",
}
CASES = [
    (name, size)
    for name in sorted(game_names())
    for size in (game_class(name).min_size, game_class(name).max_size)
]
POINT = re.compile(r"^[a-z]\d+$")


def won_game(name: str, size: int, pie: bool | None = None) -> Game:
    for seed in range(50):
        game = new_game(name, size, pie=pie)
        rnd = random.Random(seed)
        while not game.is_over:
            game.play(rnd.choice(game.legal_moves()))
        if game.winner is not None:
            return game
    raise AssertionError(f"no won {name} {size} game in 50 seeds")


def long_chain(size: int, at_least: int) -> Game:
    """A Clear Path position right after the longest chain found (at least ``at_least``)."""
    for seed in range(200):
        game = new_game("clearpath", size)
        rnd = random.Random(seed)
        while not game.is_over:
            game.play(rnd.choice(game.legal_moves()))
            move = game.last_move
            if move is not None and not move.continues and len(game.last_turn()) >= at_least:
                return game
    raise AssertionError(f"no chain of {at_least} on {size}x{size}")


def positions() -> list[tuple[str, Callable[[], Game]]]:
    cases: list[tuple[str, Callable[[], Game]]] = [
        (f"{name}-{size}-won", lambda name=name, size=size: won_game(name, size))
        for name, size in CASES
    ]
    # The pie option lengthens the title ("Naked Diagonal (pie rule)"): smallest boards.
    cases += [
        (f"{name}-4-pie-won", lambda name=name: won_game(name, 4, pie=True))
        for name in ("clearcut", "minefield", "nakeddiagonal")
    ]
    cases.append(("clearpath-19-chain", lambda: long_chain(19, 30)))
    cases.append(("clearpath-4-chain", lambda: long_chain(4, 4)))
    return cases


def slow_if_costly(case: str, make: Callable[[], Game]) -> Any:
    """Playing a random 19x19 Naked Diagonal game to its end takes some 15 s (every placement's
    legality is an area search): that case runs in the full suite, not the quick loop."""
    marks = [pytest.mark.slow] if case == "nakeddiagonal-19-won" else []
    return pytest.param(case, make, id=case, marks=marks)


POSITIONS = positions()


def words(text: str) -> set[str]:
    return set(text.split())


def check_line(line: CaptionLine, lay: Layout, full_size: int, options: tuple[str, ...]) -> None:
    assert line.text in options, line.text  # one of the whole-word forms, never cut
    check_size(line, lay, full_size)


def check_size(line: CaptionLine, lay: Layout, full_size: int) -> None:
    assert lay.min_font <= line.size <= full_size
    assert phone_px(line.size, lay.width) >= READABLE_PHONE_PX
    assert text_width(line.text, line.size) <= line.room


@pytest.mark.parametrize(("case", "make"), [slow_if_costly(c, m) for c, m in POSITIONS])
def test_every_caption_line_fits_in_whole_words(case: str, make: Callable[[], Game]) -> None:
    game = make()
    lay = board_layout(game.size)
    cap = caption_for(game, NAMES)
    plan = caption_plan(lay, cap)
    check_line(plan.title, lay, lay.title_font, cap.title_options)
    assert words(plan.title.text) <= words(cap.title)
    for chip, line in zip(cap.players, plan.chips, strict=True):
        check_size(line, lay, lay.body_font)
        mark = next((m for m in chip.marks if m and line.text.endswith(m)), "")
        assert bool(mark) == chip.winner, line.text
        label = line.text.removesuffix(mark)
        if label not in chip.labels:
            # Too narrow for even the first word: the shortest form cut, the name kept.
            shortest = chip.labels[-1].removesuffix("…")
            assert label.endswith("…") and shortest.startswith(label[:-1]), line.text
            assert len(label) > len(f"{chip.colour}: …"), line.text
        kept = words(label.replace("…", " "))
        assert kept <= words(chip.text) or label.endswith("…"), line.text
    check_line(plan.event, lay, lay.body_font, cap.event_options)
    turn = game.last_turn()
    points = {r.point for r in turn} | {p for r in turn for p in (*r.flipped, *r.removed)}
    for token in plan.event.text.replace(":", " ").split():
        if POINT.match(token):
            assert token in points, (token, plan.event.text)
    if "chain" in case:
        chain = [r.point for r in turn]
        assert len(chain) >= 4
        shown = [t for t in plan.event.text.split() if POINT.match(t)]
        # the shown placements are the chain's last ones, in order, with the count if cut
        assert shown == chain[-len(shown) :]
        if len(shown) < len(chain):
            assert f"a chain of {len(chain)}: … → " in plan.event.text


def rgb(image: Image.Image, x: int, y: int) -> RGB:
    got = image.getpixel((x, y))
    assert isinstance(got, tuple)
    return (int(got[0]), int(got[1]), int(got[2]))


def band(lay: Layout, y: int, size: int) -> range:
    return range(max(3, y - round(size * 0.6)), y + round(size * 0.6))


@pytest.mark.parametrize(("case", "make"), POSITIONS, ids=[c for c, _ in POSITIONS])
def test_nothing_is_drawn_past_a_lines_room(case: str, make: Callable[[], Game]) -> None:
    game = make()
    image = Image.open(io.BytesIO(render.render_board(game, names=NAMES))).convert("RGB")
    lay = board_layout(game.size)
    palette = get_theme(render.THEMES[0]).palette(game.players)
    plan = caption_plan(lay, caption_for(game, NAMES))
    left = lay.pad + 4
    right = lay.width - left  # where every line's room ends
    rows = [
        (lay.title_y, plan.title.size),
        (lay.chips_y, max(line.size for line in plan.chips)),
        (lay.event_y, plan.event.size),
    ]
    for y, size in rows:
        inked = False
        for yy in band(lay, y, size):
            for x in range(right + 1, lay.width - 3):
                assert rgb(image, x, yy) == palette.panel, (x, yy)
            inked = inked or any(
                rgb(image, x, yy) in (palette.text, palette.muted) for x in range(left, right)
            )
        assert inked, f"no text drawn at y={y}"
    # The first chip's text stops before the second chip begins.
    second_chip = left + plan.split
    for yy in band(lay, lay.chips_y, plan.chips[0].size):
        for x in range(round(second_chip) - 6, round(second_chip) - 1):
            assert rgb(image, x, yy) == palette.panel, (x, yy)


def test_a_chain_number_on_the_winning_path_stays_visible() -> None:
    """The path line passes under a badge; the number on it keeps its colour and contrast."""
    found = None
    for seed in range(3000):
        game = new_game("clearpath", 5)
        rnd = random.Random(seed)
        while not game.is_over:
            game.play(rnd.choice(game.legal_moves()))
        turn = game.last_turn()
        on_path = [r.point for r in turn if r.point in game.winning_path]
        if game.winner and len(turn) >= 2 and len(on_path) >= 2:
            found = game, on_path
            break
    assert found is not None
    game, on_path = found
    image = Image.open(io.BytesIO(render.render_board(game))).convert("RGB")
    lay = board_layout(game.size)
    palette = get_theme(render.THEMES[0]).palette(game.players)
    pieces = palette.pieces[game.winner or ""]
    for point in on_path:
        assert point is not None
        x, y = lay.centre_of(parse_point(point, game.size))
        half = lay.radius * 0.5
        box = image.crop((int(x - half), int(y - half), int(x + half), int(y + half)))
        colours = {c for _, c in box.getcolors(1 << 16) or []}
        assert pieces.mark in colours, point  # the number
        assert pieces.fill in colours, point  # the badge behind it
        assert palette.path not in colours, point  # the line does not cross the number
