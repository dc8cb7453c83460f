"""The game pages: ``/``, ``/games/<token>`` and what a game page loads.

- ``/`` lists the most recent public games and tournaments.
- ``/games/<token>``: the board (an SVG image from :func:`render.board_svg`, the same drawing
  model as the bot's PNGs), the move list with a link to each position (``#ply=12``), the
  players as they were named when the game started, the result and the clock, and the record
  and GIF replay to download.  ``game.js`` steps through the moves and, while the game runs,
  follows it over Server-Sent Events (``/games/<token>/events``, fed by :mod:`.live`).
- ``/tournaments/<token>``: a public tournament's standings (rank, player, points,
  tiebreaks, games left) and its pairings round by round, each game linked to its page
  (:mod:`.tournament_pages`).

Privacy: the service serves a game or tournament only if it is public and its server's
listing is on; for anything else every URL under ``/games/<token>`` and
``/tournaments/<token>`` answers 404 exactly as for a token that never existed.  Names are
escaped by Jinja2's autoescaping, never by hand, and every answer carries a
Content-Security-Policy that allows scripts from this server's files only (no inline script,
no inline style), so a name that looks like HTML stays text.

Nothing here imports discord: ``crosspath run`` and ``crosspath web`` both hand in a
service's web read models (``service.web``, or anything with their ``served_*`` methods).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from aiohttp import web
from jinja2 import Environment, PackageLoader, select_autoescape

from bot.i18n import Tongue
from bot.service import (
    GameRecord,
    GameSummary,
    ServedGame,
    ServedTournament,
    StoredAnalysis,
    TournamentInfo,
    database_fault,
)
from render import DEFAULT_THEME, THEMES, Speaker, board_svg, render_gif
from render.reports.analysis_chart import analysis_chart_alt_text, render_analysis_chart
from rules import Game

from .disk_cache import DiskCache
from .game_words import (
    IN_PROGRESS,
    colour_word,
    page_words,
    player_word,
    result_words,
    state_words,
)
from .language import PageLanguage, page_language
from .live import POLL_SECONDS, LiveHub, Watcher
from .names import isolated
from .tournament_pages import tournament_line, tournament_page

log = logging.getLogger("crosspath.web")

STATIC = Path(__file__).with_name("static")
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""Scripts, styles, images and event streams from this server only; no inline script."""
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
HEARTBEAT_SECONDS = 15.0
"""A comment line this often keeps proxies from closing a quiet event stream."""
LISTED = 50
LISTED_TOURNAMENTS = 20
SVG_CACHE = 1024
PAGE_CACHE = 256
GIF_CACHE = 16
SVG_TYPE = "image/svg+xml"
GIF_DRAWS = 1
"""Replays drawn at once: a 341-move 19×19 replay takes 4–6 s of CPU (and about 30 MB)."""
T = TypeVar("T")


class WebService(Protocol):
    """What the pages need of the game service: its web read models, ``service.web``
    (:class:`~bot.service.web.WebReads`), and nothing else."""

    async def served_game(self, web_token: str) -> tuple[GameRecord, Game] | None: ...

    async def served_analysis(self, web_token: str) -> StoredAnalysis | None: ...

    async def served_games(self, limit: int = ...) -> list[ServedGame]: ...

    async def served_versions(self, web_tokens: list[str]) -> dict[str, int]: ...

    async def served_tournament(self, web_token: str) -> ServedTournament | None: ...

    async def served_tournaments(self, limit: int = ...) -> list[TournamentInfo]: ...


ServiceSource = Callable[[], Awaitable[WebService]]


def stored_name(names: dict[int, str], user_id: int | None) -> str | None:
    """A player's stored name (isolated), or None when the game has none."""
    return isolated(names[user_id]) if user_id is not None and user_id in names else None


def iso(moment: datetime | None) -> str:
    return "" if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")


def game_state(record: GameRecord) -> dict[str, Any]:
    """What a page shows of a game that can change: the JSON an event carries, and the
    template's values.  No sentence: one event serves pages in every language, and each
    words it with its own templates (:mod:`.game_words`)."""
    info = record.game
    names = info.names
    result = info.result
    return {
        "version": info.version,
        "status": info.status,
        "result": None
        if result is None
        else {
            "reason": result.reason,
            "winner": stored_name(names, result.winner_id),
            "winner_colour": result.winner_colour,
            "loser": stored_name(names, result.loser_id),
            "loser_colour": result.loser_colour,
        },
        "to_move": {
            "name": stored_name(names, info.to_move_id),
            "colour": info.to_move_colour,
        }
        if info.is_active and info.to_move_colour
        else None,
        "deadline": iso(info.deadline) if info.is_active and info.deadline is not None else "",
        "moves": [{"ply": m.ply + 1, "move": m.move, "colour": m.colour} for m in record.moves],
    }


