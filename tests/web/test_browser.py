"""The game pages in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``),
driven by Selenium pointed at those executables, so nothing is downloaded at test time.

The server runs on the test's event loop; every Selenium call blocks, so each runs on a thread
(:class:`Browser`) while the loop keeps serving.  One browser serves the whole module.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from web_games import FINISHED_MOVES, XSS_NAME, pages_site, start_public, start_tournament
from web_probe import get

from bot.service import GameService
from render import board_svg
from rules import new_game

pytestmark = pytest.mark.slow  # a browser takes seconds to start

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ENABLE_HINT = (
    "browser tests need Debian's chromium and chromium-driver:"
    " apt-get install chromium chromium-driver"
)
T = TypeVar("T")
PIXEL_DIGEST = """
const img = document.getElementById('board');
const canvas = document.createElement('canvas');
canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
const context = canvas.getContext('2d');
context.drawImage(img, 0, 0);
const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
let hash = 0;
for (let i = 0; i < data.length; i++) { hash = (hash * 31 + data[i]) | 0; }
return hash;
"""


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {ENABLE_HINT}", pytrace=False)
        pytest.skip(ENABLE_HINT)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1200,1000",
    ):
        options.add_argument(argument)
    browser = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    try:
        yield browser
    finally:
        browser.quit()


class Browser:
    """Selenium's blocking calls, each on a thread so the server on this loop can answer."""

    def __init__(self, driver: Any, port: int) -> None:
        self.driver = driver
        self.port = port

    async def run(self, call: Callable[[], T]) -> T:
        return await asyncio.to_thread(call)

    async def open(self, path: str) -> None:
        # about:blank first: a new fragment alone on the same page would not reload it
        await self.run(lambda: self.driver.get("about:blank"))
        await self.run(lambda: self.driver.get(f"http://127.0.0.1:{self.port}{path}"))

    async def js(self, script: str) -> Any:
        return await self.run(lambda: self.driver.execute_script(script))

    async def board(self) -> tuple[str, int]:
        """The board image's URL once it has loaded, and a digest of the pixels the browser
        drew for it (at its natural size, so the page's layout does not change it)."""
        await self.until(
            "const b = document.getElementById('board'); return b.complete && b.naturalWidth > 0;"
        )
        src = await self.js("return document.getElementById('board').getAttribute('src');")
        digest = await self.js(PIXEL_DIGEST)
        return str(src), int(digest)

    async def until(self, script: str, timeout: float = 5.0) -> float:
        """Wait until ``script`` returns true; how long it took."""
        start = time.monotonic()
        while not await self.js(script):
            if time.monotonic() - start > timeout:
                raise AssertionError(f"timed out waiting for: {script}")
            await asyncio.sleep(0.05)
        return time.monotonic() - start

    async def press(self, element_id: str) -> None:
        await self.run(lambda: self.driver.find_element("id", element_id).click())

    async def key(self, key: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        await self.run(lambda: ActionChains(self.driver).send_keys(key).perform())

    def text(self, element_id: str) -> Any:
        return self.run(lambda: self.driver.find_element("id", element_id).text)


def ply_of(src: str) -> int:
    return int(src.split("ply=")[1].split("&")[0])


async def test_a_finished_game_shows_its_final_board_and_steps_back(
    service: GameService, driver: Any
) -> None:
    from selenium.webdriver.common.keys import Keys

    info = await start_public(service, 4000, FINISHED_MOVES)
    last = len(FINISHED_MOVES)
    async with pages_site(service) as port:
        b = Browser(driver, port)
        await b.open(f"/games/{info.web_token}")
        src, final_shot = await b.board()
        assert ply_of(src) == last and await b.text("where") == f"Move {last} of {last}"
        assert "won by connection" in await b.text("result")
        final = new_game("minefield", 5)
        for move in FINISHED_MOVES:
            final.play(move)
        assert await get(port, src) == (200, board_svg(final, caption=False))
        await b.press("prev")
        src, earlier_shot = await b.board()
        assert ply_of(src) == last - 1 and earlier_shot != final_shot
        assert await b.js("return location.hash") == f"#ply={last - 1}"
        await b.key(Keys.ARROW_LEFT)
        src, _ = await b.board()
        assert ply_of(src) == last - 2
        await b.press("first")
        src, empty_shot = await b.board()
        assert ply_of(src) == 0 and empty_shot not in (final_shot, earlier_shot)
        await b.key(Keys.END)
        src, again = await b.board()
        assert ply_of(src) == last and again == final_shot


async def test_a_ply_link_opens_at_that_position(service: GameService, driver: Any) -> None:
    info = await start_public(service, 4001, FINISHED_MOVES)
    async with pages_site(service) as port:
        b = Browser(driver, port)
        await b.open(f"/games/{info.web_token}")
        _, final_shot = await b.board()
        await b.open(f"/games/{info.web_token}#ply=3")
        src, shot = await b.board()
        assert ply_of(src) == 3 and shot != final_shot
        assert await b.text("where") == f"Move 3 of {len(FINISHED_MOVES)}"
        assert await b.js("return document.querySelector('#moves li.current').dataset.ply") == "3"
        assert await b.js("return document.getElementById('slider').value") == "3"
        await b.open(f"/games/{info.web_token}#ply=9999")  # past the end: the last move
        last = len(FINISHED_MOVES)
        await b.until(f"return location.hash === '#ply={last}'")
        assert await b.text("where") == f"Move {last} of {last}"


async def test_a_move_appears_on_an_open_page_within_2_seconds(
    service: GameService, driver: Any
) -> None:
    info = await start_public(service, 4002, FINISHED_MOVES[:4])
    async with pages_site(service, poll_seconds=0.5) as port:
        b = Browser(driver, port)
        await b.open(f"/games/{info.web_token}")
        src, before = await b.board()
        assert ply_of(src) == 4
        await asyncio.sleep(0.3)  # the page's event stream is open
        await service.play_move(4002, info.to_move_id or 0, FINISHED_MOVES[4])
        took = await b.until(
            "return document.getElementById('board').getAttribute('src').includes('ply=5&')"
            " && document.querySelectorAll('#moves li').length === 6",
            timeout=2.0,
        )
        assert took < 2.0
        src, after = await b.board()
        assert ply_of(src) == 5 and after != before
        assert "5. c3" in await b.text("moves")


async def test_a_name_that_is_html_shows_as_text_and_runs_nothing(
    service: GameService, driver: Any
) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    info = await start_public(service, 4003, FINISHED_MOVES, names=(XSS_NAME, "Bob"))
    async with pages_site(service) as port:
        b = Browser(driver, port)
        await b.open(f"/games/{info.web_token}")
        await b.board()
        names = await b.js(
            "return [...document.querySelectorAll('.players .name')]"
            ".map(e => e.textContent.replace(/[\\u2068\\u2069]/g, ''))"
        )
        assert names == [XSS_NAME, "Bob"]
        assert await b.js("return document.images.length") == 1  # the board alone
        with pytest.raises(NoAlertPresentException):
            await b.run(lambda: driver.switch_to.alert.text)


async def test_a_private_games_token_gives_404(service: GameService, driver: Any) -> None:
    info = await start_public(service, 4004, FINISHED_MOVES, public=False)
    async with pages_site(service) as port:
        assert (await get(port, f"/games/{info.web_token}"))[0] == 404
        b = Browser(driver, port)
        await b.open(f"/games/{info.web_token}")
        assert await b.js("return document.body.innerText.trim()") == "No such game."
        assert await b.js("return document.getElementById('board')") is None


async def test_a_tournament_page_shows_its_standings_and_links_to_a_game_page(
    service: GameService, driver: Any
) -> None:
    from selenium.common.exceptions import NoAlertPresentException

    t, games = await start_tournament(service, 4005, (XSS_NAME, "Ben", "Cat", "Dan"))
    expected = await service.tournament_standings(t.id)
    names = {101: XSS_NAME, 102: "Ben", 103: "Cat", 104: "Dan"}
    async with pages_site(service) as port:
        b = Browser(driver, port)
        await b.open(f"/tournaments/{t.web_token}")
        rows = await b.js(
            "return [...document.querySelectorAll('#standings-1 tbody tr')]"
            ".map(r => [...r.cells].map(c => c.textContent.replace(/[\u2068\u2069]/g, '').trim()))"
        )
        assert [(r[0], r[1], r[2]) for r in rows] == [
            (str(s.rank), names[s.user_id], f"{s.points:g}") for s in expected
        ]
        assert await b.js("return document.images.length") == 0  # the name stayed text
        with pytest.raises(NoAlertPresentException):
            await b.run(lambda: driver.switch_to.alert.text)
        first = games[0]
        link = f"#round-1 a[href='/games/{first.web_token}']"
        await b.run(lambda: driver.find_element("css selector", link).click())
        await b.until(f"return location.pathname === '/games/{first.web_token}'")
        await b.board()
        players = await b.js(
            "return [...document.querySelectorAll('.players .name')]"
            ".map(e => e.textContent.replace(/[\\u2068\\u2069]/g, ''))"
        )
        assert sorted(players) == sorted(names[u] for u in first.player_ids)
        assert "resigned" in await b.text("result")


WIDTHS = (360, 390, 1280)
LONG_NAME = "Maximiliane-Alexandrovna-Wolkenstein-Oberhausen " * 2


async def fits(b: Browser, width: int) -> dict[str, Any]:
    """The page at ``width`` px: whether the document is wider than the screen, and for each
    table whether all its columns can be reached inside its own scrolling box."""
    await b.run(lambda: b.driver.set_window_size(width, 900))
    await b.until(f"return window.innerWidth <= {width}")
    return dict(
        await b.js(
            "return {"
            " overflow: document.documentElement.scrollWidth - window.innerWidth,"
            " tables: [...document.querySelectorAll('table')].map(t => {"
            "   const box = t.parentElement, style = getComputedStyle(box);"
            "   return {columns: t.rows[0].cells.length,"
            "           scrolls: style.overflowX === 'auto' || t.scrollWidth <= box.clientWidth};"
            " })}"
        )
    )


async def test_pages_fit_a_phone_with_a_long_name(service: GameService, driver: Any) -> None:
    """At 360 and 390 px nothing is wider than the screen: a long name wraps, and a wide
    table scrolls inside its own box with every column (Wins, Rating, Games left) there."""
    t, _ = await start_tournament(service, 4010, (LONG_NAME, "Ben", "Cat", "Dan"))
    info = await start_public(service, 4011, ("c3",), names=(LONG_NAME, "Bob"))
    async with pages_site(service) as port:
        b = Browser(driver, port)
        try:
            for path in ("/", f"/tournaments/{t.web_token}", f"/games/{info.web_token}"):
                await b.open(path)
                for width in WIDTHS:
                    seen = await fits(b, width)
                    assert seen["overflow"] <= 0, (path, width, seen)
                    for table in seen["tables"]:
                        assert table["scrolls"], (path, width, table)
            await b.open(f"/tournaments/{t.web_token}")
            await fits(b, 390)
            heads = await b.js(
                "return [...document.querySelectorAll('#standings-1 thead th')]"
                ".map(h => h.textContent)"
            )
            assert {"Wins", "Rating", "Games left"} <= set(heads)
        finally:
            await b.run(lambda: b.driver.set_window_size(1280, 900))
