"""Write the schema-version-5 fixtures that the upgrade test opens with today's store.

Run ONCE, with the store as it was at schema version 5 (Crosspath's main at 3a54300); its
output is committed, and later code must open it unchanged:

    python tests/data/store-v5/make_fixtures.py

It plays games of every game type through the real service (finished and unfinished, timed and
timed out, resigned, a takeback, an aborted one, rated games so ratings and history exist),
changes a server's settings, and leaves open and declined challenges, on a SQLite file and on a
throwaway PostgreSQL server.  It writes

* ``crosspath-v5.sqlite``: the SQLite database (one file: WAL checkpointed away);
* ``crosspath-v5.sql``: a plain ``pg_dump`` of the same history on PostgreSQL;
* ``expected.json``: every row the store exported (``Store.export_all``), read by the code
  that wrote the databases, for the test to compare the upgraded stores against.  Both
  engines exported the same rows (the script checks), so one file serves both.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from game_fixtures import ADMIN

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "support")]

from pg_server import create_database, start_server  # noqa: E402

from bench.service_bench import scripted  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import Store, open_store  # noqa: E402
from rules import game_names  # noqa: E402

GUILD, OTHER_GUILD = 1000, 1001
PLAYERS = (11, 22, 33, 44)
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


async def play(service: GameService, clock: Clock, channel: int, moves: list[str]) -> None:
    for move in moves:
        info = await service.get_game(channel)
        assert info is not None and info.status == "active"
        clock.advance(minutes=3)
        await service.play_move(channel, info.to_move_id, move)


async def start(
    service: GameService,
    channel: int,
    game: str,
    size: int,
    challenger: int,
    opponent: int,
    time_control: str | None = None,
    guild: int = GUILD,
) -> None:
    challenge = await service.create_challenge(
        guild, channel, challenger, opponent, game, size, "me", time_control
    )
    await service.accept_challenge(challenge.id, opponent, channel)


async def history(store: Store, clock: Clock) -> None:
    service = GameService(store, clock=clock, rng=random.Random(5))
    await service.moderation.update_settings(
        GUILD,
        ADMIN,
        allowed_channels=[3000 + i for i in range(40)],
        default_time_control="2d",
        default_sizes={"minefield": 7, "crosscut": 8},
        challenge_expiry=7200,
    )
    await service.moderation.update_settings(
        OTHER_GUILD, ADMIN, use_threads=False, ratings_enabled=False
    )
    channel = 3000
    a, b, c, d = PLAYERS
    for n, name in enumerate(sorted(game_names())):
        size = 6
        # a finished rated game, played to its end
        await start(service, channel, name, size, a, b)
        await play(service, clock, channel, scripted(name, size, random.Random(n)))
        channel += 1
        # an unfinished game, a few moves in
        await start(service, channel, name, size, c, d, time_control="1d")
        await play(service, clock, channel, scripted(name, size, random.Random(100 + n))[:4])
        channel += 1
        # a resigned game
        await start(service, channel, name, size, b, c)
        await play(service, clock, channel, scripted(name, size, random.Random(200 + n))[:3])
        info = await service.get_game(channel)
        assert info is not None
        await service.resign(channel, info.to_move_id)
        channel += 1
    # a takeback, accepted, in an unfinished game
    await start(service, channel, "minefield", 7, a, c)
    moves = scripted("minefield", 7, random.Random(300))
    await play(service, clock, channel, moves[:3])
    info = await service.get_game(channel)
    assert info is not None
    mover = next(seat.user_id for seat in info.seats if seat.user_id != info.to_move_id)
    await service.play.request_takeback(channel, mover)
    await service.play.answer_takeback(channel, info.to_move_id, True)
    await play(service, clock, channel, moves[2:5])
    channel += 1
    # a timed game that runs out of time (and its reminders go out first)
    await start(service, channel, "clearpath", 6, d, a, time_control="1h")
    await play(service, clock, channel, scripted("clearpath", 6, random.Random(400))[:2])
    clock.advance(minutes=50)
    await service.clocks.run_due()
    clock.advance(hours=2)
    await service.clocks.run_due()
    channel += 1
    # an aborted game (an audit row), and an award (another)
    await start(service, channel, "crosscut", 6, a, d)
    await play(service, clock, channel, scripted("crosscut", 6, random.Random(500))[:2])
    await service.moderation.admin_abort(GUILD, ADMIN, channel, "testing the fixture")
    channel += 1
    await start(service, channel, "nakeddiagonal", 6, b, d)
    await service.moderation.admin_award(GUILD, ADMIN, channel, d, "b left")
    channel += 1
    # a game in a server whose ratings are off
    await start(service, 5000, "clearcut", 6, a, b, guild=OTHER_GUILD)
    await play(service, clock, 5000, scripted("clearcut", 6, random.Random(600)))
    # challenges left open, declined and cancelled
    await service.create_challenge(GUILD, channel, a, b, "minefield", 6, "them")
    declined = await service.create_challenge(GUILD, channel + 1, c, d, "crosscut", 7, "random")
    await service.challenges.decline_challenge(declined.id, d)
    cancelled = await service.create_challenge(GUILD, channel + 2, b, None, "clearcut", 6)
    await service.cancel_challenge(cancelled.id, b)
    await service.create_challenge(
        GUILD, channel + 3, d, None, "clearpath", 6, "me", "3d", options={"level": "2"}
    )


def plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


async def make(target: str | Path, expected: Path) -> None:
    store = await open_store(target)
    try:
        await history(store, Clock())
        contents = await store.export_all()
        version = await store.schema_version()
    finally:
        await store.close()
    assert version == 5, version
    data = {"schema_version": version, "contents": plain(contents)}
    text = json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"
    if expected.exists() and expected.read_text() != text:
        raise SystemExit(f"{target} exported other rows than {expected.name} holds")
    expected.write_text(text)


def main() -> None:
    db = HERE / "crosspath-v5.sqlite"
    expected = HERE / "expected.json"
    db.unlink(missing_ok=True)
    expected.unlink(missing_ok=True)
    asyncio.run(make(db, expected))
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
    conn.execute("PRAGMA page_size = 1024")  # small pages: a small fixture (VACUUM applies it)
    conn.execute("VACUUM")
    conn.close()

    server = start_server()
    try:
        url = asyncio.run(create_database(server, "fixture"))
        asyncio.run(make(url, expected))
        dump = subprocess.run(
            [str(server.bindir / "pg_dump"), "--no-owner", "--no-privileges", "--dbname", url],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        (HERE / "crosspath-v5.sql").write_text(dump)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
