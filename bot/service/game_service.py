"""The game service: every rule of play around the engine, over plain ids and a SQLite store.

Front ends (Discord, the console) call these coroutines and turn the frozen results into
messages.  Every state change runs in one ``BEGIN IMMEDIATE`` transaction that re-reads the
game and updates it only at the version it read, so two racing commands can never both succeed
against the same turn.  Any refusal raises a :class:`~bot.service.errors.ServiceError` before
anything is written, so the transaction rolls back and the state is unchanged.

Live engines are cached per game and keyed by version; the moves table stays the source of
truth, and an engine is rebuilt from it whenever the cache is cold or out of date.
"""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from rules import Game, IllegalMove, InvalidOptions, UnknownGame, game_class, new_game

from ..store import (
    ChannelTaken,
    ClockRow,
    GameRow,
    MoveRow,
    NewChallenge,
    NewGame,
    ResultRow,
    SettingsRow,
    Store,
    Tx,
    WriteConflict,
)
from . import convert
from .convert import from_us, to_us
from .errors import (
    ChallengeExpired,
    ChallengeNotFound,
    ChannelBusy,
    GameFinished,
    IllegalMoveError,
    InvalidChallenge,
    InvalidSettings,
    NoGameHere,
    NoTakeback,
    NotAPlayer,
    NotYourTurn,
    OutOfTime,
    PermissionDenied,
    StaleAction,
)
from .types import (
    AuditEntry,
    Challenge,
    DueAction,
    DueOutcome,
    FirstChoice,
    GameEnded,
    GameInfo,
    GameRecord,
    GameStarted,
    GuildSettings,
    HistoryEvent,
    MoveResult,
    PlayedMove,
    Reminder,
    ResultReason,
    Seat,
    TakebackAnswer,
    TakebackRequest,
    TimeControl,
)

T = TypeVar("T")

ENGINE_CACHE_SIZE = 1024
MIN_EXPIRY = 60
MAX_EXPIRY = 30 * 86400
_FIRST_CHOICES = ("me", "them", "random")
MAX_OPTIONS = 8
MAX_OPTION_KEY = 32
MAX_OPTION_VALUE = 64
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


