"""Play: moves, Clear Path's swap, resignation and takebacks, each one versioned write."""

from __future__ import annotations

from datetime import datetime

from rules import Game, IllegalMove
from rules.errors import N_

from ...store import (
    ClockRow,
    GameRow,
    MoveRow,
    ResultRow,
    Tx,
)
from .. import convert
from ..checks import (
    MAX_MOVE_TEXT,
    QUOTE_LIMIT,
    check_bool,
    quote,
)
from ..clocks.timebank import next_clock
from ..convert import from_us, to_us
from ..core import (
    Feature,
    colour_of,
    other_player,
)
from ..engines import play_off_loop
from ..errors import (
    IllegalMoveError,
    NoTakeback,
    NotYourTurn,
    PermissionDenied,
)
from ..notices import prefs_of
from ..ratings.apply import rate_result
from ..ratings.types import GameRating
from ..types import GameEnded
from .types import MoveResult, TakebackAnswer, TakebackRequest


class Play(Feature):
    """A player's own actions in the channel's game, each one versioned write transaction."""

    async def play_move(
        self,
        channel_id: int,
        user_id: int,
        move: str,
        expected_version: int | None = None,
        *,
        game_id: int | None = None,
    ) -> MoveResult:
        """Play ``move`` (a point like ``c3``, or ``swap``) for ``user_id`` in the channel's game.

        Pass ``game_id`` and ``expected_version`` from the :class:`GameInfo` the move was
        chosen on (a button, a computer search): the move is then refused as stale unless
        that same game is still at that version.

        Raises NoGameHere, GameFinished, NotAPlayer, StaleAction, OutOfTime (recorded),
        NotYourTurn, IllegalMoveError (engine message).
        """
        if not isinstance(move, str) or len(move) > MAX_MOVE_TEXT:
            raise IllegalMoveError(
                N_("{move} is not a move: write a point like c3 or swap.")
                if isinstance(move, str)
                else N_("{move} is not a move: write a point like c3."),
                move[:QUOTE_LIMIT] if isinstance(move, str) else "",
                move=quote(move),
            )

        async def act(
            tx: Tx, row: GameRow, game: Game, now: datetime
        ) -> tuple[GameRow, MoveResult]:
            pair = convert.seats(row, game)
            if convert.user_of(pair, game.to_move) != user_id:
                raise NotYourTurn(N_("It's not your turn."))
            turn_before = game.turn_number
            try:
                record = await play_off_loop(game, move)
            except IllegalMove as exc:
                raise IllegalMoveError(exc.wording, move) from exc
            stamp = to_us(now)
            after = convert.seats(row, game)
            next_id = None if game.is_over else convert.user_of(after, game.to_move)
            result: ResultRow | None = None
            rating: GameRating | None = None
            clock: ClockRow | None = None
            if game.is_over:
                winner = convert.user_of(after, game.winner)
                loser = None if winner is None else other_player(after, winner)
                result = ResultRow(
                    status="finished",
                    reason="draw" if game.is_draw else "connection",
                    winner_id=winner,
                    winner_colour=game.winner,
                    loser_id=loser,
                    loser_colour=colour_of(after, loser),
                )
                result, rating = await rate_result(tx, row, game, result, stamp)
            elif game.turn_number != turn_before:
                clock = next_clock(row, stamp, user_id, next_id)
            # Read before the writes: PostgreSQL sends a command's writes as one statement at
            # the end, and a read after them would send them early.
            waiting = None
            if next_id is not None:
                waiting = prefs_of(await tx.notices.notice_pref(next_id), next_id)
            row = await tx.games.record_moves(
                row,
                [MoveRow(row.id, record.ply, record.move, user_id, stamp)],
                record=game.record(),
                to_move=game.to_move,
                to_move_id=next_id,
                at=stamp,
                clock=clock,
                result=result,
            )
            info = convert.game_info(row, game, stamp)
            if game.is_over:
                kind = "draw" if game.is_draw else "connection"
                await tx.games.add_event(row.id, stamp, kind, user_id, record.move)
                assert info.result is not None
                await self._game_ended(tx, row, GameEnded(info, info.result, rating), now)
            return row, MoveResult(
                game=info,
                events=(convert.move_event(record, user_id, after),),
                next_id=info.to_move_id,
                next_colour=info.to_move_colour,
                deadline=info.deadline,
                result=info.result,
                rating=rating,
                position=game.copy(),
                waiting=waiting,
            )

        return await self._game_action(
            channel_id, user_id, expected_version, act, game_id, on_copy=True
        )

    async def swap(
        self,
        channel_id: int,
        user_id: int,
        expected_version: int | None = None,
        *,
        game_id: int | None = None,
    ) -> MoveResult:
        """Clear Path's pie rule: the second player takes over the first colour."""
        return await self.play_move(channel_id, user_id, "swap", expected_version, game_id=game_id)

    async def resign(
        self,
        channel_id: int,
        user_id: int,
        expected_version: int | None = None,
        *,
        game_id: int | None = None,
    ) -> GameEnded:
        """Either player may resign at any time while the game is active."""

        async def act(tx: Tx, row: GameRow, game: Game, now: datetime) -> tuple[GameRow, GameEnded]:
            return await self._finish(
                tx, row, game, "resign", now, loser_id=user_id, actor_id=user_id
            )

        return await self._game_action(channel_id, user_id, expected_version, act, game_id)

    async def request_takeback(
        self, channel_id: int, user_id: int, *, game_id: int | None = None
    ) -> TakebackRequest:
        """Ask the opponent to undo the requester's own last turn (the last turn only).

        Raises NoTakeback if the last turn was not the requester's, nothing was played, or a
        request is already pending.
        """

        async def act(
            tx: Tx, row: GameRow, game: Game, now: datetime
        ) -> tuple[GameRow, TakebackRequest]:
            if not game.history:
                raise NoTakeback(N_("There is no move to take back yet."))
            if row.takeback_by is not None:
                raise NoTakeback(N_("A takeback request is already waiting for an answer."))
            stored = await tx.games.moves(row.id)
            if stored[-1].user_id != user_id:
                raise NoTakeback(N_("You can only ask to take back your own last turn."))
            stamp = to_us(now)
            row = await tx.games.request_takeback(row, user_id, stamp)
            await tx.games.add_event(row.id, stamp, "takeback_requested", user_id)
            return row, TakebackRequest(user_id, from_us(stamp), row.version)

        return await self._game_action(channel_id, user_id, None, act, game_id)

    async def answer_takeback(
        self, channel_id: int, user_id: int, accept: bool, *, game_id: int | None = None
    ) -> TakebackAnswer:
        """The opponent accepts (the turn is undone) or declines the pending request."""
        check_bool(accept, "takeback answer")

        async def act(
            tx: Tx, row: GameRow, game: Game, now: datetime
        ) -> tuple[GameRow, TakebackAnswer]:
            requester = row.takeback_by
            if requester is None or row.takeback_version != row.version:
                raise NoTakeback(N_("There is no takeback request to answer."))
            if requester == user_id:
                raise PermissionDenied(N_("You can't answer your own takeback request."))
            stamp = to_us(now)
            if not accept:
                row = await tx.games.clear_takeback(row)
                await tx.games.add_event(row.id, stamp, "takeback_declined", user_id)
                info = convert.game_info(row, game, stamp)
                return row, TakebackAnswer(False, requester, user_id, (), info)
            pair = convert.seats(row, game)
            turn = game.last_turn()
            undone = tuple(convert.move_event(r, requester, pair) for r in turn)
            for _ in turn:
                game.pop()
            to_move_id = convert.user_of(convert.seats(row, game), game.to_move)
            row = await tx.games.take_back(
                row,
                turn[0].ply,
                record=game.record(),
                to_move=game.to_move,
                to_move_id=to_move_id,
                clock=next_clock(row, stamp, None, to_move_id),
                at=stamp,
            )
            moves = " ".join(r.move for r in turn)
            await tx.games.add_event(row.id, stamp, "takeback_accepted", user_id, moves)
            info = convert.game_info(row, game, stamp)
            return row, TakebackAnswer(True, requester, user_id, undone, info)

        return await self._game_action(channel_id, user_id, None, act, game_id)
