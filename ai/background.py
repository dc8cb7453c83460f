"""The background pool: one low-priority worker process for work nobody is waiting on.

Mining finished games for puzzles runs for up to 20 s of solver time a game.  On the
computer's pool (:mod:`ai.pool`, one worker) it would queue a player's move behind it; on a
thread it would hold the GIL, and the event loop would wait for it on every wake-up.  So it
gets a pool of its own: one worker, started with ``spawn`` on first use, ended with the bot
however it ends (:func:`ai.lifetime.spawn_pool`), and lowering its own priority as it starts
(:data:`NICENESS`) so that on a small host the kernel gives the CPU to the computer's moves,
the replays and the bot itself first.

Analysis stays on the computer's pool: a player asked for it and watches its progress, so it
must not wait behind a mining job, nor run at a priority a busy host would starve.
"""

from __future__ import annotations

import contextlib
import os
import threading
from concurrent.futures import ProcessPoolExecutor

from .lifetime import spawn_pool

NICENESS = 10
"""How much the worker lowers its priority (``os.nice``): a lower share of the CPU than any
process at the default priority, so the bot and the computer's moves always win it."""

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def lower_priority() -> None:
    """Worker initializer: lower this process's priority (a no-op where that is not possible)."""
    with contextlib.suppress(AttributeError, OSError):  # not POSIX, or a sandbox forbids it
        os.nice(NICENESS)


def get_background_pool() -> ProcessPoolExecutor:
    """The background pool, started on first use (one low-priority worker)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = spawn_pool(1, also=lower_priority)
        return _pool


def discard(pool: ProcessPoolExecutor) -> None:
    """Forget ``pool`` if it is the background pool (a broken one: its worker died), so the
    next job starts a fresh worker."""
    global _pool
    with _pool_lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def shutdown_background(wait: bool = False) -> None:
    """Stop the background pool (the bot's shutdown path); safe to repeat.  Queued jobs are
    dropped.  ``wait=False`` (the bot's close) ends the worker at once, mid-job.

    Why end it rather than leave it: ``concurrent.futures`` joins its pools' threads when the
    interpreter exits, and they wait for the running job, so a bot stopped during a 20 s
    mining job took up to 20 s to exit (measured: 9 s for an 8 s job).  A mining job writes
    nothing until it returns, so ending it loses only that game's puzzles."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is None:
        return
    if not wait:
        # The pool's own table of its workers (CPython keeps it under this name since 3.2;
        # there is no public way before 3.14's terminate_workers).
        for process in list((pool._processes or {}).values()):
            process.terminate()
    pool.shutdown(wait=wait, cancel_futures=True)
