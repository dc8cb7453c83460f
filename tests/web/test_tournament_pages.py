"""The tournament pages over HTTP, with a real store and a real server: standings, pairings
and their game links, the privacy rules, the headers, and names that look like HTML."""

from __future__ import annotations

import re

import aiohttp
from game_fixtures import ADMIN
from web_games import GUILD, XSS_NAME, pages_site, start_tournament

from bot.service import GameService
from bot.web.pages import CSP

ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


async def fetch(port: int, path: str) -> tuple[int, dict[str, str], str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as answer,
    ):
        return answer.status, dict(answer.headers), (await answer.read()).decode()


def cells(row: str) -> list[str]:
    """A table row's cells as text; names come isolated (U+2068 … U+2069), checked once in
    test_pages, so the isolates are taken off here."""
    found = re.findall(r"<td[^>]*>(.*?)</td>", row)
    return [re.sub(r"<[^>]+>|[\u2068\u2069]", "", c).strip() for c in found]


async def test_a_tournament_page_shows_standings_pairings_and_links_its_games(
    service: GameService,
) -> None:
    t, games = await start_tournament(service, 4000, (XSS_NAME, "Ben", "Cat", "Dan"))
    async with pages_site(service) as port:
        status, headers, page = await fetch(port, f"/tournaments/{t.web_token}")
        assert status == 200 and headers["Content-Security-Policy"] == CSP
        assert "<script" not in page and XSS_NAME not in page and ESCAPED in page
        assert f"Minefield 5×5 Round robin #{t.id}" in page and "In progress, 3 rounds" in page
        standings = re.search(r'<table class="standings".*?</table>', page, re.S)
        assert standings is not None
        rows = [cells(r) for r in re.findall(r"<tr>(.*?)</tr>", standings.group(0), re.S)[1:]]
        expected = await service.tournament_standings(t.id)
        names = {101: XSS_NAME, 102: "Ben", 103: "Cat", 104: "Dan"}
        escaped = {u: n.replace("<", "&lt;").replace(">", "&gt;") for u, n in names.items()}
        assert [(r[0], r[1], r[2], r[-1]) for r in rows] == [
            (str(s.rank), escaped[s.user_id], f"{s.points:g}", str(s.games_left)) for s in expected
        ]
        assert "Sonneborn-Berger" in page and "Games left" in page
        for g in games:  # every game of round 1 is linked to its page, with its result
            assert g.web_token is not None
            assert f'href="/games/{g.web_token}"' in page
        first = games[0]
        assert first.result is not None
        winner = "1-0" if first.result.winner_id == first.seats[0].user_id else "0-1"
        round_one = re.search(r'<table class="pairings" id="round-1">.*?</table>', page, re.S)
        assert round_one is not None
        results = [cells(r)[3] for r in re.findall(r"<tr>(.*?)</tr>", round_one.group(0), re.S)[1:]]
        assert winner in results and "playing" in results
        status, _, game_page = await fetch(port, f"/games/{first.web_token}")
        assert status == 200 and ESCAPED in game_page and XSS_NAME not in game_page
        _, _, index = await fetch(port, "/")
        assert f'href="/tournaments/{t.web_token}"' in index and "4 players" in index


async def test_private_hidden_and_unknown_tournaments_are_404(service: GameService) -> None:
    private, private_games = await start_tournament(service, 4001, public=False)
    hidden, _ = await start_tournament(service, 4002)
    async with pages_site(service) as port:
        assert (await fetch(port, f"/tournaments/{hidden.web_token}"))[0] == 200
        await service.moderation.update_settings(GUILD, ADMIN, web_listing=False)
        answers = set()
        for token in (private.web_token, hidden.web_token, "0" * 32, "..%2F..", "x" * 300):
            status, headers, body = await fetch(port, f"/tournaments/{token}")
            assert headers["Content-Security-Policy"] == CSP
            answers.add((status, body))
        assert answers == {(404, "No such game.\n")}
        assert all(g.web_token is None for g in private_games)
        _, _, index = await fetch(port, "/")
        assert private.web_token not in index and hidden.web_token not in index
        assert "No public tournaments yet." in index
