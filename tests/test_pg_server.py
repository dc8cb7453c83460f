"""The test PostgreSQL server itself: reachable on its socket only, and really PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import asyncpg
from pg_server import BINDIR_ENV, PgServer


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


def test_without_postgres_the_tests_skip_with_one_line_saying_how_to_enable_them(
    tmp_path: Path,
) -> None:
    done = run_pytest_without_postgres(tmp_path, ci=None)
    assert done.returncode == 0, done.stdout + done.stderr
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) == 1, done.stdout
    assert "apt-get install postgresql" in skipped[0]
    assert "1 skipped" in done.stdout or "2 skipped" in done.stdout


def test_without_postgres_under_ci_the_tests_fail(tmp_path: Path) -> None:
    done = run_pytest_without_postgres(tmp_path, ci="true")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "CI is set but PostgreSQL is missing" in done.stdout
    assert "error" in done.stdout.splitlines()[-1]
