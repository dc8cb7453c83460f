"""Queries: games and records as players and front ends see them (reads only, plus the
maintenance rebuild of cached columns)."""

from __future__ import annotations

from collections.abc import Sequence

from rules import Game
from rules.errors import N_

from ..store import (
    GameRow,
    ShardFilter,
    Tx,
)
from . import convert
from .checks import (
    MAX_ID,
    check_bool,
    check_id,
    check_limit,
    check_optional_id,
    check_shards,
    quote,
)
from .convert import from_us
from .core import Feature
from .engines import warms_engines
from .errors import (
    InvalidInput,
    NoGameHere,
)
from .types import (
    GameInfo,
    GameRecord,
    HistoryEvent,
    PlayedMove,
    SummaryPage,
)


class Games(Feature):
    """Looking at games: snapshots, records and positions; nothing here changes a game."""

    async def _infos(self, tx: Tx, rows: Sequence[GameRow]) -> list[GameInfo]:
        engines = await self._engines_for(tx, rows)
        now = self._stamp()
        return [convert.game_info(row, game, now) for row, game in zip(rows, engines, strict=True)]

    @warms_engines
    async def get_game(self, channel_id: int) -> GameInfo | None:
        """The active game in a channel or thread, if any."""
        check_id(channel_id, "channel id")
        async with self.store.read() as tx:
            row = await tx.games.active_game_in(channel_id)
            if row is None:
                return None
            return convert.game_info(row, await self._engine(tx, row), self._stamp())

    @warms_engines
    async def latest_game(self, channel_id: int) -> GameInfo | None:
        """The channel's most recent game, finished or not (None if it never had one).

        A channel's active game is always its latest: a new game can only start once the
        previous one ended, so this is the active game when there is one.  Anyone may look at
        it, so /board and /history keep working in a game's thread after it ended.
        """
        check_id(channel_id, "channel id")
        async with self.store.read() as tx:
            row = await tx.games.latest_game_in(channel_id)
            if row is None:
                return None
            return convert.game_info(row, await self._engine(tx, row), self._stamp())

    @warms_engines
    async def get_game_by_id(self, game_id: int) -> GameInfo:
        """Any game, active or not.  Raises NoGameHere."""
        async with self.store.read() as tx:
            row = await self._row_by_id(tx, game_id)
            return convert.game_info(row, await self._engine(tx, row), self._stamp())

    async def _row_by_id(self, tx: Tx, game_id: int) -> GameRow:
        check_id(game_id, "game id")
        row = await tx.games.game(game_id)
        if row is None:
            raise NoGameHere(N_("There is no game number {game_id}."), game_id=game_id)
        return row

    @warms_engines
    async def games_for_player(
        self, guild_id: int, user_id: int, active_only: bool = False, limit: int = 25
    ) -> list[GameInfo]:
        """A player's games in a server, most recently updated first."""
        check_id(guild_id, "server id")
        check_id(user_id, "user id")
        check_bool(active_only, "active_only flag")
        check_limit(limit)
        async with self.store.read() as tx:
            rows = await tx.games.games_for_player(guild_id, user_id, active_only, limit)
            return await self._infos(tx, rows)

    async def game_summaries(
        self,
        guild_id: int | None = None,
        *,
        player_id: int | None = None,
        to_move_id: int | None = None,
        active_only: bool = False,
        cursor: str | None = None,
        limit: int = 25,
        shards: ShardFilter | None = None,
    ) -> SummaryPage:
        """One page of games, most recently updated first, from stored columns only.

        Filters combine: a server, a player (either seat), the user to move (active games),
        active only, servers on some shards (those the calling process holds).  This is what
        lists (``/games``, ``/admin active``, the computer looking for its turns) should use:
        it never builds an engine, so it stays a single indexed query however long the games
        are.  Raises InvalidId, InvalidInput (limit, cursor, shards).
        """
        check_optional_id(guild_id, "server id")
        check_optional_id(player_id, "player id")
        check_optional_id(to_move_id, "user id")
        check_bool(active_only, "active_only flag")
        check_limit(limit)
        check_shards(shards)
        after = _read_cursor(cursor)
        async with self.store.read() as tx:
            rows = await tx.games.find_games(
                guild_id=guild_id,
                player_id=player_id,
                to_move_id=to_move_id,
                active_only=active_only,
                after=after,
                limit=limit + 1,
                shards=shards,
            )
        more = len(rows) > limit
        rows = rows[:limit]
        next_cursor = f"{rows[-1].updated_at}.{rows[-1].id}" if more else None
        return SummaryPage(tuple(convert.summary(r, self._stamp()) for r in rows), next_cursor)

    @warms_engines
    async def active_games(self, guild_id: int) -> list[GameInfo]:
        check_id(guild_id, "server id")
        async with self.store.read() as tx:
            return await self._infos(tx, await tx.games.active_games(guild_id))

    @warms_engines
    async def game_record(self, game_id: int) -> GameRecord:
        """Full record: every move with who and when, plus takebacks and endings."""
        async with self.store.read() as tx:
            row = await self._row_by_id(tx, game_id)
            game = await self._engine(tx, row)
            return await full_record(tx, row, game, self._stamp())

    @warms_engines
    async def position(self, game_id: int) -> Game:
        """A fresh rules-engine ``Game`` at the stored position (for rendering; yours to mutate)."""
        async with self.store.read() as tx:
            row = await self._row_by_id(tx, game_id)
            return (await self._engine(tx, row)).copy()

    async def rebuild_cached_state(self, game_id: int) -> GameInfo:
        """Recompute the cached columns (record, side and user to move) from the moves."""
        check_id(game_id, "game id")
        self._engines.pop(game_id, None)  # replayed from the moves table, not the cache
        return await self._rebuild(game_id)

    @warms_engines
    async def _rebuild(self, game_id: int) -> GameInfo:
        async with self._write() as tx:
            row = await self._row_by_id(tx, game_id)
            game = await self._engine(tx, row)
            to_move = game.to_move if row.status == "active" else None
            to_move_id = convert.user_of(convert.seats(row, game), to_move)
            row = await tx.games.save_cached_state(row, game.record(), to_move, to_move_id)
            return convert.game_info(row, game, self._stamp())


