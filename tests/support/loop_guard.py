"""Fail a test when any event-loop callback blocks longer than :data:`LIMIT` seconds.

asyncio's debug mode times every callback and task step and logs "Executing <...> took N
seconds" on the ``asyncio`` logger when one exceeds ``loop.slow_callback_duration``.  The
:func:`loop_guard` fixture turns debug mode on for the test's loop, collects those reports with
a logging handler, and fails the test at teardown if there were any: a command that replays a
big game or draws a board on the loop would make every other server wait that long.

Import it into a test module (``loop_guard = guard.loop_guard``) to apply it to every test
there; it is autouse.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

LIMIT = 0.5
"""Seconds one callback may hold the loop: generous, so only real blocking trips it."""


class SlowCallbacks(logging.Handler):
    """Collects asyncio's slow-callback reports."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.reports: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith("Executing "):
            self.reports.append(message)


@pytest.fixture(autouse=True)
async def loop_guard() -> AsyncIterator[SlowCallbacks]:
    loop = asyncio.get_running_loop()
    debug, limit = loop.get_debug(), loop.slow_callback_duration
    handler = SlowCallbacks()
    logger = logging.getLogger("asyncio")
    logger.addHandler(handler)
    loop.set_debug(True)
    loop.slow_callback_duration = LIMIT
    try:
        yield handler
    finally:
        loop.set_debug(debug)
        loop.slow_callback_duration = limit
        logger.removeHandler(handler)
    if handler.reports:
        pytest.fail(
            f"the event loop was blocked for more than {LIMIT} s:\n" + "\n".join(handler.reports)
        )
