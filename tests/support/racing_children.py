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
SUPPORT = Path(__file__).resolve().parent
"""Where this module lives: a child runs a test file as a script and imports it from here."""


def spawn(script: str, mode: str, url: str, *args: str) -> subprocess.Popen[str]:
    """Run ``script`` (the calling test file) as a child in ``mode``."""
    return subprocess.Popen(
        [sys.executable, script, mode, url, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(SUPPORT)])},
        cwd=REPO,
    )


READY_SECONDS = 60.0
"""How long :func:`finish` waits for every child to say it is ready before starting anyway."""


def finish(children: list[subprocess.Popen[str]], go: Path) -> list[str]:
    """Start the race once every child is ready (connected, its setup read: see
    :func:`wait_for`), wait for every child, and return their outputs (all must exit 0).

    A fixed pause used to stand in for "ready"; on a loaded machine a child could still be
    importing when the others had already played, and then read a position the race had
    changed."""
    deadline = time.monotonic() + READY_SECONDS
    while len(list(go.parent.glob(f"{go.name}.ready-*"))) < len(children):
        if time.monotonic() > deadline or any(c.poll() is not None for c in children):
            break  # a child failed early, or is stuck: its output will say why
        time.sleep(0.01)
    go.touch()
    try:
        outputs = [c.communicate(timeout=120) for c in children]
    finally:
        for c in children:
            c.kill()
    assert [c.returncode for c in children] == [0] * len(children), outputs
    return [out for out, _ in outputs]


async def wait_for(go: Path) -> None:
    """In a child: say it is ready, then wait for the start."""
    go.with_name(f"{go.name}.ready-{os.getpid()}").touch()
    while not go.exists():
        await asyncio.sleep(0.005)
