"""The read models of the web pages: what ``crosspath web`` may ask of the service.

The web process is given this sub-service alone (``service.web``), not the whole service: it
can read served games and tournaments by token, and nothing else.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from rules import Game

from ...store import GameRow, Tx
from .. import convert
from ..analysis.service import stored_analysis
from ..analysis.types import StoredAnalysis
from ..checks import check_limit
from ..core import Feature
from ..engines import play_off_loop, warms_engines
from ..games import full_record
from ..tournaments.tables import info_of, pairing_info, player_names, standings_of
from ..tournaments.types import TournamentInfo
from ..types import GameRecord
from .games import CATCH_UP, MAX_WATCHED, ServedGame, is_token
from .tournaments import ServedTournament


class WebReads(Feature):
    """The web's narrow read interface: only served (public, listed) games and tournaments are
    ever returned, by their page's token, and nothing of the service beyond these lookups."""

    @warms_engines
    async def served_game(self, web_token: str) -> tuple[GameRecord, Game] | None:
        """The public game with this token, as its full record and a copy of its engine at
        that version (for drawing any of its positions); None for a private game, a game of a
        server whose listing is off, and a token that is no game's alike."""
        if not is_token(web_token):
            return None
        async with self.store.read() as tx:
            row = await tx.web.served_game(web_token)
            if row is None:
                return None
            game = await self._served_engine(tx, row)
            record = await full_record(tx, row, game, self._stamp())
            return record, game.copy()

    async def _served_engine(self, tx: Tx, row: GameRow) -> Game:
        """The engine at ``row``'s version.  A page process never plays the moves itself
        (a bot process does), so after each move its cached engine is one version behind:
        the few new moves are played on a copy of it rather than the whole game replayed."""
        cached = self._engines.get(row.id)
        if cached is not None and cached[0] != row.version:
            before = cached[1]
            moves = [m.move for m in await tx.games.moves(row.id)]
            known = before.moves
            if moves[: len(known)] == known and len(moves) - len(known) <= CATCH_UP:
                game = before.copy()
                for move in moves[len(known) :]:
                    await play_off_loop(game, move)
                self._remember(row.id, row.version, game)
                return game
        return await self._engine(tx, row)

    async def served_analysis(self, web_token: str) -> StoredAnalysis | None:
        """The stored analysis of the public finished game with this token, None when there
        is none yet (the web never starts one: it shows what Discord or the console stored),
        and for any game not served."""
        if not is_token(web_token):
            return None
        async with self.store.read() as tx:
            row = await tx.web.served_game(web_token)
            if row is None or row.status != "finished":
                return None
            found = await tx.analysis.analysis(row.id, row.version)
        return stored_analysis(found)

    async def served_games(self, limit: int = 50) -> list[ServedGame]:
        """The most recently updated public games of servers whose listing is on, from
        stored columns only (no engine is built)."""
        check_limit(limit)
        async with self.store.read() as tx:
            rows = await tx.web.served_games(limit)
        return [ServedGame(convert.summary(r), r.web_token or "", convert.names(r)) for r in rows]

    async def served_versions(self, web_tokens: Sequence[str]) -> dict[str, int]:
        """The current version of each of these games that is still served, in one query
        (at most :data:`MAX_WATCHED` tokens; a game no longer served is left out)."""
        tokens = sorted({t for t in web_tokens if is_token(t)})[:MAX_WATCHED]
        async with self.store.read() as tx:
            found = await tx.web.served_versions(tokens)
        return {v.web_token: v.version for v in found}

    async def served_tournament(self, web_token: str) -> ServedTournament | None:
        """The public tournament with this token, with its standings and pairings; None for
        a private tournament, one of a server whose listing is off, and an unknown token
        alike.  The table is computed on a thread: a large league's takes a while, and
        ``crosspath run`` serves Discord from this event loop."""
        if not is_token(web_token):
            return None
        async with self.store.read() as tx:
            t = await tx.web.served_tournament(web_token)
            if t is None:
                return None
            entrants = await tx.tournaments.entrants(t.id)
            pairings = await tx.tournaments.pairings(t.id)
            tokens = await tx.web.game_tokens(
                [p.game_id for p in pairings if p.game_id is not None]
            )
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
            rows = await tx.web.served_tournaments(limit)
            return [info_of(t, await tx.tournaments.entrants(t.id)) for t in rows]
