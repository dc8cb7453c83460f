"""A game's row, its moves and events: the reads a command starts from and its versioned writes
(moves, endings, takebacks, cached state), and a player's lists of games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from operator import attrgetter
from typing import Any

from ..rows import (
    ClockRow,
    EventRow,
    GameRow,
    MoveRow,
    NewGame,
    ResultRow,
    ShardFilter,
)
from ..sql import (
    CLOCK_FIELDS,
    EVENT_FIELDS,
    EVENTS,
    GAME_FIELDS,
    MOVES,
    NEW_GAME_FIELDS,
    NEWEST_FIRST,
    NO_TAKEBACK,
    Op,
    game_row,
    insert,
    result_values,
    shard_clause,
)
from .base import Queries

NewEvent = tuple[int, int, str, int | None, str]
"""An event to add: the game's id, the time, the kind, the user (or None) and the detail."""


INSERT_GAME_FIELDS = (*NEW_GAME_FIELDS, *CLOCK_FIELDS, "updated_at")
"""The columns a new game is inserted with (the rest take their defaults)."""
_NEW_GAME_VALUES = attrgetter(*NEW_GAME_FIELDS)
_CLOCK_VALUES = attrgetter(*CLOCK_FIELDS)


def _row(new: NewGame) -> tuple[Any, ...]:
    """A new game's values for :data:`INSERT_GAME_FIELDS`, not yet encoded (``asdict``
    would deep-copy every field: too slow for tens of thousands)."""
    return (*_NEW_GAME_VALUES(new), *_CLOCK_VALUES(new.clock), new.created_at)


def _values(new: NewGame) -> dict[str, Any]:
    return dict(zip(INSERT_GAME_FIELDS, _row(new), strict=True))


