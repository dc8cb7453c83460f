"""GIF replays: one frame per turn, the last held, under 8 MiB, the final frame correct."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest
from PIL import Image

import render
from render import gif
from render.board import PIECE_SAMPLE
from render.layout import board_layout
from render.themes import get_theme
from rules import new_game

Games = Callable[..., Any]


def open_gif(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    return image


def test_one_frame_per_turn_and_the_last_is_held(random_game: Games) -> None:
    game = random_game("minefield", 9, 12, 2)
    turns = game.turn_number - 1
    image = open_gif(render.render_gif(game))
    assert image.n_frames == turns + 1  # the empty board, then each turn
    durations = []
    for k in range(image.n_frames):
        image.seek(k)
        durations.append(image.info["duration"])
    assert durations[-1] == gif.LAST_FRAME_MS
    assert set(durations[:-1]) == {gif.frame_ms(turns + 1)}
    assert durations[-1] > durations[0]


def test_a_clear_path_chain_is_one_frame(turn_finder: Games) -> None:
    game = turn_finder("clearpath", lambda g, turn: len(turn) >= 2)
    plies = len(game.history)
    ends = gif.turn_ends(game)
    assert len(ends) - 1 < plies  # fewer turns than placements
    assert open_gif(render.render_gif(game)).n_frames == len(ends)


@pytest.mark.slow
def test_the_last_frame_shows_the_final_position(random_game: Games) -> None:
    game = random_game("clearcut", 9, 30, 5)
    image = open_gif(render.render_gif(game))
    image.seek(image.n_frames - 1)
    frame = image.convert("RGB")
    lay = board_layout(9, gif.scales(9)[0])
    palette = get_theme("okabe-ito").palette(game.players)
    d = lay.radius * PIECE_SAMPLE / math.sqrt(2)
    for index, owner in enumerate(game.cells()):
        x, y = lay.centre_of(index)
        got = frame.getpixel((int(x - d), int(y - d)))
        expected = palette.board if owner is None else palette.pieces[owner].fill
        assert got == expected, game.grid.names[index]


@pytest.mark.slow
def test_a_100_turn_replay_stays_under_the_limit(random_game: Games) -> None:
    game = random_game("minefield", 19, 100, 8)
    assert game.turn_number > 100
    data = render.render_gif(game)
    assert len(data) < 8 * 1024 * 1024
    image = open_gif(data)
    assert image.n_frames == min(game.turn_number, gif.MAX_FRAMES)
    # Within the budget the frames are the board at full size, as readable as the PNG.
    assert len(data) <= gif.SIZE_BUDGET
    assert image.size == (board_layout(19).width, board_layout(19).height)


def test_frames_are_thinned_evenly_keeping_both_ends() -> None:
    stops = list(range(40))
    thinned = gif.thin(stops, 7)
    assert len(thinned) == 7 and thinned[0] == 0 and thinned[-1] == 39
    gaps = {b - a for a, b in pairwise(thinned)}
    assert max(gaps) - min(gaps) <= 1
    assert gif.thin(stops[:5], 7) == stops[:5]


@pytest.mark.slow
def test_an_oversized_replay_is_shrunk_then_thinned(random_game: Games) -> None:
    game = random_game("minefield", 9, 40, 4)
    full = gif.fit_gif(game, names=None, theme="okabe-ito")
    limit = len(full) // 3
    small = gif.fit_gif(game, names=None, theme="okabe-ito", budget=1, limit=limit)
    assert len(small) < limit
    shrunk = open_gif(small)
    assert shrunk.size < open_gif(full).size
    assert shrunk.n_frames < open_gif(full).n_frames


def test_replay_leaves_the_game_untouched_and_is_deterministic(random_game: Games) -> None:
    game = random_game("crosscut", 8, 20, 9)
    before = (game.record(), game.state_key())
    first = render.render_gif(game, names={"red": "Ann"})
    assert (game.record(), game.state_key()) == before
    assert render.render_gif(game, names={"red": "Ann"}) == first


def test_a_game_without_moves_is_a_single_frame() -> None:
    image = open_gif(render.render_gif(new_game("nakeddiagonal", 7)))
    assert image.n_frames == 1


def test_a_pie_game_with_a_swap_replays() -> None:
    game = new_game("nakeddiagonal", 5, pie=True)
    for move in ("c3", "swap", "b2", "b3"):
        game.play(move)
    image = open_gif(render.render_gif(game))
    assert image.n_frames == game.turn_number  # the empty board, then each turn (swap too)


def test_a_replays_captions_speak_the_callers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each frame's caption is drawn in the language handed in (the web page's, the /replay
    answer's), not always English."""
    from bot.i18n import tongue
    from render import caption

    said: list[str] = []
    real = caption.caption_for

    def recording(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        said.append(str(found))
        return found

    monkeypatch.setattr("render.board.caption_for", recording)
    game = new_game("minefield", size=5)
    for move in ("c3", "b2", "d4"):
        game.play(move)
    german = render.render_gif(game, names={"black": "Jürgen", "white": "Anna"}, tr=tongue("de"))
    assert german != render.render_gif(game, names={"black": "Jürgen", "white": "Anna"})
    assert any("Schwarz" in s or "Weiß" in s for s in said), said[:3]
