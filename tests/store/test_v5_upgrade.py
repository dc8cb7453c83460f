"""Databases written at schema version 5 open, upgrade in place and keep everything.

``tests/data/store-v5`` holds a SQLite file and a plain ``pg_dump`` made by the store as it was
at version 5 (``make_fixtures.py`` there), and ``expected.json``: every row that store exported
from them.  Each test copies or restores a fixture, opens it with ``open_store`` (which
migrates it), and checks that every game, move, rating, setting and challenge is as the old
code exported it, that every game's moves replay through the rules engine to its stored
position, and that the upgraded store still takes a move.
"""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pg_server import PgServer

from bot.service import GameService
from bot.store import SCHEMA_VERSION, StoreContents, open_store
from rules import new_game

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "store-v5"


def load_script() -> Any:
    """``make_fixtures.py``, for the very ``plain`` that wrote ``expected.json``."""
    spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


plain = load_script().plain


@pytest.fixture
def expected() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "expected.json").read_text())
    assert data["schema_version"] == 5
    contents: dict[str, Any] = data["contents"]
    for table, columns in ADDED_AFTER_5.items():
        contents[table] = [{**row, **columns} for row in contents[table]]
    for table in TABLES_AFTER_5:
        contents.setdefault(table, [])
    return contents


BANK_COLUMNS = {"bank_start": None, "bank_increment": 0, "bank_cap": None}
ADDED_AFTER_5: dict[str, dict[str, Any]] = {
    "challenges": {
        "message_id": None,
        **BANK_COLUMNS,
        "public": False,
        "challenger_name": None,
    },
    "games": {
        "tournament_id": None,
        **BANK_COLUMNS,
        "first_bank": None,
        "second_bank": None,
        "paused_until": None,
        "public": False,
        "web_token": None,
        "first_name": None,
        "second_name": None,
        "soft_noticed_at": None,
        "first_hints": 0,
        "second_hints": 0,
    },
    "settings": {
        **BANK_COLUMNS,
        "vacation_days": None,
        "soft_time": None,
        "web_listing": True,
        "language": None,
    },
}
"""Columns later migrations add, as every upgraded row has them (games stored before the web
pages are private, without a web page or names)."""
TABLES_AFTER_5 = (
    "tournaments",
    "tournament_entrants",
    "tournament_rounds",
    "tournament_pairings",
    "tournament_creator_roles",
    "vacations",
    "notices",
    "analyses",
    "puzzles",
    "puzzle_attempts",
    "puzzle_ratings",
    "puzzle_channels",
    "puzzle_daily",
)
"""Tables later migrations create, empty in an upgraded store (``StoreContents`` fields)."""


@pytest.fixture
def v5_target(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """A fresh copy of the engine's version-5 fixture."""
    if engine == "sqlite":
        target = tmp_path / "crosspath.db"
        shutil.copyfile(FIXTURES / "crosspath-v5.sqlite", target)
        return target
    server: PgServer = request.getfixturevalue("pg_server")
    url = str(request.getfixturevalue("pg_url"))
    dump = str(FIXTURES / "crosspath-v5.sql")
    psql = [str(server.bindir / "psql"), "--quiet", "--no-psqlrc", "-v", "ON_ERROR_STOP=1"]
    subprocess.run(
        [*psql, "--dbname", url, "--file", dump],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return url


def replays(contents: StoreContents) -> None:
    """Every game's stored moves, played through the rules engine, give its stored record."""
    moves: dict[int, list[str]] = {}
    for move in contents.moves:
        assert move.ply == len(moves.setdefault(move.game_id, [])), move
        moves[move.game_id].append(move.move)
    for row in contents.games:
        game = new_game(row.game, row.size)
        for move in moves.get(row.id, []):
            game.play(move)
        assert game.record() == row.record, row.id
        if row.status == "active":
            assert game.to_move == row.to_move, row.id
        elif row.result_reason == "connection":
            assert game.is_over, row.id


async def test_a_version_5_database_upgrades_and_keeps_everything(
    v5_target: str | Path, expected: dict[str, Any]
) -> None:
    async with await open_store(v5_target) as store:
        assert await store.schema_version() == SCHEMA_VERSION
        contents = await store.export_all()
        assert plain(contents) == expected
        assert len(contents.games) == 20 and len(contents.rating_history) > 0
        replays(contents)


async def test_an_upgraded_database_still_plays(
    v5_target: str | Path, expected: dict[str, Any]
) -> None:
    active = [g for g in expected["games"] if g["status"] == "active"]
    assert len(active) >= 5
    async with await open_store(v5_target) as store:
        # just after the fixture's last action, so its timed games are still on time
        last = max(g["updated_at"] for g in expected["games"]) + 60_000_000
        now = datetime.fromtimestamp(last / 1_000_000, UTC)
        service = GameService(store, clock=lambda: now, rng=random.Random(1))
        for row in active:
            info = await service.get_game(row["channel_id"])
            assert info is not None and info.id == row["id"]
            position = await service.position(row["id"])
            assert position.record() == row["record"]
            move = random.Random(row["id"]).choice(position.legal_moves())
            played = await service.play_move(row["channel_id"], info.to_move_id, move)
            assert played.game.version == row["version"] + 1
        # new rows take ids after the old ones (SQLite rowids, PostgreSQL identity sequences)
        challenge = await service.create_challenge(1000, 3039, 11, 22, "minefield", 6)
        assert challenge.id > max(c["id"] for c in expected["challenges"])
        contents = await store.export_all()
    replays(contents)
    assert len(contents.moves) == len(expected["moves"]) + len(active)
