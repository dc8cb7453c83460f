"""The costliest moves of an analysis as one image: a row per move, the position after the move
played beside the position after the better move, each under its label.

The boards are the ordinary board drawings (the last move marked as on every board), scaled
to a small width, so a phone shows the three rows without zooming.  Labels come from the caller
in the reader's language (``render`` imports nothing of ``bot``).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from rules import Game

from ..board import draw_board
from ..caption import ENGLISH, Speaker
from ..encode import png_bytes
from ..fonts import draw_text

BOARD = 300
"""Width of each small board, in pixels."""
GAP = 16
LABEL = 22
BACKGROUND = (255, 255, 255)
INK = (30, 30, 30)

Pair = tuple[Game, str, Game, str]
"""(the position after the move played, its label, after the better move, its label)."""


def render_move_pairs(pairs: Sequence[Pair], tr: Speaker = ENGLISH) -> bytes:
    """One PNG: a row per pair, played on the left, better on the right; the boards' own
    captions speak ``tr``'s language."""
    if not pairs:
        raise ValueError("no moves to draw")
    rows = [(_small(a, tr), la, _small(b, tr), lb) for a, la, b, lb in pairs]
    row_height = LABEL + 8 + max(max(a.height, b.height) for a, _, b, _ in rows)
    width = 2 * BOARD + 3 * GAP
    image = Image.new("RGB", (width, len(rows) * (row_height + GAP) + GAP), BACKGROUND)
    top = GAP
    for left, left_label, right, right_label in rows:
        for x, board, label in ((GAP, left, left_label), (2 * GAP + BOARD, right, right_label)):
            draw_text(image, (x, top), label[:60], LABEL - 4, INK)
            image.paste(board, (x, top + LABEL + 8))
        top += row_height + GAP
    return png_bytes(image)


def _small(game: Game, tr: Speaker) -> Image.Image:
    image, _ = draw_board(game, names=None, tr=tr)
    scale = BOARD / image.width
    return image.convert("RGB").resize(
        (BOARD, round(image.height * scale)), Image.Resampling.LANCZOS
    )
