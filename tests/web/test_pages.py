"""The game pages over HTTP, with a real store and a real server: what each URL answers,
the privacy rules, the security headers, and the live stream."""

from __future__ import annotations

import asyncio
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor

import aiohttp
from game_fixtures import ADMIN
from web_games import (
    ALICE,
    BOB,
    FINISHED_MOVES,
    GUILD,
    XSS_NAME,
    pages_site,
    start_public,
)
from web_probe import get

from ai.analysis import Settings
from bot.service import GameService
from bot.web.pages import CSP, sse_data, still_active
from render import board_svg
from rules import new_game


async def fetch(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as answer,
    ):
        return answer.status, dict(answer.headers), await answer.read()


async def test_a_finished_game_page_has_its_board_moves_players_and_downloads(
    service: GameService,
) -> None:
    info = await start_public(service, 3000, FINISHED_MOVES, names=(XSS_NAME, "Bob"))
    token = info.web_token
    async with pages_site(service) as port:
        status, headers, body = await fetch(port, f"/games/{token}")
        page = body.decode()
        assert status == 200 and headers["Content-Security-Policy"] == CSP
        assert "<script>" not in page and 'src="/static/game.js"' in page
        assert XSS_NAME not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
        assert f"board.svg?ply={len(FINISHED_MOVES)}&amp;v={info.version}" in page
        for ply, move in enumerate(FINISHED_MOVES, 1):
            assert f'<a href="#ply={ply}">{ply}. {move}</a>' in page
        assert "won by connection" in page
        final = new_game("minefield", 5)
        for move in FINISHED_MOVES:
            final.play(move)
        record = (await get(port, f"/games/{token}/record.txt"))[1]
        assert record == f"{final.record()}\n"
        _, svg_headers, svg = await fetch(port, f"/games/{token}/board.svg?ply=9")
        assert svg_headers["Content-Type"].startswith("image/svg+xml")
        assert svg.decode() == board_svg(final, caption=False)
        final.pop()
        final.pop()
        assert (await fetch(port, f"/games/{token}/board.svg?ply=7"))[2].decode() == board_svg(
            final, caption=False
        )
        status, _, gif = await fetch(port, f"/games/{token}/replay.gif")
        assert status == 200 and gif[:6] == b"GIF89a"
        listed = (await fetch(port, "/"))[2].decode()
        assert f'href="/games/{token}"' in listed and "&lt;img" in listed


async def test_private_hidden_and_unknown_games_are_404_everywhere(service: GameService) -> None:
    private = await start_public(service, 3001, ("c3",), public=False)
    hidden = await start_public(service, 3002, ("c3",))
    await service.moderation.update_settings(GUILD, ADMIN, web_listing=False)
    async with pages_site(service) as port:
        unknown = "A" * 22
        answers = set()
        for token in (private.web_token, hidden.web_token, unknown, "..%2F..", "x" * 300):
            for suffix in ("", "/board.svg?ply=0", "/record.txt", "/replay.gif", "/events"):
                status, headers, body = await fetch(port, f"/games/{token}{suffix}")
                assert headers["Content-Security-Policy"] == CSP
                answers.add((status, body))
        assert answers == {(404, b"No such game.\n")}
        assert private.web_token not in (await fetch(port, "/"))[2].decode()
        assert (await fetch(port, "/tournaments/" + unknown))[0] == 404


async def test_bad_positions_and_themes_of_a_real_game_say_what_is_wrong(
    service: GameService,
) -> None:
    """A game that exists with a value its board cannot use is a 400 that names the value,
    not the "No such game" of an unknown token; odd digits ("²", "٣") are not numbers."""
    info = await start_public(service, 3003, ("c3",))
    async with pages_site(service) as port:
        for query in ("ply=2", "ply=-1", "ply=x", "ply=9999999", "ply=%C2%B2", "ply=%D9%A3"):
            status, headers, body = await fetch(port, f"/games/{info.web_token}/board.svg?{query}")
            assert status == 400, query
            assert body == b"ply must be a whole number from 0 to 1 for this game.\n"
            assert headers["Content-Security-Policy"] == CSP
        status, _, body = await fetch(port, f"/games/{info.web_token}/board.svg?ply=1&theme=nope")
        assert status == 400 and body.startswith(b"theme must be one of: ")
        assert (await fetch(port, f"/games/{info.web_token}/board.svg?ply=1&theme=high-contrast"))[
            0
        ] == 200
        assert (await fetch(port, "/games/" + "A" * 22 + "/board.svg?ply=1"))[0] == 404


