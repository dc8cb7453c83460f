"""The live hub: one version query per poll for every watched game, one full read per game
that changed, shared by all its watchers; a game no longer served ends its streams."""

from __future__ import annotations

import asyncio

from bot.web.live import LiveHub


class Source:
    def __init__(self) -> None:
        self.versions = {"a": 1, "b": 5}
        self.version_calls: list[list[str]] = []
        self.state_calls: list[str] = []

    async def current(self, tokens: list[str]) -> dict[str, int]:
        self.version_calls.append(sorted(tokens))
        return {t: self.versions[t] for t in tokens if t in self.versions}

    async def state(self, token: str) -> tuple[int, bytes] | None:
        self.state_calls.append(token)
        version = self.versions[token]
        return version, f"data: {token}{version}\n\n".encode()


async def test_one_query_per_poll_and_one_read_per_changed_game() -> None:
    source = Source()
    hub = LiveHub(source.current, source.state, interval=3600)  # polled by hand here
    watchers = [hub.watch("a", 1) for _ in range(3)] + [hub.watch("b", 5)]
    assert all(w is not None for w in watchers) and hub.watching == 4
    await hub.poll()
    assert source.version_calls == [["a", "b"]] and source.state_calls == []
    source.versions["a"] = 2
    await hub.poll()
    assert source.version_calls[-1] == ["a", "b"] and source.state_calls == ["a"]
    assert hub.polls == 2
    a1, a2, a3, b = watchers
    assert a1 and a2 and a3 and b
    assert {w.latest for w in (a1, a2, a3)} == {b"data: a2\n\n"} and b.latest is None
    assert a1.wake.is_set() and not b.wake.is_set()
    late = hub.watch("a", 1)  # a page drawn before that move gets it at once
    assert late is not None and late.latest == b"data: a2\n\n"
    del source.versions["b"]  # the server's listing was turned off
    await hub.poll()
    assert b.gone and not a1.gone
    for watcher in (a1, a2, a3, b, late):
        hub.leave(watcher)
    assert hub.watching == 0
    await hub.poll()
    assert len(source.version_calls) == 3  # nothing watched: nothing asked
    await hub.stop()


async def test_the_poller_runs_while_pages_watch() -> None:
    source = Source()
    hub = LiveHub(source.current, source.state, interval=0.01)
    watcher = hub.watch("a", 1)
    assert watcher is not None
    source.versions["a"] = 3
    await asyncio.wait_for(watcher.wake.wait(), 2)
    assert watcher.latest == b"data: a3\n\n"
    await hub.stop()
    assert watcher.gone