ACTIVE = b'"status": "active"'
"""How an event of a running game says so: JSON escapes every quote inside a string (a name),
so no other part of an event can hold these bytes."""


def sse_data(state: dict[str, Any]) -> bytes:
    """One Server-Sent Event carrying ``state`` (a :func:`game_state`) as JSON."""
    return b"data: " + json.dumps(state, separators=(", ", ": ")).encode() + b"\n\n"


def still_active(payload: bytes) -> bool:
    """Whether the event :func:`sse_data` made is of a game still running."""
    return ACTIVE in payload


def summary_line(entry: ServedGame, tr: Tongue) -> dict[str, str]:
    s: GameSummary = entry.summary
    first = player_word(stored_name(entry.names, s.first_id), None, tr)
    second = player_word(stored_name(entry.names, s.second_id), None, tr)
    if s.is_active:
        status = tr.gettext(IN_PROGRESS)
    else:
        result = None
        if s.result is not None:
            r = s.result
            result = {
                "reason": r.reason,
                "winner": stored_name(entry.names, r.winner_id),
                "winner_colour": r.winner_colour,
                "loser": stored_name(entry.names, r.loser_id),
                "loser_colour": r.loser_colour,
            }
        status = result_words(result, tr) or s.status
    return {
        "href": f"/games/{entry.web_token}",
        "title": f"{s.title} {s.size}×{s.size}",
        "players": tr.gettext("{first} vs {second}", first=first, second=second),
        "status": status,
        "updated": iso(s.updated_at),
    }


MARK_WORDS = {
    "inaccuracy": "inaccuracy",
    "mistake": "mistake",
    "blunder": "blunder",
    "missed_win": "missed win",
}


def analysis_view(analysed: StoredAnalysis | None, tr: Speaker) -> dict[str, Any] | None:
    """What the game page shows of a stored analysis: each ply's mark and better move, the
    players' accuracy, and the chart's alt text; None without an analysis."""
    if analysed is None:
        return None
    moves = analysed.analysis.moves
    plies = {
        m.ply: {
            "mark": m.mark or "",
            "mark_word": MARK_WORDS.get(m.mark or "", ""),
            "best": m.best if m.mark is not None and m.best != m.move else "",
            "only_move": m.only_move,
        }
        for m in moves
    }
    players = [
        {"seat": p.seat, "accuracy": f"{p.accuracy:.1f}", "blunders": p.blunder,
         "mistakes": p.mistake, "inaccuracies": p.inaccuracy, "missed_wins": p.missed_win}
        for p in analysed.analysis.players
    ]  # fmt: skip
    return {
        "plies": plies,
        "players": players,
        "alt": analysis_chart_alt_text(moves, tr),
        "playouts": analysed.playouts,
    }


def better_position(game: Game, ply: int, best: str) -> Game:
    """The position before ply ``ply`` with the analysis's better move ``best`` played."""
    position = position_at(game, ply - 1)
    position.play(best)
    return position


def position_at(game: Game, ply: int) -> Game:
    """``game`` (a copy the caller owns) taken back to ``ply`` moves."""
    while len(game.history) > ply:
        game.pop()
    return game