async def test_odd_digits_in_the_stream_version_are_no_version(service: GameService) -> None:
    info = await start_public(service, 3007, ("c3",))
    async with aiohttp.ClientSession() as session, pages_site(service) as port:
        url = f"http://127.0.0.1:{port}/games/{info.web_token}/events?v=%C2%B2"
        async with session.get(url) as answer:
            assert answer.status == 200
            event = await asyncio.wait_for(read_event(answer.content), 5)
            assert event["version"] == info.version


async def test_the_favicon_is_the_sites_icon(service: GameService) -> None:
    async with pages_site(service) as port:
        status, headers, body = await fetch(port, "/favicon.ico")
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml")
    assert body.startswith(b"<svg") and headers["Content-Security-Policy"] == CSP


async def test_a_right_to_left_override_in_a_name_is_isolated(service: GameService) -> None:
    """U+202E in a name could reorder "X vs Y" on screen: every name is isolated."""
    info = await start_public(service, 3008, ("c3",), names=("\u202eevilA", "Bob"))
    async with pages_site(service) as port:
        _, _, page = await fetch(port, f"/games/{info.web_token}")
        _, _, listing = await fetch(port, "/")
    for text in (page.decode(), listing.decode()):
        assert "\u2068\u202eevilA\u2069" in text
        assert "\u202eevilA" not in text.replace("\u2068\u202eevilA\u2069", "")


async def read_event(stream: aiohttp.StreamReader) -> dict[str, object]:
    while True:
        line = (await stream.readline()).decode()
        if line.startswith("data: "):
            return dict(json.loads(line[6:]))


async def test_a_move_reaches_every_open_stream_from_one_poll(service: GameService) -> None:
    info = await start_public(service, 3004, ("c3",))
    async with pages_site(service, poll_seconds=0.1) as port, aiohttp.ClientSession() as session:
        url = f"http://127.0.0.1:{port}/games/{info.web_token}/events?v={info.version}"
        answers = [await session.get(url) for _ in range(3)]
        try:
            assert all(a.headers["Content-Type"] == "text/event-stream" for a in answers)
            await asyncio.sleep(0.3)
            started = time.monotonic()
            await service.play_move(3004, info.to_move_id or 0, "c2")
            states = await asyncio.wait_for(
                asyncio.gather(*(read_event(a.content) for a in answers)), 2
            )
            assert time.monotonic() - started < 2
            for state in states:
                assert state["version"] == info.version + 1
                assert [m["move"] for m in state["moves"]] == ["c3", "c2"]  # type: ignore[union-attr]
        finally:
            for answer in answers:
                answer.close()


async def test_a_stream_opened_after_a_move_starts_with_it_and_ends_with_the_game(
    service: GameService,
) -> None:
    info = await start_public(service, 3005, FINISHED_MOVES[:-1])
    async with pages_site(service, poll_seconds=0.1) as port, aiohttp.ClientSession() as session:
        url = f"http://127.0.0.1:{port}/games/{info.web_token}/events?v={info.version - 1}"
        async with session.get(url) as answer:
            first = await asyncio.wait_for(read_event(answer.content), 2)
            assert first["version"] == info.version and first["status"] == "active"
            await service.play_move(3005, ALICE, FINISHED_MOVES[-1])
            last = await asyncio.wait_for(read_event(answer.content), 2)
            assert last["status"] == "finished" and last["result"]["reason"] == "connection"
            assert "Alice" in last["result"]["winner"]  # a name, no sentence: pages word it
            rest = await asyncio.wait_for(answer.content.read(), 2)  # returns: the stream ended
            assert rest.strip() == b""


