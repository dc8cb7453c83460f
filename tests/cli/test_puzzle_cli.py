"""``crosspath puzzle``: a puzzle in the terminal, kept in a SQLite file between runs."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from bot.cli.entry import main
from bot.cli.puzzle import session
from bot.i18n import ENGLISH_TONGUE, Tongue, tongue


def run(db: Path, answers: list[str], tr: Tongue = ENGLISH_TONGUE) -> int:
    replies = iter(answers)
    return asyncio.run(session(str(db), "minefield", lambda prompt: next(replies), tr))


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
    second = re.search(r"Puzzle (\w+) \(Minefield \d+×\d+, rated [\d,]+\)", again)
    assert second is not None and second.group(1) != first.group(1)


def test_an_unknown_game_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "chess", "--db", "unused.db"]) == 1
    err = capsys.readouterr().err
    assert "unknown game 'chess'" in err and len(err.splitlines()) == 1


def test_it_speaks_the_terminals_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The task, the refusal of a bad point and the outcome are the Discord answers' own
    sentences, in the language --lang or LANG names."""
    assert run(tmp_path / "p.db", ["zz99", "give up"], tongue("de")) == 0
    out = capsys.readouterr().out
    assert "zieht und gewinnt" in out and "Du hast aufgegeben." in out, out
    assert "Die Lösung:" in out and "The solution" not in out
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.setattr("builtins.input", lambda prompt: "give up")
    assert main(["puzzle", "minefield", "--db", str(tmp_path / "q.db")]) == 0
    assert "Задача" in capsys.readouterr().out
