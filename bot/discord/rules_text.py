"""Rule summaries and the full rule sheets players see through ``/rules``.

The games are Mark Steere's: every text shown to players names him, and the full sheets are his
own words, copied unchanged from the versions he publishes for free distribution.
"""

from __future__ import annotations

from pathlib import Path

from rules import game_class

SHEETS_DIR = Path(__file__).parent / "rulesheets"
ATTRIBUTION = (
    "designed by Mark Steere and played under his published rules, unchanged; "
    "more at marksteeregames.com"
)

SHEET_FILES: dict[str, str] = {
    "clearpath": "clear-path.md",
    "minefield": "minefield.md",
    "crosscut": "crosscut.md",
    "nakeddiagonal": "naked-diagonal.md",
    "clearcut": "clearcut.md",
}

TITLES: dict[str, str] = {
    "clearpath": "Clear Path",
    "minefield": "Minefield",
    "crosscut": "Crosscut",
    "nakeddiagonal": "Naked Diagonal",
    "clearcut": "Clearcut",
}

SUMMARIES: dict[str, str] = {
    "clearpath": (
        "Red joins top and bottom, Blue joins left and right, with an orthogonal path of stones. "
        "You may never cut your opponent off completely unless that same placement wins. "
        "Placing on a point closed in on 3 or 4 sides by stones or edges makes you place again "
        "(chain reaction). Blue may swap after Red's first stone (pie rule)."
    ),
    "minefield": (
        "Black joins top and bottom, White joins left and right, with an orthogonal path of "
        "stones. You may not form a hard corner (2×2 with two diagonal stones of one colour, one "
        "of the other and a gap) or a switch (two diagonal pairs in a 2×3 or 2×4 area). "
        "If you have no legal point, your turn is skipped."
    ),
    "crosscut": (
        "Make a straight line of your discs two shorter than the board size. Placing so that you "
        "flank enemy segments flips them, but only if the longest segment you create is longer "
        "than the longest one you cut. Edge squares may only be used to flip, and the disc is "
        "then removed. No placement means your turn is skipped."
    ),
    "nakeddiagonal": (
        "Red joins top and bottom, Blue joins left and right, with an orthogonal path of stones. "
        "You may not form a naked diagonal (two diagonal stones with no shared friendly "
        "neighbour) or an area that could only fill in by forming one. No legal point means "
        "your turn is skipped."
    ),
    "clearcut": (
        "Red joins top and bottom, Blue joins left and right, with an orthogonal path of "
        "checkers. Forming a crosscut removes the two enemy checkers in it, but only if your new "
        "crosscut group is larger than each enemy crosscut group. No placement means your turn "
        "is skipped."
    ),
}


def sheet_text(game: str) -> str:
    """The full rule sheet of ``game`` (registry name) as Markdown."""
    return (SHEETS_DIR / SHEET_FILES[game]).read_text(encoding="utf-8")


def summary(game: str) -> str:
    return f"**{TITLES[game]}**, {ATTRIBUTION}.\n\n{SUMMARIES[game]}\n\n{board_sizes(game)}"


def board_sizes(game: str) -> str:
    """The sizes this bot allows, read from the engine so the text can never drift."""
    cls = game_class(game)
    low, high, default = cls.min_size, cls.max_size, cls.default_size
    return f"Played here on boards from {low}×{low} to {high}×{high} (default {default}×{default})."
