"""The loop guard (tests/support/loop_guard.py): it reports a callback that holds the loop,
computing or blocked, and not the time its thread only waited for a CPU."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from loop_guard import cpu_wait_clock, guarding

LIMIT = 0.2


async def test_a_callback_that_sleeps_on_the_loop_is_reported_and_a_short_one_is_not() -> None:
    def sleeps() -> None:
        time.sleep(LIMIT + 0.1)

    def short() -> None:
        time.sleep(0.01)

    with guarding(asyncio.get_running_loop(), LIMIT) as guard:
        asyncio.get_running_loop().call_soon(short)
        await asyncio.sleep(0.01)
        assert guard.reports == []
        asyncio.get_running_loop().call_soon(sleeps)
        await asyncio.sleep(0.01)
    assert len(guard.reports) == 1 and "sleeps" in guard.reports[0], guard.reports


async def test_a_task_step_that_computes_too_long_is_reported() -> None:
    async def computes() -> None:
        until = time.thread_time() + LIMIT + 0.1  # CPU time: however busy the machine is
        while time.thread_time() < until:
            pass

    with guarding(asyncio.get_running_loop(), LIMIT) as guard:
        await asyncio.create_task(computes())
    assert len(guard.reports) == 1 and "computes" in guard.reports[0], guard.reports


async def test_time_spent_waiting_for_a_cpu_is_not_counted() -> None:
    """The kernel's count of time spent waiting for a CPU is taken off; here a stand-in clock
    says the whole sleep was such waiting."""
    waiting = [0.0]

    def preempted() -> None:
        time.sleep(LIMIT + 0.1)
        waiting[0] += LIMIT + 0.1

    with guarding(asyncio.get_running_loop(), LIMIT, lambda: waiting[0]) as guard:
        asyncio.get_running_loop().call_soon(preempted)
        await asyncio.sleep(0.01)
    assert guard.reports == []


async def test_other_loops_are_not_timed() -> None:
    def other_loop() -> None:
        async def sleeps() -> None:
            time.sleep(LIMIT + 0.1)

        asyncio.run(sleeps())

    with guarding(asyncio.get_running_loop(), LIMIT) as guard:
        thread = threading.Thread(target=other_loop)
        thread.start()
        await asyncio.to_thread(thread.join)
    assert guard.reports == []


def test_the_cpu_wait_clock_never_goes_back() -> None:
    with cpu_wait_clock() as waited:
        readings = [waited() for _ in range(100)]
    assert readings == sorted(readings) and readings[0] >= 0


@pytest.mark.slow
def test_the_fixture_fails_a_test_that_blocks_the_loop(tmp_path: Path) -> None:
    (tmp_path / "test_blocking.py").write_text(
        "import time\n"
        "import loop_guard as guard\n"
        "loop_guard = guard.loop_guard\n"
        "async def test_blocks():\n"
        "    time.sleep(guard.LIMIT + 0.2)\n"
        "async def test_yields():\n"
        "    import asyncio\n"
        "    await asyncio.sleep(guard.LIMIT + 0.2)\n"
    )
    support = Path(__file__).with_name("support")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "asyncio_mode=auto",
            "-o",
            "asyncio_default_fixture_loop_scope=function",
            f"--rootdir={tmp_path}",
            str(tmp_path),
        ],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(support)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "2 passed, 1 error" in done.stdout, done.stdout + done.stderr
    assert "the event loop was blocked for more than 0.5 s" in done.stdout
    assert "test_blocks" in done.stdout
