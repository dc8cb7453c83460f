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


def test_a_clear_path_chain_is_answered_one_placement_at_a_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A puzzle whose winning turns are chains (tests/ai/test_puzzles.py): each placement is
    typed on its own, and the defence's chain is shown whole."""
    from bot.service.puzzles.service import INITIAL_MU
    from bot.store import open_store
    from bot.store.rows import PuzzleRow

    db = tmp_path / "chain.db"
    chain = PuzzleRow(
        "cfdd5f855b13",
        "clearpath",
        4,
        "a2 a3 a1 d3 d1 a4 b4 d2",
        "d4 b1 c1 b2 c2 b3 c3",
        None,
        None,
        INITIAL_MU,
        8.0,
        0,
        0,
        0,
    )

    async def seed() -> None:
        async with await open_store(str(db)) as store, store.write() as tx:
            await tx.puzzles.add([chain])

    asyncio.run(seed())
    replies = iter(["d4", "b1", "c2", "b3", "c3"])
    assert asyncio.run(session(str(db), "clearpath", lambda prompt: next(replies))) == 0
    out = capsys.readouterr().out
    assert "Puzzle cfdd5f855b13 (Clear Path 4×4" in out
    assert out.count("Chain reaction: place again.") == 3  # d4, c2 and b3
    assert "Right: b1. The defence plays c1 b2; your move again." in out
    assert "Solved! c3 wins." in out