async def test_a_stream_asked_for_after_the_stop_starts_no_poller(service: GameService) -> None:
    """A request still reading the database when shutdown begins must not start the poller
    again, which nothing would then end (aiohttp would wait out its timeouts)."""
    from bot.web.live import LiveHub

    async def versions(tokens: list[str]) -> dict[str, int]:
        return {}

    async def state(token: str) -> tuple[int, bytes] | None:
        return None

    hub = LiveHub(versions, state, 0.05)
    assert hub.watch("t", 1) is not None
    await hub.stop()
    assert hub.watch("t", 1) is None
    await asyncio.sleep(0.1)
    assert hub.polls == 0  # the poller never ran again


async def test_open_streams_end_when_the_server_stops(service: GameService) -> None:
    info = await start_public(service, 3006, ("c3",))
    async with aiohttp.ClientSession() as session:
        async with pages_site(service) as port:
            url = f"http://127.0.0.1:{port}/games/{info.web_token}/events"
            answers = [await session.get(url) for _ in range(5)]
            started = time.monotonic()
        assert time.monotonic() - started < 5  # not the 60 s aiohttp waits for handlers
        for answer in answers:
            rest = await asyncio.wait_for(answer.content.read(), 2)
            assert rest.strip() in (b"retry: 2000", b"")
            answer.close()


def test_a_name_cannot_make_a_finished_games_event_look_running() -> None:
    result = {"reason": "resign", "winner": '"status": "active"', "loser": "x"}
    state = {"version": 3, "status": "finished", "result": result, "moves": []}
    event = sse_data(state)
    assert event.startswith(b"data: ") and event.endswith(b"\n\n")
    assert json.loads(event[6:]) == state and not still_active(event)
    assert still_active(sse_data({**state, "status": "active"}))


async def test_replays_are_drawn_one_at_a_time_and_hits_never_wait() -> None:
    """Six requests for six long replays must not draw six at once (each one holds hundreds
    of MB while drawn); a replay already drawn is answered without waiting for the gate."""
    import threading

    from bot.web.pages import Drawn

    drawn: Drawn[bytes] = Drawn(16)
    gate = asyncio.Semaphore(1)
    running, most = 0, 0
    lock = threading.Lock()

    def draw(n: int) -> bytes:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return bytes([n])

    got = await asyncio.gather(*(drawn.get((n,), lambda n=n: draw(n), gate) for n in range(6)))
    assert got == [bytes([n]) for n in range(6)] and most == 1
    async with gate:  # a draw is under way: a hit is still answered at once
        assert await asyncio.wait_for(drawn.get((3,), lambda: b"never", gate), 1) == bytes([3])


def test_the_proxy_example_adds_the_pages_csp_to_every_answer() -> None:
    """aiohttp's own 400s carry none of the pages' headers (it answers before any middleware,
    with no public hook): docs/web.md's proxy example adds the same CSP, errors included."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    found = re.search(r'add_header Content-Security-Policy "([^"]+)" always;', doc)
    assert found and found.group(1) == CSP


async def test_the_page_of_a_game_with_hints_counts_them_at_once(service: GameService) -> None:
    plain = await start_public(service, 3000, ["c3"])
    created = await service.create_challenge(
        GUILD, 3001, ALICE, BOB, "minefield", 5, public=True, hints=True
    )
    hinted = (await service.accept_challenge(created.id, BOB)).game
    async with pages_site(service) as port:
        assert "hints used" not in (await fetch(port, f"/games/{plain.web_token}"))[2].decode()
        page = (await fetch(port, f"/games/{hinted.web_token}"))[2].decode()
        assert page.count("hints used: 0") == 2
        with ThreadPoolExecutor(1) as pool:
            service.hints.settings = Settings(playouts=20, solve_empties=4, solve_nodes=500)
            service.hints.executor = pool
            await service.hints.hint(3001, ALICE)
        # a hint changes no version, yet the page (kept per version) shows it at once
        page = (await fetch(port, f"/games/{hinted.web_token}"))[2].decode()
        assert page.count("hints used: 1") == 1 and page.count("hints used: 0") == 1
