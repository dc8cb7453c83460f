"""Tournaments as the web shows them: public tournaments by their page's token, nothing else.

A tournament is served only if it is public (its channel could be read by everyone when it
was created) and its server has not turned the web listing off; every other token gives the
same answer (None), as for games (:mod:`.web_games`).  Its games are public games of their
own (made public with it), so the page links each one that the web may show.

Players are named by the display name they joined with, else ``Player N`` by the order they
joined (:func:`.tournament_play.player_names`): never by user id.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from .checks import check_limit
from .core import ServiceCore
from .tournament_play import info_of, pairing_info, player_names, standings_of
from .tournament_types import PairingInfo, StandingRow, TournamentInfo
from .web_games import is_token


@dataclass(frozen=True, slots=True)
class ServedTournament:
    """A public tournament's page: its info, table (empty before the start), pairings by
    round, the players' names by user id, and the web token of each game the web may show
    by game id."""

    info: TournamentInfo
    standings: tuple[StandingRow, ...]
    pairings: tuple[PairingInfo, ...]
    names: dict[int, str] = field(default_factory=dict, hash=False)
    game_tokens: dict[int, str] = field(default_factory=dict, hash=False)


class WebTournaments(ServiceCore):
    """Read-only lookups for the tournament pages: only served tournaments are returned."""

    async def served_tournament(self, web_token: str) -> ServedTournament | None:
        """The public tournament with this token, with its standings and pairings; None for
        a private tournament, one of a server whose listing is off, and an unknown token
        alike.  The table is computed on a thread: a large league's takes a while, and
        ``crosspath run`` serves Discord from this event loop."""
        if not is_token(web_token):
            return None
        async with self.store.read() as tx:
            t = await tx.served_tournament(web_token)
            if t is None:
                return None
            entrants = await tx.entrants(t.id)
            pairings = await tx.pairings(t.id)
            tokens = await tx.game_tokens([p.game_id for p in pairings if p.game_id is not None])
        standings = await asyncio.to_thread(standings_of, t, entrants, pairings)
        return ServedTournament(
            info=info_of(t, entrants),
            standings=tuple(standings),
            pairings=tuple(pairing_info(p) for p in pairings),
            names=player_names(entrants),
            game_tokens=tokens,
        )

    async def served_tournaments(self, limit: int = 20) -> list[TournamentInfo]:
        """The most recently updated public tournaments of servers whose listing is on."""
        check_limit(limit)
        async with self.store.read() as tx:
            rows = await tx.served_tournaments(limit)
            return [info_of(t, await tx.entrants(t.id)) for t in rows]
