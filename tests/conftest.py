"""Fixtures shared by every test folder: a throwaway PostgreSQL server (see
``support/pg_server.py``), and the game fixtures of ``support/game_fixtures.py``.

* ``pg_server`` (session): starts on first use and is always stopped at the end of the session.
  Under pytest-xdist every worker is a session of its own, so each starts its own server in its
  own directory, on its own socket.  Without PostgreSQL binaries the tests that need it are
  skipped with one line saying how to enable them; with ``CI`` set, a missing server is a
  failure instead, so CI can never go green by silently skipping the PostgreSQL half.
* ``pg_url``: an empty database on that server for one test, under a name of its own, given
  back afterwards (emptied for a later test, or dropped: see ``support/pg_server.py``).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

# The tests' own helpers (the PostgreSQL server, the Discord fakes, the game fixtures) live in
# tests/support/ and import by plain name.  pytest runs with --import-mode=importlib, which puts
# no test folder on sys.path, and tests/ itself must stay off it (tests/rules would shadow the
# real ``rules`` package), so only that one folder is added.
sys.path.insert(0, str(Path(__file__).with_name("support")))

pytest_plugins = ["game_fixtures", "env_fixtures"]

from pg_server import (  # noqa: E402
    ENABLE_HINT,
    PgServer,
    PgUnavailable,
    ci_required,
    create_database,
    drop_database,
    find_bindir,
    start_server,
)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    """Report every "no PostgreSQL" skip at one place, so the summary folds them into one line."""
    report = yield
    longrepr = getattr(report, "longrepr", None)
    if report.skipped and isinstance(longrepr, tuple) and ENABLE_HINT in str(longrepr[2]):
        report.longrepr = (__file__, 1, longrepr[2])
    return report


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    if find_bindir() is None:
        if ci_required():
            pytest.fail(f"CI is set but PostgreSQL is missing: {ENABLE_HINT}", pytrace=False)
        pytest.skip(ENABLE_HINT)
    try:
        server = start_server()
    except PgUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def pg_url(pg_server: PgServer) -> AsyncIterator[str]:
    name = pg_server.next_name()
    url = await create_database(pg_server, name)
    try:
        yield url
    finally:
        await drop_database(pg_server, name)


@pytest.fixture
async def pg_url_other(pg_server: PgServer) -> AsyncIterator[str]:
    """A second fresh database on the same server (copies between two stores)."""
    name = pg_server.next_name()
    url = await create_database(pg_server, name)
    try:
        yield url
    finally:
        await drop_database(pg_server, name)
