"""The web pages speak the reader's language: ``?lang=`` (kept by the page's links), else
``Accept-Language``, else English, with ``<html lang>`` to match; an unknown language reads
English.  A real store and a real aiohttp server, as in test_pages."""

from __future__ import annotations

import aiohttp
from web_games import FINISHED_MOVES, pages_site, start_public, start_tournament

from bot.service import GameService


async def page(port: int, path: str, accept: str | None = None) -> str:
    headers = {"Accept-Language": accept} if accept else {}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}", headers=headers) as answer,
    ):
        assert answer.status == 200
        return await answer.text()


async def test_pages_follow_accept_language_and_the_lang_parameter(service: GameService) -> None:
    info = await start_public(service, 3000, FINISHED_MOVES, names=("Anna", "Boris"))
    token = info.web_token
    async with pages_site(service) as port:
        german = await page(port, "/", "de-DE,de;q=0.9,en;q=0.8")
        assert '<html lang="de">' in german and "Neueste Partien" in german
        assert f'href="/games/{token}"' in german  # nothing chosen: links stay plain

        japanese = await page(port, f"/games/{token}", "ja")
        assert '<html lang="ja">' in japanese
        assert "棋譜" in japanese and "最初の局面 (Home)" in japanese
        assert "Recent games" not in japanese and "First position" not in japanese

        chosen = await page(port, "/?lang=ru", "de")  # the parameter wins over the header
        assert '<html lang="ru">' in chosen and "Последние партии" in chosen
        assert f'href="/games/{token}?lang=ru"' in chosen and 'href="/?lang=ru"' in chosen
        game = await page(port, f"/games/{token}?lang=ru")
        assert "Ходы" in game and 'href="/?lang=ru"' in game

        for header in ("sv-SE,sv;q=0.9", "en-US,en;q=0.9,de;q=0.8", None):
            english = await page(port, "/", header)
            assert '<html lang="en">' in english and "Recent games" in english
        unknown = await page(port, "/?lang=xx")
        assert '<html lang="en">' in unknown and "Recent games" in unknown

        # a page is kept per game version and language: German after Japanese stays German
        assert "Züge" in await page(port, f"/games/{token}", "de")


async def test_the_tournament_page_speaks_the_readers_language(service: GameService) -> None:
    t, _ = await start_tournament(service, 4100, ("Anna", "Ben", "Cat", "Dan"))
    async with pages_site(service) as port:
        german = await page(port, f"/tournaments/{t.web_token}", "de")
        assert '<html lang="de">' in german
        for word in ("Tabelle", "Platz", "Punkte", "Paarungen", "Runde 1", "Partieseite"):
            assert word in german, word
        for word in ("Standings", "Pairings", "Game page", "Games left"):
            assert word not in german, word
        russian = await page(port, f"/tournaments/{t.web_token}?lang=ru")
        assert "Турнирная таблица" in russian and "Тур 1" in russian
