"""A tour of Crosspath in German, Japanese and Russian (issue 47's closing evidence): for each
language, a whole game played through the service with the adapter's turn texts, a
tournament round (its standings image and pairings post), a digest, and the web's game and
tournament pages (with a headless Chromium screenshot at phone width when ``chromium`` is
installed).  Players carry long German words, CJK and Cyrillic names, so the images show how
those fit.  Everything lands in ``--out/<lang>/``; nothing is kept in the repository.

Run (about a minute of CPU per language)::

    nice -n 10 python -m bench.locale_tour --out /work/lanes/shots47 --lang de ja ru
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
import discord

from ai.opponents import greedy_move
from bot.discord.notices.dms import digest_text
from bot.discord.play.turns import OutgoingMessage, colour_names, draw_board, turn_message
from bot.discord.ratings.leaderboards import profile_embed
from bot.discord.tournaments.flows import (
    legend,
    pairing_line,
    standings_lines,
    title_of,
)
from bot.i18n import Tongue, tongue
from bot.service import Digest, GameInfo, GameService, WebReads
from bot.store import open_store
from bot.web.metrics import Metrics
from bot.web.pages import GamePages
from bot.web.server import WebServer
from render.reports.rating_chart import rating_chart_alt_text, render_rating_chart
from render.reports.standings import render_standings, standings_alt_text, standings_text
from rules import new_game

GUILD, CHANNEL = 1000, 2000
NAMES = {
    1: "Donaudampfschifffahrtsgesellschaftskapitänin",
    2: "山田花子（やまだ はなこ）",
    3: "Александра Владимировна",
    4: "Ευαγγελία 🎲 Öztürk",
}
"""A long German compound, a Japanese name, a Russian one and a mixed one with an emoji."""
PHONE = (412, 915)
"""A phone's viewport in CSS pixels, for the screenshots."""


def text_block(title: str, body: str) -> str:
    return f"=== {title} ===\n{body}\n\n"


async def play_game(service: GameService, tr: Tongue, out: Path, seed: int) -> GameInfo:
    """A whole Minefield 7×7 between players 1 and 2, every turn's message kept."""
    challenge = await service.create_challenge(
        GUILD, CHANNEL, 1, 2, "minefield", 7, public=True, challenger_name=NAMES[1]
    )
    info = (await service.accept_challenge(challenge.id, 2, name=NAMES[2])).game
    game, rng = new_game("minefield", size=7), random.Random(seed)
    texts = []
    while not game.is_over:
        move = greedy_move(game, rng)
        game.play(move)
        assert info.to_move_id is not None
        info = (await service.play_move(CHANNEL, info.to_move_id, move)).game
        message = turn_message(info, game, NAMES, None, tr=tr)
        texts.append(text_block(f"after {move}", message.content + "\n" + embed_words(message)))
    rating = await service.ratings.game_rating(info.id)
    board = draw_board(game, colour_names(info, NAMES, tr), tr)
    final = turn_message(info, game, NAMES, board, rating=rating, tr=tr)
    texts.append(text_block("game over", final.content + "\n" + embed_words(final)))
    texts.append(text_block("board alt text", board.alt))
    (out / "game-board.png").write_bytes(board.png)
    (out / "game-turns.txt").write_text("".join(texts), encoding="utf-8")
    return info


def embed_words(message: OutgoingMessage) -> str:
    return embed_text(message.embed)


def embed_text(embed: discord.Embed | None) -> str:
    if embed is None:
        return ""
    data = embed.to_dict()
    parts = [data.get("title", ""), data.get("description", "")]
    parts += [f"{f['name']}: {f['value']}" for f in data.get("fields", [])]
    return "\n".join(p for p in parts if p)


