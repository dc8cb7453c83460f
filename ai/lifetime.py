"""Worker processes that end with the process that started them, however it ends.

A ``ProcessPoolExecutor`` worker blocks reading its task queue, and a spawned worker holds
both ends of that queue's pipe, so it never sees the parent go: after a SIGKILL (or an
out-of-memory kill) of the bot its workers lived on as orphans, and a supervisor restarting
the bot leaked a set on every restart.  :func:`spawn_pool` starts every worker with
:func:`exit_with_parent` as its initializer: a daemon thread in the worker notices within
:data:`POLL_SECONDS` that its parent is gone (it was re-parented, so ``os.getppid()``
changed) and ends the worker at once, even in the middle of a search.

Why not Linux's ``PR_SET_PDEATHSIG``: it fires when the *thread* that started the child
exits, not the process, and a pool starts its workers from whichever thread submits work, so
a worker would be killed under a live bot whenever that thread ended.  Polling the parent's
id is portable (every POSIX system) and costs one system call a quarter-second.

The module uses the standard library only, so the computer's pool (``ai.pool``) and the
service's replay process share it.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

POLL_SECONDS = 0.25
"""How often a worker checks its parent; well inside the 5 s an orphan may live."""

EXIT_ORPHANED = 75
"""A worker's exit status when its parent died (EX_TEMPFAIL: nobody is waiting for it)."""


def exit_with_parent(parent_pid: int, poll_seconds: float = POLL_SECONDS) -> None:
    """Pool initializer: end this process as soon as ``parent_pid`` is no longer its parent.

    ``parent_pid`` is the starter's id taken before the worker existed, so a parent that died
    while the worker was still starting is noticed too (the worker would otherwise watch its
    new parent, the reaper, forever).
    """
    if os.getppid() != parent_pid:
        os._exit(EXIT_ORPHANED)

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(poll_seconds)
        # os._exit, not sys.exit: the main thread may be deep in a search, and nothing in a
        # worker (no files, no locks shared with anyone alive) needs an orderly shutdown.
        os._exit(EXIT_ORPHANED)

    threading.Thread(target=watch, name="crosspath-parent-watch", daemon=True).start()


def _start_worker(parent_pid: int, also: Callable[[], None] | None) -> None:
    exit_with_parent(parent_pid)
    if also is not None:
        also()


def spawn_pool(max_workers: int = 1, also: Callable[[], None] | None = None) -> ProcessPoolExecutor:
    """A process pool whose workers are started with ``spawn`` and end with this process.

    ``spawn`` so a pool created inside a running bot never forks a process that runs threads.
    ``also``: a further initializer (a module-level function, so it can be sent to the worker).
    """
    return ProcessPoolExecutor(
        max_workers=max_workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(), also),
    )