class GameService:
    """Challenges, games, clocks and moderation.  Knows nothing of Discord.

    ``clock`` returns the current time as an aware UTC datetime (inject a fake in tests);
    ``rng`` decides random first players.  Admin methods trust the caller to have checked
    that ``actor_id`` is a server admin; they record who acted in the audit log.
    """

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.clock = clock or utc_now
        self.rng = rng or random.Random()
        self._engines: OrderedDict[int, tuple[int, Game]] = OrderedDict()

    # ----- internals: time, engines --------------------------------------------------------
    def _now(self) -> datetime:
        now = self.clock()
        return now if now.tzinfo is not None else now.replace(tzinfo=UTC)

    async def _engine(self, tx: Tx, row: GameRow) -> Game:
        """The live engine at ``row``'s version: cached, else replayed from the moves table."""
        cached = self._engines.get(row.id)
        if cached is not None and cached[0] == row.version:
            self._engines.move_to_end(row.id)
            return cached[1]
        game = new_game(row.game, row.size)
        for stored in await tx.moves(row.id):
            game.play(stored.move)
        self._remember(row.id, row.version, game)
        return game

    def _remember(self, game_id: int, version: int, game: Game) -> None:
        self._engines[game_id] = (version, game)
        self._engines.move_to_end(game_id)
        while len(self._engines) > ENGINE_CACHE_SIZE:
            self._engines.popitem(last=False)

    def forget_engines(self) -> None:
        """Drop cached engines (they are rebuilt from the moves table on next use)."""
        self._engines.clear()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        """A store write transaction whose version conflicts reach players as StaleAction."""
        try:
            async with self.store.write() as tx:
                yield tx
        except WriteConflict as exc:
            raise StaleAction("The game changed while you acted; look again and retry.") from exc

    async def _active_row(self, tx: Tx, channel_id: int) -> GameRow:
        row = await tx.active_game_in(channel_id)
        if row is not None:
            return row
        latest = await tx.latest_game_in(channel_id)
        if latest is not None:
            word = _ENDING_WORDS.get(latest.result_reason or "", "over")
            raise GameFinished(f"The game in this channel is over ({word}); start a new one.")
        raise NoGameHere("There is no game in this channel.")

    async def _game_action(
        self,
        channel_id: int,
        user_id: int,
        expected_version: int | None,
        action: Callable[[Tx, GameRow, Game, datetime], Awaitable[tuple[GameRow, T]]],
    ) -> T:
        """Run a player's action in one write transaction, with the checks every action shares.

        A player whose clock ran out loses on time before anything else happens; that loss is
        committed and then reported as :class:`OutOfTime`.
        """
        now = self._now()
        outcome: T | _Timeout
        game: Game | None = None
        plies = 0
        try:
            async with self._write() as tx:
                row = await self._active_row(tx, channel_id)
                game = await self._engine(tx, row)
                plies = len(game.history)
                pair = convert.seats(row, game)
                if user_id not in (pair[0].user_id, pair[1].user_id):
                    raise NotAPlayer("You are not playing in this game.")
                if expected_version is not None and expected_version != row.version:
                    raise StaleAction(
                        "That button is out of date: the game has moved on since. "
                        "Look at the latest board."
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
            if game is not None and len(game.history) != plies:
                self._engines.pop(row.id, None)
            raise
        self._remember(row.id, row.version, game)
        if isinstance(outcome, _Timeout):
            raise OutOfTime(
                "Time ran out before that: the player to move has lost on time.",
                outcome.ended,
            )
        return outcome

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
            winner_colour=_colour(pair, winner_id),
            loser_id=loser_id,
            loser_colour=_colour(pair, loser_id),
            actor_id=actor_id,
        )
        row = await tx.finish_game(row, result, at=stamp)
        await tx.add_event(row.id, stamp, reason, actor_id if actor_id else loser_id, detail)
        info = convert.game_info(row, game)
        assert info.result is not None
        return row, GameEnded(info, info.result)

    # ----- challenges ---------------------------------------------------------------------
    async def create_challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        game: str,
        size: int | None = None,
        first: FirstChoice = "me",
        time_control: TimeControl | str | None = None,
        *,
        options: Mapping[str, str] | None = None,
    ) -> Challenge:
        """Create a direct (``opponent_id``) or open (None) challenge.

        ``size``/``time_control`` default to the server's settings, then the game's default.
        ``options`` are per-game settings a front end needs back later (the computer's level),
        stored with the challenge and copied to its game; the service does not read them.
        Raises InvalidChallenge (self-challenge, unknown game, size the game does not allow,
        channel not allowed, bad options), InvalidTimeControl, ChannelBusy (no threads and the
        channel already has a game).
        """
        checked = _checked_options(options)
        if opponent_id is not None and opponent_id == challenger_id:
            raise InvalidChallenge("You can't challenge yourself.")
        try:
            cls = game_class(game)
        except UnknownGame as exc:
            raise InvalidChallenge(str(exc)) from exc
        if first not in _FIRST_CHOICES:
            raise InvalidChallenge("Choose who moves first: me, them or random.")
        if isinstance(time_control, str):
            time_control = TimeControl.parse(time_control)
        now = self._now()
        async with self._write() as tx:
            guild = convert.settings(await tx.settings(guild_id), guild_id)
            if not guild.allows(channel_id):
                raise InvalidChallenge(
                    "Games can't be started in this channel; ask an admin which channels "
                    "allow games."
                )
            chosen = size if size is not None else guild.size_for(cls.name) or cls.default_size
            try:
                cls(chosen)
            except InvalidOptions as exc:
                raise InvalidChallenge(_sentence(str(exc))) from exc
            tc = time_control if time_control is not None else guild.default_time_control
            if not guild.use_threads and await tx.active_game_in(channel_id) is not None:
                raise ChannelBusy(
                    "This channel already has a game in progress; finish it or use another channel."
                )
            stamp = to_us(now)
            row = await tx.insert_challenge(
                NewChallenge(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    challenger_id=challenger_id,
                    opponent_id=opponent_id,
                    game=cls.name,
                    size=chosen,
                    first=first,
                    per_move=tc.per_move,
                    reminders=tc.reminders,
                    created_at=stamp,
                    expires_at=stamp + guild.challenge_expiry * 1_000_000,
                    options=tuple(sorted(checked.items())),
                )
            )
        return convert.challenge(row)

    async def _open_challenge(self, tx: Tx, challenge_id: int, now: datetime) -> Challenge:
        row = await tx.challenge(challenge_id)
        if row is None:
            raise ChallengeNotFound("That challenge doesn't exist.")
        found = convert.challenge(row)
        if found.status == "expired" or (found.status == "open" and now >= found.expires_at):
            raise ChallengeExpired("That challenge has expired.")
        if found.status != "open":
            raise InvalidChallenge(f"That challenge was already {found.status}.")
        return found

    async def accept_challenge(
        self, challenge_id: int, user_id: int, game_channel_id: int | None = None
    ) -> GameStarted:
        """Accept and start the game in ``game_channel_id`` (a thread; default: the channel).

        Raises ChallengeNotFound, ChallengeExpired, InvalidChallenge (not open any more, own
        challenge), PermissionDenied (a direct challenge to someone else), ChannelBusy.
        """
        now = self._now()
        stamp = to_us(now)
        async with self._write() as tx:
            found = await self._open_challenge(tx, challenge_id, now)
            if user_id == found.challenger_id:
                raise InvalidChallenge("You can't accept your own challenge.")
            if found.opponent_id is not None and found.opponent_id != user_id:
                raise PermissionDenied("This challenge is for another player.")
            channel = found.channel_id if game_channel_id is None else game_channel_id
            if await tx.active_game_in(channel) is not None:
                raise ChannelBusy(
                    "That channel already has a game in progress; finish it or use another channel."
                )
            challenger_first = {
                "me": True,
                "them": False,
                "random": self.rng.random() < 0.5,
            }[found.first]
            first_id, second_id = (
                (found.challenger_id, user_id)
                if challenger_first
                else (user_id, found.challenger_id)
            )
            game = new_game(found.game, found.size)
            tc = found.time_control
            new = NewGame(
                guild_id=found.guild_id,
                channel_id=channel,
                game=found.game,
                size=found.size,
                first_id=first_id,
                second_id=second_id,
                record=game.record(),
                to_move=game.to_move,
                per_move=tc.per_move,
                reminders=tc.reminders,
                clock=clock_row(tc, stamp),
                challenge_id=found.id,
                created_at=stamp,
                options=tuple(sorted(found.options.items())),
            )
            try:
                row = await tx.insert_game(new)
            except ChannelTaken as exc:
                raise ChannelBusy("That channel already has a game in progress.") from exc
            accepted = await tx.resolve_challenge(found.id, "accepted", stamp, user_id, row.id)
            await tx.add_event(row.id, stamp, "started", user_id, f"challenge {found.id}")
        assert accepted is not None  # the challenge was open in this same transaction
        self._remember(row.id, row.version, game)
        return GameStarted(convert.challenge(accepted), convert.game_info(row, game))

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player declines a direct challenge."""
        now = self._now()
        async with self._write() as tx:
            found = await self._open_challenge(tx, challenge_id, now)
            if found.opponent_id is None:
                raise InvalidChallenge(
                    "An open challenge can't be declined; just leave it, or the challenger "
                    "can cancel it."
                )
            if found.opponent_id != user_id:
                raise PermissionDenied("Only the challenged player can decline this challenge.")
            row = await tx.resolve_challenge(found.id, "declined", to_us(now))
        assert row is not None
        return convert.challenge(row)

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws their challenge."""
        now = self._now()
        async with self._write() as tx:
            row = await tx.challenge(challenge_id)
            if row is None:
                raise ChallengeNotFound("That challenge doesn't exist.")
            if row.challenger_id != user_id:
                raise PermissionDenied("Only the challenger can cancel this challenge.")
            if row.status != "open":
                raise InvalidChallenge(f"That challenge was already {row.status}.")
            resolved = await tx.resolve_challenge(row.id, "cancelled", to_us(now))
        assert resolved is not None
        row = resolved
        return convert.challenge(row)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """Raises ChallengeNotFound."""
        async with self.store.read() as tx:
            row = await tx.challenge(challenge_id)
        if row is None:
            raise ChallengeNotFound("That challenge doesn't exist.")
        return convert.challenge(row)

    async def open_challenges(self, guild_id: int, user_id: int | None = None) -> list[Challenge]:
        """Unanswered challenges in a server; with ``user_id``: those by or to that user."""
        async with self.store.read() as tx:
            rows = await tx.open_challenges(guild_id, user_id)
        return [convert.challenge(r) for r in rows]

    # ----- play ---------------------------------------------------------------------------
    async def play_move(
        self, channel_id: int, user_id: int, move: str, expected_version: int | None = None
    ) -> MoveResult:
        """Play ``move`` (a point like ``c3``, or ``swap``) for ``user_id`` in the channel's game.

        Raises NoGameHere, GameFinished, NotAPlayer, StaleAction, OutOfTime (recorded),
        NotYourTurn, IllegalMoveError (engine message).
        """

        async def act(
            tx: Tx, row: GameRow, game: Game, now: datetime
        ) -> tuple[GameRow, MoveResult]:
            pair = convert.seats(row, game)
            if convert.user_of(pair, game.to_move) != user_id:
                raise NotYourTurn("It's not your turn.")
            turn_before = game.turn_number
            try:
                record = game.play(move)
            except IllegalMove as exc:
                raise IllegalMoveError(_sentence(str(exc)), move) from exc
            stamp = to_us(now)
            after = convert.seats(row, game)
            result: ResultRow | None = None
            clock: ClockRow | None = None
            if game.is_over:
                winner = convert.user_of(after, game.winner)
                loser = None if winner is None else _other(after, winner)
                result = ResultRow(
                    status="finished",
                    reason="draw" if game.is_draw else "connection",
                    winner_id=winner,
                    winner_colour=game.winner,
                    loser_id=loser,
                    loser_colour=_colour(after, loser),
                )
            elif game.turn_number != turn_before:
                clock = clock_row(_tc(row), stamp)
            row = await tx.record_moves(
                row,
                [MoveRow(row.id, record.ply, record.move, user_id, stamp)],
                record=game.record(),
                to_move=game.to_move,
                at=stamp,
                clock=clock,
                result=result,
            )
            if game.is_over:
                kind = "draw" if game.is_draw else "connection"
                await tx.add_event(row.id, stamp, kind, user_id, record.move)
            info = convert.game_info(row, game)
            return row, MoveResult(
                game=info,
                events=(convert.move_event(record, user_id, after),),
                next_id=info.to_move_id,
                next_colour=info.to_move_colour,
                deadline=info.deadline,
                result=info.result,
            )

        return await self._game_action(channel_id, user_id, expected_version, act)

    async def swap(
        self, channel_id: int, user_id: int, expected_version: int | None = None
    ) -> MoveResult:
        """Clear Path's pie rule: the second player takes over the first colour."""
        return await self.play_move(channel_id, user_id, "swap", expected_version)

    async def resign(
        self, channel_id: int, user_id: int, expected_version: int | None = None
    ) -> GameEnded:
        """Either player may resign at any time while the game is active."""

        async def act(tx: Tx, row: GameRow, game: Game, now: datetime) -> tuple[GameRow, GameEnded]:
            return await self._finish(
                tx, row, game, "resign", now, loser_id=user_id, actor_id=user_id
            )

        return await self._game_action(channel_id, user_id, expected_version, act)

    async def request_takeback(self, channel_id: int, user_id: int) -> TakebackRequest:
        """Ask the opponent to undo the requester's own last turn (the last turn only).

        Raises NoTakeback if the last turn was not the requester's, nothing was played, or a
        request is already pending.
        """

        async def act(
            tx: Tx, row: GameRow, game: Game, now: datetime
        ) -> tuple[GameRow, TakebackRequest]:
            if not game.history:
                raise NoTakeback("There is no move to take back yet.")
            if row.takeback_by is not None:
                raise NoTakeback("A takeback request is already waiting for an answer.")
            stored = await tx.moves(row.id)
            if stored[-1].user_id != user_id:
                raise NoTakeback("You can only ask to take back your own last turn.")
            stamp = to_us(now)
            row = await tx.request_takeback(row, user_id, stamp)
            await tx.add_event(row.id, stamp, "takeback_requested", user_id)
            return row, TakebackRequest(user_id, from_us(stamp), row.version)

        return await self._game_action(channel_id, user_id, None, act)

    async def answer_takeback(self, channel_id: int, user_id: int, accept: bool) -> TakebackAnswer:
        """The opponent accepts (the turn is undone) or declines the pending request."""

        async def act(
            tx: Tx, row: GameRow, game: Game, now: datetime
        ) -> tuple[GameRow, TakebackAnswer]:
            requester = row.takeback_by
            if requester is None or row.takeback_version != row.version:
                raise NoTakeback("There is no takeback request to answer.")
            if requester == user_id:
                raise PermissionDenied("You can't answer your own takeback request.")
            stamp = to_us(now)
            if not accept:
                row = await tx.clear_takeback(row)
                await tx.add_event(row.id, stamp, "takeback_declined", user_id)
                info = convert.game_info(row, game)
                return row, TakebackAnswer(False, requester, user_id, (), info)
            pair = convert.seats(row, game)
            turn = game.last_turn()
            undone = tuple(convert.move_event(r, requester, pair) for r in turn)
            for _ in turn:
                game.pop()
            row = await tx.take_back(
                row,
                turn[0].ply,
                record=game.record(),
                to_move=game.to_move,
                clock=clock_row(_tc(row), stamp),
                at=stamp,
            )
            moves = " ".join(r.move for r in turn)
            await tx.add_event(row.id, stamp, "takeback_accepted", user_id, moves)
            info = convert.game_info(row, game)
            return row, TakebackAnswer(True, requester, user_id, undone, info)

        return await self._game_action(channel_id, user_id, None, act)

    # ----- queries ------------------------------------------------------------------------
    async def _infos(self, tx: Tx, rows: Sequence[GameRow]) -> list[GameInfo]:
        return [convert.game_info(row, await self._engine(tx, row)) for row in rows]

    async def get_game(self, channel_id: int) -> GameInfo | None:
        """The active game in a channel or thread, if any."""
        async with self.store.read() as tx:
            row = await tx.active_game_in(channel_id)
            return None if row is None else convert.game_info(row, await self._engine(tx, row))

    async def latest_game(self, channel_id: int) -> GameInfo | None:
        """The channel's most recent game, finished or not (None if it never had one).

        A channel's active game is always its latest: a new game can only start once the
        previous one ended, so this is the active game when there is one.  Anyone may look at
        it, so /board and /history keep working in a game's thread after it ended.
        """
        async with self.store.read() as tx:
            row = await tx.latest_game_in(channel_id)
            return None if row is None else convert.game_info(row, await self._engine(tx, row))

    async def get_game_by_id(self, game_id: int) -> GameInfo:
        """Any game, active or not.  Raises NoGameHere."""
        async with self.store.read() as tx:
            row = await self._row_by_id(tx, game_id)
            return convert.game_info(row, await self._engine(tx, row))

    async def _row_by_id(self, tx: Tx, game_id: int) -> GameRow:
        row = await tx.game(game_id)
        if row is None:
            raise NoGameHere(f"There is no game number {game_id}.")
        return row

    async def games_for_player(
        self, guild_id: int, user_id: int, active_only: bool = False, limit: int = 25
    ) -> list[GameInfo]:
        """A player's games in a server, most recently updated first."""
        async with self.store.read() as tx:
            rows = await tx.games_for_player(guild_id, user_id, active_only, limit)
            return await self._infos(tx, rows)

    async def active_games(self, guild_id: int) -> list[GameInfo]:
        async with self.store.read() as tx:
            return await self._infos(tx, await tx.active_games(guild_id))

    async def game_record(self, game_id: int) -> GameRecord:
        """Full record: every move with who and when, plus takebacks and endings."""
        async with self.store.read() as tx:
            row = await self._row_by_id(tx, game_id)
            game = await self._engine(tx, row)
            stored = await tx.moves(game_id)
            events = await tx.events(game_id)
            info = convert.game_info(row, game)
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

    async def position(self, game_id: int) -> Game:
        """A fresh rules-engine ``Game`` at the stored position (for rendering; yours to mutate)."""
        async with self.store.read() as tx:
            row = await self._row_by_id(tx, game_id)
            return (await self._engine(tx, row)).copy()

    async def rebuild_cached_state(self, game_id: int) -> GameInfo:
        """Recompute the cached columns (record, side to move) from the moves table."""
        async with self._write() as tx:
            row = await self._row_by_id(tx, game_id)
            self._engines.pop(game_id, None)
            game = await self._engine(tx, row)
            to_move = game.to_move if row.status == "active" else None
            row = await tx.save_cached_state(row, game.record(), to_move)
            return convert.game_info(row, game)

    # ----- moderation and settings --------------------------------------------------------
    async def _moderate(
        self,
        guild_id: int,
        actor_id: int,
        channel_id: int,
        reason: ResultReason,
        target_id: int | None,
        note: str,
    ) -> GameEnded:
        now = self._now()
        async with self._write() as tx:
            row = await tx.active_game_in(channel_id)
            if row is None or row.guild_id != guild_id:
                raise NoGameHere("There is no game in progress in that channel.")
            game = await self._engine(tx, row)
            pair = convert.seats(row, game)
            if target_id is not None and target_id not in (pair[0].user_id, pair[1].user_id):
                raise NotAPlayer("That user is not playing in this game.")
            row, ended = await self._finish(
                tx,
                row,
                game,
                reason,
                now,
                winner_id=target_id if reason == "award" else None,
                loser_id=target_id if reason == "forfeit" else None,
                actor_id=actor_id,
                detail=note,
            )
            await tx.add_audit(
                guild_id=guild_id,
                actor_id=actor_id,
                action=reason,
                at=to_us(now),
                game_id=row.id,
                target_id=target_id,
                detail=note,
            )
        self._remember(row.id, row.version, game)
        return ended

    async def admin_abort(
        self, guild_id: int, actor_id: int, channel_id: int, reason: str = ""
    ) -> GameEnded:
        """End the channel's game with no result."""
        return await self._moderate(guild_id, actor_id, channel_id, "abort", None, reason)

    async def admin_award(
        self, guild_id: int, actor_id: int, channel_id: int, winner_id: int, reason: str = ""
    ) -> GameEnded:
        """Declare ``winner_id`` (a player) the winner."""
        return await self._moderate(guild_id, actor_id, channel_id, "award", winner_id, reason)

    async def admin_forfeit(
        self, guild_id: int, actor_id: int, channel_id: int, loser_id: int, reason: str = ""
    ) -> GameEnded:
        """Declare ``loser_id`` (a player) the loser by forfeit."""
        return await self._moderate(guild_id, actor_id, channel_id, "forfeit", loser_id, reason)

    async def audit_log(self, guild_id: int, limit: int = 50) -> list[AuditEntry]:
        """Moderator actions in a server, newest first."""
        async with self.store.read() as tx:
            rows = await tx.audit(guild_id, limit)
        return [convert.audit(r) for r in rows]

    async def get_settings(self, guild_id: int) -> GuildSettings:
        async with self.store.read() as tx:
            return convert.settings(await tx.settings(guild_id), guild_id)

    async def update_settings(
        self,
        guild_id: int,
        actor_id: int,
        *,
        allowed_channels: Sequence[int] | None = None,
        use_threads: bool | None = None,
        default_time_control: TimeControl | str | None = None,
        default_sizes: dict[str, int | None] | None = None,
        challenge_expiry: int | None = None,
    ) -> GuildSettings:
        """Change the given settings (None leaves one as it is); audited.

        ``default_sizes`` merges: ``{"minefield": 11}`` sets one, ``{"minefield": None}``
        clears it.
        """
        if isinstance(default_time_control, str):
            default_time_control = TimeControl.parse(default_time_control)
        if challenge_expiry is not None and not MIN_EXPIRY <= challenge_expiry <= MAX_EXPIRY:
            raise InvalidSettings("Challenges must expire after between 1 minute and 30 days.")
        now = self._now()
        changes: dict[str, Any] = {}
        async with self._write() as tx:
            current = convert.settings(await tx.settings(guild_id), guild_id)
            sizes = dict(current.default_sizes)
            for name, size in (default_sizes or {}).items():
                try:
                    cls = game_class(name)
                except UnknownGame as exc:
                    raise InvalidSettings(_sentence(str(exc))) from exc
                if size is None:
                    sizes.pop(cls.name, None)
                    continue
                try:
                    cls(size)
                except InvalidOptions as exc:
                    raise InvalidSettings(_sentence(str(exc))) from exc
                sizes[cls.name] = size
            tc = current.default_time_control
            if default_time_control is not None:
                tc = default_time_control
            updated = GuildSettings(
                guild_id=guild_id,
                allowed_channels=current.allowed_channels
                if allowed_channels is None
                else tuple(dict.fromkeys(int(c) for c in allowed_channels)),
                use_threads=current.use_threads if use_threads is None else bool(use_threads),
                default_time_control=tc,
                default_sizes=tuple(sorted(sizes.items())),
                challenge_expiry=current.challenge_expiry
                if challenge_expiry is None
                else challenge_expiry,
            )
            for field in (
                "allowed_channels",
                "use_threads",
                "default_time_control",
                "default_sizes",
                "challenge_expiry",
            ):
                if getattr(updated, field) != getattr(current, field):
                    changes[field] = _jsonable(getattr(updated, field))
            await tx.save_settings(
                SettingsRow(
                    guild_id=guild_id,
                    allowed_channels=updated.allowed_channels,
                    use_threads=updated.use_threads,
                    per_move=tc.per_move,
                    reminders=tc.reminders,
                    default_sizes=updated.default_sizes,
                    challenge_expiry=updated.challenge_expiry,
                    updated_at=to_us(now),
                )
            )
            await tx.add_audit(
                guild_id=guild_id,
                actor_id=actor_id,
                action="settings",
                at=to_us(now),
                detail=json.dumps(changes, sort_keys=True),
            )
        return updated

    # ----- clocks -------------------------------------------------------------------------
    async def due(self, now: datetime | None = None, limit: int = 100) -> list[DueAction]:
        """Reminders, losses on time and challenge expiries due at ``now`` (default: clock)."""
        moment = to_us(now if now is not None else self._now())
        actions: list[DueAction] = []
        async with self.store.read() as tx:
            for c in await tx.expiring_challenges(moment, limit):
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
            for row in await tx.due_games(moment, limit):
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
        actions.sort(key=lambda a: (a.at, a.kind))
        return actions

    async def apply_due(self, action: DueAction) -> DueOutcome | None:
        """Carry out a due action; None if it no longer applies (a move was made meanwhile)."""
        now = self._now()
        if action.kind == "challenge_expiry":
            assert action.challenge_id is not None
            async with self._write() as tx:
                row = await tx.challenge(action.challenge_id)
                if row is None or row.status != "open" or row.expires_at > to_us(action.at):
                    return None
                row = await tx.resolve_challenge(row.id, "expired", to_us(now))
            assert row is not None
            return DueOutcome(action, expired=convert.challenge(row))
        assert action.game_id is not None
        async with self._write() as tx:
            game_row = await tx.game(action.game_id)
            if (
                game_row is None
                or game_row.status != "active"
                or game_row.version != action.version
            ):
                return None
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
            game_row = await tx.mark_reminder_sent(
                game_row,
                next_reminder(_tc(game_row), game_row.turn_started_at, game_row.deadline_at, sent),
            )
            info = convert.game_info(game_row, game)
        return DueOutcome(
            action,
            reminder=Reminder(info, action.user_id, info.deadline, info.turn_started_at),
        )

    async def run_due(self, now: datetime | None = None) -> list[DueOutcome]:
        """``due`` then ``apply_due`` for each; the outcomes that applied."""
        outcomes = []
        for action in await self.due(now):
            outcome = await self.apply_due(action)
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    async def next_due_at(self) -> datetime | None:
        """The earliest future deadline, reminder or expiry, so a scheduler can sleep."""
        async with self.store.read() as tx:
            times = await tx.next_times()
        return from_us(min(times)) if times else None


