"""A cold 19x19 Naked Diagonal game through the service: its first web view and its first
``/move`` after a restart (issue 49's target: each within 1 s).

The 341-move game of ``bench/nd_replay_records.json`` is played, all but its last move,
through the service into a SQLite file (a public game between two players).  Then, as after
a restart, a fresh :class:`GameService` on the same file, whose engine cache is empty, serves:

* the game's page over real HTTP on 127.0.0.1 (the engine replayed in the replay process,
  the board drawn with the points the player to move may not use), then its board SVG;
* in another fresh service, the game's last move through ``play_move`` (the engine replayed,
  the move checked and played on the move thread, whose area solver starts empty, and
  committed).

Wall-clock seconds (what a player waits for), best and worst of ``--rounds`` rounds, each
with fresh services and a fresh replay process.  Prints figures only; it never fails on time.

Run: ``nice -n 10 python bench/nd_cold_service_bench.py [--rounds 3]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import GameService, WebReads, engines
from bot.store import open_store
from bot.web.metrics import Metrics
from bot.web.pages import GamePages
from bot.web.server import WebServer
from rules.nd_area import forget_memos

GUILD = 800000000000000001
CHANNEL = 810000000000000019
ALICE, BOB = 310000000000000001, 320000000000000002
RECORD = Path(__file__).with_name("nd_replay_records.json")


def _moves() -> list[str]:
    record = json.loads(RECORD.read_text())[-1]
    return [m for m in record.partition(":")[2].split() if m != "-"]


async def _setup(path: Path, moves: list[str]) -> tuple[str, int]:
    """Play every move but the last into a new store file; the game's web token and the
    player to move."""
    async with await open_store(path) as store:
        service = GameService(store)
        created = await service.create_challenge(
            GUILD, CHANNEL, ALICE, BOB, "nakeddiagonal", 19, public=True, challenger_name="A"
        )
        info = (await service.accept_challenge(created.id, BOB, name="B")).game
        for move in moves[:-1]:
            info = (await service.play_move(CHANNEL, info.to_move_id or 0, move)).game
        assert info.is_active and info.web_token is not None and info.to_move_id
        return info.web_token, info.to_move_id


def _cpu() -> float:
    """CPU seconds of this process (every thread) and of the replay process so far.

    Why CPU and wall clock both: on a loaded machine (2 shared cores) a new process waits for
    a core, so wall clock there measures the machine's load as much as the work."""
    total = time.process_time()
    pool = engines._replays
    for pid in list(getattr(pool, "_processes", None) or {}):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


class Timed:
    """Wall-clock and CPU seconds (see :func:`_cpu`) of a block."""

    def __enter__(self) -> Timed:
        self.wall, self.cpu = time.perf_counter(), _cpu()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, _cpu() - self.cpu


def _fresh_replays() -> float:
    """End the replay process and start a new one, as a restarted bot has: the seconds the
    start took (a worker importing the bot, paid once per restart by the first cold game;
    the figures below are taken with it already up, its solver's memo empty)."""
    engines.stop_replays()
    start = time.perf_counter()
    engines._replay_pool().submit(int).result()
    return time.perf_counter() - start


async def _first_view(path: Path, token: str) -> tuple[Timed, float]:
    """Seconds of the page's first request and of its board SVG, from a fresh service."""
    async with await open_store(path) as store:
        reader = GameService(store)

        async def source() -> WebReads:
            return reader.web

        server = WebServer(Metrics(), [], pages=GamePages(source))
        port = await server.start()
        base = f"http://127.0.0.1:{port}/games/{token}"
        try:
            async with aiohttp.ClientSession() as session:
                with Timed() as page:
                    async with session.get(base) as answer:
                        await answer.read()
                        assert answer.status == 200
                start = time.perf_counter()
                async with session.get(f"{base}/board.svg") as answer:
                    await answer.read()
                    assert answer.status == 200
                svg = time.perf_counter() - start
        finally:
            await server.close()
    return page, svg


async def _first_move(path: Path, user: int, move: str) -> Timed:
    """Seconds of the last move through ``play_move`` on a fresh service."""
    async with await open_store(path) as store:
        service = GameService(store)
        with Timed() as took:
            result = await service.play_move(CHANNEL, user, move)
        assert result.game is not None
    return took


async def run(rounds: int) -> None:
    moves = _moves()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "nd.sqlite3"
        started = time.perf_counter()
        token, user = await _setup(path, moves)
        took = time.perf_counter() - started
        print(f"set up: {len(moves) - 1} moves of a 19x19 game in {took:.1f} s")
        views, svgs, plays, starts = [], [], [], []
        loop = asyncio.get_running_loop()
        for _ in range(rounds):
            # Every solver this process has made starts empty, as after a restart.
            forget_memos()
            await loop.run_in_executor(engines._MOVE_THREAD, forget_memos)
            starts.append(_fresh_replays())
            page, svg = await _first_view(path, token)
            views.append(page)
            svgs.append(svg)
            copy = Path(folder) / "moved.sqlite3"
            copy.write_bytes(path.read_bytes())
            starts.append(_fresh_replays())
            plays.append(await _first_move(copy, user, moves[-1]))
            copy.unlink()
    engines.stop_replays()
    print(f"replay process start (before each measure): worst {max(starts):.2f} s")
    print(
        f"first web view (page, engine replayed): {_figures(views)}; "
        f"board SVG after it: worst {max(svgs):.2f} s"
    )
    print(f"first /move (replay + play + commit): {_figures(plays)}")


def _figures(runs: list[Timed]) -> str:
    walls = [t.wall for t in runs]
    cpus = [t.cpu for t in runs]
    return (
        f"wall first {walls[0]:.2f} s, best {min(walls):.2f} s, worst {max(walls):.2f} s; "
        f"CPU first {cpus[0]:.2f} s, worst {max(cpus):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(run(args.rounds))


if __name__ == "__main__":
    main()
