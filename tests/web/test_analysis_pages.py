"""The game page once an analysis is stored (issue 48): the chart, the marks in the move
list, and the better move of a marked ply drawn on its own board.  The web only reads: it never
starts an analysis, and shows nothing of one before it is stored."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import aiohttp
from web_games import FINISHED_MOVES, pages_site, start_public

from ai.analysis import Settings
from bot.service import GameService
from bot.web.pages import MARK_WORDS, better_position
from render import board_svg
from rules import new_game

SMALL = Settings(playouts=30, solve_nodes=2_000)


async def fetch(port: int, path: str) -> tuple[int, bytes]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as answer,
    ):
        return answer.status, await answer.read()


async def analyses_stored(service: GameService) -> int:
    async with service.store.read() as tx:
        return len((await tx.bulk.contents()).analyses)


async def test_the_page_shows_the_analysis_once_stored_and_never_starts_one(
    service: GameService,
) -> None:
    info = await start_public(service, 3000, FINISHED_MOVES)
    token = info.web_token
    async with pages_site(service) as port:
        status, body = await fetch(port, f"/games/{token}")
        assert status == 200 and 'id="analysis"' not in body.decode()
        assert (await fetch(port, f"/games/{token}/analysis.png"))[0] == 404
        assert (await fetch(port, f"/games/{token}/board.svg?ply=3&better=1"))[0] == 404
        assert await analyses_stored(service) == 0  # asking the pages started nothing

        with ThreadPoolExecutor(2) as pool:
            stored = await service.analysis.analyse(
                info.id, None, claimant="test", executor=pool, settings=SMALL
            )
        page = (await fetch(port, f"/games/{token}"))[1].decode()
        assert 'id="analysis"' in page and 'src="/games/' + token + '/analysis.png"' in page
        status, chart = await fetch(port, f"/games/{token}/analysis.png")
        assert status == 200 and chart.startswith(b"\x89PNG")
        marked = [m for m in stored.analysis.moves if m.mark is not None]
        assert marked
        for m in marked:
            assert f'class="mark-{m.mark}"' in page
            assert f'<span class="mark">{MARK_WORDS[m.mark or ""]}</span>' in page
        better = next(m for m in marked if m.best != m.move)
        assert f'data-ply="{better.ply}" data-best="{better.best}"' in page
        status, svg = await fetch(port, f"/games/{token}/board.svg?ply={better.ply}&better=1")
        game = new_game("minefield", 5)
        for move in FINISHED_MOVES:
            game.play(move)
        expected = board_svg(better_position(game, better.ply, better.best), caption=False)
        assert status == 200 and svg.decode() == expected
        assert (await fetch(port, f"/games/{token}/board.svg?ply=0&better=1"))[0] == 400


async def test_a_private_games_analysis_is_never_served(service: GameService) -> None:
    info = await start_public(service, 3001, FINISHED_MOVES, public=False)
    with ThreadPoolExecutor(2) as pool:
        await service.analysis.analyse(
            info.id, None, claimant="test", executor=pool, settings=SMALL
        )
    assert info.web_token is not None
    assert await service.web.served_analysis(info.web_token) is None
    async with pages_site(service) as port:
        for suffix in ("/analysis.png", "/board.svg?ply=3&better=1"):
            assert (await fetch(port, f"/games/{info.web_token}{suffix}"))[0] == 404
