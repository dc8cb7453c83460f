"""The game service: every rule of play around the engine, over plain ids and a store.

Front ends (Discord, the console) call these coroutines and turn the frozen results into
messages.  Every state change runs in one store write transaction that re-reads the game and
updates it only at the version it read, so two racing commands can never both succeed against
the same turn.  Any refusal raises a :class:`~bot.service.errors.ServiceError` before anything
is written, so the transaction rolls back and the state is unchanged.

``GameService`` is one facade over several concerns, each in its own module: ``challenges``,
``play``, ``aborts`` (players ending a game with no result), ``clocks``, ``moderation`` (and
settings), ``queries`` and ``claims`` (which process thinks for the computer), all sharing
``core``
(the store, the clock, the engine cache and the checks every player action shares).
"""

from __future__ import annotations

import asyncio
from typing import Self

from .aborts import Aborts
from .challenges import Challenges
from .claims import TurnClaims
from .clocks import Clocks
from .core import clock_row, next_reminder, utc_now
from .engines import stop_replays
from .moderation import Moderation
from .notices import Notices
from .play import Play
from .queries import Queries
from .ratings.service import Standings
from .softtime import SoftTime
from .tournament_play import TournamentPlay
from .vacations import Vacations
from .web_games import WebGames
from .web_tournaments import WebTournaments


class GameService(
    Challenges,
    Play,
    Aborts,
    Clocks,
    Moderation,
    WebGames,
    WebTournaments,
    Queries,
    Standings,
    TurnClaims,
    TournamentPlay,
    Vacations,
    SoftTime,
    Notices,
):
    """Challenges, games, clocks and moderation.  Knows nothing of Discord or SQL.

    ``GameService(store, clock=None, rng=None)``: ``store`` is any :class:`bot.store.Store`
    (``await bot.store.open_store(target)``); ``clock`` returns the current time as an aware
    UTC datetime (inject a fake in tests); ``rng`` decides random first players.  Admin
    methods trust the caller to have checked that ``actor_id`` is a server admin; they record
    who acted in the audit log.

    Use it as ``async with GameService(store) as service:``: leaving the block ends the
    replay process cold games are replayed in, so the process can exit (the store stays
    open: whoever opened it closes it).
    """

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """End the replay process (waiting for it off the event loop); the service stays
        usable, and the next cold game starts a new one."""
        await asyncio.to_thread(stop_replays)


__all__ = ["GameService", "clock_row", "next_reminder", "utc_now"]
