"""Under the pseudo-locale, no English reaches the console's player: the prompts, the text
board's legend, the moves said as sentences, the commands line, a hint, an undo, the seats
and the last line all come through the catalogs.  ``crosspath play --lang en_XA`` runs a
real game over a real SQLite file; only the typed commands, the points and the names stay.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pseudo_locale
import pytest

from bot import console, i18n
from rules import game_class, game_names

TYPED = {"swap", "undo", "hint", "resign", "moves", "rules", "quit", "FILE", "vacation"}
"""What a player types: the commands stay English in every language (docs/translating.md)."""
ALLOWED = {game_class(n).title for n in game_names()} | {"Mark Steere"} | TYPED


@pytest.fixture(autouse=True)
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    pseudo_locale.install()
    plain = i18n.terminal_language
    monkeypatch.setattr(
        "bot.console.game.terminal_language",
        lambda environ, chosen=None: (
            pseudo_locale.PSEUDO if chosen == pseudo_locale.PSEUDO else plain(environ, chosen)
        ),
    )
    yield
    i18n.tongue.cache_clear()


def run(argv: list[str], lines: list[str]) -> str:
    out = io.StringIO()
    stdin = io.StringIO("".join(f"{x}\n" for x in lines))
    console.main([*argv, "--lang", pseudo_locale.PSEUDO], stdin=stdin, stdout=out)
    return out.getvalue()


def leaks(text: str) -> list[tuple[str, list[str]]]:
    found = []
    for line in text.splitlines():
        words = pseudo_locale.english_words(line, ALLOWED)
        if words:
            found.append((line, words))
    return found


@pytest.mark.parametrize(
    ("argv", "lines"),
    [
        (["minefield", "--size", "5"], ["c3", "c3", "rules", "moves", "b2", "undo", "quit"]),
        (["minefield", "--size", "5", "--pie"], ["c3", "swap", "b2", "resign"]),
        (["crosscut", "--size", "5"], ["c3", "b2", "resign"]),
        (["clearcut", "--size", "5"], ["c3", "b3", "c4", "b4", "resign"]),
        (["nakeddiagonal", "--size", "5"], ["c3", "b2", "resign"]),
        (["clearpath", "--size", "5"], ["a1", "swap", "c3", "resign"]),
        (
            ["minefield", "--size", "5", "--vs", "ai", "--level", "1", "--seed", "3"],
            ["c3", "hint", "undo", "b2", "resign"],
        ),
    ],
    ids=["minefield", "pie", "crosscut", "clearcut", "nakeddiagonal", "clearpath", "computer"],
)
def test_a_console_game_speaks_only_through_the_catalogs(argv: list[str], lines: list[str]) -> None:
    text = run(argv, lines)
    assert "［" in text
    assert not leaks(text), leaks(text)[:5]
