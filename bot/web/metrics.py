"""Every metric the bot exports, in one registry, named ``crosspath_*``.

One :class:`Metrics` object per process (the bot keeps it as ``bot.metrics``); tests make
their own, so no test sees another's counts and nothing lands in prometheus-client's global
registry.  Hooks sit at the few central places: the interaction dispatch and error path
(``bot.discord.instrument``), the computer's turn, and :class:`TimedStore`, a wrapper around
the store that times every call by its name without the store knowing.

Values that live elsewhere (gateway latency per shard, active games) are read when
``/metrics`` is scraped: the latency from the client in memory, the active games from the
store at most once per :data:`ACTIVE_GAMES_TTL` seconds, so a busy scraper never turns into
database load.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import math
import time
from collections import Counter as Tally
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, TypeVar, cast

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.service import EVENTS, Event, EventBus

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

ACTIVE_GAMES_TTL = 10.0
"""Seconds a count of active games is reused before the store is asked again."""
ACTIVE_GAMES_TIMEOUT = 1.0
"""The longest a scrape waits for that count; a slow database leaves the last count shown."""

# First responses must come within Discord's 3 s; the interesting range is 5 ms to 1 s.
RESPONSE_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
THINKING_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0)
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)

LatencySource = Callable[[], Iterable[tuple[int, float]]]
"""(shard id, seconds) pairs, e.g. ``discord.AutoShardedClient.latencies``."""
GameCountSource = Callable[[], Awaitable[dict[str, int]]]
"""Active games by game type, read from the store."""


class Metrics:
    """The metric objects; hooks call their ``labels(...).inc()``/``observe()`` directly."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.interactions = Counter(
            "crosspath_interactions",
            "Interactions handled, by command (or button family) and outcome "
            "(ok, refused, database, error).",
            ["command", "outcome"],
            registry=r,
        )
        self.first_response = Histogram(
            "crosspath_first_response_seconds",
            "Time from an interaction's arrival to the bot's first answer to Discord "
            "(a reply or a deferral), by interaction kind.",
            ["kind"],
            buckets=RESPONSE_BUCKETS,
            registry=r,
        )
        self.moves = Counter(
            "crosspath_moves",
            "Moves played (humans and the computer), by game.",
            ["game"],
            registry=r,
        )
        self.ai_queue = Gauge(
            "crosspath_ai_queue_length",
            "Computer turns waiting for or in the search pool.",
            registry=r,
        )
        self.ai_thinking = Histogram(
            "crosspath_ai_thinking_seconds",
            "Time the computer took to choose a move, queueing included.",
            buckets=THINKING_BUCKETS,
            registry=r,
        )
        self.store_latency = Histogram(
            "crosspath_store_seconds",
            "Store latency by operation (a transaction, or one call inside it).",
            ["operation"],
            buckets=STORE_BUCKETS,
            registry=r,
        )
        self.errors = Counter(
            "crosspath_errors",
            "Errors by kind (bug, database, ai, discord).",
            ["kind"],
            registry=r,
        )
        self.events = Counter(
            "crosspath_events",
            "What committed service writes did, by event (GameOver, RoundPaired, "
            "TournamentFinished, SeasonOpened, AnalysisReady).",
            ["event"],
            registry=r,
        )
        self._gateway: LatencySource | None = None
        self._games: GameCountSource | None = None
        self._game_counts: dict[str, int] | None = None
        self._counted_at = -math.inf
        r.register(_ScrapeTime(self))

    def watch_gateway(self, source: LatencySource) -> None:
        """Report ``source``'s latencies as ``crosspath_gateway_latency_seconds{shard}``."""
        self._gateway = source

    def watch_events(self, bus: EventBus) -> None:
        """Count each event ``bus`` publishes as ``crosspath_events_total{event}``."""
        for kind in EVENTS:
            bus.subscribe(kind, self._count_event)

    def _count_event(self, event: Event) -> None:
        self.events.labels(event=type(event).__name__).inc()

    def watch_games(self, source: GameCountSource) -> None:
        """Report ``source``'s counts as ``crosspath_active_games{game}``."""
        self._games = source

    async def refresh(self) -> None:
        """Update what is read from the store; call before :meth:`render` (it is cached)."""
        if self._games is None or time.monotonic() - self._counted_at < ACTIVE_GAMES_TTL:
            return
        self._counted_at = time.monotonic()  # a failing database is asked again only later
        try:
            self._game_counts = await asyncio.wait_for(self._games(), ACTIVE_GAMES_TIMEOUT)
        except Exception:  # the scrape still answers; /readyz is where a database fault shows
            self.errors.labels(kind="database").inc()

    def render(self) -> bytes:
        """The registry in Prometheus's text format."""
        return generate_latest(self.registry)

    def _scraped(self) -> Iterator[Metric]:
        latency = GaugeMetricFamily(
            "crosspath_gateway_latency_seconds",
            "Heartbeat latency to Discord's gateway, per shard this process runs.",
            labels=["shard"],
        )
        for shard, seconds in self._gateway() if self._gateway is not None else ():
            if math.isfinite(seconds):  # a shard not yet connected has no latency
                latency.add_metric([str(shard)], seconds)
        yield latency
        games = GaugeMetricFamily(
            "crosspath_active_games",
            "Games in progress by game type, in the whole database (read at most every "
            f"{ACTIVE_GAMES_TTL:.0f} s).",
            labels=["game"],
        )
        for game, count in sorted((self._game_counts or {}).items()):
            games.add_metric([game], count)
        yield games


