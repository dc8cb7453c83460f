"""Every level chooses the same move, with the same value, as the recorded searches did.

``fixed_seed.json`` holds, for each level and a few positions of every game (among them a Clear
Path position where ``swap`` is legal, one in the middle of a chain, and one where a chain can
start), the move and root value that the level's search chose at a fixed seed and a fixed
playout budget.  A playout-only budget makes a search deterministic, so any change to what the
search computes for a level (a reordered random draw, a rule applied in another game, a changed
prior) changes some of these answers, while changes to the search's shape that leave its play
alone keep them.

Regenerate the data only when a level is *meant* to play differently, and say so in the commit:
``python tests/ai/test_fixed_seed.py --write``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from positions import random_position

from ai.levels import LEVELS
from ai.search import Budget, search
from rules import Game, new_game, parse_record

DATA = Path(__file__).with_name("fixed_seed.json")
BOARDS = (
    ("clearpath", 7),
    ("minefield", 7),
    ("crosscut", 7),
    ("nakeddiagonal", 7),
    ("clearcut", 7),
)
PLIES = (1, 8, 18)
"""Random plies before each position: the opening, and two middle games."""
PLAYOUTS = {1: 10, 2: 80, 3: 120, 4: 160, 5: 200}
"""Each level's playout budget here: its own cap where that is small, else a few hundred at
most, so the whole check stays quick; levels 3 to 5 share their settings, so they get
different budgets to exercise them at different depths."""


def _clearpath_specials(rng: random.Random) -> list[Game]:
    """Clear Path positions the other games have no counterpart of: ``swap`` legal, a chain
    under way (the mover placed last and places again), and a chain placement legal."""
    found: dict[str, Game] = {}
    for _ in range(500):
        game = new_game("clearpath", 7)
        while not game.is_over and len(found) < 3:
            if "swap" not in found and "swap" in game.legal_moves():
                found["swap"] = game.copy()
            last = game.last_move
            if "chain" not in found and last is not None and last.continues and game.history[:-1]:
                found["chain"] = game.copy()
            if "start" not in found and len(game.history) > 6 and _chain_can_start(game):
                found["start"] = game.copy()
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
        if len(found) == 3:
            break
    assert len(found) == 3, f"only found {sorted(found)}"
    return [found["swap"], found["chain"], found["start"]]


def _chain_can_start(game: Game) -> bool:
    """Whether some legal placement would make the mover place again."""
    last = game.last_move
    if last is not None and last.continues:
        return False
    for move in game.legal_points():
        record = game.play_index(move)
        game.pop()
        if record.continues:
            return True
    return False


def positions() -> list[Game]:
    rng = random.Random(20260)
    games = [
        random_position(new_game(name, size), rng, plies)
        for name, size in BOARDS
        for plies in PLIES
    ]
    return [g for g in games if not g.is_over] + _clearpath_specials(rng)


def answer(record: str, level: int, seed: int) -> dict[str, Any]:
    game = parse_record(record)
    result = search(game, Budget(playouts=PLAYOUTS[level]), seed=seed, config=LEVELS[level].config)
    return {"move": result.move, "value": result.value, "reason": result.reason}


def write() -> None:
    rows = []
    for index, game in enumerate(positions()):
        record = game.record()
        for level in sorted(LEVELS):
            seed = 1000 * index + level
            rows.append(
                {"record": record, "level": level, "seed": seed, **answer(record, level, seed)}
            )
    DATA.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(rows)} answers to {DATA}")


ROWS: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else []


def test_the_data_covers_every_level_and_game() -> None:
    assert {row["level"] for row in ROWS} == set(LEVELS)
    names = {parse_record(row["record"]).name for row in ROWS}
    assert names == {name for name, _ in BOARDS}
    clearpath = [
        parse_record(row["record"]) for row in ROWS if row["record"].startswith("clearpath")
    ]
    assert any("swap" in game.legal_moves() for game in clearpath)
    assert any(game.last_move is not None and game.last_move.continues for game in clearpath)


@pytest.mark.parametrize(
    "row", ROWS, ids=[f"{row['record'].split()[0]}-{row['seed']}" for row in ROWS]
)
def test_the_level_plays_as_recorded(row: dict[str, Any]) -> None:
    expected = {key: row[key] for key in ("move", "value", "reason")}
    assert answer(row["record"], row["level"], row["seed"]) == expected


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python tests/ai/test_fixed_seed.py --write")
    write()
