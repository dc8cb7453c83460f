"""The starter puzzles shipped with the package, one gzip JSON file per game."""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path

from .puzzle import Puzzle

HERE = Path(__file__).parent


def starter_path(game: str) -> Path:
    return HERE / f"{game}.json.gz"


def write_starter(path: Path, puzzles: list[Puzzle]) -> None:
    """Write ``{"puzzles": [...]}`` (the format issue 48 fixes), sorted by id so a rerun of
    the miner that finds the same puzzles writes the same file."""
    document = {"puzzles": [p.as_json() for p in sorted(puzzles, key=lambda p: p.id)]}
    data = json.dumps(document, separators=(",", ":"), sort_keys=True).encode()
    path.write_bytes(gzip.compress(data, mtime=0))


@cache
def load_starter(game: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of ``game`` (none if no file ships for it)."""
    path = starter_path(game)
    if not path.exists():
        return ()
    document = json.loads(gzip.decompress(path.read_bytes()))
    return tuple(Puzzle.from_json(entry) for entry in document["puzzles"])
