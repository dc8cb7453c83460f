"""Challenges: posting one, answering or withdrawing it, and the lists and expiries around them."""

from __future__ import annotations

from typing import Any

from ..rows import (
    ChallengeRow,
    NewChallenge,
    ShardFilter,
)
from ..sql import (
    CHALLENGE_FIELDS,
    challenge_row,
    insert,
    shard_clause,
)
from .base import Queries


class ChallengeQueries(Queries):
    """The challenges queries of one transaction (``tx.challenges``)."""

    async def insert_challenge(self, new: NewChallenge) -> ChallengeRow:
        """Insert an open challenge; returns it with its id."""
        fields = tuple(NewChallenge.__dataclass_fields__)
        found = await self._tx._returning(
            f"{insert('challenges', fields)} RETURNING {', '.join(CHALLENGE_FIELDS)}",
            self._tx._row_args(new, fields),
        )
        assert found is not None
        return challenge_row(found)

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        found = await self._tx._challenges("WHERE id = ?", (challenge_id,), lock=True)
        return found[0] if found else None

    async def resolve_challenge(
        self,
        challenge_id: int,
        status: str,
        at: int,
        accepted_by: int | None = None,
        game_id: int | None = None,
    ) -> ChallengeRow | None:
        """Move an OPEN challenge to ``status``; the updated row, or None if it was not open."""
        found = await self._tx._returning(
            "UPDATE challenges SET status = ?, resolved_at = ?, accepted_by = ?, game_id = ?"
            f" WHERE id = ? AND status = 'open' RETURNING {', '.join(CHALLENGE_FIELDS)}",
            (status, at, accepted_by, game_id, challenge_id),
        )
        return None if found is None else challenge_row(found)

    async def record_challenge_message(self, challenge_id: int, message_id: int) -> bool:
        """Store the id of the message the challenge was posted in, once: False (nothing
        changed) if the challenge does not exist or already has one."""
        found = await self._tx._returning(
            "UPDATE challenges SET message_id = ? WHERE id = ? AND message_id IS NULL RETURNING id",
            (message_id, challenge_id),
        )
        return found is not None

    async def open_challenges(
        self, guild_id: int, user_id: int | None = None
    ) -> list[ChallengeRow]:
        """Open challenges in a server (by or to ``user_id`` if given), oldest first."""
        if user_id is None:
            return await self._tx._challenges(
                "WHERE guild_id = ? AND status = 'open' ORDER BY id", (guild_id,)
            )
        return await self._tx._challenges(
            "WHERE guild_id = ? AND status = 'open' AND (challenger_id = ? OR opponent_id = ?)"
            " ORDER BY id",
            (guild_id, user_id, user_id),
        )

    async def challenges_for(
        self,
        guild_id: int,
        user_id: int,
        limit: int,
        *,
        after_id: int | None = None,
        before_id: int | None = None,
    ) -> list[ChallengeRow]:
        """Open challenges in a server that ``user_id`` may answer or withdraw: by them, to
        them, or open to anyone; oldest first, at most ``limit``.  A page: those after
        ``after_id``, or the ``limit`` just before ``before_id`` (still oldest first)."""
        where = (
            "WHERE guild_id = ? AND status = 'open'"
            " AND (challenger_id = ? OR opponent_id = ? OR opponent_id IS NULL)"
        )
        args: list[Any] = [guild_id, user_id, user_id]
        if after_id is not None:
            where += " AND id > ?"
            args.append(after_id)
        if before_id is not None:
            found = await self._tx._challenges(
                f"{where} AND id < ? ORDER BY id DESC LIMIT ?", (*args, before_id, limit)
            )
            return found[::-1]
        return await self._tx._challenges(f"{where} ORDER BY id LIMIT ?", (*args, limit))

    async def expiring_challenges(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[ChallengeRow]:
        """Open challenges whose ``expires_at <= now``, soonest first (of the servers in
        ``shards`` only, if given)."""
        held, held_args = shard_clause(shards)
        return await self._tx._challenges(
            f"WHERE status = 'open' AND expires_at <= ?{held} ORDER BY expires_at, id LIMIT ?",
            (now, *held_args, limit),
        )
