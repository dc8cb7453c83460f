"""``crosspath play --db URL``: the console keeps and resumes its game in PostgreSQL too, and
never shows the URL's password."""

from __future__ import annotations

import io

import pytest

from bot import console

pytestmark = pytest.mark.slow  # PostgreSQL only: the quick loop runs the store on SQLite

SECRET = "console-pw-9"


def run(argv: list[str], lines: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = console.main(argv, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out)
    return code, out.getvalue()


def test_play_keeps_and_resumes_a_game_in_postgresql(pg_url: str) -> None:
    # the test server trusts local connections, so the password is carried but not checked
    url = pg_url.replace("postgresql://postgres@", f"postgresql://postgres:{SECRET}@", 1)
    assert SECRET in url
    argv = ["minefield", "--size", "5", "--db", url]
    code, text = run(argv, ["e5"])
    assert code == 1 and "Resuming" not in text
    code, text = run(argv, ["d4", "quit"])
    assert code == 1
    first = text.splitlines()[0]
    assert first.startswith("Resuming the unfinished Minefield game in postgresql://postgres:***@")
    assert first.endswith("at turn 2 (add --new to start another).")
    assert SECRET not in text
    assert "white (player 2) to move> d4" in text
