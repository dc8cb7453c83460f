"""Soft time: an untimed game that waits too long on one player may be ended by the other.

Rules (docs/service/clocks.md, "Soft time"): in an UNTIMED active game whose turn started at least
the server's ``soft_time`` ago (14 days by default) and whose clock no vacation stops, the
player WAITING (not the one to move) may claim the win (recorded as a loss on time of the
player to move, rated like one) or abort the game (unrated).  A timed game needs no claim:
it ends on time by itself.  The claim is one versioned write like a move, so it is refused
as stale once the player to move has moved, and two claims can't both succeed.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from rules import Game
from rules.errors import N_, N_plural, Wording

from ...store import GameRow, Tx
from .. import convert
from ..checks import quote
from ..convert import from_us, to_us
from ..core import Feature
from ..errors import InvalidInput, SoftTimeRefused
from ..types import GameEnded
from .timebank import live_pause, time_control_from

SoftClaim = Literal["win", "abort"]


class SoftTime(Feature):
    """Claims on untimed games that wait too long (module notes)."""

    async def soft_time_at(self, channel_id: int) -> datetime | None:
        """When the channel's active game may be claimed (None: it is timed, over, or has
        no game); a time in the past means it may be claimed now."""
        async with self.store.read() as tx:
            row = await tx.games.active_game_in(channel_id)
            if row is None or time_control_from(row).is_timed:
                return None
            limit = convert.settings(
                await tx.moderation.settings(row.guild_id), row.guild_id
            ).soft_time
        return _claimable_at(row, limit)

    async def claim_soft_time(
        self,
        channel_id: int,
        user_id: int,
        claim: SoftClaim,
        expected_version: int | None = None,
        *,
        game_id: int | None = None,
    ) -> GameEnded:
        """The waiting player claims the win (``"win"``) or aborts (``"abort"``).

        Raises NoGameHere, GameFinished, NotAPlayer, StaleAction, SoftTimeRefused (a timed
        game, your own turn, a vacation stops the game, or not yet: the message says when),
        InvalidInput (another claim)."""
        if claim not in ("win", "abort"):
            raise InvalidInput(
                N_("A soft-time claim is 'win' or 'abort', not {claim}."), claim=quote(claim)
            )

        async def act(tx: Tx, row: GameRow, game: Game, now: datetime) -> tuple[GameRow, GameEnded]:
            if time_control_from(row).is_timed:
                raise SoftTimeRefused(N_("This game has a clock: it ends on time by itself."))
            if row.to_move_id == user_id:
                raise SoftTimeRefused(N_("The game is waiting on you: make your move."))
            stamp = to_us(now)
            pause = live_pause(row.paused_until, stamp)
            if pause is not None:
                raise SoftTimeRefused(
                    N_("A player of this game is on vacation until {until}; the game waits."),
                    until=_when(pause),
                )
            limit = convert.settings(
                await tx.moderation.settings(row.guild_id), row.guild_id
            ).soft_time
            at = _claimable_at(row, limit)
            if now < at:
                raise SoftTimeRefused(
                    N_(
                        "Your opponent has {limit} to move (since {since}); you can claim from "
                        "{at} UTC."
                    ),
                    limit=_days(limit),
                    since=_when(row.turn_started_at),
                    at=f"{at:%Y-%m-%d %H:%M}",
                )
            assert row.to_move_id is not None
            if claim == "win":
                return await self._finish(
                    tx, row, game, "time", now, loser_id=row.to_move_id, detail="soft time"
                )
            return await self._finish(
                tx, row, game, "abort", now, actor_id=user_id, detail="soft time"
            )

        return await self._game_action(channel_id, user_id, expected_version, act, game_id)


def _claimable_at(row: GameRow, limit: int) -> datetime:
    return from_us(max(row.turn_started_at, row.paused_until or 0)) + timedelta(seconds=limit)


def _when(us: int) -> str:
    return f"{from_us(us):%Y-%m-%d %H:%M} UTC"


def _days(seconds: int) -> Wording:
    """A soft-time limit, whole days or hours (a nested wording: each language's plural)."""
    days, rest = divmod(seconds, 86400)
    if rest == 0:
        return Wording.counted(N_plural("{n} day", "{n} days"), days)
    return Wording.counted(N_plural("{n} hour", "{n} hours"), seconds // 3600)
