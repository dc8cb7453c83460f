"""``service.puzzles``: puzzles mined from real games (issue 48)."""

from .service import Puzzles
from .types import DailyPuzzle, DailySolution, PuzzleAnswer, PuzzleStanding, PuzzleView

__all__ = [
    "DailyPuzzle",
    "DailySolution",
    "PuzzleAnswer",
    "PuzzleStanding",
    "PuzzleView",
    "Puzzles",
]
