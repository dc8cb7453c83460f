"""Shared helpers for the rules tests."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

SHARED = Path(__file__).resolve().parents[2].parent / "shared"

FOUR_GAMES = ("clearpath", "minefield", "crosscut", "clearcut")
SMALL_SIZES = {"clearpath": 4, "minefield": 4, "crosscut": 5, "clearcut": 4}


def random_playout(game, rnd: random.Random, max_plies: int = 400):
    """Play random legal moves until the game ends; yields after every move."""
    while not game.is_over and max_plies:
        game.play(rnd.choice(game.legal_moves()))
        max_plies -= 1
        yield game


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"the shared rules folder is missing: {SHARED}")
    return SHARED
