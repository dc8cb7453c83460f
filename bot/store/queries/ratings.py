"""Ratings: locking and saving the players' rows when a rated game ends, their history, the
leaderboard, and what a rebuild or a reset reads and writes."""

from __future__ import annotations

from collections.abc import Sequence

from ..rows import (
    RatedResult,
    RatingHistoryRow,
    RatingRow,
)
from ..sql import (
    HISTORY,
    HISTORY_FIELDS,
    INSERT_HISTORY,
    RATING_FIELDS,
    RATINGS,
    UPSERT_RATING,
    Row,
    _pairs,
    in_chunks,
    marks,
    values_of,
)
from .base import Queries


class RatingQueries(Queries):
    """The ratings queries of one transaction (``tx.ratings``)."""

    async def lock_ratings(
        self,
        guild_id: int,
        game: str,
        user_ids: Sequence[int],
        *,
        initial: tuple[float, float],
        at: int,
    ) -> list[RatingRow]:
        """The players' rating rows in one server and game, by user id (a fixed order: two
        games finishing at once never deadlock on each other's rows), locked until the end of
        this write block, so that two games finishing at once for one player apply one after
        the other and neither update is lost.  A player without a row is absent from the
        answer (an engine that locks rows may create one with ``initial`` ``(mu, sigma)`` and
        no games; it counts as absent for every read).  Call it before
        :meth:`next_rating_seq`."""
        ids = sorted(set(user_ids))
        await self._tx._seed_ratings((guild_id, game, *initial, at, ids))
        rows: list[Row] = []
        for chunk in in_chunks(ids):
            rows += await self._tx._fetch(
                f"{RATINGS} WHERE guild_id = ? AND game = ? AND user_id IN ({marks(chunk)})"
                " ORDER BY user_id",
                (guild_id, game, *chunk),
                lock=True,
            )
        return [RatingRow(*r) for r in rows if r["games"] > 0]

    async def next_rating_seq(self) -> int:
        """The next ``rating_seq`` (larger than every one committed before the players' rows
        were locked): the order a rebuild replays games in.  Call it after
        :meth:`lock_ratings`."""
        return await self._tx._next_rating_seq()

    async def save_ratings(self, rows: Sequence[RatingRow]) -> None:
        """Insert or replace these rating rows."""
        await self._tx._write_many(UPSERT_RATING, [values_of(r, RATING_FIELDS) for r in rows])

    async def add_rating_history(self, rows: Sequence[RatingHistoryRow]) -> None:
        await self._tx._write_many(INSERT_HISTORY, [values_of(h, HISTORY_FIELDS) for h in rows])

    async def leaderboard(
        self, guild_id: int, game: str, limit: int, offset: int
    ) -> list[RatingRow]:
        """One page of players with rated games, ``mu`` DESC, ``games`` DESC, ``user_id``."""
        return await self._tx._ratings(
            "WHERE guild_id = ? AND game = ? AND games > 0"
            " ORDER BY mu DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset),
        )

    async def rank_of(self, row: RatingRow) -> int:
        """``row``'s place (from 1) in its leaderboard's order."""
        return 1 + await self._tx._count(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND games > 0"
            " AND (mu > ? OR (mu = ? AND (games > ? OR (games = ? AND user_id < ?))))",
            (row.guild_id, row.game, row.mu, row.mu, row.games, row.games, row.user_id),
        )

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """The player's ratings in every game of a server with rated games, best first."""
        return await self._tx._ratings(
            "WHERE guild_id = ? AND user_id = ? AND games > 0 ORDER BY mu DESC, game",
            (guild_id, user_id),
        )

    async def rating_history(
        self, guild_id: int, user_id: int, game: str, limit: int
    ) -> list[RatingHistoryRow]:
        """The player's last ``limit`` history rows in one game, oldest first."""
        return await self._tx._history(
            f"SELECT * FROM ({HISTORY} WHERE guild_id = ? AND user_id = ? AND game = ?"
            " ORDER BY seq DESC LIMIT ?) AS last ORDER BY seq",
            (guild_id, user_id, game, limit),
        )

    async def rating_changes(self, user_id: int, game_ids: Sequence[int]) -> list[RatingHistoryRow]:
        """The player's history rows for these games (those that changed ratings)."""
        if not game_ids:
            return []
        found: list[RatingHistoryRow] = []
        for chunk in in_chunks(game_ids):
            found += await self._tx._history(
                f"{HISTORY} WHERE user_id = ? AND game_id IN ({marks(chunk)}) ORDER BY game_id",
                (user_id, *chunk),
            )
        return found

    async def rated_games_until(self, guild_id: int, game: str, user_id: int, seq: int) -> int:
        """How many rated games the player had in that server and game once the game with
        ``rating_seq`` ``seq`` was applied (for a past game's provisional mark)."""
        return await self._tx._count(
            "SELECT COUNT(*) FROM rating_history WHERE guild_id = ? AND user_id = ? AND game = ?"
            " AND seq <= ?",
            (guild_id, user_id, game, seq),
        )

    async def current_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> list[RatingRow]:
        """The players' rating rows with rated games in one server and game (no lock)."""
        if not user_ids:
            return []
        found: list[RatingRow] = []
        for chunk in in_chunks(user_ids):
            found += await self._tx._ratings(
                f"WHERE guild_id = ? AND game = ? AND games > 0 AND user_id IN ({marks(chunk)})",
                (guild_id, game, *chunk),
            )
        return found

    async def reset_ratings(self, guild_id: int, game: str) -> int:
        """Delete a server's ratings and history for one game and mark its rated games
        unrated (``reset``), so a rebuild does not bring them back.  Returns how many
        players had a rating."""
        # The games are found by their history rows: ``game`` names a rating pool, which
        # for a pie-rule game (``minefield+pie``) is not its ``games.game``.
        await self._tx._write(
            "UPDATE games SET rated = ?, unrated_reason = 'reset', rating_seq = NULL"
            " WHERE rating_seq IS NOT NULL AND id IN (SELECT game_id FROM rating_history"
            " WHERE guild_id = ? AND game = ?)",
            (False, guild_id, game),
        )
        await self._tx._write(
            "DELETE FROM rating_history WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        gone = await self._tx._written(
            "DELETE FROM ratings WHERE guild_id = ? AND game = ? RETURNING games", (guild_id, game)
        )
        return sum(1 for r in gone if r[0] > 0)

    async def all_ratings(self) -> list[RatingRow]:
        """Every rating row with rated games, by server, game and user."""
        return await self._tx._ratings("WHERE games > 0 ORDER BY guild_id, game, user_id", ())

    async def rated_results(self) -> list[RatedResult]:
        """Every game that changed ratings, in ``rating_seq`` order (for a rebuild)."""
        rows = await self._tx._fetch(
            "SELECT id, guild_id, game, first_id, second_id, winner_id, finished_at, rating_seq,"
            " options FROM games WHERE rating_seq IS NOT NULL ORDER BY rating_seq"
        )
        return [
            RatedResult(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], _pairs(r[8])) for r in rows
        ]
