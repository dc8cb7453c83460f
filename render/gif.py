"""Animated replays: one frame per turn from the empty board, the final position held.

Discord refuses attachments of 8 MiB and more, so frames are capped (evenly thinned, always
keeping the first and last); if an encoded replay comes out too big it is redrawn smaller.
Frames are drawn and encoded one at a time (:mod:`render.gif_stream`), so a 150-frame 19×19
replay costs tens of MB while drawn, not the 500 MB of holding every frame.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Mapping

from PIL import Image

from rules import Game, game_class

from .board import draw_board
from .caption import ENGLISH, Speaker
from .encode import to_indexed
from .gif_stream import GifStream
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
    tr: Speaker = ENGLISH,
) -> Iterator[Image.Image]:
    """Indexed frames of ``game`` replayed from the start, drawn one at a time as they are
    asked for (``game`` itself is not touched), their captions in ``tr``'s language."""
    stops = thin(turn_ends(game), max_frames)
    board = game_class(game.name)(game.size, pie=game.pie)
    moves = [r.move for r in game.history]
    played = 0
    for stop in stops:
        while played < stop:
            board.play(moves[played])
            played += 1
        image, _ = draw_board(board, names=names, theme=theme, scale=scale, tr=tr)
        yield to_indexed(image, theme, game.players)


def frame_count(game: Game, max_frames: int = MAX_FRAMES) -> int:
    return len(thin(turn_ends(game), max_frames))


def frame_ms(count: int) -> int:
    return max(MIN_FRAME_MS, min(MAX_FRAME_MS, REPLAY_MS // max(1, count)))


def encode_gif(
    frames: Iterable[Image.Image], count: int, *, give_up_above: int | None = None
) -> bytes | None:
    """The GIF of ``count`` frames, encoded as they come (only the last one is kept), or
    None as soon as it passes ``give_up_above`` bytes."""
    out = io.BytesIO()
    stream = GifStream(out)
    for k, frame in enumerate(frames):
        stream.add(frame, LAST_FRAME_MS if k == count - 1 else frame_ms(count))
        if give_up_above is not None and stream.written > give_up_above:
            return None
    stream.close()
    return out.getvalue()


def render_gif(
    game: Game,
    *,
    names: Mapping[str, str] | None = None,
    theme: str = DEFAULT_THEME,
    tr: Speaker = ENGLISH,
) -> bytes:
    """An animated GIF replay of ``game``, always under 8 MiB; the captions speak ``tr``'s
    language (English by default)."""
    return fit_gif(game, names=names, theme=get_theme(theme).name, tr=tr)


def fit_gif(
    game: Game,
    *,
    names: Mapping[str, str] | None,
    theme: str,
    budget: int = SIZE_BUDGET,
    limit: int = MAX_BYTES,
    tr: Speaker = ENGLISH,
) -> bytes:
    """The largest replay within ``budget`` bytes, else the first one under ``limit``: smaller
    boards first, then fewer frames."""
    sizes = scales(game.size)
    count = frame_count(game)
    data: bytes | None = b""
    for scale in sizes:
        last = scale == sizes[-1]
        frames = replay_frames(game, names=names, theme=theme, scale=scale, tr=tr)
        # A scale that overflows the budget is dropped as soon as it does, unless it is the
        # last: that one is kept whole, to be thinned below.
        data = encode_gif(frames, count, give_up_above=None if last else budget)
        if data is not None and len(data) <= budget:
            return data
    assert data is not None
    cap = MAX_FRAMES // 2
    while len(data) >= limit and cap >= 2:
        frames = replay_frames(
            game, names=names, theme=theme, scale=SCALES[-1], max_frames=cap, tr=tr
        )
        data = encode_gif(frames, frame_count(game, cap))
        assert data is not None
        cap //= 2
    return data