class GameQueries(Queries):
    """The games queries of one transaction (``tx.games``)."""

    async def game(self, game_id: int) -> GameRow | None:
        return await self._tx._one_game("WHERE id = ?", game_id)

    async def active_game_in(self, channel_id: int) -> GameRow | None:
        return await self._tx._one_game("WHERE channel_id = ? AND status = 'active'", channel_id)

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's newest game (highest id), finished or not."""
        found = await self._tx._games(
            "WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,), game=True
        )
        return found[0] if found else None

    async def games_for_player(
        self, guild_id: int, user_id: int, active_only: bool, limit: int
    ) -> list[GameRow]:
        """A player's games in a server, most recently updated first (ties: newest id)."""
        status = " AND status = 'active'" if active_only else ""
        return await self._tx._games(
            f"WHERE guild_id = ? AND (first_id = ? OR second_id = ?){status} {NEWEST_FIRST}"
            " LIMIT ?",
            (guild_id, user_id, user_id, limit),
        )

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        """Active games (of one server, or all), by id."""
        if guild_id is None:
            return await self._tx._games("WHERE status = 'active' ORDER BY id")
        return await self._tx._games(
            "WHERE guild_id = ? AND status = 'active' ORDER BY id", (guild_id,)
        )

    async def find_games(
        self,
        *,
        guild_id: int | None = None,
        player_id: int | None = None,
        to_move_id: int | None = None,
        active_only: bool = False,
        after: tuple[int, int] | None = None,
        limit: int,
        shards: ShardFilter | None = None,
    ) -> list[GameRow]:
        """One page of games matching every filter given, most recently updated first
        (``updated_at`` DESC, then ``id`` DESC).  ``player_id``: either seat;
        ``to_move_id``: active games that user is to move in.  ``after`` is the
        ``(updated_at, id)`` of the last game of the previous page (keyset pagination);
        ``shards``: games in servers on those shards only."""
        where: list[str] = []
        args: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            args.append(guild_id)
        if player_id is not None:
            where.append("(first_id = ? OR second_id = ?)")
            args += [player_id, player_id]
        if to_move_id is not None:
            where.append("to_move_id = ? AND status = 'active'")
            args.append(to_move_id)
        if active_only:
            where.append("status = 'active'")
        if after is not None:
            where.append("(updated_at < ? OR (updated_at = ? AND id < ?))")
            args += [after[0], after[0], after[1]]
        if shards is not None:
            held, held_args = shard_clause(shards)
            where.append(held.removeprefix(" AND "))
            args += held_args
        clause = f"WHERE {' AND '.join(where)} " if where else ""
        return await self._tx._games(f"{clause}{NEWEST_FIRST} LIMIT ?", [*args, limit])

    async def finished_games_for_player(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[GameRow]:
        # Two searches, one per seat, so each uses its index; then the newest of both.
        """The player's last finished or aborted games in a server, newest first."""
        mine = (
            "SELECT id, updated_at FROM games WHERE guild_id = ? AND {} = ? AND status <> 'active'"
        )
        return await self._tx._games(
            f"WHERE id IN (SELECT id FROM ({mine.format('first_id')} UNION ALL"
            f" {mine.format('second_id')}) AS mine {NEWEST_FIRST} LIMIT ?) {NEWEST_FIRST}",
            (guild_id, user_id, guild_id, user_id, limit),
        )

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The game's moves by ply: the source of truth for its position."""
        rows = await self._tx._fetch(
            f"{MOVES} WHERE game_id = ? ORDER BY ply", (game_id,), game=True
        )
        return [MoveRow(*r) for r in rows]

    async def events(self, game_id: int) -> list[EventRow]:
        """The game's events (start, takebacks, endings) in the order they were added."""
        rows = await self._tx._fetch(
            f"{EVENTS} WHERE game_id = ? ORDER BY id", (game_id,), game=True
        )
        return [EventRow(*r) for r in rows]

    async def insert_game(self, new: NewGame) -> GameRow:
        """Insert an active game at version 0; raises ChannelTaken if its channel has one."""
        values = _values(new)
        found = await self._tx._returning(
            f"{insert('games', list(values))} RETURNING {', '.join(GAME_FIELDS)}",
            [self._tx._encode(c, v) for c, v in values.items()],
        )
        assert found is not None
        return game_row(found)

    async def insert_games(self, news: Sequence[NewGame]) -> list[int]:
        """Insert active games at version 0, a thousand-odd to a statement (a round robin
        creates tens of thousands at once); their ids, in the order of ``news`` (only the
        ids: decoding every row back would cost more than storing it).  Raises
        ChannelTaken if a channel has an active game (two of ``news`` on one channel too)."""
        if not news:
            return []
        found = await self._tx._insert_rows(
            "games",
            INSERT_GAME_FIELDS,
            self._tx._encoded(INSERT_GAME_FIELDS, map(_row, news)),
            ("id", "channel_id"),
        )
        # Keyed by channel: the rows come back in no promised order, and no two active
        # games share a channel (the unique index games_one_active_per_channel).
        by_channel = {int(r[1]): int(r[0]) for r in found}
        return [by_channel[new.channel_id] for new in news]

    async def record_moves(
        self,
        row: GameRow,
        moves: Sequence[MoveRow],
        *,
        record: str,
        to_move: str | None,
        to_move_id: int | None,
        at: int,
        clock: ClockRow | None = None,
        result: ResultRow | None = None,
    ) -> GameRow:
        """Append ``moves`` (plies after the stored ones), bump the version, cache ``record``,
        ``to_move`` and ``to_move_id``, clear a pending takeback; restart the clock if
        ``clock`` is given (a new turn); finish the game as ``result`` says if given (clock
        cleared)."""
        values: dict[str, Any] = {
            "version": row.version + 1,
            "record": record,
            "to_move": to_move,
            "to_move_id": to_move_id,
            "updated_at": at,
            **NO_TAKEBACK,
        }
        if clock is not None:
            values.update(asdict(clock))
        if result is not None:
            values.update(result_values(result, at))
        changed = await self._tx._versioned(row, values)
        await self._tx._op(Op("moves", row.id, tuple(moves)))
        return changed

    async def finish_game(self, row: GameRow, result: ResultRow, *, at: int) -> GameRow:
        """End the game without a move (resign, time, moderation): bump the version, clear the
        side and user to move, the clock and any takeback request."""
        values = {"version": row.version + 1, "to_move": None, "to_move_id": None}
        values |= {"updated_at": at, **NO_TAKEBACK, **result_values(result, at)}
        return await self._tx._versioned(row, values)

    async def take_back(
        self,
        row: GameRow,
        from_ply: int,
        *,
        record: str,
        to_move: str | None,
        to_move_id: int | None,
        clock: ClockRow,
        at: int,
    ) -> GameRow:
        """Delete the moves from ``from_ply`` on, bump the version, cache the new ``record``,
        ``to_move`` and ``to_move_id``, restart the clock and clear the takeback request."""
        values = {"version": row.version + 1, "record": record, "to_move": to_move}
        values |= {"to_move_id": to_move_id, "updated_at": at, **NO_TAKEBACK}
        changed = await self._tx._versioned(row, {**values, **asdict(clock)})
        await self._tx._op(Op("delete", row.id, (from_ply,)))
        return changed

    async def request_takeback(self, row: GameRow, user_id: int, at: int) -> GameRow:
        """Record a pending takeback request at the current version (no version bump)."""
        values = {"takeback_by": user_id, "takeback_at": at, "takeback_version": row.version}
        return await self._tx._versioned(row, values)

    async def clear_takeback(self, row: GameRow) -> GameRow:
        """Drop the pending takeback request (declined); no version bump."""
        return await self._tx._versioned(row, dict(NO_TAKEBACK))

    async def save_cached_state(
        self, row: GameRow, record: str, to_move: str | None, to_move_id: int | None
    ) -> GameRow:
        """Rewrite the cached ``record``/``to_move``/``to_move_id`` (rebuilt from the moves;
        no version bump)."""
        values = {"record": record, "to_move": to_move, "to_move_id": to_move_id}
        return await self._tx._versioned(row, values)

    async def add_event(
        self, game_id: int, at: int, kind: str, user_id: int | None, detail: str = ""
    ) -> None:
        await self._tx._op(Op("event", game_id, (at, kind, user_id, detail)))

    async def add_events(self, events: Sequence[NewEvent]) -> None:
        """Add events to many games at once (a round's ``started``), in the order given: a
        few multi-row inserts, where :meth:`add_event` is one statement each."""
        await self._tx._insert_rows("game_events", EVENT_FIELDS[1:], events)
