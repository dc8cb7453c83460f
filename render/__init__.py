"""Board images from a rules state: PNG and SVG boards, GIF replays and alt text.  Pure: no
Discord.  One drawing model (:mod:`render.model`) is written out as PNG, GIF and SVG.

>>> from rules import new_game
>>> g = new_game("minefield", 9); _ = g.play("e5")
>>> render_board(g)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> board_svg(g).startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from rules import Game

from .board import board_scene, draw_board
from .caption import ENGLISH, Speaker, alt_text
from .encode import jpeg_bytes, png_bytes, to_indexed
from .gif import render_gif
from .svg import svg_document
from .themes import DEFAULT_THEME, THEMES, get_theme

__all__ = [
    "DEFAULT_THEME",
    "THEMES",
    "Speaker",
    "alt_text",
    "board_svg",
    "render_board",
    "render_gif",
]


def render_board(
    game: Game,
    *,
    names: Mapping[str, str] | None = None,
    show_illegal: bool = False,
    theme: str = DEFAULT_THEME,
    image_format: Literal["png", "jpeg"] = "png",
    tr: Speaker = ENGLISH,
) -> bytes:
    """The position as PNG (or JPEG) bytes; ``names`` maps a colour to its player's name, and
    the caption speaks ``tr``'s language (English by default)."""
    theme = get_theme(theme).name
    image, _ = draw_board(game, names=names, show_illegal=show_illegal, theme=theme, tr=tr)
    if image_format == "jpeg":
        return jpeg_bytes(image)
    return png_bytes(to_indexed(image, theme, game.players))


def board_svg(
    game: Game,
    *,
    names: Mapping[str, str] | None = None,
    show_illegal: bool = False,
    theme: str = DEFAULT_THEME,
    caption: bool = True,
    tr: Speaker = ENGLISH,
) -> str:
    """The position as an SVG document, drawn from the same model as :func:`render_board`.

    Without ``caption`` it shows only the board, for a page that writes the caption itself.
    Its title (the accessible name) is the alt text.
    """
    theme = get_theme(theme).name
    scene = board_scene(
        game, names=names, show_illegal=show_illegal, theme=theme, caption=caption, tr=tr
    )
    return svg_document(scene, title=alt_text(game, names, tr))