async def tournament_round(service: GameService, tr: Tongue, out: Path) -> str:
    """A round robin of four, its first round paired and one game resigned: the standings
    image and the pairings post.  Returns the tournament's web token."""
    t = await service.create_tournament(
        GUILD, CHANNEL + 1, 1, game="minefield", size=5, format="round_robin", public=True
    )
    for user in NAMES:
        t = await service.join_tournament(t.id, user, name=NAMES[user])
    t = await service.start_tournament(t.id, 1)
    games = await service.tournament_games(t.id, 1)
    assert games[0].to_move_id is not None
    await service.resign(games[0].channel_id, games[0].to_move_id)
    rows = await service.tournament_standings(t.id)
    lines, headings = standings_lines(rows, NAMES, tr)
    title = title_of(await service.get_tournament(t.id), tr)
    (out / "standings.png").write_bytes(
        render_standings(lines, title=title, headings=headings, total=len(rows), tr=tr)
    )
    pairings = await service.tournaments.tournament_pairings(t.id, 1)
    post = "\n".join(pairing_line(p, tr) for p in pairings)
    (out / "tournament-round.txt").write_text(
        text_block("pairings post", post)
        + text_block("standings table", standings_text(lines, headings=headings, tr=tr))
        + text_block("legend", legend(headings, tr))
        + text_block("alt text", standings_alt_text(lines, title=title, headings=headings, tr=tr)),
        encoding="utf-8",
    )
    info = await service.get_tournament(t.id)
    assert info.web_token is not None
    return info.web_token


async def digest_and_profile(service: GameService, tr: Tongue, out: Path) -> None:
    """Player 3's digest over the tournament games waiting on them, and player 1's profile
    with the rating chart."""
    waiting = await service.notices.waiting_on(3)
    now = datetime.now(UTC)
    digest = Digest(3, tuple(waiting), 0, now + timedelta(days=1))
    embed, chart = profile_embed(await service.ratings.profile(GUILD, 1), NAMES[1], GUILD, tr)
    text = text_block("digest DM", digest_text(digest, tr))
    text += text_block("profile", embed_text(embed))
    if chart is not None and chart[1]:
        title, points = chart
        (out / "rating-chart.png").write_bytes(
            render_rating_chart(points, player=NAMES[1], game=title, tr=tr)
        )
        text += text_block(
            "chart alt", rating_chart_alt_text(points, player=NAMES[1], game=title, tr=tr)
        )
    (out / "digest-and-profile.txt").write_text(text, encoding="utf-8")


async def web_pages(service: GameService, tr: Tongue, out: Path, game: str, cup: str) -> None:
    """The game and tournament pages' HTML in ``tr``'s language, and phone screenshots."""

    async def source() -> WebReads:
        return service.web

    server = WebServer(Metrics(), [], pages=GamePages(source))
    port = await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            for name, path in (
                ("web-game", f"/games/{game}"),
                ("web-tournament", f"/tournaments/{cup}"),
            ):
                url = f"http://127.0.0.1:{port}{path}?lang={tr.language}"
                async with session.get(url) as answer:
                    (out / f"{name}.html").write_text(await answer.text(), encoding="utf-8")
                await screenshot(url, out / f"{name}.png")
    finally:
        await server.close()


async def screenshot(url: str, path: Path) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        return
    process = await asyncio.create_subprocess_exec(
        chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        f"--window-size={PHONE[0]},{PHONE[1]}", "--force-device-scale-factor=1",
        "--virtual-time-budget=3000", f"--screenshot={path}", url,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    await asyncio.wait_for(process.wait(), 120)


async def tour(language: str, out: Path) -> float:
    out.mkdir(parents=True, exist_ok=True)
    tr = tongue(language)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        async with await open_store(Path(folder) / "tour.db") as store:
            service = GameService(store, rng=random.Random(7))
            info = await play_game(service, tr, out, seed=3)
            cup = await tournament_round(service, tr, out)
            await digest_and_profile(service, tr, out)
            assert info.web_token is not None
            await web_pages(service, tr, out, info.web_token, cup)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--lang", nargs="+", default=["de", "ja", "ru"])
    args = parser.parse_args()
    for language in args.lang:
        seconds = asyncio.run(tour(language, args.out / language))
        files = sorted(p.name for p in (args.out / language).iterdir())
        print(f"{language}: {seconds:.1f} s, {', '.join(files)}")


if __name__ == "__main__":
    main()
