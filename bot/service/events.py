"""What a service write reports after it commits: plain domain events, and the bus that hands
them to whoever listens.

Why events: the reactions to a write (posting a thread, paying a notice, a live page, a
metric) belong to the front ends, and must never run inside the transaction (a slow post
would hold the store's lock) nor happen for a write that rolled back.  So a write *emits* what
happened while it runs (:meth:`EventBus.emit`, from inside
:meth:`~bot.service.core.ServiceCore._write`), and the bus *publishes* the lot after the
commit, in order, to the listeners registered for each event's class.  What must change with a
write atomically (a tournament pairing its next round when a game ends) stays inside the
transaction: see :meth:`~bot.service.core.ServiceCore.on_game_end`.

Listeners are plain callables run on the caller's task right after the commit; one that has
slow work to do starts its own task.  A listener that raises is logged and skipped: the write
has committed, and the caller still gets its result.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TypeVar

from .types import GameEnded

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GameOver:
    """A game ended, however it ended (a connecting move, a draw, resignation, time, a
    moderator, a forfeit); ``ended`` holds the final game, its result and the rating change."""

    ended: GameEnded


@dataclass(frozen=True, slots=True)
class RoundPaired:
    """A tournament round's games were created (its first round at the start, or the next one
    when a game completed a round); each game waits for its thread."""

    tournament_id: int
    guild_id: int
    round: int
    game_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TournamentFinished:
    """A tournament's last game ended (or its last player withdrew): its podium is due."""

    tournament_id: int
    guild_id: int


@dataclass(frozen=True, slots=True)
class SeasonOpened:
    """A league's season ended and its next season opened for registration."""

    league_id: int
    guild_id: int
    season: int
    tournament_id: int


@dataclass(frozen=True, slots=True)
class AnalysisReady:
    """A finished game's analysis was computed and stored (once per game and final version):
    the pages that show the game may now show it."""

    game_id: int
    game_version: int
    guild_id: int
    requester_id: int


Event = GameOver | RoundPaired | TournamentFinished | SeasonOpened | AnalysisReady
"""Every event a write can report."""
EVENTS: tuple[type[Event], ...] = (
    GameOver,
    RoundPaired,
    TournamentFinished,
    SeasonOpened,
    AnalysisReady,
)

E = TypeVar("E", bound=Event)
Listener = Callable[[E], None]

_PENDING: ContextVar[list[Event] | None] = ContextVar("crosspath_pending_events", default=None)


class EventBus:
    """The listeners of one service, and the events of the writes in flight."""

    def __init__(self) -> None:
        self._listeners: dict[type, list[Callable[[object], None]]] = {}

    def subscribe(self, kind: type[E], listener: Listener[E]) -> None:
        """Call ``listener(event)`` for each ``kind`` event, after its write commits."""
        self._listeners.setdefault(kind, []).append(listener)  # type: ignore[arg-type]

    @contextmanager
    def collecting(self) -> Iterator[list[Event]]:
        """The list the events of one write block are kept in until it commits.

        A context variable keeps one list per task, so two writes in flight on one event loop
        never mix their events."""
        pending: list[Event] = []
        token = _PENDING.set(pending)
        try:
            yield pending
        finally:
            _PENDING.reset(token)

    def emit(self, event: Event) -> None:
        """Keep ``event`` for the write block it happened in."""
        pending = _PENDING.get()
        if pending is None:
            raise RuntimeError(f"{type(event).__name__} emitted outside a service write")
        pending.append(event)

    def publish(self, events: Sequence[Event]) -> None:
        """Hand committed ``events`` to their listeners, in order."""
        for event in events:
            for listener in self._listeners.get(type(event), ()):
                try:
                    listener(event)
                except Exception:
                    log.exception("an event listener failed", extra={"event": type(event).__name__})
