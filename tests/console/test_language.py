"""``crosspath play`` speaks the terminal's language (``LC_ALL``, ``LC_MESSAGES``, ``LANG``,
or ``--lang``): the engine's and the service's refusals, the goal and the special rules come
through the catalogs, with the points as typed; an unknown language reads English."""

from __future__ import annotations

import io

import pytest

from bot import console
from bot.i18n import terminal_language


def run(argv: list[str], lines: list[str]) -> str:
    out = io.StringIO()
    code = console.main(argv, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out)
    assert code == 0
    return out.getvalue()


def test_lang_in_the_environment_speaks_german(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    text = run(["minefield", "--size", "5"], ["e5", "e5", "q9", "rules", "resign"])
    assert "e5 ist besetzt" in text
    assert "q9 liegt außerhalb des Bretts: dieses 5×5-Brett hat Spalten a–e, Zeilen 1–5" in text
    assert "Ziel: Schwarz verbindet oben und unten" in text
    assert "Besondere Regeln: Kein Stein darf eine harte Ecke bilden" in text
    assert "e5 is occupied" not in text


def test_lang_option_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    text = run(["minefield", "--size", "5", "--lang", "ja"], ["e5", "e5", "resign"])
    assert "e5 にはすでに石があります" in text


@pytest.mark.parametrize(
    ("environ", "chosen", "language"),
    [
        ({"LC_ALL": "ru_RU.UTF-8", "LANG": "de_DE.UTF-8"}, None, "ru"),
        ({"LC_MESSAGES": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, None, "fr"),
        ({"LC_ALL": "", "LANG": "pt_BR.UTF-8"}, None, "pt_BR"),
        ({"LANG": "C.UTF-8"}, None, "en"),
        ({"LANG": "sv_SE.UTF-8"}, None, "en"),
        ({}, "zh_CN", "zh_Hans"),
        ({"LANG": "de_DE.UTF-8"}, "en", "en"),
    ],
)
def test_which_language_the_terminal_reads(
    environ: dict[str, str], chosen: str | None, language: str
) -> None:
    assert terminal_language(environ, chosen) == language


def test_an_unknown_language_plays_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    assert "e5 is occupied" in run(["minefield", "--size", "5"], ["e5", "e5", "resign"])
