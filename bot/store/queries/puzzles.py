"""Puzzles: the puzzles themselves, players' attempts and puzzle ratings, and each server's
daily puzzle with the claim row that makes one process post it."""

from __future__ import annotations

from collections.abc import Sequence

from ..rows import (
    PuzzleAttemptRow,
    PuzzleChannelRow,
    PuzzleDailyRow,
    PuzzleRatingRow,
    PuzzleRow,
)
from ..sql import insert, select, values_of
from .base import Queries

PUZZLE_FIELDS = tuple(PuzzleRow.__dataclass_fields__)
ATTEMPT_FIELDS = tuple(PuzzleAttemptRow.__dataclass_fields__)
RATING_FIELDS = tuple(PuzzleRatingRow.__dataclass_fields__)
DAILY_FIELDS = tuple(PuzzleDailyRow.__dataclass_fields__)
PUZZLES = select(PUZZLE_FIELDS, "puzzles")
ATTEMPTS = select(ATTEMPT_FIELDS, "puzzle_attempts")
RATINGS = select(RATING_FIELDS, "puzzle_ratings")
DAILY = select(DAILY_FIELDS, "puzzle_daily")


class PuzzleQueries(Queries):
    """The puzzle queries of one transaction (``tx.puzzles``)."""

    async def starter_count(self, game: str) -> int:
        """How many of ``game``'s puzzles are shipped ones (none mined from a stored game)."""
        return await self._tx._count(
            "SELECT COUNT(*) FROM puzzles WHERE game = ? AND source_game_id IS NULL", (game,)
        )

    async def add(self, rows: Sequence[PuzzleRow]) -> None:
        """Insert puzzles; one already stored (same id: same position) is left as it is."""
        await self._tx._write_many(
            f"{insert('puzzles', PUZZLE_FIELDS)} ON CONFLICT (id) DO NOTHING",
            [values_of(r, PUZZLE_FIELDS) for r in rows],
        )

    async def puzzle(self, puzzle_id: str, *, lock: bool = False) -> PuzzleRow | None:
        found = await self._tx._one(f"{PUZZLES} WHERE id = ?", (puzzle_id,), lock=lock)
        return None if found is None else PuzzleRow(*found)

    async def choose(
        self, game: str | None, guild_id: int | None, user_id: int, mu: float
    ) -> PuzzleRow | None:
        """The puzzle nearest ``mu`` that ``user_id`` never tried, of ``game`` (any if None),
        among those any server may use and those of ``guild_id``."""
        where = "(guild_id IS NULL OR guild_id = ?) AND id NOT IN (SELECT puzzle_id FROM"
        where += " puzzle_attempts WHERE user_id = ?)"
        args: list[object] = [guild_id, user_id]
        if game is not None:
            where += " AND game = ?"
            args.append(game)
        found = await self._tx._one(
            f"{PUZZLES} WHERE {where} ORDER BY ABS(mu - ?), id LIMIT 1", (*args, mu)
        )
        return None if found is None else PuzzleRow(*found)

    async def rate_puzzle(self, puzzle_id: str, mu: float, sigma: float, solved: bool) -> None:
        await self._tx._write(
            "UPDATE puzzles SET mu = ?, sigma = ?, tries = tries + 1, solves = solves + ?"
            " WHERE id = ?",
            (mu, sigma, int(solved), puzzle_id),
        )

    # ----- attempts ---------------------------------------------------------------------------
    async def open_attempt(
        self,
        puzzle_id: str,
        user_id: int,
        guild_id: int | None,
        now: int,
        expires: int,
        daily_day: str | None,
    ) -> int:
        found = await self._tx._returning(
            "INSERT INTO puzzle_attempts (puzzle_id, user_id, guild_id, played, status,"
            " started_at, expires_at, daily_day) VALUES (?, ?, ?, '', 'open', ?, ?, ?)"
            " RETURNING id",
            (puzzle_id, user_id, guild_id, now, expires, daily_day),
        )
        assert found is not None
        return int(found[0])

    async def attempt(self, attempt_id: int, *, lock: bool = False) -> PuzzleAttemptRow | None:
        found = await self._tx._one(f"{ATTEMPTS} WHERE id = ?", (attempt_id,), lock=lock)
        return None if found is None else PuzzleAttemptRow(*found)

    async def latest_open(self, user_id: int, now: int) -> PuzzleAttemptRow | None:
        """``user_id``'s newest attempt still open and not expired at ``now`` (the one a
        ``/puzzle move:`` answers)."""
        found = await self._tx._one(
            f"{ATTEMPTS} WHERE user_id = ? AND status = 'open' AND expires_at >= ?"
            " ORDER BY id DESC LIMIT 1",
            (user_id, now),
        )
        return None if found is None else PuzzleAttemptRow(*found)

    async def daily_attempt(self, user_id: int, puzzle_id: str, day: str) -> int | None:
        found = await self._tx._one(
            "SELECT id FROM puzzle_attempts WHERE user_id = ? AND puzzle_id = ?"
            " AND daily_day = ? ORDER BY id LIMIT 1",
            (user_id, puzzle_id, day),
        )
        return None if found is None else int(found[0])

    async def update_attempt(
        self, attempt_id: int, was: str, played: str, status: str, finished: int | None
    ) -> bool:
        """Move an open attempt on from the moves ``was``; False (nothing written) if it is no
        longer open with those moves (another answer got there first)."""
        found = await self._tx._returning(
            "UPDATE puzzle_attempts SET played = ?, status = ?, finished_at = ?"
            " WHERE id = ? AND status = 'open' AND played = ? RETURNING id",
            (played, status, finished, attempt_id, was),
        )
        return found is not None

    async def solved_count(self, puzzle_id: str, day: str) -> int:
        return await self._tx._count(
            "SELECT COUNT(*) FROM puzzle_attempts WHERE puzzle_id = ? AND daily_day = ?"
            " AND status = 'solved'",
            (puzzle_id, day),
        )

    # ----- players' ratings -------------------------------------------------------------------
    async def rating(self, user_id: int, *, lock: bool = False) -> PuzzleRatingRow | None:
        found = await self._tx._one(f"{RATINGS} WHERE user_id = ?", (user_id,), lock=lock)
        return None if found is None else PuzzleRatingRow(*found)

    async def save_rating(self, row: PuzzleRatingRow) -> None:
        updates = ", ".join(f"{f} = excluded.{f}" for f in RATING_FIELDS[1:])
        await self._tx._write(
            f"{insert('puzzle_ratings', RATING_FIELDS)} ON CONFLICT (user_id) DO UPDATE SET"
            f" {updates}",
            values_of(row, RATING_FIELDS),
        )

    # ----- the daily puzzle -------------------------------------------------------------------
    async def set_channel(self, guild_id: int, channel_id: int | None) -> None:
        if channel_id is None:
            await self._tx._write("DELETE FROM puzzle_channels WHERE guild_id = ?", (guild_id,))
            return
        await self._tx._write(
            "INSERT INTO puzzle_channels (guild_id, channel_id) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id",
            (guild_id, channel_id),
        )

    async def channels(self) -> list[PuzzleChannelRow]:
        rows = await self._tx._fetch(
            "SELECT guild_id, channel_id FROM puzzle_channels ORDER BY guild_id"
        )
        return [PuzzleChannelRow(*r) for r in rows]

    async def claim_daily(self, row: PuzzleDailyRow) -> bool:
        """Insert the day's row; True only for the one caller whose insert made it."""
        found = await self._tx._returning(
            f"{insert('puzzle_daily', DAILY_FIELDS)} ON CONFLICT (guild_id, day) DO NOTHING"
            " RETURNING guild_id",
            values_of(row, DAILY_FIELDS),
        )
        return found is not None

    async def daily(self, guild_id: int, day: str) -> PuzzleDailyRow | None:
        found = await self._tx._one(f"{DAILY} WHERE guild_id = ? AND day = ?", (guild_id, day))
        return None if found is None else PuzzleDailyRow(*found)

    async def set_daily_message(self, guild_id: int, day: str, message_id: int) -> None:
        await self._tx._write(
            "UPDATE puzzle_daily SET message_id = ? WHERE guild_id = ? AND day = ?",
            (message_id, guild_id, day),
        )

    async def claim_solution_post(self, guild_id: int, day: str) -> bool:
        """Mark the day's solution as posted; True only for the one caller that marked it."""
        found = await self._tx._returning(
            "UPDATE puzzle_daily SET solution_posted = 1 WHERE guild_id = ? AND day = ?"
            " AND solution_posted = 0 RETURNING guild_id",
            (guild_id, day),
        )
        return found is not None
