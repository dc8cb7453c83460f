"""Under the pseudo-locale, no English reaches a web reader: the home page, a running and a
finished game's page (its words, the templates its script fills, the board drawing's title),
and a tournament page.  A real store and a real aiohttp server, as in test_pages; the
pseudo-locale (tests/support/pseudo_locale.py) is chosen with ``?lang=en_XA``.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

import aiohttp
import pseudo_locale
import pytest
from web_games import FINISHED_MOVES, pages_site, start_public, start_tournament

from bot import i18n
from bot.service import GameService
from bot.web import game_words
from render import THEMES
from rules import game_class, game_names

NAMES = {"Anna", "Boris", "Ann", "Ben", "Cat", "Dan"}
ALLOWED = (
    {game_class(n).title for n in game_names()}
    | {"Crosspath", "Mark Steere", "UTC", "GIF", "Sonneborn", "Berger", "Buchholz"}
    | set(THEMES)
    | NAMES
)
"""Names (the games', the players', the site's and its author's), the time zone, the
tiebreaks' inventors, the file format and the colour themes' own names."""


@pytest.fixture(autouse=True)
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    pseudo_locale.install()
    plain = i18n.language_for_posix
    monkeypatch.setattr(
        "bot.web.language.language_for_posix",
        lambda value: pseudo_locale.PSEUDO if value == pseudo_locale.PSEUDO else plain(value),
    )
    yield
    i18n.tongue.cache_clear()


def leaks(text: str) -> list[str]:
    return pseudo_locale.english_words(text, ALLOWED)


def shown(page: str) -> str:
    """What a reader sees of a page: its text and the attributes read aloud, without the
    markup, the moves' notation and the words blob (checked on its own)."""
    page = re.sub(r'<script type="application/json" id="words">.*?</script>', " ", page, flags=re.S)
    said = re.findall(r'(?:alt|title|aria-label)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    text = re.sub(r"\b[a-s]\d{1,2}\b", " ", text)  # points such as c3
    return html.unescape(text + " " + " ".join(said))


async def fetch(port: int, path: str) -> str:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as answer,
    ):
        assert answer.status == 200, path
        return await answer.text()


def words_blob(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="words">(.*?)</script>', page, re.S)
    assert found is not None
    words: dict[str, Any] = json.loads(found.group(1))
    return words


def strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    return [value] if isinstance(value, str) else []


async def test_game_pages_and_their_script_texts_speak_only_through_the_catalogs(
    service: GameService,
) -> None:
    running = await start_public(service, 3000, FINISHED_MOVES[:4], names=("Anna", "Boris"))
    finished = await start_public(service, 3001, FINISHED_MOVES, names=("Anna", "Boris"))
    lang = f"?lang={pseudo_locale.PSEUDO}"
    async with pages_site(service) as port:
        for info in (running, finished):
            page = await fetch(port, f"/games/{info.web_token}{lang}")
            assert f'data-lang="{pseudo_locale.PSEUDO}"' in page
            assert not leaks(shown(page)), leaks(shown(page))
            words = words_blob(page)
            for text in strings(words):
                assert text.startswith("［") and not leaks(text), text
            svg = await fetch(port, f"/games/{info.web_token}/board.svg?ply=2&lang=en_XA")
            title = re.search(r"<title>(.*?)</title>", svg, re.S)
            assert title is not None and title.group(1).startswith("［"), svg[:300]
            assert not leaks(html.unescape(title.group(1)))
        index = await fetch(port, f"/{lang}")
        assert not leaks(shown(index)), leaks(shown(index))


@pytest.mark.parametrize("reason", sorted(game_words.RESULTS))
def test_every_ending_and_whose_move_it_is_read_the_same_from_server_and_script(
    reason: str,
) -> None:
    """The server's first drawing fills the templates the script fills later: every
    ending, with and without stored names."""
    tr = i18n.tongue(pseudo_locale.PSEUDO)
    for winner in ("Anna", None):
        result = {"reason": reason, "winner": winner, "winner_colour": "black",
                  "loser": "Boris", "loser_colour": "white"}  # fmt: skip
        state = {"result": result, "to_move": None, "deadline": ""}
        text = game_words.state_words(state, tr, pseudo_locale.pseudo("clock"))["result"]
        assert text.startswith("［") and not leaks(text), text
    state = {"result": None, "to_move": {"name": None, "colour": "red"}, "deadline": "x"}
    said = game_words.state_words(state, tr, pseudo_locale.pseudo("clock"))
    assert not leaks(said["to_move"]) and not leaks(said["clock"]), said


async def test_a_tournament_page_speaks_only_through_the_catalogs(service: GameService) -> None:
    t, _ = await start_tournament(service, 4100, ("Ann", "Ben", "Cat", "Dan"))
    async with pages_site(service) as port:
        page = await fetch(port, f"/tournaments/{t.web_token}?lang={pseudo_locale.PSEUDO}")
        text = shown(page).replace("1-0", "").replace("0-1", "")
        assert not leaks(text), leaks(text)
