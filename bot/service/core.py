"""The service's shared machinery: time, transactions, the engine cache (:mod:`.engines`), the
checks every player action shares, and the events a write reports after its commit.

One :class:`ServiceCore` is shared by every feature's sub-service (:class:`Feature`), which
:class:`~bot.service.game_service.GameService` composes: the features never inherit from
each other, and reach the core only through the few helpers :class:`Feature` names."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TypeVar

from rules import Game, InvalidOptions
from rules.errors import N_

from ..store import (
    ClockRow,
    GameRow,
    ResultRow,
    Store,
    Tx,
    WriteConflict,
)
from . import convert
from .checks import (
    check_id,
    check_optional_id,
    check_version,
)
from .clocks.types import TimeControl
from .convert import to_us
from .engines import ColdEngines, EngineCache, warms_engines
from .errors import (
    GameFinished,
    InvalidInput,
    NoGameHere,
    NotAPlayer,
    OutOfTime,
    StaleAction,
)
from .events import Event, EventBus, GameOver
from .moderation_types import GuildSettings
from .ratings.apply import rate_result
from .types import GameEnded, ResultReason, Seat

T = TypeVar("T")

_ENDING_WORDS = {
    "connection": "won",
    "draw": "drawn",
    "resign": "resigned",
    "time": "lost on time",
    "abort": "aborted",
    "award": "awarded",
    "forfeit": "forfeited",
}


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class _Timeout:
    """Marker: the player to move had run out of time; the loss was recorded instead."""

    ended: GameEnded


def clock_row(tc: TimeControl, started: int) -> ClockRow:
    """Deadline and first reminder for a turn that started at ``started`` (microseconds)."""
    deadline = None if tc.per_move is None else started + tc.per_move * 1_000_000
    return ClockRow(started, deadline, next_reminder(tc, started, deadline, 0))


def next_reminder(tc: TimeControl, started: int, deadline: int | None, sent: int) -> int | None:
    """When reminder number ``sent`` is due (None when no further reminder comes first)."""
    for index, after in enumerate(sorted(tc.reminders)):
        if index < sent:
            continue
        at = started + after * 1_000_000
        if deadline is None or at < deadline:
            return at
    return None


class ServiceCore(EngineCache):
    """State shared by every part of the service: the store, the clock, the RNG and the
    engine cache."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.clock = clock or utc_now
        self.rng = rng or random.Random()
        self.events = EventBus()
        self._end_hooks: list[EndHook] = []
        super().__init__()

    def on_game_end(self, hook: EndHook) -> None:
        """Run ``hook(tx, row, now)`` inside every write block that ends a game, after its
        result is written: what must change with it, atomically (a tournament records the
        result and pairs its next round).  Reactions outside the store listen to
        :class:`~bot.service.events.GameOver` on :attr:`events` instead."""
        self._end_hooks.append(hook)

    # ----- internals: time ---------------------------------------------------------------
    def _now(self) -> datetime:
        now = self.clock()
        return now if now.tzinfo is not None else now.replace(tzinfo=UTC)

    def _stamp(self) -> int:
        """The service clock's now in microseconds (what a reader's ``time_left`` is at)."""
        return to_us(self._now())

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        """A store write transaction whose version conflicts reach players as StaleAction.

        Events emitted inside it (:meth:`emit`) reach the listeners once it has committed, and
        never if it rolls back."""
        with self.events.collecting() as pending:
            try:
                async with self.store.write() as tx:
                    yield tx
            except WriteConflict as exc:
                raise StaleAction(
                    N_("The game changed while you acted; look again and retry.")
                ) from exc
        self.events.publish(pending)

    def emit(self, event: Event) -> None:
        """Report ``event`` to the listeners once the write block it happened in commits."""
        self.events.emit(event)

    async def _active_row(self, tx: Tx, channel_id: int) -> GameRow:
        row = await tx.games.active_game_in(channel_id)
        if row is not None:
            return row
        latest = await tx.games.latest_game_in(channel_id)
        if latest is not None:
            word = _ENDING_WORDS.get(latest.result_reason or "", "over")
            raise GameFinished(
                N_("The game in this channel is over ({word}); start a new one."), word=word
            )
        raise NoGameHere(N_("There is no game in this channel."))

    @warms_engines
    async def _game_action(
        self,
        channel_id: int,
        user_id: int,
        expected_version: int | None,
        action: Callable[[Tx, GameRow, Game, datetime], Awaitable[tuple[GameRow, T]]],
        game_id: int | None = None,
        *,
        on_copy: bool = False,
    ) -> T:
        """Run a player's action in one write transaction, with the checks every action shares.

        ``game_id`` binds the action to the game it was made against: an action from a button
        or a computer search that read an earlier game in the channel is refused as stale,
        even when its ``expected_version`` matches the channel's new game.  A player whose
        clock ran out loses on time before anything else happens; that loss is committed and
        then reported as :class:`OutOfTime`.

        With ``on_copy`` the action gets a copy of the cached engine, which becomes the cached
        one only once the transaction commits: an action that awaits while the engine changes
        (a move played on another thread) never shows readers a position half played.
        """
        check_id(channel_id, "channel id")
        check_id(user_id, "user id")
        check_version(expected_version)
        check_optional_id(game_id, "game id")
        now = self._now()
        outcome: T | _Timeout
        game: Game | None = None
        plies = 0
        try:
            async with self._write() as tx:
                row = await self._active_row(tx, channel_id)
                if game_id is not None and row.id != game_id:
                    raise StaleAction(
                        N_(
                            "That was for an earlier game in this channel, which has ended. "
                            "Look at the latest board."
                        )
                    )
                game = await self._engine(tx, row)
                if on_copy:
                    game = game.copy()
                plies = len(game.history)
                pair = convert.seats(row, game)
                if user_id not in (pair[0].user_id, pair[1].user_id):
                    raise NotAPlayer(N_("You are not playing in this game."))
                if expected_version is not None and expected_version != row.version:
                    raise StaleAction(
                        N_(
                            "That button is out of date: the game has moved on since. Look at the "
                            "latest board."
                        )
                    )
                if row.deadline_at is not None and to_us(now) >= row.deadline_at:
                    loser = convert.user_of(pair, game.to_move)
                    assert loser is not None
                    row, ended = await self._finish(tx, row, game, "time", now, loser_id=loser)
                    outcome = _Timeout(ended)
                else:
                    row, outcome = await action(tx, row, game, now)
        except BaseException:
            # A refusal leaves the engine untouched; anything else after a change to it
            # (a failed commit, a cancelled task) must not leave a cached engine ahead of the db.
            if game is not None and not on_copy and len(game.history) != plies:
                self._engines.pop(row.id, None)
            raise
        self._remember(row.id, row.version, game)
        if isinstance(outcome, _Timeout):
            raise OutOfTime(
                N_("Time ran out before that: the player to move has lost on time."), outcome.ended
            )
        return outcome

    async def _game_ended(self, tx: Tx, row: GameRow, ended: GameEnded, now: datetime) -> None:
        """Called in the write block that ended ``row``'s game, however it ended (a move,
        resignation, time, moderation), after its result is written: runs the hooks
        (:meth:`on_game_end`) and reports :class:`~bot.service.events.GameOver` for after
        the commit."""
        self.emit(GameOver(ended))
        for hook in self._end_hooks:
            await hook(tx, row, now)

    async def _finish(
        self,
        tx: Tx,
        row: GameRow,
        game: Game,
        reason: ResultReason,
        now: datetime,
        *,
        winner_id: int | None = None,
        loser_id: int | None = None,
        actor_id: int | None = None,
        detail: str = "",
    ) -> tuple[GameRow, GameEnded]:
        """Record a result that did not come from a move (resign, time, moderation)."""
        pair = convert.seats(row, game)
        ids = (pair[0].user_id, pair[1].user_id)
        if winner_id is None and loser_id is not None:
            winner_id = ids[1] if loser_id == ids[0] else ids[0]
        if loser_id is None and winner_id is not None:
            loser_id = ids[1] if winner_id == ids[0] else ids[0]
        stamp = to_us(now)
        result = ResultRow(
            status="aborted" if reason == "abort" else "finished",
            reason=reason,
            winner_id=winner_id,
            winner_colour=colour_of(pair, winner_id),
            loser_id=loser_id,
            loser_colour=colour_of(pair, loser_id),
            actor_id=actor_id,
        )
        result, rating = await rate_result(tx, row, game, result, stamp)
        row = await tx.games.finish_game(row, result, at=stamp)
        await tx.games.add_event(row.id, stamp, reason, actor_id if actor_id else loser_id, detail)
        info = convert.game_info(row, game)
        assert info.result is not None
        ended = GameEnded(info, info.result, rating)
        await self._game_ended(tx, row, ended, now)
        return row, ended


