"""Live game pages: one poller per process feeds every open page's Server-Sent Events.

Any bot process may play a move, so this process learns of it from the store: every
:data:`POLL_SECONDS` one query reads the versions of all the games that have an open page
(however many pages watch each), and only a game whose version changed is read in full, once,
and its new state handed to every page watching it.  The cost therefore grows with the games
watched, not the watchers, and a page sees a move about ``POLL_SECONDS`` after it was
committed.

Each watcher holds only the latest state (a newer one replaces an unsent older one, since every
state is complete), so a slow reader never makes the process buffer more than one update.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger("crosspath.web")

POLL_SECONDS = 0.5
"""How often the versions of watched games are read: a move shows within about this long."""
MAX_WATCHERS = 5000
"""The most open live pages one process serves; past it a page simply does not update."""

VersionSource = Callable[[list[str]], Awaitable[dict[str, int]]]
"""The current version of each token still served (one query for all of them)."""
StateSource = Callable[[str], Awaitable[tuple[int, bytes] | None]]
"""A served game's version and its state as one SSE ``data`` payload (None: not served)."""


@dataclass(eq=False)
class Watcher:
    """One open page: the latest state not yet sent to it, and a flag to wake its handler."""

    token: str
    version: int
    latest: bytes | None = None
    gone: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def offer(self, version: int, payload: bytes) -> None:
        if version != self.version:
            self.version = version
            self.latest = payload
            self.wake.set()

    def end(self) -> None:
        self.gone = True
        self.wake.set()


class LiveHub:
    """The watchers of this process by game token, and the task that polls for them."""

    def __init__(
        self, versions: VersionSource, state: StateSource, interval: float = POLL_SECONDS
    ) -> None:
        self._versions = versions
        self._state = state
        self.interval = interval
        self._watchers: dict[str, set[Watcher]] = {}
        self._known: dict[str, int] = {}
        self._payloads: dict[str, tuple[int, bytes]] = {}
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        self.polls = 0

    @property
    def watching(self) -> int:
        return sum(len(group) for group in self._watchers.values())

    def watch(self, token: str, version: int) -> Watcher | None:
        """A watcher for a page that shows ``token`` at ``version`` (None: too many pages, or
        the server is stopping: a request that was still reading when shutdown began must not
        start the poller again, which nothing would then end)."""
        if self._stopped or self.watching >= MAX_WATCHERS:
            return None
        watcher = Watcher(token, version)
        group = self._watchers.setdefault(token, set())
        group.add(watcher)
        self._known.setdefault(token, version)
        cached = self._payloads.get(token)
        if cached is not None:  # the page was drawn before the last change this hub saw
            watcher.offer(*cached)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="live pages")
        return watcher

    def leave(self, watcher: Watcher) -> None:
        group = self._watchers.get(watcher.token)
        if group is None:
            return
        group.discard(watcher)
        if not group:
            del self._watchers[watcher.token]
            self._known.pop(watcher.token, None)
            self._payloads.pop(watcher.token, None)

    def close_all(self) -> None:
        """End every open stream (the server is shutting down) and stop polling."""
        for group in self._watchers.values():
            for watcher in group:
                watcher.end()
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while self._watchers:
            await asyncio.sleep(self.interval)
            try:
                await self.poll()
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup: the pages update at a later poll
                log.warning("could not poll the watched games", exc_info=True)

    async def poll(self) -> None:
        """Read the watched games' versions once; push the new state of those that moved."""
        tokens = list(self._watchers)
        if not tokens:
            return
        self.polls += 1
        current = await self._versions(tokens)
        for token in tokens:
            version = current.get(token)
            if version is None:  # no longer served (listing turned off, or gone)
                for watcher in self._watchers.get(token, ()):
                    watcher.end()
                continue
            if version == self._known.get(token):
                continue
            state = await self._state(token)
            if state is None:
                continue
            self._known[token] = state[0]
            self._payloads[token] = state
            for watcher in list(self._watchers.get(token, ())):
                watcher.offer(*state)

    async def stop(self) -> None:
        self._stopped = True
        self.close_all()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
