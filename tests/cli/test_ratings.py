"""``crosspath leaderboard`` and ``crosspath ratings rebuild`` through the real entry point, in a
subprocess, on a SQLite file and a PostgreSQL URL: the listing, its JSON, a rebuild that
changes nothing after incremental updates, and one clear sentence for each kind of bad input."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.service import GameService
from bot.service.ratings.model import RatedGame, outcome_for, rebuild, standings
from bot.store import open_store

REPO = Path(__file__).resolve().parents[2]
GUILD = 1000


def crosspath(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CROSSPATH_")}
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**clean, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    return proc


def one_sentence(proc: subprocess.CompletedProcess[str]) -> str:
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[-1]


async def rated_games(target: str | Path) -> list[RatedGame]:
    """Six rated games among four players; the games as the model sees them."""
    rng = random.Random(7)
    async with await open_store(target) as store:
        service = GameService(store, rng=random.Random(1))
        for n in range(6):
            a, b = rng.sample([11, 22, 33, 44], 2)
            challenge = await service.create_challenge(GUILD, 10 + n, a, b, "minefield", 5)
            await service.accept_challenge(challenge.id, b)
            for _ in range(4):
                info = await service.get_game(10 + n)
                assert info is not None and info.to_move_id is not None
                engine = await service.position(info.id)
                await service.play_move(10 + n, info.to_move_id, rng.choice(engine.legal_moves()))
            await service.resign(10 + n, rng.choice((a, b)))
        async with store.read() as tx:
            results = await tx.ratings.rated_results()
    return [
        RatedGame(r.first_id, r.second_id, outcome_for(r.winner_id, r.first_id, r.second_id))
        for r in results
    ]


async def check_target(tmp_path: Path, target: str) -> None:
    games = await rated_games(target)
    expected = standings(rebuild(games))
    proc = crosspath(
        tmp_path, "leaderboard", "--db", target, "--guild", str(GUILD), "--game", "Minefield",
        "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert [
        (
            r["user_id"],
            r["rating"],
            r["games"],
            r["wins"],
            r["losses"],
            r["draws"],
            r["provisional"],
        )
        for r in rows
    ] == [
        (s.user_id, s.rating, s.games, s.wins, s.losses, s.draws, s.provisional) for s in expected
    ]
    text = crosspath(
        tmp_path, "leaderboard", "--db", target, "--guild", str(GUILD), "--game", "minefield"
    )
    assert text.returncode == 0
    assert len(text.stdout.strip().splitlines()) == len(expected) + 1
    assert f"{round(expected[0].rating)}?" in text.stdout.splitlines()[1]
    check = crosspath(tmp_path, "ratings", "rebuild", "--db", target, "--check")
    assert check.returncode == 0 and check.stdout.startswith(f"all {len(expected)} ratings equal")
    rebuilt = crosspath(tmp_path, "ratings", "rebuild", "--db", target)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert rebuilt.stdout.strip() == (
        f"rebuilt {len(expected)} ratings from 6 rated games (12 history rows);"
        " 0 differed from the stored ones"
    )
    again = crosspath(
        tmp_path,
        "leaderboard",
        "--db",
        target,
        "--guild",
        str(GUILD),
        "--game",
        "minefield",
        "--json",
    )
    assert json.loads(again.stdout) == rows


@pytest.mark.slow
async def test_leaderboard_and_rebuild_on_sqlite(tmp_path: Path) -> None:
    await check_target(tmp_path, str(tmp_path / "crosspath.db"))


@pytest.mark.slow
async def test_leaderboard_and_rebuild_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    await check_target(tmp_path, pg_url)


@pytest.mark.slow
async def test_bad_input_gets_one_sentence_and_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "crosspath.db"
    missing = crosspath(
        tmp_path, "leaderboard", "--db", "nope.db", "--guild", "1", "--game", "minefield"
    )
    assert missing.returncode == 1
    assert one_sentence(missing) == "crosspath leaderboard: no database at nope.db (use --db)"
    assert not (tmp_path / "nope.db").exists()
    async with await open_store(db):
        pass
    cases = [
        (("--guild", "abc", "--game", "minefield"), 2, "invalid int value: 'abc'"),
        (("--guild", "0", "--game", "minefield"), 2, "server id"),
        (("--guild", "1", "--game", "chess"), 2, "There is no game called 'chess'."),
        (("--guild", "1", "--game", "x" * 3000), 2, "too long"),
        (("--guild", "1", "--game", "minefield", "--limit", "0"), 2, "limit"),
        (("--guild", "1"), 2, "--game"),
    ]
    for args, status, words in cases:
        proc = crosspath(tmp_path, "leaderboard", "--db", str(db), *args)
        assert proc.returncode == status, (args, proc.stderr)
        assert words in proc.stderr.strip().splitlines()[-1], proc.stderr
        assert len(proc.stderr) < 400
    empty = crosspath(
        tmp_path, "leaderboard", "--db", str(db), "--guild", "1", "--game", "minefield"
    )
    assert empty.returncode == 0 and empty.stdout.strip() == "no rated games yet"
    nothing = crosspath(tmp_path, "ratings")
    assert nothing.returncode == 2 and "crosspath ratings rebuild" in nothing.stderr
    folder = crosspath(tmp_path, "ratings", "rebuild", "--db", str(tmp_path))
    assert folder.returncode == 1 and "is a folder" in one_sentence(folder)
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n" * 100)
    refused = crosspath(tmp_path, "ratings", "rebuild", "--db", str(junk))
    assert refused.returncode == 1 and "notes.txt" in one_sentence(refused)
    assert junk.read_text() == "not a database\n" * 100


def test_the_help_names_the_database_setting_the_bot_reads() -> None:
    from bot.cli.ratings import leaderboard_parser, ratings_parser
    from bot.config import SETTINGS

    rebuild_help = ratings_parser()._subparsers._group_actions[0].choices["rebuild"].format_help()  # type: ignore[union-attr]
    for text in (leaderboard_parser().format_help(), rebuild_help):
        assert "$CROSSPATH_DATABASE" in text and "$CROSSPATH_DB " not in text
    assert "CROSSPATH_DATABASE" in SETTINGS
