"""Difficulty levels: a name players can type, mapped to a thinking budget.

Each level caps both playouts and seconds.  The playout cap keeps the weaker levels weak and
reproducible on a fast machine; the seconds cap keeps the bot responsive on a slow one (or in
Naked Diagonal, whose legality checks make playouts slower).  Level 1 also skips the block
check, so beginners can win by making a threat it ignores.
"""

from __future__ import annotations

from dataclasses import dataclass

from .search import DEFAULT_CONFIG, Budget, SearchConfig


@dataclass(frozen=True, slots=True)
class Level:
    number: int
    name: str
    budget: Budget
    config: SearchConfig = DEFAULT_CONFIG

    @property
    def label(self) -> str:
        return f"{self.number} ({self.name})"


LEVELS: dict[int, Level] = {
    1: Level(1, "easy", Budget(playouts=30, seconds=1.0), SearchConfig(block=False)),
    2: Level(2, "casual", Budget(playouts=200, seconds=2.0)),
    3: Level(3, "medium", Budget(playouts=1000, seconds=3.0)),
    4: Level(4, "hard", Budget(playouts=20_000, seconds=6.0)),
    5: Level(5, "expert", Budget(playouts=100_000, seconds=12.0)),
}
DEFAULT_LEVEL = 3


def parse_level(value: int | str | Level | None) -> Level:
    """A level from a number (1–5), its name, or None for the default; ValueError otherwise."""
    if value is None:
        return LEVELS[DEFAULT_LEVEL]
    if isinstance(value, Level):
        return value
    if isinstance(value, bool):
        value = str(value)
    if isinstance(value, int):
        found = LEVELS.get(value)
    else:
        text = value.strip().lower()
        found = LEVELS.get(int(text)) if text.isdigit() else None
        if found is None:
            found = next((lv for lv in LEVELS.values() if lv.name == text), None)
    if found is None:
        choices = ", ".join(lv.label for lv in LEVELS.values())
        raise ValueError(f"unknown AI level {value!r}: choose one of {choices}")
    return found