def _tc(row: GameRow) -> TimeControl:
    return TimeControl(row.per_move, tuple(row.reminders))


def _other(pair: Sequence[Seat], user_id: int) -> int:
    a, b = pair[0].user_id, pair[1].user_id
    return b if user_id == a else a


def _colour(pair: Sequence[Seat], user_id: int | None) -> str | None:
    for seat in pair:
        if seat.user_id == user_id:
            return seat.colour
    return None


def _sentence(text: str) -> str:
    """The engine's own words, trimmed (they start with point names, so no capitalising)."""
    return text.strip()


def _jsonable(value: Any) -> Any:
    if isinstance(value, TimeControl):
        return {"per_move": value.per_move, "reminders": list(value.reminders)}
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _checked_options(options: Mapping[str, str] | None) -> dict[str, str]:
    """Per-game options as stored: a few short strings, refused whole before anything is
    written so a bad front end cannot bloat rows or half-store a challenge."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise InvalidChallenge("Game options must be a mapping of names to text values.")
    if len(options) > MAX_OPTIONS:
        raise InvalidChallenge(
            f"A challenge can have at most {MAX_OPTIONS} game options, not {len(options)}."
        )
    checked: dict[str, str] = {}
    for key, value in options.items():
        if not isinstance(key, str) or not 1 <= len(key) <= MAX_OPTION_KEY:
            raise InvalidChallenge(
                f"Game option names must be text of 1 to {MAX_OPTION_KEY} characters, not {key!r}."
            )
        if not isinstance(value, str) or len(value) > MAX_OPTION_VALUE:
            raise InvalidChallenge(
                f"Game option {key!r} must be text of at most {MAX_OPTION_VALUE} characters."
            )
        checked[key] = value
    return checked
