"""Shared fixtures for the bot's tests: a real store in ``tmp_path`` and a service on a fake clock.

The root ``tests/conftest.py`` loads this module as a plugin, so every test folder may use them
(the service, store, Discord, console and CLI tests do):

* ``clock`` - a :class:`FakeClock`; call ``clock.advance(hours=2)`` to move time.
* ``db_path`` - the database file path inside ``tmp_path``.
* ``store_target`` - what ``bot.store.open_store`` opens: parametrised over the engines
  (``ENGINES``; SQLite: ``db_path``).  Tests that reopen the database use it, not ``db_path``.
* ``store`` - an open store on ``store_target`` (closed after the test).
* ``service`` - a :class:`bot.service.GameService` over ``store`` with ``clock`` and a seeded RNG.
* ``start_game`` - ``await start_game(game="minefield", ...)`` challenges and accepts in one
  call and returns the :class:`bot.service.GameInfo` (ALICE moves first unless told otherwise).
  The game is untimed unless ``time_control`` says otherwise (``time_control=None``: the
  server's default, a bank for a server that never changed it).
* ``snapshot`` - ``snapshot()`` returns every table's rows, to assert that a refused action
  changed nothing (read outside the store, with the engine's plain driver); ``refused``
  asserts exactly that for one call.

The ids GUILD, CHANNEL, THREAD, ALICE, BOB, CAROL and ADMIN are plain ints for readability.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from pg_server import table_rows as pg_table_rows

from bot.service import FirstChoice, GameInfo, GameService, ServiceError, TimeControl
from bot.store import Store, open_store

GUILD = 1000
CHANNEL = 2000
THREAD = 2001
ALICE = 11
BOB = 22
CAROL = 33
DAVE = 44
ERIN = 55
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
Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]


LONGEST_MESSAGE = 260
"""A refusal's length at most: a sentence plus at most ~100 quoted characters of the input."""


async def refused(
    snapshot: Snapshot, error: type[ServiceError], call: Awaitable[Any], says: str
) -> ServiceError:
    """Assert ``call`` raises ``error`` mentioning ``says``, in a message of bounded length
    (it never echoes unbounded input), and leaves every table unchanged; return the error."""
    before = snapshot()
    with pytest.raises(error) as info:
        await call
    message = str(info.value)
    assert says.lower() in message.lower(), message
    assert len(message) <= LONGEST_MESSAGE, f"{len(message)} characters: {message[:300]}"
    assert snapshot() == before
    return info.value


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


ENGINES = ["sqlite", "postgresql"]
"""The store engines the store and service tests run on; each needs a branch in
``store_target`` and ``snapshot``."""

ALL_ENGINE_FOLDERS = ("service", "store")
"""Test folders whose tests run on every engine; the others (the Discord adapter, the console,
the CLI) test their own layer and run on SQLite only.  ``@pytest.mark.engines("sqlite")`` narrows
a test that reads an engine's files directly."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "engines(*names): the store engines a test runs on (default: see ENGINES)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "engine" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("engines")
    if marker is not None:
        names = list(marker.args)
    elif metafunc.definition.path.parent.name in ALL_ENGINE_FOLDERS:
        names = ENGINES
    else:
        names = ["sqlite"]
    # The quick loop (``-m "not slow"``) runs the contract on SQLite alone: each PostgreSQL case
    # costs a database of its own on the test server, and the full run (CI) has them all.
    params = [
        pytest.param(name, marks=pytest.mark.slow) if name == "postgresql" else name
        for name in names
    ]
    metafunc.parametrize("engine", params, indirect=True)


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def store_target(engine: str, db_path: Path, request: pytest.FixtureRequest) -> str | Path:
    if engine == "sqlite":
        return db_path
    if engine == "postgresql":
        # A fresh database on the session's throwaway server (tests/conftest.py); skipped with
        # one line where PostgreSQL is not installed, a failure under CI.
        return str(request.getfixturevalue("pg_url"))
    raise AssertionError(f"no store_target for engine {engine!r}")


@pytest.fixture
def other_store_target(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """A second, empty database of the same engine (copies between stores)."""
    if engine == "sqlite":
        return tmp_path / "other.db"
    if engine == "postgresql":
        return str(request.getfixturevalue("pg_url_other"))
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
    if engine == "postgresql":
        return lambda: pg_table_rows(str(store_target))
    raise AssertionError(f"no snapshot for engine {engine!r}")


@pytest.fixture
def start_game(service: GameService) -> StartGame:
    async def start(
        game: str = "minefield",
        size: int | None = None,
        *,
        first: FirstChoice = "me",
        time_control: TimeControl | str | None = "none",
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
