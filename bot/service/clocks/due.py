"""Clocks: what is due (reminders, losses on time, challenge expiries) and applying it once."""

from __future__ import annotations

from datetime import datetime

from ...store import GameRow, ShardFilter, Tx
from .. import convert
from ..checks import (
    MIN_SOFT_TIME,
    check_limit,
    check_shards,
    quote,
)
from ..convert import from_us, to_us
from ..core import Feature
from ..engines import warms_engines
from ..errors import (
    InvalidInput,
    StaleAction,
)
from .timebank import next_reminder_of
from .types import DueAction, DueOutcome, Reminder, SoftTimeNotice


class Clocks(Feature):
    """Turn clocks and challenge expiry, driven by a scheduler calling ``run_due``."""

    @warms_engines
    async def due(
        self, now: datetime | None = None, limit: int = 100, shards: ShardFilter | None = None
    ) -> list[DueAction]:
        """Reminders, losses on time and challenge expiries due at ``now`` (default: clock).

        ``shards``: only those of the servers this process holds (a bot running some of
        Discord's shards); the store filters in its query, so no process reads the others'."""
        if now is not None and not isinstance(now, datetime):
            raise InvalidInput("'now' must be a datetime, not {now}.", now=quote(now))
        check_limit(limit)
        check_shards(shards)
        moment = to_us(now if now is not None else self._now())
        actions: list[DueAction] = []
        async with self.store.read() as tx:
            for c in await tx.challenges.expiring_challenges(moment, limit, shards):
                actions.append(
                    DueAction(
                        kind="challenge_expiry",
                        at=from_us(c.expires_at),
                        guild_id=c.guild_id,
                        channel_id=c.channel_id,
                        user_id=c.challenger_id,
                        challenge_id=c.id,
                    )
                )
            for row in await tx.clocks.due_games(moment, limit, shards):
                player = row.to_move_id  # stored with each turn: no engine on a clock tick
                if player is None:  # cannot happen for an active game; rebuild to be sure
                    game = await self._engine(tx, row)
                    player = convert.user_of(convert.seats(row, game), game.to_move)
                assert player is not None
                common = {
                    "guild_id": row.guild_id,
                    "channel_id": row.channel_id,
                    "user_id": player,
                    "game_id": row.id,
                    "version": row.version,
                }
                if row.deadline_at is not None and row.deadline_at <= moment:
                    actions.append(DueAction("timeout", from_us(row.deadline_at), **common))
                elif row.remind_at is not None:
                    actions.append(
                        DueAction(
                            "reminder",
                            from_us(row.remind_at),
                            reminder_index=row.reminders_sent,
                            **common,
                        )
                    )
            default = convert.settings(None, 0).soft_time
            for row, soft_time in await tx.clocks.soft_time_games(
                moment, default, MIN_SOFT_TIME, limit, shards
            ):
                assert row.to_move_id is not None
                waiting = row.second_id if row.to_move_id == row.first_id else row.first_id
                since = max(row.turn_started_at, row.paused_until or 0)
                actions.append(
                    DueAction(
                        "soft_time",
                        from_us(since + soft_time * 1_000_000),
                        row.guild_id,
                        row.channel_id,
                        waiting,
                        game_id=row.id,
                        version=row.version,
                    )
                )
        actions.sort(key=lambda a: (a.at, a.kind))
        return actions

    @warms_engines
    async def apply_due(self, action: DueAction) -> DueOutcome | None:
        """Carry out a due action; None if it no longer applies (a move was made meanwhile)."""
        try:
            return await self._apply_due(action)
        except StaleAction:
            # Another process applied it (or a player moved) between our read and our write,
            # and the database refused the second write: for us it no longer applies.
            return None

    async def _apply_due(self, action: DueAction) -> DueOutcome | None:
        if not isinstance(action, DueAction):
            raise InvalidInput("apply_due takes a DueAction, not {action}.", action=quote(action))
        now = self._now()
        if action.kind == "challenge_expiry":
            assert action.challenge_id is not None
            async with self._write() as tx:
                row = await tx.challenges.challenge(action.challenge_id)
                if row is None or row.status != "open" or row.expires_at > to_us(action.at):
                    return None
                row = await tx.challenges.resolve_challenge(row.id, "expired", to_us(now))
            assert row is not None
            return DueOutcome(action, expired=convert.challenge(row))
        assert action.game_id is not None
        async with self._write() as tx:
            game_row = await tx.games.game(action.game_id)
            if (
                game_row is None
                or game_row.status != "active"
                or game_row.version != action.version
            ):
                return None
            if action.kind == "soft_time":
                return await self._soft_time_notice(tx, game_row, action, to_us(now))
            game = await self._engine(tx, game_row)
            if action.kind == "timeout":
                if game_row.deadline_at != to_us(action.at):
                    return None
                game_row, ended = await self._finish(
                    tx, game_row, game, "time", now, loser_id=action.user_id
                )
                self._remember(game_row.id, game_row.version, game)
                return DueOutcome(action, ended=ended)
            if game_row.reminders_sent != action.reminder_index or game_row.remind_at is None:
                return None
            sent = game_row.reminders_sent + 1
            game_row = await tx.clocks.mark_reminder_sent(
                game_row, next_reminder_of(game_row, sent)
            )
            info = convert.game_info(game_row, game, to_us(now))
        return DueOutcome(
            action,
            reminder=Reminder(info, action.user_id, info.deadline, info.turn_started_at),
        )

    async def _soft_time_notice(
        self, tx: Tx, row: GameRow, action: DueAction, now: int
    ) -> DueOutcome | None:
        """Mark the turn's soft-time notice as sent, if no other process did (nor a vacation
        stops the game since ``due`` read it); the notice to send, for the one that did."""
        if not await tx.clocks.mark_soft_noticed(row.id, row.version, now):
            return None
        assert row.to_move_id is not None
        info = convert.game_info(row, await self._engine(tx, row), now)
        since = from_us(max(row.turn_started_at, row.paused_until or 0))
        return DueOutcome(
            action, soft_time=SoftTimeNotice(info, action.user_id, row.to_move_id, since)
        )

    async def run_due(
        self, now: datetime | None = None, shards: ShardFilter | None = None
    ) -> list[DueOutcome]:
        """``due`` then ``apply_due`` for each; the outcomes that applied."""
        outcomes = []
        for action in await self.due(now, shards=shards):
            outcome = await self.apply_due(action)
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    async def next_due_at(self) -> datetime | None:
        """The earliest future deadline, reminder or expiry, so a scheduler can sleep."""
        async with self.store.read() as tx:
            times = await tx.clocks.next_times()
        return from_us(min(times)) if times else None
