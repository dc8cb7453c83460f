"""Board images from a rules state: PNG boards, GIF replays and alt text.  Pure: no Discord.

>>> from rules import new_game
>>> g = new_game("minefield", 9); _ = g.play("e5")
>>> render_board(g)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from rules import Game

from .board import draw_board
from .caption import alt_text
from .encode import jpeg_bytes, png_bytes, to_indexed
from .gif import render_gif
from .themes import DEFAULT_THEME, THEMES, get_theme

__all__ = ["DEFAULT_THEME", "THEMES", "alt_text", "render_board", "render_gif"]


def render_board(
    game: Game,
    *,
    names: Mapping[str, str] | None = None,
    show_illegal: bool = False,
    theme: str = DEFAULT_THEME,
    image_format: Literal["png", "jpeg"] = "png",
) -> bytes:
    """The position as PNG (or JPEG) bytes; ``names`` maps a colour to its player's name."""
    theme = get_theme(theme).name
    image, _ = draw_board(game, names=names, show_illegal=show_illegal, theme=theme)
    if image_format == "jpeg":
        return jpeg_bytes(image)
    return png_bytes(to_indexed(image, theme, game.players))
