"""The test PostgreSQL server itself: reachable on its socket only, and really PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest
from pg_server import BINDIR_ENV, PgServer, create_database, drop_database, table_rows


@pytest.mark.slow
async def test_each_test_gets_its_own_empty_database(pg_server: PgServer, pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        name = await conn.fetchval("SELECT current_database()")
        tables = await conn.fetchval(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        )
        listen = await conn.fetchval("SHOW listen_addresses")
        fsync = await conn.fetchval("SHOW fsync")
    finally:
        await conn.close()
    assert pg_url.endswith(f"?host={pg_server.socket_dir}&port={pg_server.port}")
    assert f"/{name}?" in pg_url and name.startswith("test_")
    assert tables == 0
    assert listen == ""  # no TCP at all: the Unix socket in the temporary directory only
    assert fsync == "off"


PUBLIC_SCHEMA = (
    "SELECT nspowner::regrole::text, nspacl::text, obj_description(oid, 'pg_namespace')"
    " FROM pg_namespace WHERE nspname = 'public'"
)


async def database_facts(url: str) -> tuple[int, int, object, bool]:
    """Its oid, its number of tables, its public schema's owner, rights and comment, and
    whether advisory lock 7 is free."""
    conn = await asyncpg.connect(url)
    try:
        oid = await conn.fetchval("SELECT oid FROM pg_database WHERE datname = current_database()")
        tables = await conn.fetchval(
            "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public'"
        )
        public = tuple(await conn.fetchrow(PUBLIC_SCHEMA))
        free = await conn.fetchval("SELECT pg_try_advisory_lock(7)")
    finally:
        await conn.close()
    return oid, tables, public, free


async def test_a_database_given_back_is_handed_out_again_as_empty_as_a_new_one(
    pg_server: PgServer,
) -> None:
    first = pg_server.next_name()
    url = await create_database(pg_server, first)
    leaked = await asyncpg.connect(url)  # a test that forgot to close its connection
    await leaked.execute(
        "CREATE TABLE t (id serial PRIMARY KEY, x text); INSERT INTO t (x) VALUES ('a');"
        " CREATE INDEX t_x ON t (x); SELECT pg_advisory_lock(7)"
    )
    assert table_rows(url) == {"t": [(1, "a")]}  # its reader connection is open now
    oid = (await database_facts(url))[0]
    await drop_database(pg_server, first)

    second = pg_server.next_name()
    again = await create_database(pg_server, second)
    reused_oid, tables, public, free = await database_facts(again)
    assert reused_oid == oid, "the database given back was not the one handed out"
    assert tables == 0 and table_rows(again) == {}
    assert free, "the leaked session (and its advisory lock) outlived the database's reuse"
    admin = await asyncpg.connect(pg_server.url())
    try:
        await admin.execute('CREATE DATABASE "fresh_for_comparison" TEMPLATE template0')
        new_public = (await database_facts(pg_server.url("fresh_for_comparison")))[2]
        await admin.execute('DROP DATABASE "fresh_for_comparison"')
        names = {r[0] for r in await admin.fetch("SELECT datname FROM pg_database")}
    finally:
        await admin.close()
    assert public == new_public
    assert first not in names and second in names
    await drop_database(pg_server, second)
    assert not await _still_answers(leaked)
    leaked.terminate()


async def _still_answers(conn: asyncpg.Connection) -> bool:
    try:
        await conn.fetchval("SELECT 1")
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
        return False
    return True


async def test_a_database_holding_more_than_its_public_schema_is_dropped_not_reused(
    pg_server: PgServer,
) -> None:
    name = pg_server.next_name()
    url = await create_database(pg_server, name)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE SCHEMA elsewhere; CREATE TABLE elsewhere.t (x int)")
        oid = await conn.fetchval("SELECT oid FROM pg_database WHERE datname = $1", name)
    finally:
        await conn.close()
    await drop_database(pg_server, name)
    admin = await asyncpg.connect(pg_server.url())
    try:
        gone = await admin.fetchval("SELECT count(*) = 0 FROM pg_database WHERE oid = $1", oid)
    finally:
        await admin.close()
    assert gone


def run_pytest_without_postgres(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    """Run this file's first test in a child pytest that finds no PostgreSQL binaries."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env[BINDIR_ENV] = str(tmp_path)  # an empty directory: no initdb there
    if ci is not None:
        env["CI"] = ci
    here = Path(__file__)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            f"{here}::test_each_test_gets_its_own_empty_database",
            f"{here}::test_each_test_gets_its_own_empty_database",
        ],
        cwd=here.parent.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_without_postgres_the_tests_skip_with_one_line_saying_how_to_enable_them(
    tmp_path: Path,
) -> None:
    done = run_pytest_without_postgres(tmp_path, ci=None)
    assert done.returncode == 0, done.stdout + done.stderr
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) == 1, done.stdout
    assert "apt-get install postgresql" in skipped[0]
    assert "1 skipped" in done.stdout or "2 skipped" in done.stdout


@pytest.mark.slow
def test_without_postgres_under_ci_the_tests_fail(tmp_path: Path) -> None:
    done = run_pytest_without_postgres(tmp_path, ci="true")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "CI is set but PostgreSQL is missing" in done.stdout
    assert "error" in done.stdout.splitlines()[-1]