class _ScrapeTime(Collector):
    """The values read at scrape time, as one collector of the registry."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        return list(self.metrics._scraped())


ACTIVE_GAMES_LIMIT = 10_000
"""The most active games one scrape counts (the most recently played first), so a scrape
reads a bounded number of rows; past it, ``crosspath_active_games`` undercounts."""


def active_games_source(store: Any, limit: int = ACTIVE_GAMES_LIMIT) -> GameCountSource:
    """Active games by type, counted from one bounded page of the store's active games."""

    async def count() -> dict[str, int]:
        async with store.read() as tx:
            rows = await tx.games.find_games(active_only=True, limit=limit)
        return dict(Tally(row.game for row in rows))

    return count


class TimedStore:
    """A store that reports how long each of its calls takes, by name, and passes them on.

    ``read()``/``write()`` are timed as whole transactions (``read``/``write``) and the
    transaction they yield times each query by its name (``tx.games.games_for_player`` as
    ``games_for_player`` …); anything else the store offers (``schema_version``, ``backup``
    …) is timed by its own name.  It wraps any object with the store's interface, so the
    store's engines need no metrics code.
    """

    def __init__(self, store: Any, metrics: Metrics) -> None:
        self._store = store
        self._observe = metrics.store_latency

    @property
    def inner(self) -> Any:
        return self._store

    def read(self) -> AbstractAsyncContextManager[Any]:
        return self._transaction("read", self._store.read())

    def write(self) -> AbstractAsyncContextManager[Any]:
        return self._transaction("write", self._store.write())

    @asynccontextmanager
    async def _transaction(
        self, kind: str, inner: AbstractAsyncContextManager[Any]
    ) -> AsyncIterator[Any]:
        start = time.perf_counter()
        try:
            async with inner as tx:
                yield _Timed(tx, self._observe)
        finally:
            self._observe.labels(operation=kind).observe(time.perf_counter() - start)

    async def __aenter__(self) -> TimedStore:
        await self._store.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._store.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return _timed_attribute(self._store, name, self._observe)


class _Timed:
    """A transaction whose coroutine methods are timed by name."""

    def __init__(self, inner: Any, observe: Histogram) -> None:
        self._inner = inner
        self._observe = observe

    def __getattr__(self, name: str) -> Any:
        return _timed_attribute(self._inner, name, self._observe)


def _timed_attribute(inner: Any, name: str, observe: Histogram) -> Any:
    attribute = getattr(inner, name)
    if getattr(attribute, "_tx", None) is inner:
        # A feature's queries (``tx.games``, which holds its transaction: this module imports
        # from bot.service alone): its calls are timed by their own names, which are unique
        # across features, so the labels read as before the store was split.
        return _Timed(attribute, observe)
    if not inspect.iscoroutinefunction(attribute):
        return attribute
    child = observe.labels(operation=name)

    @functools.wraps(attribute)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await attribute(*args, **kwargs)
        finally:
            child.observe(time.perf_counter() - start)

    return timed


S = TypeVar("S")


def timed_store(store: S, metrics: Metrics) -> S:
    """``store`` wrapped in a :class:`TimedStore`, typed as what it wraps (it has every
    method the store has)."""
    return cast(S, TimedStore(store, metrics))
