"""Turn notices: each player's preference, closed DMs and the daily digests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..rows import (
    GameRow,
    NoticeRow,
)
from ..sql import (
    DAY_US,
    NOTICE_FIELDS,
    NOTICES,
    UPSERT_NOTICE,
    WAITING,
    WAITING_ORDER,
    marks,
    notice_row,
)
from .base import Queries


class NoticeQueries(Queries):
    """The notices queries of one transaction (``tx.notices``)."""

    async def notice_pref(self, user_id: int) -> NoticeRow | None:
        """The player's notice preference, None if they never chose one."""
        found = await self._tx._one(f"{NOTICES} WHERE user_id = ?", (user_id,))
        return None if found is None else notice_row(found)

    async def save_notice_pref(self, row: NoticeRow) -> None:
        """Insert or replace the player's notice preference."""
        await self._tx._write(UPSERT_NOTICE, self._tx._row_args(row, NOTICE_FIELDS))

    async def save_locale(self, user_id: int, locale: str, at: int) -> bool:
        """Keep the player's last seen Discord locale; True only if it changed.  One
        statement: a player with no row gets one with the default preference, and an
        unchanged locale writes nothing (the conflict's ``WHERE`` fails)."""
        found = await self._tx._returning(
            "INSERT INTO notice_prefs (user_id, updated_at, locale) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale"
            " WHERE notice_prefs.locale IS NULL OR notice_prefs.locale <> excluded.locale"
            " RETURNING user_id",
            (user_id, at, locale),
        )
        return found is not None

    async def close_dms(self, user_id: int, at: int) -> bool:
        """Record that the player's DMs are closed; True only for the call that changed it
        (so the player is told once).  A player who never chose a notice gets a row with the
        default preference to hold it: a DM game's turn DMs are tried whatever the mode,
        and one known to fail must not be tried again."""
        found = await self._tx._returning(
            "INSERT INTO notice_prefs (user_id, updated_at, dm_closed) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET dm_closed = excluded.dm_closed,"
            " updated_at = excluded.updated_at WHERE notice_prefs.dm_closed = ?"
            " RETURNING user_id",
            (user_id, at, True, False),
        )
        return found is not None

    async def claim_digests(self, now: int, limit: int) -> list[NoticeRow]:
        # One statement.  The batch is chosen once (a materialised CTE: a subquery in ``IN``
        # may be re-run per row, and with ``SKIP LOCKED`` each re-run would skip the rows this
        # statement just claimed and pick more, past the limit).  Rows a racing claim holds
        # are skipped (``SKIP_LOCKED``), and the outer ``due`` re-checks any row committed
        # meanwhile, so each row goes to exactly one claimer.
        due = "mode = 'digest' AND dm_closed = ? AND next_digest_at <= ?"
        rows = await self._tx._written(
            f"WITH picked AS MATERIALIZED (SELECT user_id FROM notice_prefs WHERE {due}"
            f" ORDER BY next_digest_at, user_id LIMIT ?{self._tx.SKIP_LOCKED})"
            f" UPDATE notice_prefs SET next_digest_at = next_digest_at + {DAY_US}"
            f" * (1 + (CAST(? AS BIGINT) - next_digest_at) / {DAY_US})"
            f" WHERE user_id IN (SELECT user_id FROM picked) AND {due}"
            f" RETURNING {', '.join(NOTICE_FIELDS)}",
            (False, now, limit, now, False, now),
        )
        return sorted((notice_row(r) for r in rows), key=lambda r: r.user_id)

    async def waiting_games(
        self, user_ids: Sequence[int], guild_id: int | None = None, limit: int | None = None
    ) -> list[GameRow]:
        """Active games where one of ``user_ids`` is to move (in one server, if given), the
        longest-waiting turn first (``turn_started_at``, then id); at most ``limit``."""
        if not user_ids:
            return []
        where = f"WHERE {WAITING} IN ({marks(user_ids)})"
        args: list[Any] = list(user_ids)
        if guild_id is not None:
            where += " AND guild_id = ?"
            args.append(guild_id)
        where += f" {WAITING_ORDER}"
        if limit is not None:
            where += " LIMIT ?"
            args.append(limit)
        return await self._tx._games(where, args)
