"""Results files that grow across runs: one JSON line per finished game, seeds round robin.

The seat table (bench/seat_fairness.py) and the marks check (bench/analysis_marks.py) each
append a line per game to a tracked file and, when run again, play only the seeds it does not
hold yet, cheapest board first, so a run cut short by its time cap leaves the most games it
could and any later run carries on where it stopped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

B = TypeVar("B", bound=Hashable)

Row = dict[str, object]


def read_rows(path: Path) -> list[Row]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def append_row(path: Path, row: Row) -> None:
    with path.open("a") as fh:
        fh.write(json.dumps(row) + "\n")


def schedule(boards: list[B], games: int, done: set[tuple[B, int]]) -> Iterator[tuple[B, int]]:
    """Seeds 0 … games−1 on every board, round robin (seed 0 on each board, then seed 1, …),
    leaving out those already played."""
    for seed in range(games):
        for board in boards:
            if (board, seed) not in done:
                yield board, seed


def cheapest_first(boards: list[B], rows: Iterable[Row], board_of: Callable[[Row], B]) -> list[B]:
    """``boards`` by the mean CPU seconds of their games so far, boards without a game first
    (so each is measured early; the sort is stable, so they keep their order)."""
    cpu: dict[B, list[float]] = {}
    for row in rows:
        cpu.setdefault(board_of(row), []).append(float(str(row["cpu"])))

    def cost(board: B) -> float:
        spent = cpu.get(board)
        return sum(spent) / len(spent) if spent else 0.0

    return sorted(boards, key=cost)


def remaining(
    path: Path, boards: list[B], games: int, board_of: Callable[[Row], B]
) -> Iterator[tuple[B, int]]:
    """What a run of ``games`` seeds a board still has to play, given what ``path`` holds."""
    rows = read_rows(path)
    done = {(board_of(r), int(str(r["seed"]))) for r in rows}
    return schedule(cheapest_first(boards, rows, board_of), games, done)
