"""Fail a test when any event-loop callback holds the loop longer than :data:`LIMIT` seconds.

The :func:`loop_guard` fixture times every callback and task step of the test's loop and fails
the test at teardown if one ran too long: a command that replays a big game or draws a board on
the loop would make every other server wait that long.

A callback is timed as asyncio's debug mode times it (the wall-clock time around
``Handle._run``), less the time the kernel kept the loop's thread runnable but waiting for a CPU
(``/proc/self/task/<tid>/schedstat``, second field).  That is the time the callback itself held
the loop, computing or blocked (sleeping, waiting for a lock, the GIL or a disk), whatever else
the machine runs: with pytest-xdist workers and other jobs sharing two cores, a step of 50 ms
could take over half a second of wall-clock time while the thread merely waited for its turn,
and a guard on wall-clock time then failed tests that hold the loop for no longer than on an
idle machine.  Where the kernel does not report that time the guard falls back to wall-clock
time.  asyncio's debug mode stays on for its other checks (such as a loop used from another
thread).

Import it into a test module (``loop_guard = guard.loop_guard``) to apply it to every test
there; it is autouse.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

LIMIT = 0.5
"""Seconds one callback may hold the loop: generous, so only real blocking trips it."""


@contextmanager
def cpu_wait_clock() -> Iterator[Callable[[], float]]:
    """A clock of the seconds the calling thread has spent runnable but waiting for a CPU.

    It reads the thread's own ``schedstat`` through a descriptor kept open (a few microseconds
    a read); where there is none (not Linux, or a kernel without scheduler statistics) the
    clock stands still, which leaves the guard timing wall-clock time.  After the ``with`` it
    keeps its last reading: the task step that leaves the ``with`` is timed after that."""
    path = f"/proc/self/task/{threading.get_native_id()}/schedstat"
    last = [0.0]
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        yield lambda: 0.0
        return
    open_fd: list[int] = [fd]

    def waited() -> float:
        if open_fd:
            last[0] = int(os.pread(open_fd[0], 128, 0).split()[1]) / 1e9
        return last[0]

    try:
        waited()
    except (OSError, ValueError, IndexError):
        open_fd.clear()
    try:
        yield waited
    finally:
        open_fd.clear()
        os.close(fd)


def describe(handle: asyncio.Handle) -> str:
    """The handle as asyncio's debug mode names it: a task step by its task."""
    task = getattr(getattr(handle, "_callback", None), "__self__", None)
    return repr(task) if isinstance(task, asyncio.Task) else repr(handle)


class SlowCallbacks:
    """Times the callbacks of one loop and collects a report for each that held it too long."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, limit: float, waited: Callable[[], float]
    ) -> None:
        self.loop = loop
        self.limit = limit
        self.waited = waited
        self.reports: list[str] = []
        self.worst = 0.0
        """The longest any callback held the loop (seconds), for benchmarks."""

    def timed(self, run: Callable[[asyncio.Handle], None]) -> Callable[[asyncio.Handle], None]:
        """``Handle._run`` timed for this loop's callbacks, unchanged for any other loop's."""

        def timed_run(handle: asyncio.Handle) -> None:
            if getattr(handle, "_loop", None) is not self.loop:
                return run(handle)
            started, waited = time.perf_counter(), self.waited()
            try:
                return run(handle)
            finally:
                wall = time.perf_counter() - started
                queued = self.waited() - waited
                self.worst = max(self.worst, wall - queued)
                if wall - queued > self.limit:
                    self.reports.append(
                        f"Executing {describe(handle)} took {wall - queued:.3f} seconds"
                        f" (and {queued:.3f} s more waiting for a CPU)"
                    )

        return timed_run


@contextmanager
def guarding(
    loop: asyncio.AbstractEventLoop,
    limit: float = LIMIT,
    waited: Callable[[], float] | None = None,
    debug: bool = True,
) -> Iterator[SlowCallbacks]:
    """Time ``loop``'s callbacks while inside (on the loop's own thread).  ``debug=False``
    leaves asyncio's debug mode off (a benchmark: its checks cost time on every call)."""
    debug, slow = loop.get_debug(), loop.slow_callback_duration
    handle_class: Any = asyncio.Handle
    run = handle_class._run
    with cpu_wait_clock() as clock:
        guard = SlowCallbacks(loop, limit, waited or clock)
        handle_class._run = guard.timed(run)
        loop.set_debug(debug)
        loop.slow_callback_duration = 3600.0  # the guard reports, not debug mode's wall clock
        try:
            yield guard
        finally:
            handle_class._run = run
            loop.set_debug(debug)
            loop.slow_callback_duration = slow


@pytest.fixture(autouse=True)
async def loop_guard() -> AsyncIterator[SlowCallbacks]:
    with guarding(asyncio.get_running_loop()) as guard:
        yield guard
    if guard.reports:
        pytest.fail(
            f"the event loop was blocked for more than {LIMIT} s:\n" + "\n".join(guard.reports)
        )
