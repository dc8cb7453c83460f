"""What the web pages may show: games and tournaments that are public in a server that did not turn
its listing off, by web token."""

from __future__ import annotations

from collections.abc import Sequence

from ..rows import (
    GameRow,
    GameVersion,
    TournamentRow,
)
from ..sql import (
    NEWEST_FIRST,
    SERVED,
    SERVED_ARGS,
    SERVED_TOURNAMENT,
    TOURNAMENTS,
    Row,
    in_chunks,
    marks,
    tournament_row,
)
from .base import Queries


class WebQueries(Queries):
    """The web queries of one transaction (``tx.web``)."""

    async def served_game(self, web_token: str) -> GameRow | None:
        """The game with this web token if the web may show it (:data:`SERVED`), else None:
        a private game and one of a server whose listing is off look like no game at all."""
        found = await self._tx._games(
            f"WHERE web_token = ? AND {SERVED}", (web_token, *SERVED_ARGS)
        )
        return found[0] if found else None

    async def served_games(self, limit: int) -> list[GameRow]:
        """The games the web may show, most recently updated first."""
        return await self._tx._games(
            f"WHERE {SERVED} {NEWEST_FIRST} LIMIT ?", (*SERVED_ARGS, limit)
        )

    async def served_versions(self, web_tokens: Sequence[str]) -> list[GameVersion]:
        """The versions of those of these games the web may show, in one query: what a
        server polls for every game its pages watch (a vanished one is simply left out)."""
        if not web_tokens:
            return []
        rows: list[Row] = []
        for chunk in in_chunks(web_tokens):
            rows += await self._tx._fetch(
                f"SELECT web_token, version FROM games WHERE web_token IN ({marks(chunk)})"
                f" AND {SERVED}",
                (*chunk, *SERVED_ARGS),
            )
        return [GameVersion(r[0], int(r[1])) for r in rows]

    async def served_tournament(self, web_token: str) -> TournamentRow | None:
        """The tournament with this web token if the web may show it, else None."""
        found = await self._tx._one(
            f"{TOURNAMENTS} WHERE web_token = ? AND {SERVED_TOURNAMENT}",
            (web_token, *SERVED_ARGS),
            lock=False,
        )
        return None if found is None else tournament_row(found)

    async def served_tournaments(self, limit: int) -> list[TournamentRow]:
        """The tournaments the web may show, most recently updated first."""
        rows = await self._tx._fetch(
            f"{TOURNAMENTS} WHERE {SERVED_TOURNAMENT} {NEWEST_FIRST} LIMIT ?",
            (*SERVED_ARGS, limit),
        )
        return [tournament_row(r) for r in rows]

    async def game_tokens(self, game_ids: Sequence[int]) -> dict[int, str]:
        """The web tokens of those of these games that the web may show, by game id."""
        if not game_ids:
            return {}
        rows: list[Row] = []
        for chunk in in_chunks(game_ids):
            rows += await self._tx._fetch(
                f"SELECT id, web_token FROM games WHERE id IN ({marks(chunk)})"
                f" AND web_token IS NOT NULL AND {SERVED}",
                (*chunk, *SERVED_ARGS),
            )
        return {int(r["id"]): str(r["web_token"]) for r in rows}