class GamePages:
    """The pages' routes, their caches and the live hub; :meth:`install` adds them to an app."""

    def __init__(
        self,
        service: ServiceSource,
        poll_seconds: float = POLL_SECONDS,
        replays: DiskCache | None = None,
    ) -> None:
        self._service = service
        self._replays = replays
        self.env = Environment(
            loader=PackageLoader("bot.web", "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
        )
        self.hub = LiveHub(self._versions, self._state, poll_seconds)
        self._svgs = Drawn[str](SVG_CACHE)
        self._pages = Drawn[str](PAGE_CACHE)
        self._gifs = Drawn[bytes](GIF_CACHE)
        self._charts = Drawn[bytes](GIF_CACHE)
        self._faults = DatabaseFaults()
        self._gif_draws = asyncio.Semaphore(GIF_DRAWS)

    def install(self, app: web.Application) -> None:
        app.middlewares.append(security_headers)
        app.middlewares.append(self._faults.middleware)
        app.router.add_get("/", self.index)
        app.router.add_get("/games/{token}", self.game)
        app.router.add_get("/games/{token}/board.svg", self.board)
        app.router.add_get("/games/{token}/record.txt", self.record)
        app.router.add_get("/games/{token}/replay.gif", self.gif)
        app.router.add_get("/games/{token}/analysis.png", self.chart)
        app.router.add_get("/games/{token}/events", self.events)
        app.router.add_get("/tournaments/{token}", self.tournament)
        app.router.add_get("/favicon.ico", favicon)
        app.router.add_static("/static/", STATIC, append_version=False)
        app.on_shutdown.append(self._shutdown)

    async def _shutdown(self, app: web.Application) -> None:
        await self.hub.stop()

    # ----- reading --------------------------------------------------------------------------
    async def _served(self, request: web.Request) -> tuple[GameRecord, Game]:
        served = await (await self._service()).served_game(request.match_info["token"])
        if served is None:
            raise not_found()
        return served

    async def _versions(self, tokens: list[str]) -> dict[str, int]:
        return await (await self._service()).served_versions(tokens)

    async def _state(self, token: str) -> tuple[int, bytes] | None:
        served = await (await self._service()).served_game(token)
        if served is None:
            return None
        state = game_state(served[0])
        return state["version"], sse_data(state)

    # ----- pages ----------------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.Response:
        service = await self._service()
        games = await service.served_games(LISTED)
        tournaments = await service.served_tournaments(LISTED_TOURNAMENTS)
        page = page_language(request)
        body = self._render(
            "index.html",
            page,
            games=[summary_line(g, page.tongue) for g in games],
            tournaments=[tournament_line(t, page.tongue) for t in tournaments],
        )
        return web.Response(text=body, content_type="text/html")

    async def game(self, request: web.Request) -> web.Response:
        record, _ = await self._served(request)
        info = record.game
        token = request.match_info["token"]
        page = page_language(request)
        analysed = await (await self._service()).served_analysis(token)
        # Hints and an analysis stored later change no version, so they are part of the key:
        # either is shown at once; and a page is kept per language.
        hints = tuple(sorted(info.hints.items())) if info.hints is not None else None
        key = (info.id, info.version, hints, analysed is not None, page.language, page.chosen)
        body = await self._pages.get(key, lambda: self._game_page(record, token, page, analysed))
        return web.Response(text=body, content_type="text/html")

    async def _analysis(self, request: web.Request) -> tuple[GameRecord, Game, StoredAnalysis]:
        record, game = await self._served(request)
        analysed = await (await self._service()).served_analysis(request.match_info["token"])
        if analysed is None:
            raise not_found()
        return record, game, analysed

    async def chart(self, request: web.Request) -> web.Response:
        """The analysis chart (404 until an analysis is stored: the web never starts one)."""
        record, _, analysed = await self._analysis(request)
        moves = analysed.analysis.moves
        # The chart's words follow the page's language (its <img> link keeps ``?lang=``).
        page = page_language(request)
        data = await self._charts.get(
            (record.game.id, analysed.game_version, page.language),
            lambda: render_analysis_chart(moves, page.tongue),
        )
        return web.Response(
            body=data, content_type="image/png", headers={"Cache-Control": "public, max-age=300"}
        )

    def _game_page(
        self,
        record: GameRecord,
        token: str,
        page: PageLanguage,
        analysed: StoredAnalysis | None = None,
    ) -> str:
        """The page of ``record`` (the template takes a while for a long game: a page is
        kept per game version, so a finished game's page is drawn once)."""
        info = record.game
        state = game_state(record)
        tr = page.tongue
        clock = tr.say(info.time_control.wording())
        seats = [
            {
                "name": player_word(stored_name(info.names, seat.user_id), seat.colour, tr),
                "colour": seat.colour,
                # only a game that allowed hints says how many each player used
                "hints": None if info.hints is None else info.hints.get(seat.user_id, 0),
            }
            for seat in info.seats
        ]
        return self._render(
            "game.html",
            page,
            info=info,
            token=token,
            state=state,
            shown=state_words(state, tr, clock),
            words=page_words(tr, clock),
            seats=seats,
            colour_word=lambda colour: colour_word(colour, tr),
            themes=THEMES,
            theme=DEFAULT_THEME,
            started=iso(info.created_at),
            plies=len(record.moves),
            slug=f"{info.game}-{info.size}-{token[:8]}",
            analysis=analysis_view(analysed, page.tongue),
        )

    async def board(self, request: web.Request) -> web.Response:
        record, game = await self._served(request)
        plies = len(game.history)
        ply = _int(request.query.get("ply"), plies)
        theme = request.query.get("theme", DEFAULT_THEME)
        better = request.query.get("better") == "1"
        if not 0 <= ply <= plies:
            raise bad_request(f"ply must be a whole number from 0 to {plies} for this game.")
        if theme not in THEMES:
            raise bad_request(f"theme must be one of: {', '.join(THEMES)}.")
        # The drawing's title (its accessible name, the board's alt text) speaks the page's
        # language: game.js asks with the page's ?lang=.
        tr = page_language(request).tongue
        info = record.game
        key = (info.id, info.version, ply, theme, tr.language)
        if better:
            # The analysis's better move for ply ``ply``, played instead of the move made.
            if ply < 1:
                raise bad_request("better needs a ply from 1.")
            _, _, analysed = await self._analysis(request)
            best = analysed.analysis.moves[ply - 1].best
            svg = await self._svgs.get(
                (*key, "better"),
                lambda: board_svg(
                    better_position(game, ply, best), theme=theme, caption=False, tr=tr
                ),
            )
            return web.Response(
                text=svg, content_type=SVG_TYPE, headers={"Cache-Control": "public, max-age=300"}
            )
        svg = await self._svgs.get(
            key,
            lambda: board_svg(position_at(game, ply), theme=theme, caption=False, tr=tr),
        )
        return web.Response(
            text=svg,
            content_type=SVG_TYPE,
            headers={"Cache-Control": "public, max-age=300"},
        )

    async def record(self, request: web.Request) -> web.Response:
        record, _ = await self._served(request)
        info = record.game
        name = f"crosspath-{info.game}-{info.size}-{request.match_info['token'][:8]}.txt"
        return web.Response(
            text=record.text + "\n",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def gif(self, request: web.Request) -> web.Response:
        record, game = await self._served(request)
        info = record.game
        tr = page_language(request).tongue  # the page's link keeps its ?lang=
        names = {
            s.colour: player_word(stored_name(info.names, s.user_id), s.colour, tr)
            for s in info.seats
        }
        disk = self._replays
        # The token (random, unlike the id, so two databases sharing a folder never meet),
        # the version (a new move is a new file), the names drawn in the caption and the
        # captions' language.
        key = DiskCache.key(
            "replay.gif", request.match_info["token"], info.version, names, tr.language
        )

        def draw() -> bytes:
            data = render_gif(game, names=names, tr=tr)
            if disk is not None:
                disk.put(key, data)
            return data

        # A long game's replay takes seconds of CPU while it is drawn: draw at most
        # GIF_DRAWS at once, so many requests cannot take the process's CPU and memory; one
        # kept on disk is read without waiting for them.
        data = await self._gifs.get(
            (info.id, info.version, tr.language),
            draw,
            self._gif_draws,
            stored=None if disk is None else lambda: disk.get(key),
        )
        return web.Response(body=data, content_type="image/gif")

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-Sent Events: the game's new state after each change, until it ends."""
        record, _ = await self._served(request)
        info = record.game
        response = web.StreamResponse(
            headers={
                **SECURITY_HEADERS,
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        known = _int(request.query.get("v"), info.version)
        if known != info.version:  # it moved between the page and this stream
            await response.write(sse_data(game_state(record)))
        if not info.is_active:
            return response
        await response.write(b"retry: 2000\n\n")
        watcher = self.hub.watch(request.match_info["token"], info.version)
        if watcher is None:
            return response
        try:
            await self._stream(response, watcher)
        except ConnectionResetError:
            pass  # the page was closed: found at the next write (at most a heartbeat later)
        finally:
            self.hub.leave(watcher)
        return response

    async def _stream(self, response: web.StreamResponse, watcher: Watcher) -> None:
        while not watcher.gone:
            try:
                await asyncio.wait_for(watcher.wake.wait(), HEARTBEAT_SECONDS)
            except TimeoutError:
                await response.write(b": still here\n\n")
                continue
            watcher.wake.clear()
            payload, watcher.latest = watcher.latest, None
            if payload is not None:
                await response.write(payload)
                if not still_active(payload):
                    return  # the game is over: the page has its last state

    async def tournament(self, request: web.Request) -> web.Response:
        """A public tournament's standings and pairings; 404 as for an unknown token for
        anything else.  A large league's page takes a while to draw: it runs on a thread."""
        served = await (await self._service()).served_tournament(request.match_info["token"])
        if served is None:
            raise not_found()
        page = page_language(request)
        values = tournament_page(served, page.tongue)
        body = await asyncio.to_thread(self._render, "tournament.html", page, **values)
        return web.Response(text=body, content_type="text/html")

    def _render(self, template: str, page: PageLanguage, **values: Any) -> str:
        """``template`` in ``page``'s language: ``_()`` in a template is its gettext."""
        return self.env.get_template(template).render(page=page, _=page.tongue.gettext, **values)


@web.middleware
async def security_headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """The Content-Security-Policy and its companions on every answer, errors included."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        exc.headers.update(SECURITY_HEADERS)
        raise
    if not response.prepared:
        response.headers.update(SECURITY_HEADERS)
    return response


class DatabaseFaults:
    """Pages over a database that cannot be used answer 503 with a short page, and the
    store's sentence is logged once per fault (again only after the database answered in
    between), never as a traceback: the fault is the operator's to fix, not a bug."""

    def __init__(self) -> None:
        self.logged: str | None = None

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException:
            raise
        except Exception as exc:
            sentence = database_fault(exc)
            if sentence is None:
                raise
            if sentence != self.logged:
                log.error("the game pages cannot read the database: %s", sentence)
                self.logged = sentence
            raise web.HTTPServiceUnavailable(
                text=UNAVAILABLE, content_type="text/html", headers={"Retry-After": "30"}
            ) from None
        self.logged = None
        return response


UNAVAILABLE = (
    "<!doctype html><html lang=en><meta charset=utf-8><title>Crosspath</title>"
    "<p>The games are unavailable for now. Please try again in a little while.</p></html>\n"
)


FAVICON = (STATIC / "favicon.svg").read_bytes()


async def favicon(request: web.Request) -> web.Response:
    """Browsers ask for /favicon.ico on their own: answer with the site's icon, not a 404."""
    return web.Response(
        body=FAVICON, content_type=SVG_TYPE, headers={"Cache-Control": "public, max-age=86400"}
    )


def bad_request(sentence: str) -> web.HTTPBadRequest:
    """A request for a game that exists, with a value the page cannot use: say which."""
    return web.HTTPBadRequest(text=sentence + "\n")


def not_found() -> web.HTTPNotFound:
    """The one answer for a private game or tournament, a server's hidden ones and an
    unknown token."""
    return web.HTTPNotFound(text="No such game.\n")


def _int(raw: str | None, default: int) -> int:
    if raw is None:
        return default
    raw = raw.strip()
    # ASCII digits only: str.isdigit() accepts "²" and other digits int() refuses
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 6:
        return -1
    return int(raw)


class Drawn(Generic[T]):
    """What was drawn (a page, a board, a replay) by game version, the least recently used
    dropped beyond ``size``.  Drawing runs on a thread: a long game's page or board takes
    milliseconds, and ``crosspath run`` serves Discord from this event loop."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], T] = OrderedDict()

    async def get(
        self,
        key: tuple[Any, ...],
        draw: Callable[[], T],
        gate: asyncio.Semaphore | None = None,
        stored: Callable[[], T | None] | None = None,
    ) -> T:
        """What ``key`` drew, drawing it now if needed (through ``gate``, when given, which
        bounds how many draws run at once; a hit never waits for it).  ``stored``, when
        given, is asked first (on a thread, not through ``gate``) for a copy kept elsewhere."""
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
            return found
        if stored is not None:
            found = await asyncio.to_thread(stored)
        if found is not None:
            drawn = found
        elif gate is None:
            drawn = await asyncio.to_thread(draw)
        else:
            async with gate:
                found = self._items.get(key)  # drawn by a request this one waited behind
                if found is not None:
                    return found
                drawn = await asyncio.to_thread(draw)
        self._items[key] = drawn
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return drawn
