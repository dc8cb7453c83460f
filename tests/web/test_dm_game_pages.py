"""A game played in a DM or group DM (issue 47) is never on the web: its page, its board and
its listing answer as for a token that does not exist, whatever the front end asked for."""

from __future__ import annotations

import aiohttp
from game_fixtures import ALICE, BOB
from web_games import pages_site

from bot.service import GameService

DM = 3100


async def fetch(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as answer,
    ):
        return answer.status, await answer.text()


async def test_a_dm_games_page_answers_404(service: GameService) -> None:
    created = await service.create_challenge(
        DM, DM, ALICE, BOB, "minefield", 5, public=True, outside_servers=True
    )
    info = (await service.accept_challenge(created.id, BOB)).game
    await service.play_move(DM, ALICE, "c3")
    assert info.web_token is not None and not info.public
    async with pages_site(service) as port:
        for suffix in ("", "/board.svg", "/record.txt", "/replay.gif"):
            assert (await fetch(port, f"/games/{info.web_token}{suffix}"))[0] == 404
        status, index = await fetch(port, "/")
        assert status == 200 and info.web_token not in index
