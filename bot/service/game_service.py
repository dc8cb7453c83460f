"""The game service: every rule of play around the engine, over plain ids and a store.

Front ends (Discord, the console, the web) call these coroutines and turn the frozen results
into messages.  Every state change runs in one store write transaction that re-reads the game
and updates it only at the version it read, so two racing commands can never both succeed
against the same turn.  Any refusal raises a :class:`~bot.service.errors.ServiceError` before
anything is written, so the transaction rolls back and the state is unchanged.

``GameService`` is a composition root: one sub-service per feature, each over the one shared
:class:`~bot.service.core.ServiceCore` (the store, the unit of work, the engine cache, the
clock, the events):

=====================  ===================================================================
``service.challenges``  challenges: create, accept, decline, cancel, list
``service.play``        moves, swaps, resignation, takebacks
``service.hints``       hints in casual games: the computer's suggested move
``service.aborts``      a game ended with no result by its players
``service.games``       reading games: by channel or id, lists, records, positions
``service.clocks``      reminders and time losses that fall due
``service.vacations``   vacations (clocks paused for a player's games)
``service.soft_time``   soft time: claiming a win or an abort when a clock is not enforced
``service.ratings``     ratings, leaderboards, profiles, rebuilds
``service.tournaments`` tournaments and league seasons
``service.notices``     how each player hears of their turn; digests
``service.moderation``  server settings, moderators' rulings, the audit log
``service.claims``      which process thinks for the computer
``service.web``         the web pages' read models (served games and tournaments)
``service.analysis``    stored analyses of finished games, computed once (issue 48)
=====================  ===================================================================

The root itself forwards a few names that outside callers have always used (listed in
:data:`FORWARDED`), holds the core's :attr:`events` bus, and owns the service's lifetime.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from datetime import datetime
from typing import Self

from ..store import Store
from .analysis import Analyses
from .challenges import Challenges
from .claims import TurnClaims
from .clocks.due import Clocks
from .clocks.softtime import SoftTime
from .clocks.vacations import Vacations
from .core import ServiceCore, clock_row, next_reminder, utc_now
from .engines import stop_replays
from .events import EventBus
from .games import Games
from .hints import Hints
from .moderation import Moderation
from .notices import Notices
from .play.aborts import Aborts
from .play.play import Play
from .ratings.service import Ratings
from .tournaments.service import Tournaments
from .web import WebReads

FORWARDED = (
    "create_challenge",
    "accept_challenge",
    "cancel_challenge",
    "get_game",
    "get_game_by_id",
    "latest_game",
    "game_summaries",
    "position",
    "play_move",
    "resign",
    "create_tournament",
    "join_tournament",
    "start_tournament",
    "get_tournament",
    "tournament_games",
    "tournament_standings",
    "start_vacation",
    "end_vacation",
    "leaderboard",
)
"""The root's forwarding names: each is the named sub-service's method, unchanged."""


class GameService:
    """Challenges, games, clocks, ratings, tournaments and moderation.  Knows nothing of
    Discord, HTTP or SQL.

    ``GameService(store, clock=None, rng=None)``: ``store`` is any :class:`bot.store.Store`
    (``await bot.store.open_store(target)``); ``clock`` returns the current time as an aware
    UTC datetime (inject a fake in tests); ``rng`` decides random first players.  Admin
    methods trust the caller to have checked that ``actor_id`` is a server admin; they record
    who acted in the audit log.

    Use it as ``async with GameService(store) as service:``: leaving the block ends the
    replay process cold games are replayed in, so the process can exit (the store stays
    open: whoever opened it closes it).
    """

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        core = ServiceCore(store, clock, rng)
        self.core = core
        self.challenges = Challenges(core)
        self.play = Play(core)
        self.aborts = Aborts(core)
        self.hints = Hints(core)
        self.games = Games(core)
        self.clocks = Clocks(core)
        self.vacations = Vacations(core)
        self.soft_time = SoftTime(core)
        self.ratings = Ratings(core)
        self.tournaments = Tournaments(core)
        self.notices = Notices(core)
        self.moderation = Moderation(core)
        self.claims = TurnClaims(core)
        self.web = WebReads(core)
        self.analysis = Analyses(core)
        # The forwarding names (FORWARDED): the sub-services' own bound methods.
        self.create_challenge = self.challenges.create_challenge
        self.accept_challenge = self.challenges.accept_challenge
        self.cancel_challenge = self.challenges.cancel_challenge
        self.get_game = self.games.get_game
        self.get_game_by_id = self.games.get_game_by_id
        self.latest_game = self.games.latest_game
        self.game_summaries = self.games.game_summaries
        self.position = self.games.position
        self.play_move = self.play.play_move
        self.resign = self.play.resign
        self.create_tournament = self.tournaments.create_tournament
        self.join_tournament = self.tournaments.join_tournament
        self.start_tournament = self.tournaments.start_tournament
        self.get_tournament = self.tournaments.get_tournament
        self.tournament_games = self.tournaments.tournament_games
        self.tournament_standings = self.tournaments.tournament_standings
        self.start_vacation = self.vacations.start_vacation
        self.end_vacation = self.vacations.end_vacation
        self.leaderboard = self.ratings.leaderboard

    @property
    def store(self) -> Store:
        return self.core.store

    @property
    def events(self) -> EventBus:
        """Where front ends subscribe to what writes did, after they commit."""
        return self.core.events

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """End the replay process (waiting for it off the event loop); the service stays
        usable, and the next cold game starts a new one."""
        await asyncio.to_thread(stop_replays)


__all__ = ["FORWARDED", "GameService", "clock_row", "next_reminder", "utc_now"]
