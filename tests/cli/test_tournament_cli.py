"""``crosspath tournament list|show|standings`` through the real entry point, in a subprocess,
on a SQLite file filled by the real service: the listings, their JSON, and one clear sentence
for each kind of bad input."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from cli_runner import crosspath

from bot.service import GameService
from bot.store import open_store

pytestmark = pytest.mark.slow  # each case runs the command line in child processes

GUILD = 1000
ORGANISER = 99
PLAYERS = (11, 22, 33, 44, 55)


def one_sentence(proc: subprocess.CompletedProcess[str]) -> str:
    lines = proc.stderr.strip().splitlines()
    assert lines, "nothing on standard error"
    return lines[-1]


async def two_tournaments(target: Path) -> tuple[int, int]:
    """A Swiss of five with one game decided (and the rest of round 1 open), and a round
    robin still open for registration."""
    async with await open_store(target) as store:
        service = GameService(store, rng=random.Random(3))
        swiss = await service.create_tournament(
            GUILD, 10, ORGANISER, game="minefield", size=5, format="swiss", rounds=3
        )
        for user in PLAYERS:
            await service.join_tournament(swiss.id, user)
        await service.start_tournament(swiss.id, ORGANISER)
        first = (await service.tournament_games(swiss.id))[0]
        assert first.to_move_id is not None
        await service.resign(first.channel_id, first.to_move_id)
        open_one = await service.create_tournament(
            GUILD, 10, ORGANISER, game="crosscut", size=6, format="round_robin", max_players=6
        )
        await service.join_tournament(open_one.id, 11)
    return swiss.id, open_one.id


@pytest.fixture
async def db(tmp_path: Path) -> tuple[Path, int, int]:
    target = tmp_path / "crosspath.db"
    swiss, open_one = await two_tournaments(target)
    return target, swiss, open_one


async def test_list_prints_each_tournament_and_its_json(
    tmp_path: Path, db: tuple[Path, int, int]
) -> None:
    target, swiss, open_one = db
    proc = crosspath(tmp_path, "tournament", "list", "--db", str(target), "--guild", str(GUILD))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert [line.split()[0] for line in lines] == [f"#{open_one}", f"#{swiss}"]  # newest first
    assert "registration" in lines[0] and "1 players" in lines[0]
    assert "swiss" in lines[1] and "running" in lines[1] and "round 1/3" in lines[1]
    proc = crosspath(
        tmp_path, "tournament", "list", "--db", str(target), "--guild", str(GUILD),
        "--status", "running", "--json",
    )  # fmt: skip
    [only] = json.loads(proc.stdout)
    assert only["id"] == swiss and only["players"] == list(PLAYERS) and only["rounds"] == 3
    empty = crosspath(tmp_path, "tournament", "list", "--db", str(target), "--guild", "5")
    assert empty.returncode == 0 and empty.stdout.strip() == "no tournaments in that server"


async def test_show_lists_the_pairings(tmp_path: Path, db: tuple[Path, int, int]) -> None:
    target, swiss, _ = db
    async with await open_store(target) as store:
        pairings = await GameService(store).tournaments.tournament_pairings(swiss)
    proc = crosspath(tmp_path, "tournament", "show", str(swiss), "--db", str(target), "--json")
    assert proc.returncode == 0, proc.stderr
    shown = json.loads(proc.stdout)
    assert shown["format"] == "swiss" and shown["status"] == "running"
    assert [(p["first_id"], p["second_id"], p["result"]) for p in shown["pairings"]] == [
        (p.first_id, p.second_id, p.result) for p in pairings
    ]
    assert sum(p["result"] is not None for p in shown["pairings"]) == 1  # the game decided
    assert sum(p["second_id"] is None for p in shown["pairings"]) == 1  # five players: a bye
    text = crosspath(tmp_path, "tournament", "show", str(swiss), "--db", str(target)).stdout
    assert "bye" in text and "(played)" in text and f"organiser {ORGANISER}" in text


async def test_standings_match_the_service(tmp_path: Path, db: tuple[Path, int, int]) -> None:
    target, swiss, open_one = db
    async with await open_store(target) as store:
        rows = await GameService(store).tournament_standings(swiss)
    proc = crosspath(tmp_path, "tournament", "standings", str(swiss), "--db", str(target), "--json")
    assert proc.returncode == 0, proc.stderr
    printed = json.loads(proc.stdout)
    assert [(r["user_id"], r["rank"], r["points"], r["tiebreaks"]) for r in printed] == [
        (r.user_id, r.rank, r.points, dict(r.tiebreaks)) for r in rows
    ]
    text = crosspath(tmp_path, "tournament", "standings", str(swiss), "--db", str(target))
    lines = text.stdout.strip().splitlines()
    assert lines[0].split()[:3] == ["#", "Player", "Points"] and "buchholz_cut1" in lines[0]
    assert [line.split()[1] for line in lines[1:]] == [str(r.user_id) for r in rows]
    early = crosspath(tmp_path, "tournament", "standings", str(open_one), "--db", str(target))
    assert early.returncode == 0 and "has not started" in early.stdout


@pytest.mark.parametrize(
    ("args", "status", "words"),
    [
        (["standings", "999"], 2, "There is no tournament"),
        (["show", "999"], 2, "There is no tournament"),
        (["show", "x" * 300], 2, "invalid int value"),
        (["list"], 2, "--guild"),
        ([], 2, "say what to do"),
        (["list", "--guild", "1", "--status", "paused"], 2, "invalid choice"),
    ],
)
async def test_bad_input_gets_one_clear_sentence(
    tmp_path: Path, db: tuple[Path, int, int], args: list[str], status: int, words: str
) -> None:
    target, _, _ = db
    extra = ["--db", str(target)] if args else []
    proc = crosspath(tmp_path, "tournament", *args, *extra)
    assert proc.returncode == status
    sentence = one_sentence(proc)
    assert words in sentence and len(sentence) < 300


def test_a_missing_database_is_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.db"
    proc = crosspath(tmp_path, "tournament", "standings", "1", "--db", str(missing))
    assert proc.returncode == 1 and "no database at" in one_sentence(proc)
    assert not missing.exists()