class Feature:
    """One feature's sub-service: its methods over the shared :class:`ServiceCore`.

    The helpers here are the whole of what a feature may use of the core; a feature that
    needs another feature's work is given that sub-service explicitly (see
    :class:`~bot.service.game_service.GameService`)."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    @property
    def store(self) -> Store:
        return self.core.store

    @property
    def rng(self) -> random.Random:
        return self.core.rng

    @property
    def _engines(self) -> dict[int, tuple[int, Game]]:
        return self.core._engines

    def _now(self) -> datetime:
        return self.core._now()

    def _stamp(self) -> int:
        return self.core._stamp()

    def _write(self) -> AbstractAsyncContextManager[Tx]:
        return self.core._write()

    def _emit(self, event: Event) -> None:
        self.core.emit(event)

    async def warm(self, cold: ColdEngines) -> None:
        await self.core.warm(cold)

    async def _engine(self, tx: Tx, row: GameRow) -> Game:
        return await self.core._engine(tx, row)

    async def _engines_for(self, tx: Tx, rows: Sequence[GameRow]) -> list[Game]:
        return await self.core._engines_for(tx, rows)

    def _remember(self, game_id: int, version: int, game: Game) -> None:
        self.core._remember(game_id, version, game)

    async def _active_row(self, tx: Tx, channel_id: int) -> GameRow:
        return await self.core._active_row(tx, channel_id)

    async def _game_ended(self, tx: Tx, row: GameRow, ended: GameEnded, now: datetime) -> None:
        await self.core._game_ended(tx, row, ended, now)

    async def _game_action(
        self,
        channel_id: int,
        user_id: int,
        expected_version: int | None,
        action: Callable[[Tx, GameRow, Game, datetime], Awaitable[tuple[GameRow, T]]],
        game_id: int | None = None,
        *,
        on_copy: bool = False,
    ) -> T:
        return await self.core._game_action(
            channel_id, user_id, expected_version, action, game_id, on_copy=on_copy
        )

    async def _finish(
        self,
        tx: Tx,
        row: GameRow,
        game: Game,
        reason: ResultReason,
        now: datetime,
        *,
        winner_id: int | None = None,
        loser_id: int | None = None,
        actor_id: int | None = None,
        detail: str = "",
    ) -> tuple[GameRow, GameEnded]:
        return await self.core._finish(
            tx,
            row,
            game,
            reason,
            now,
            winner_id=winner_id,
            loser_id=loser_id,
            actor_id=actor_id,
            detail=detail,
        )


EndHook = Callable[[Tx, GameRow, datetime], Awaitable[None]]
"""What :meth:`ServiceCore.on_game_end` runs inside the write block that ended a game."""


def other_player(pair: Sequence[Seat], user_id: int) -> int:
    a, b = pair[0].user_id, pair[1].user_id
    return b if user_id == a else a


def colour_of(pair: Sequence[Seat], user_id: int | None) -> str | None:
    for seat in pair:
        if seat.user_id == user_id:
            return seat.colour
    return None


def board_size(
    guild: GuildSettings, cls: type[Game], size: int | None, error: type[InvalidInput]
) -> int:
    """The board a new challenge or tournament plays on: ``size`` if given, else the server's
    default for the game, else the game's own; a size the game does not allow raises
    ``error`` with the engine's words."""
    chosen = size if size is not None else guild.size_for(cls.name) or cls.default_size
    try:
        cls(chosen)
    except InvalidOptions as exc:
        raise error(exc.wording) from exc
    return chosen
