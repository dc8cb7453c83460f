"""``crosspath analyse`` through the real entry point, in a subprocess: a good record, a bad
one, a running game in a database refused, and the exact JSON schema."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
from pathlib import Path

import pytest
from cli_runner import crosspath

from bot.service import GameService
from bot.store import open_store

pytestmark = pytest.mark.slow  # each case runs the command line in a child process

RECORD = "minefield 5: e1 e4 c1 a3 a2 b5 a5 e5 a4 b3 d4 c2 b1 d5 a1 c5 b4 c3 c4 b2 d3 e2 e3 d2"
KEYS = [
    "ply",
    "move",
    "seat",
    "win_chance_before",
    "win_chance_after",
    "proven_before",
    "proven_after",
    "mark",
    "best",
    "only_move",
]


def one_sentence(proc: subprocess.CompletedProcess[str]) -> str:
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def test_good_record_text_and_chart(tmp_path: Path) -> None:
    chart = tmp_path / "chart.png"
    proc = crosspath(
        tmp_path, "analyse", "--record", RECORD, "--budget", "50", "--chart", str(chart)
    )
    assert proc.returncode == 0, proc.stderr
    assert "first player: accuracy" in proc.stdout, proc.stdout
    assert "The costliest moves:" in proc.stdout or "a clean game" in proc.stdout
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_text_and_chart_speak_the_chosen_language(tmp_path: Path) -> None:
    chart = tmp_path / "chart.png"
    args = ("analyse", "--record", RECORD, "--budget", "50", "--chart", str(chart))
    proc = crosspath(tmp_path, *args, "--lang", "de")
    assert proc.returncode == 0, proc.stderr
    assert "erster Spieler: Genauigkeit" in proc.stdout, proc.stdout
    assert "accuracy" not in proc.stdout
    english = tmp_path / "english.png"
    crosspath(tmp_path, *args[:-1], str(english), "--lang", "en")
    assert chart.read_bytes() != english.read_bytes()  # the chart's words are drawn


def test_json_schema_is_exact(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "analyse", "--record", RECORD, "--budget", "50", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert sorted(data) == ["moves", "players", "record"]
    moves = data["moves"]
    assert [m["ply"] for m in moves] == list(range(1, 25))
    assert [m["move"] for m in moves] == RECORD.split(": ")[1].split()
    for m in moves:
        assert list(m) == KEYS
        assert m["seat"] in ("first", "second")
        assert 0.0 <= m["win_chance_before"] <= 1.0 and 0.0 <= m["win_chance_after"] <= 1.0
        assert m["proven_before"] in (None, "win", "loss")
        assert m["mark"] in (None, "inaccuracy", "mistake", "blunder", "missed_win")
        assert m["only_move"] in (False, True)
    assert sorted(data["players"]) == ["first", "second"]
    # The rules decide the last move: the last mover won.
    assert moves[-1]["proven_after"] == "win"


def test_bad_record_is_one_sentence(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "analyse", "--record", "minefield 5: c3 " + "z" * 500)
    assert proc.returncode == 1
    line = one_sentence(proc)
    assert "not a valid record" in line and len(line) < 300


async def running_game(target: Path) -> int:
    async with await open_store(target) as store:
        service = GameService(store, rng=random.Random(1))
        challenge = await service.create_challenge(1000, 10, 11, 22, "minefield", 5)
        await service.accept_challenge(challenge.id, 22)
        info = await service.get_game(10)
        assert info is not None and info.to_move_id is not None
        await service.play_move(10, info.to_move_id, "c3")
        return info.id


def test_running_game_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    game_id = asyncio.run(running_game(db))
    proc = crosspath(tmp_path, "analyse", "--db", str(db), "--game", str(game_id))
    assert proc.returncode == 1
    assert "only for finished games" in one_sentence(proc)
    assert proc.stdout == ""


async def resigned_game(target: Path) -> int:
    async with await open_store(target) as store:
        service = GameService(store, rng=random.Random(1))
        challenge = await service.create_challenge(1000, 10, 11, 22, "minefield", 5)
        await service.accept_challenge(challenge.id, 22)
        for move in ("a1", "b1", "a2"):
            info = await service.get_game(10)
            assert info is not None and info.to_move_id is not None
            await service.play_move(10, info.to_move_id, move)
        info = await service.get_game(10)
        assert info is not None and info.to_move_id is not None
        await service.resign(10, info.to_move_id)
        return info.id


async def stored_rows(target: Path) -> list[tuple[str, int]]:
    async with await open_store(target) as store, store.read() as tx:
        rows = await tx.bulk.contents()
    return [(a.status, a.playouts) for a in rows.analyses]


def test_a_stored_game_is_analysed_once_and_reused(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    game_id = asyncio.run(resigned_game(db))
    first = crosspath(tmp_path, "analyse", "--db", str(db), "--game", str(game_id), "--json",
                      "--budget", "30")  # fmt: skip
    assert first.returncode == 0, first.stderr
    assert [m["move"] for m in json.loads(first.stdout)["moves"]] == ["a1", "b1", "a2"]
    assert asyncio.run(stored_rows(db)) == [("done", 30)]
    # Reused, not recomputed: a different budget would give other figures.
    again = crosspath(tmp_path, "analyse", "--db", str(db), "--game", str(game_id), "--json",
                      "--budget", "60")  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    assert asyncio.run(stored_rows(db)) == [("done", 30)]
