"""Puzzles mined from real games (issue 48): finding, verifying and answering them, and the
starter set shipped as ``ai/puzzles/<game>.json.gz``."""

from .line import MAX_WINNER_MOVES
from .puzzle import (
    Puzzle,
    Refutation,
    Reply,
    answer,
    find_puzzle,
    puzzle_id,
    refute,
    replay,
    verify,
)
from .starter import load_starter

__all__ = [
    "MAX_WINNER_MOVES",
    "Puzzle",
    "Refutation",
    "Reply",
    "answer",
    "find_puzzle",
    "load_starter",
    "puzzle_id",
    "refute",
    "replay",
    "verify",
]
