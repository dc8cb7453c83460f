"""Hints in casual games: each player's count, kept on the game row (issue 48)."""

from __future__ import annotations

from .base import Queries


class HintQueries(Queries):
    """The hint queries of one transaction (``tx.hints``)."""

    async def count_hint(self, game_id: int, version: int, user_id: int) -> tuple[int, int] | None:
        """Add one to ``user_id``'s hint count in the active game ``game_id``, only if it is
        still at ``version`` (the position the hint was computed for); the game's version is
        left as it is (a hint changes no position).  Returns the new counts of ``first_id``
        and ``second_id``, or None when nothing matched (the game moved on, ended, or
        ``user_id`` does not play in it)."""
        found = await self._tx._returning(
            "UPDATE games SET"
            " first_hints = first_hints + (CASE WHEN first_id = ? THEN 1 ELSE 0 END),"
            " second_hints = second_hints + (CASE WHEN first_id <> ? AND second_id = ?"
            " THEN 1 ELSE 0 END)"
            " WHERE id = ? AND version = ? AND status = 'active'"
            " AND (first_id = ? OR second_id = ?)"
            " RETURNING first_hints, second_hints",
            (user_id, user_id, user_id, game_id, version, user_id, user_id),
        )
        if found is None:
            return None
        return int(found[0]), int(found[1])
