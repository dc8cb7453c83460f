"""One dedicated thread that owns a SQLite connection and runs jobs for the event loop.

Why a thread of our own rather than aiosqlite: the store sends a whole batch of statements
(BEGIN, deferred writes, one read or the COMMIT) in one hop, and it must be able to wait for a
hop that its caller no longer wants (a cancelled task) so the lock is released only after the
ROLLBACK really ran.  aiosqlite offers neither through its public API.  This is the same
design (a queue, one thread, results handed back with ``call_soon_threadsafe``) in 100 lines
we own, with two differences that matter: a job whose event loop has closed does not kill the
thread, and a cancelled caller can still wait for its job to finish.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from .errors import StoreClosed

T = TypeVar("T")

log = logging.getLogger(__name__)

_Job = tuple[Callable[[], Any], "asyncio.Future[Any] | None", asyncio.AbstractEventLoop | None]


def _settle(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(value)
    else:
        future.set_exception(error)


class Worker:
    """Runs jobs one at a time, in the order they were submitted, on its own thread."""

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._stopping = False
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, future, loop = job
            value: Any = None
            error: BaseException | None = None
            try:
                value = fn()
            except BaseException as exc:  # handed to the coroutine waiting for this job
                error = exc
            if future is None or loop is None:
                if error is not None:
                    log.warning("a database job nobody waits for failed: %r", error)
                continue
            # If that loop has closed nobody waits for this job: keep serving the others.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, future, value, error)

    async def run(self, fn: Callable[[], T]) -> T:
        """Run ``fn()`` on the thread and return its result (or raise its exception).

        If the caller is cancelled meanwhile, this still waits until the thread has finished
        ``fn`` (SQLite cannot be stopped mid-statement) and then raises the cancellation, so
        whatever comes next (a ROLLBACK, releasing a lock) happens after ``fn`` really ended.
        """
        if self._stopping or not self.alive:
            raise StoreClosed("the store is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((fn, future, loop))
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            await self._outlast(future)
            raise

    async def _outlast(self, future: asyncio.Future[Any]) -> None:
        """Wait, through any further cancellations, until the thread has finished ``future``."""
        while not future.done() and self.alive:
            try:
                await asyncio.wait((future,), timeout=1.0)
            except asyncio.CancelledError:
                continue
        if future.done() and not future.cancelled():
            future.exception()  # the caller was cancelled: nobody else will look at it

    def run_and_forget(self, fn: Callable[[], Any]) -> None:
        """Queue ``fn()`` without waiting for it (closing the connection at shutdown)."""
        self._jobs.put((fn, None, None))

    def stop(self) -> None:
        """Accept no more jobs; the thread ends after the jobs already queued."""
        if not self._stopping:
            self._stopping = True
            self._jobs.put(None)

    async def join(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the thread to end; True if it did."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.alive:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            await asyncio.sleep(min(0.01, remaining))
        return True