def _read_cursor(cursor: object) -> tuple[int, int] | None:
    """The ``(updated_at, id)`` a cursor from :meth:`Queries.game_summaries` stands for.

    Both numbers are 64-bit columns: a cursor comes back from a button's custom id, which a
    client can forge, so a number the database cannot hold is refused here rather than
    reaching the driver as a database failure.
    """
    if cursor is None:
        return None
    if isinstance(cursor, str) and len(cursor) <= 40:
        stamp, _, game_id = cursor.partition(".")
        if stamp.lstrip("-").isdigit() and game_id.isdigit():
            after = int(stamp), int(game_id)
            if -(2**63) <= after[0] <= MAX_ID and after[1] <= MAX_ID:
                return after
    raise InvalidInput("{cursor} is not a page cursor from a game list.", cursor=quote(cursor))


async def full_record(tx: Tx, row: GameRow, game: Game, now: int) -> GameRecord:
    """``row``'s record, with ``game`` its engine at the row's version (``now``: the clock's
    microseconds, for the time left)."""
    stored = await tx.games.moves(row.id)
    events = await tx.games.events(row.id)
    info = convert.game_info(row, game, now)
    history = game.history
    moves = tuple(
        PlayedMove(m.ply, m.move, m.user_id, history[m.ply].player, from_us(m.played_at))
        for m in stored
    )
    return GameRecord(
        info,
        moves,
        tuple(HistoryEvent(from_us(e.at), e.kind, e.user_id, e.detail) for e in events),
    )
