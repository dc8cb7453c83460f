"""Ctrl-C in the console: stop the game at once, even in the middle of reading a line."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def interrupt_at_once() -> Iterator[None]:
    """Ctrl-C stops the game where it is, even while the console waits for a line.

    ``asyncio.run`` would otherwise only cancel its task on the first Ctrl-C, and the console
    reads standard input without awaiting, so nothing would happen until Enter.  With this
    handler the interrupt is raised inside the read; the store still closes on the way out.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:  # someone chose their own handling
        yield
        return
    signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
