"""The streaming GIF writer: frames decode as drawn, and a replay never holds all its frames."""

from __future__ import annotations

import gc
import io
import json
import random
import subprocess
import sys
import textwrap
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import GifImagePlugin, Image, ImageChops

from render import gif
from render.gif_stream import TRANSPARENT, GifStream

ROOT = Path(__file__).resolve().parents[2]
PALETTE = [v for i in range(256) for v in (i, (i * 7) % 256, 255 - i)]


def frame(pixels: dict[tuple[int, int], int], size: tuple[int, int] = (40, 30)) -> Image.Image:
    image = Image.new("P", size, 3)
    image.putpalette(PALETTE)
    for xy, index in pixels.items():
        image.putpixel(xy, index)
    return image


def opened(data: bytes) -> GifImagePlugin.GifImageFile:
    image = Image.open(io.BytesIO(data))
    assert isinstance(image, GifImagePlugin.GifImageFile)
    return image


def decoded(data: bytes) -> list[Image.Image]:
    image = opened(data)
    out = []
    for k in range(image.n_frames):
        image.seek(k)
        out.append(image.convert("RGB"))
    return out


def encoded(frames: list[Image.Image], durations: list[int]) -> bytes:
    out = io.BytesIO()
    stream = GifStream(out)
    for image, ms in zip(frames, durations, strict=True):
        stream.add(image, ms)
    stream.close()
    assert stream.written == len(out.getvalue())
    return out.getvalue()


def test_every_frame_decodes_as_drawn_with_its_duration() -> None:
    rnd = random.Random(46)
    frames = [frame({})]
    for _ in range(12):
        pixels = {(rnd.randrange(40), rnd.randrange(30)): rnd.randrange(200) for _ in range(5)}
        before = frames[-1].copy()
        for xy, index in pixels.items():
            before.putpixel(xy, index)
        frames.append(before)
    frames.append(frames[-1].copy())  # a frame where nothing changed is kept too
    durations = [100 + 10 * k for k in range(len(frames))]
    data = encoded(frames, durations)
    got = decoded(data)
    assert len(got) == len(frames)
    for k, (want, have) in enumerate(zip(frames, got, strict=True)):
        assert ImageChops.difference(want.convert("RGB"), have).getbbox() is None, k
    image = opened(data)
    for k, ms in enumerate(durations):
        image.seek(k)
        assert image.info["duration"] == ms
    assert image.info.get("loop") == 0


def test_later_frames_hold_only_the_changed_rectangle() -> None:
    first = frame({})
    second = frame({(10, 5): 9, (12, 8): 9})
    one = encoded([first], [100])
    two = encoded([first, second], [100, 100])
    # A 3x4 rectangle of changes costs a few dozen bytes, not another 40x30 frame.
    assert len(two) - len(one) < 60
    image = opened(two)
    image.seek(1)
    assert image.tile[0][1] == (10, 5, 13, 9)  # the frame is that rectangle, placed


def test_a_frame_with_another_palette_keeps_its_colours() -> None:
    first = frame({})
    other = frame({(1, 1): 7})
    other.putpalette([255 - v for v in PALETTE])
    got = decoded(encoded([first, other], [100, 100]))
    assert got[1].getpixel((1, 1)) == other.convert("RGB").getpixel((1, 1))
    assert got[1].getpixel((0, 0)) == first.convert("RGB").getpixel((0, 0))


def test_bad_frames_are_refused() -> None:
    stream = GifStream(io.BytesIO())
    with pytest.raises(ValueError, match="at least one frame"):
        stream.close()
    with pytest.raises(ValueError, match="palette"):
        stream.add(Image.new("RGB", (4, 4)), 100)
    stream.add(frame({}), 100)
    with pytest.raises(ValueError, match="not"):
        stream.add(frame({}, size=(41, 30)), 100)


def test_the_encoder_holds_at_most_two_frames() -> None:
    """Frames are encoded as they come: at each new frame, older ones are already freed."""
    alive: list[weakref.ref[Image.Image]] = []
    most = 0

    def frames() -> Iterator[Image.Image]:
        nonlocal most
        for k in range(30):
            gc.collect()
            most = max(most, sum(ref() is not None for ref in alive))
            image = frame({(k, k % 30): 9})
            alive.append(weakref.ref(image))
            yield image

    data = gif.encode_gif(frames(), 30)
    assert data is not None and len(decoded(data)) == 30
    assert most <= 2


def test_an_oversized_encoding_gives_up_early() -> None:
    made = 0

    def frames() -> Iterator[Image.Image]:
        nonlocal made
        for k in range(30):
            made += 1
            yield frame({(k, 0): 9})

    assert gif.encode_gif(frames(), 30, give_up_above=10) is None
    assert made == 1
    assert TRANSPARENT == 255  # the index the colour tables leave free (render/encode.py)


PEAK = textwrap.dedent(
    """
    import resource, sys
    from rules import parse_record
    from render import render_gif

    game = parse_record(sys.stdin.read())
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    data = render_gif(game)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((peak - base) // 1024, len(data))
    """
)


@pytest.mark.slow
def test_a_341_move_19x19_replay_is_drawn_in_bounded_memory() -> None:
    """Issue 46: a 341-move 19×19 replay took about 500 MiB above the process's base while
    drawn (Pillow's writer held all 150 frames).  A fresh process measures its peak."""
    records = json.loads((ROOT / "bench" / "nd_replay_records.json").read_text())
    record = max(records, key=len)
    done = subprocess.run(
        [sys.executable, "-c", PEAK],
        input=record, cwd=ROOT, capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    grown, size = (int(v) for v in done.stdout.split())
    assert size < gif.MAX_BYTES
    assert grown < 150, f"drawing the replay took {grown} MiB above the base"
