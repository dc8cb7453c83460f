"""An animated GIF written one frame at a time, so memory stays at a frame or two.

Pillow's own multi-frame writer (``save_all`` with ``append_images``) first collects every
frame, normalised and copied, before it writes any: a 150-frame 19×19 replay held about
500 MB.  Here each frame goes through Pillow's single-frame GIF writer (its public
``Image.save``), and the blocks of that small file are spliced into one stream: the header,
screen and colour table of the first frame, then each frame's graphic control extension and
image.  Every frame after the first holds only the rectangle that changed, with unchanged
pixels inside it see-through, so a frame's size and encoding time follow what moved.
"""

from __future__ import annotations

import io
import struct
from typing import BinaryIO

from PIL import Image, ImageChops

TRANSPARENT = 255
"""Palette index left out of every colour table, so unchanged pixels can be see-through."""

_NONZERO = [0] + [255] * 255
_GCE, _APPLICATION, _IMAGE, _EXTENSION, _TRAILER = 0xF9, 0xFF, 0x2C, 0x21, 0x3B


class GifStream:
    """Frames added one by one to ``out``; :meth:`close` ends the file.

    Only the previous frame is kept, to find what the next one changes."""

    def __init__(self, out: BinaryIO, *, loop: int = 0) -> None:
        self._out = out
        self._loop = loop
        self._previous: Image.Image | None = None
        self._table = b""
        self.frames = 0
        self.written = 0

    def add(self, frame: Image.Image, duration: int) -> None:
        """Append ``frame`` (mode "P", the size and palette of the first) for ``duration`` ms."""
        if frame.mode != "P":
            raise ValueError(f"GIF frames must be palette images, not {frame.mode}")
        previous, self._previous = self._previous, frame
        if previous is None:
            data = _single(frame, duration, loop=self._loop)
            screen_end = 13 + _table_size(data[10])
            self._table = data[13:screen_end]
            self._write(data[:-1])  # all but the trailer
            self.frames += 1
            return
        if frame.size != previous.size:
            raise ValueError(f"frame {self.frames} is {frame.size}, not {previous.size}")
        changed = ImageChops.difference(_as_l(previous), _as_l(frame)).point(_NONZERO)
        box = changed.getbbox()
        if box is None:
            # Nothing moved: one see-through pixel keeps the frame (and its duration).
            box = (0, 0, 1, 1)
            part = frame.crop(box)
            part.paste(TRANSPARENT, (0, 0, 1, 1))
        else:
            part = frame.crop(box)
            part.paste(TRANSPARENT, mask=ImageChops.invert(changed.crop(box)))
        self._write(self._later(_single(part, duration, loop=None), box[0], box[1]))
        self.frames += 1

    def close(self) -> None:
        if self._previous is None:
            raise ValueError("a GIF needs at least one frame")
        self._write(bytes([_TRAILER]))
        self._previous = None

    def _write(self, data: bytes) -> None:
        self._out.write(data)
        self.written += len(data)

    def _later(self, data: bytes, left: int, top: int) -> bytes:
        """A later frame's blocks out of its single-frame file: its graphic control
        extension and its image, placed at (``left``, ``top``) on the first frame's screen."""
        pos = 13 + _table_size(data[10])
        table = data[13:pos]
        out = bytearray()
        while data[pos] == _EXTENSION:
            end = _after_sub_blocks(data, pos + 2)
            if data[pos + 1] != _APPLICATION:  # the loop count belongs to the first frame only
                out += data[pos:end]
            pos = end
        if data[pos] != _IMAGE:
            raise ValueError(f"unexpected GIF block {data[pos]:#x}")
        flags = data[pos + 9]
        out += data[pos : pos + 1] + struct.pack("<HH", left, top) + data[pos + 5 : pos + 9]
        if table != self._table and not flags & 0x80:
            # A colour table unlike the first frame's travels with this frame.
            out += bytes([flags | 0x80 | (data[10] & 0x07)]) + table
        else:
            out += data[pos + 9 : pos + 10]
        out += data[pos + 10 : -1]
        return bytes(out)


def _single(frame: Image.Image, duration: int, *, loop: int | None) -> bytes:
    out = io.BytesIO()
    extra = {} if loop is None else {"loop": loop}
    frame.save(
        out,
        "GIF",
        duration=duration,
        transparency=TRANSPARENT,
        disposal=1,  # leave the frame in place: the next one draws only what changed
        optimize=False,
        **extra,
    )
    data = out.getvalue()
    if data[-1] != _TRAILER:
        raise ValueError("Pillow's GIF writer ended without a trailer")
    return data


def _table_size(screen_flags: int) -> int:
    """Bytes of the global colour table a logical screen's flags announce."""
    return 3 << ((screen_flags & 0x07) + 1) if screen_flags & 0x80 else 0


def _after_sub_blocks(data: bytes, pos: int) -> int:
    """The index just past the data sub-blocks starting at ``pos`` (and their terminator)."""
    while data[pos]:
        pos += data[pos] + 1
    return pos + 1


def _as_l(frame: Image.Image) -> Image.Image:
    """Palette indices viewed as greyscale, so image maths compares indices, not colours."""
    return Image.frombytes("L", frame.size, frame.tobytes())
