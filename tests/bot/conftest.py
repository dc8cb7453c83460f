"""Shared fixtures for bot tests: a real SQLite store in ``tmp_path`` and a service on a fake clock.

Use them from any test in ``tests/bot/`` (the Discord adapter tests reuse them):

* ``clock`` - a :class:`FakeClock`; call ``clock.advance(hours=2)`` to move time.
* ``db_path`` - the database file path inside ``tmp_path``.
* ``store_target`` - what ``bot.store.open_store`` opens: parametrised over the engines
  (``ENGINES``; SQLite: ``db_path``).  Tests that reopen the database use it, not ``db_path``.
* ``store`` - an open store on ``store_target`` (closed after the test).
* ``service`` - a :class:`bot.service.GameService` over ``store`` with ``clock`` and a seeded RNG.
* ``start_game`` - ``await start_game(game="minefield", ...)`` challenges and accepts in one
  call and returns the :class:`bot.service.GameInfo` (ALICE moves first unless told otherwise).
* ``snapshot`` - ``snapshot()`` returns every table's rows, to assert that a refused action
  changed nothing (read outside the store, with the engine's plain driver).

The ids GUILD, CHANNEL, THREAD, ALICE, BOB, CAROL and ADMIN are plain ints for readability.
"""

from __future__ import annotations

import random
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

# Test helpers beside this file (discord_fakes.py) import by plain name; pytest runs with
# --import-mode=importlib, which does not put test folders on sys.path by itself.
sys.path.insert(0, str(Path(__file__).parent))

from bot.service import FirstChoice, GameInfo, GameService, TimeControl
from bot.store import Store, open_store

GUILD = 1000
CHANNEL = 2000
THREAD = 2001
ALICE = 11
BOB = 22
CAROL = 33
ADMIN = 99
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class FakeClock:
    """A clock tests move by hand; the service calls it for "now"."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


StartGame = Callable[..., Awaitable[GameInfo]]


def table_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in a stable order (read with a separate plain connection)."""
    conn = sqlite3.connect(path)
    try:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {n: sorted(conn.execute(f"SELECT * FROM {n}").fetchall(), key=repr) for n in names}
    finally:
        conn.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "crosspath.db"


ENGINES = ["sqlite"]
"""The store engines the store and service tests run on; each needs a branch in
``store_target`` and ``snapshot``."""


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store_target(engine: str, db_path: Path) -> str | Path:
    if engine == "sqlite":
        return db_path
    raise AssertionError(f"no store_target for engine {engine!r}")


@pytest.fixture
def other_store_target(engine: str, tmp_path: Path) -> str | Path:
    """A second, empty database of the same engine (copies between stores)."""
    if engine == "sqlite":
        return tmp_path / "other.db"
    raise AssertionError(f"no other_store_target for engine {engine!r}")


@pytest.fixture
async def store(store_target: str | Path) -> AsyncIterator[Store]:
    opened = await open_store(store_target)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def service(store: Store, clock: FakeClock) -> GameService:
    return GameService(store, clock=clock, rng=random.Random(1234))


@pytest.fixture
def snapshot(
    engine: str, store_target: str | Path
) -> Callable[[], dict[str, list[tuple[Any, ...]]]]:
    if engine == "sqlite":
        return lambda: table_rows(Path(store_target))
    raise AssertionError(f"no snapshot for engine {engine!r}")


@pytest.fixture
def start_game(service: GameService) -> StartGame:
    async def start(
        game: str = "minefield",
        size: int | None = None,
        *,
        first: FirstChoice = "me",
        time_control: TimeControl | str | None = None,
        channel: int = CHANNEL,
        challenger: int = ALICE,
        opponent: int = BOB,
        guild: int = GUILD,
    ) -> GameInfo:
        challenge = await service.create_challenge(
            guild, channel, challenger, opponent, game, size, first, time_control
        )
        started = await service.accept_challenge(challenge.id, opponent, channel)
        return started.game

    return start
