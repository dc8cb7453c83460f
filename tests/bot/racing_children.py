"""Child processes that race each other, for the multi-process PostgreSQL tests.

A test file runs itself as a script in each child (``MODE URL ARGS…``); the children connect,
then wait for a "go" file, so that they really start together once all are ready.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def spawn(script: str, mode: str, url: str, *args: str) -> subprocess.Popen[str]:
    """Run ``script`` (the calling test file) as a child in ``mode``."""
    return subprocess.Popen(
        [sys.executable, script, mode, url, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
    )


def finish(children: list[subprocess.Popen[str]], go: Path) -> list[str]:
    """Start the race, wait for every child, and return their outputs (all must exit 0)."""
    time.sleep(1.0)  # every child is connected and waiting
    go.touch()
    try:
        outputs = [c.communicate(timeout=120) for c in children]
    finally:
        for c in children:
            c.kill()
    assert [c.returncode for c in children] == [0] * len(children), outputs
    return [out for out, _ in outputs]


async def wait_for(go: Path) -> None:
    """In a child: wait for the start."""
    while not go.exists():
        await asyncio.sleep(0.005)
