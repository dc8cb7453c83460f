"""A reader that hangs up (``crosspath … | head -1``): every command ends quietly with 141.

The reading end of the pipe is closed before the command starts, so every write fails: the
outcome does not depend on who wins a race, as it would with a real ``head``.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import REPO

from bot.store import open_store

pytestmark = pytest.mark.slow  # each case runs the command line in child processes

EXIT_BROKEN_PIPE = 141


def run_into_closed_pipe(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [sys.executable, "-m", "bot.cli", *args],
            stdin=subprocess.DEVNULL,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            timeout=120,
        )
    finally:
        os.close(writer)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["play", "--help"],
        ["play", "minefield", "--size", "4"],
        ["render", "--help"],
        ["render", "--game", "minefield", "--size", "5", "--moves", "c3", "--out", "b.png"],
        ["commands"],
        ["leaderboard", "--help"],
        ["ratings", "--help"],
        ["db", "--help"],
        ["sync", "--help"],
        ["run", "--help"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_a_closed_pipe_ends_quietly_with_141(tmp_path: Path, args: list[str]) -> None:
    proc = run_into_closed_pipe(tmp_path, *args)
    assert proc.stderr == ""
    assert proc.returncode == EXIT_BROKEN_PIPE


def test_a_backup_into_a_closed_pipe_ends_quietly_with_141(tmp_path: Path) -> None:
    """The backup itself is written; only its one line of report finds nobody to read it."""

    async def create() -> None:
        async with await open_store(tmp_path / "live.db"):
            pass

    asyncio.run(create())
    proc = run_into_closed_pipe(tmp_path, "db", "backup", "copy.db", "--db", "live.db")
    assert proc.stderr == ""
    assert proc.returncode == EXIT_BROKEN_PIPE
    assert (tmp_path / "copy.db").stat().st_size > 0
