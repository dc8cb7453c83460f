"""Worker processes end with the bot: a SIGKILLed parent leaves no orphan 5 s later.

The bot stand-in is a real child process that starts the service's replay process and the
computer's pool through their public paths, and is killed while the computer is thinking.
Processes are found in /proc (Linux), so these tests need it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from ai.lifetime import EXIT_ORPHANED, POLL_SECONDS, spawn_pool

pytestmark = [
    pytest.mark.slow,  # every test starts processes
    pytest.mark.skipif(
        not Path("/proc/self/stat").exists(), reason="finds processes through Linux's /proc"
    ),
]

ORPHAN_LIMIT = 5.0
ROOT = Path(__file__).resolve().parents[2]

Process = tuple[int, str]
"""A process id with its start time (field 22 of /proc/PID/stat), so a reused id is not
mistaken for the process that had it."""


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # The command name (field 2) is in parentheses and may hold spaces: split after it.
    return text[text.rindex(")") + 2 :].split()


def descendants(root: int) -> set[Process]:
    """Every process below ``root``, each with its start time."""
    children: dict[int, list[Process]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat(int(entry.name))
        if fields is None:
            continue
        # After the command: state (0), ppid (1), ... starttime is field 22 overall (19 here).
        children.setdefault(int(fields[1]), []).append((int(entry.name), fields[19]))
    found: set[Process] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child[0])
    return found


def running(process: Process) -> bool:
    """Still there and not a zombie (an exited orphan may wait to be reaped by PID 1)."""
    fields = _stat(process[0])
    return fields is not None and fields[19] == process[1] and fields[0] != "Z"


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


BOT = textwrap.dedent(
    """
    import asyncio

    from ai.pool import ai_result
    from ai.search import Budget
    from bot.service.engines import replay_off_loop


    async def main() -> None:
        await replay_off_loop("minefield", 5, ["a1", "e5"])  # the replay process is up
        thinking = asyncio.ensure_future(
            ai_result("minefield 9: e5", level=5, budget=Budget(seconds=600))
        )
        await asyncio.sleep(1.5)  # the computer's worker has started its search
        print("thinking", flush=True)
        await thinking


    if __name__ == "__main__":  # spawned workers import this file again
        asyncio.run(main())
    """
)


def test_a_killed_bot_leaves_no_worker_behind(tmp_path: Path) -> None:
    script = tmp_path / "thinking_bot.py"
    script.write_text(BOT)
    bot = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    below: set[Process] = set()
    try:
        assert bot.stdout is not None
        assert bot.stdout.readline().strip() == "thinking"
        below = descendants(bot.pid)
        workers = [p for p in below if "multiprocessing" in cmdline(p[0])]
        # the replay worker and the computer's worker (and the resource tracker)
        assert len(workers) >= 2, [cmdline(p[0]) for p in below]
        busy = max(below, key=lambda p: _cpu_ticks(p[0]))
        assert _cpu_ticks(busy[0]) > 0  # someone is searching right now
        bot.send_signal(signal.SIGKILL)
        bot.wait(timeout=5)
        deadline = time.monotonic() + ORPHAN_LIMIT
        while any(running(p) for p in below) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [cmdline(p[0]) for p in below if running(p)]
        assert not left, f"still running {ORPHAN_LIMIT} s after the bot was killed: {left}"
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        for process in below:  # a failed run must not leak its orphans into the machine
            if running(process):
                os.kill(process[0], signal.SIGKILL)


def _cpu_ticks(pid: int) -> int:
    fields = _stat(pid)
    return 0 if fields is None else int(fields[11]) + int(fields[12])  # utime + stime


def _pid() -> int:
    return os.getpid()


def test_workers_outlive_the_thread_that_started_them() -> None:
    """A pool's workers are started by whichever thread submits first: they must stay when
    that thread ends (a thread-bound death signal would kill them under a live bot)."""
    pool = spawn_pool(1)
    try:
        first: list[int] = []
        starter = threading.Thread(target=lambda: first.append(pool.submit(_pid).result(60)))
        starter.start()
        starter.join()
        time.sleep(POLL_SECONDS * 3)
        assert pool.submit(_pid).result(60) == first[0]
    finally:
        pool.shutdown()


def test_a_worker_whose_parent_is_already_gone_exits_at_once() -> None:
    """The parent died before the initializer ran: the worker must not adopt the reaper."""
    child = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sys; from ai.lifetime import exit_with_parent; "
            "exit_with_parent(os.getppid() + 1_000_000); sys.exit(0)",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert child.returncode == EXIT_ORPHANED
