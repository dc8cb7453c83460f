"""Games as the web shows them: public games by their page's token, and nothing else.

A game is served only if it is public (its channel could be read by everyone when it started)
and its server has not turned the web listing off.  Every other game, and every token that is
not a game's, gives the same answer (None), so a page cannot tell a private game from one that
does not exist.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules import Game

from ..store import GameRow, Tx
from . import convert
from .checks import check_limit
from .engines import play_off_loop, warms_engines
from .queries import Queries
from .types import GameRecord, GameSummary

TOKEN_LIMIT = 64
"""A token longer than this is no game's (they are 22 characters): refused unread."""
CATCH_UP = 16
"""The most new moves played onto a cached engine; more (or a takeback) replays the game."""
MAX_WATCHED = 1000
"""The most tokens one :meth:`WebGames.served_versions` call asks about."""


@dataclass(frozen=True, slots=True)
class ServedGame:
    """A listed game: its summary, its page's token and the players' names when it started."""

    summary: GameSummary
    web_token: str
    names: dict[int, str] = field(default_factory=dict, hash=False)


def is_token(value: object) -> bool:
    """Whether ``value`` could be a web token at all (short URL-safe text)."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= TOKEN_LIMIT
        and all(c.isascii() and (c.isalnum() or c in "-_") for c in value)
    )


class WebGames(Queries):
    """Read-only lookups for the game pages: only served games are ever returned."""

    @warms_engines
    async def served_game(self, web_token: str) -> tuple[GameRecord, Game] | None:
        """The public game with this token, as its full record and a copy of its engine at
        that version (for drawing any of its positions); None for a private game, a game of a
        server whose listing is off, and a token that is no game's alike."""
        if not is_token(web_token):
            return None
        async with self.store.read() as tx:
            row = await tx.served_game(web_token)
            if row is None:
                return None
            game = await self._served_engine(tx, row)
            record = await self._full_record(tx, row, game)
            return record, game.copy()

    async def _served_engine(self, tx: Tx, row: GameRow) -> Game:
        """The engine at ``row``'s version.  A page process never plays the moves itself
        (a bot process does), so after each move its cached engine is one version behind:
        the few new moves are played on a copy of it rather than the whole game replayed."""
        cached = self._engines.get(row.id)
        if cached is not None and cached[0] != row.version:
            before = cached[1]
            moves = [m.move for m in await tx.moves(row.id)]
            known = before.moves
            if moves[: len(known)] == known and len(moves) - len(known) <= CATCH_UP:
                game = before.copy()
                for move in moves[len(known) :]:
                    await play_off_loop(game, move)
                self._remember(row.id, row.version, game)
                return game
        return await self._engine(tx, row)

    async def served_games(self, limit: int = 50) -> list[ServedGame]:
        """The most recently updated public games of servers whose listing is on, from
        stored columns only (no engine is built)."""
        check_limit(limit)
        async with self.store.read() as tx:
            rows = await tx.served_games(limit)
        return [ServedGame(convert.summary(r), r.web_token or "", convert.names(r)) for r in rows]

    async def served_versions(self, web_tokens: Sequence[str]) -> dict[str, int]:
        """The current version of each of these games that is still served, in one query
        (at most :data:`MAX_WATCHED` tokens; a game no longer served is left out)."""
        tokens = sorted({t for t in web_tokens if is_token(t)})[:MAX_WATCHED]
        async with self.store.read() as tx:
            found = await tx.served_versions(tokens)
        return {v.web_token: v.version for v in found}
