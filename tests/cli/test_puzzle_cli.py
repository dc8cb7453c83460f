"""``crosspath puzzle``: a puzzle in the terminal, kept in a SQLite file between runs."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.cli.entry import main
from bot.cli.puzzle import session


def run(db: Path, answers: list[str]) -> int:
    replies = iter(answers)
    return asyncio.run(session(str(db), "minefield", lambda prompt: next(replies)))


def test_a_bad_point_is_told_and_giving_up_shows_the_solution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "puzzles.db"
    assert run(db, ["zz99", "give up"]) == 0
    out = capsys.readouterr().out
    assert "'zz99' is not a point" in out or "zz99" in out
    assert "The solution:" in out
    first = re.search(r"Puzzle (\w+)", out)
    assert first is not None
    # A second run over the same file: the rating was kept, and a new puzzle is given.
    assert run(db, ["give up"]) == 0
    again = capsys.readouterr().out
    second = re.search(r"Puzzle (\w+) \(minefield \d+×\d+, rated \d+\)", again)
    assert second is not None and second.group(1) != first.group(1)


def test_an_unknown_game_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "chess", "--db", "unused.db"]) == 1
    err = capsys.readouterr().err
    assert "unknown game 'chess'" in err and len(err.splitlines()) == 1
