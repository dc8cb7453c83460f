"""Animated replays: one frame per turn from the empty board, the final position held.

Discord refuses attachments of 8 MiB and more, so frames are capped (evenly thinned, always
keeping the first and last); if an encoded replay comes out too big it is redrawn smaller.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from itertools import pairwise

from PIL import Image, ImageChops

from rules import Game, game_class

from .board import draw_board
from .encode import to_indexed
from .themes import DEFAULT_THEME, get_theme

MAX_BYTES = 8 * 1024 * 1024
SIZE_BUDGET = 7 * 1024 * 1024
MAX_FRAMES = 150
# A whole replay should take about a minute to watch, at 0.25 s to 0.8 s a turn.
REPLAY_MS = 60_000
MIN_FRAME_MS, MAX_FRAME_MS = 250, 800
LAST_FRAME_MS = 4000
SCALES = (1.0, 0.75, 0.55, 0.4)
FULL_SIZE_FROM = 13
"""Boards this large are replayed at full size: their cells are at the 44-px floor, and a
smaller frame blurs 19×19 numbers and rings past reading.  Smaller boards have cells of 55 px
and more, so they start at 0.75×, which halves their encoding time."""


def scales(size: int) -> tuple[float, ...]:
    """The frame scales to try for a ``size``×``size`` board, largest first."""
    return SCALES if size >= FULL_SIZE_FROM else SCALES[1:]


# Palette index left out of every colour table, so unchanged pixels can be see-through.
TRANSPARENT = 255


def turn_ends(game: Game) -> list[int]:
    """How many moves had been played at the start and at the end of each turn."""
    ends = [0]
    for ply, record in enumerate(game.history, start=1):
        if not record.continues:
            ends.append(ply)
    if ends[-1] != len(game.history):
        ends.append(len(game.history))
    return ends


def thin(stops: list[int], cap: int) -> list[int]:
    """At most ``cap`` stops, evenly spread, keeping the first and the last."""
    if len(stops) <= cap:
        return stops
    last = len(stops) - 1
    picks = sorted({round(k * last / (cap - 1)) for k in range(cap)})
    return [stops[k] for k in picks]


def replay_frames(
    game: Game,
    *,
    names: Mapping[str, str] | None,
    theme: str,
    scale: float,
    max_frames: int = MAX_FRAMES,
) -> list[Image.Image]:
    """Indexed frames of ``game`` replayed from the start (``game`` itself is not touched)."""
    stops = thin(turn_ends(game), max_frames)
    board = game_class(game.name)(game.size, pie=game.pie)
    moves = [r.move for r in game.history]
    played = 0
    frames: list[Image.Image] = []
    for stop in stops:
        while played < stop:
            board.play(moves[played])
            played += 1
        image, _ = draw_board(board, names=names, theme=theme, scale=scale)
        frames.append(to_indexed(image, theme, game.players))
    return frames


def see_through_unchanged(frames: list[Image.Image]) -> list[Image.Image]:
    """Each frame after the first with unchanged pixels set to the transparent index.

    A turn changes a few cells and the caption; runs of one index cost LZW almost nothing,
    so replays shrink about fourfold.  (Pillow's own ``optimize`` does this too, through
    per-pixel Python-level image maths that doubled the encode time.)
    """
    out = [frames[0]]
    for before, after in pairwise(frames):
        changed = ImageChops.difference(_as_l(before), _as_l(after)).point(_NONZERO)
        frame = after.copy()
        frame.paste(TRANSPARENT, mask=ImageChops.invert(changed))
        out.append(frame)
    return out


_NONZERO = [0] + [255] * 255


def _as_l(frame: Image.Image) -> Image.Image:
    """Palette indices viewed as greyscale, so image maths compares indices, not colours."""
    return Image.frombytes("L", frame.size, frame.tobytes())


def frame_ms(count: int) -> int:
    return max(MIN_FRAME_MS, min(MAX_FRAME_MS, REPLAY_MS // max(1, count)))


def encode_gif(frames: list[Image.Image]) -> bytes:
    durations = [frame_ms(len(frames))] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    shown = see_through_unchanged(frames)
    shown[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=shown[1:],
        duration=durations,
        loop=0,
        optimize=False,
        transparency=TRANSPARENT,
        disposal=1,
    )
    return out.getvalue()


def render_gif(
    game: Game,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = DEFAULT_THEME,
) -> bytes:
    """An animated GIF replay of ``game``, always under 8 MiB."""
    return fit_gif(game, names=names, theme=get_theme(theme).name)


def fit_gif(
    game: Game,
    *,
    names: Mapping[str, str] | None,
    theme: str,
    budget: int = SIZE_BUDGET,
    limit: int = MAX_BYTES,
) -> bytes:
    """The largest replay within ``budget`` bytes, else the first one under ``limit``: smaller
    boards first, then fewer frames."""
    data = b""
    for scale in scales(game.size):
        data = encode_gif(replay_frames(game, names=names, theme=theme, scale=scale))
        if len(data) <= budget:
            return data
    cap = MAX_FRAMES // 2
    while len(data) >= limit and cap >= 2:
        frames = replay_frames(game, names=names, theme=theme, scale=SCALES[-1], max_frames=cap)
        data = encode_gif(frames)
        cap //= 2
    return data
