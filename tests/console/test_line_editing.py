"""Typing at the console: on a terminal ↑ recalls the last line (readline), and what is not a
terminal has its unprintable characters shown escaped, never echoed raw."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_runner import REPO, crosspath

UP = b"\x1b[A"


def read_for(fd: int, seconds: float, until: bytes) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while until not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
    return seen


@pytest.mark.slow
def test_on_a_terminal_up_recalls_the_last_line(tmp_path: Path) -> None:
    main, child = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "minefield", "--size", "5"],
        stdin=child,
        stdout=child,
        stderr=child,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO), "TERM": "xterm"},
        close_fds=True,
    )
    os.close(child)
    try:
        assert b"to move> " in read_for(main, 30, b"to move> ")
        os.write(main, b"moves\r")
        first = read_for(main, 10, b"to move> ")
        assert b"a1 b1 c1" in first
        os.write(main, UP + b"\r")  # the arrow recalls "moves", which lists them again
        again = read_for(main, 10, b"to move> ")
        assert b"a1 b1 c1" in again
        assert b"is not a point" not in again and b"^[[A" not in again
        os.write(main, b"quit\r")
        read_for(main, 10, b"discarded")
        assert proc.wait(timeout=30) == 1
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)


def test_piped_input_is_shown_escaped(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "play", "minefield", "--size", "5", stdin="\x1b[A\nquit\n")
    assert "\x1b" not in proc.stdout
    assert "\\x1b[A" in proc.stdout
