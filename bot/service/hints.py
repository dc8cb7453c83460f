"""Hints in casual games (issue 48): the computer's suggested move for the player to move.

A game allows hints when its challenge said ``hints`` (such a game is unrated) or when it is
against the computer (never rated); a rated game never does.  The position is judged the way
the analysis judges one (:func:`ai.analysis.judge`: a shipped proof or the endgame solver
where they decide it, else a seeded search), in the computer's process pool, never on the
event loop.  Only once the hint is computed does one write transaction count it and record
it as a game event, and only if the game is still at the version it was computed for: a hint
that was never given is never counted.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from dataclasses import dataclass

from ai.analysis import Judgement, Settings, judge_record
from ai.pool import get_pool

from ..store import GameRow, Tx
from . import convert
from .checks import check_id, check_optional_id
from .core import Feature
from .engines import warms_engines
from .errors import GameFinished, NoGameHere, NoHint, NotAPlayer, NotYourTurn

HINT_SETTINGS = Settings(
    playouts=1000, solve_empties=14, solve_nodes=20_000, proof_board_nodes=50_000
)
"""The budget of one hint (docs/analysis.md, Hints): the analysis's search budget, but a
player waits for a hint, so the solver gets at most 20 000 / 50 000 nodes per side (the
analysis's 1 000 000 on a board with a shipped proof can take half a minute)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The computer's advice for the player to move (``service.hints.hint``).

    ``move`` is the suggested move; ``win_chance`` (0..1) is the asking player's chance after
    it, as the search estimates it, or exactly 1.0/0.0 when ``proven`` says the position is a
    proven ``"win"`` or ``"loss"`` for them (a shipped proof or the endgame solver).  ``used``
    is the asking player's hint count in this game, this one included."""

    game_id: int
    user_id: int
    move: str
    win_chance: float
    proven: str | None
    used: int


class Hints(Feature):
    """``service.hints``: the computer's advice in games that allow it."""

    settings: Settings = HINT_SETTINGS
    """The budget of each hint (tests set a small one)."""
    executor: Executor | None = None
    """Where the search runs; None: the computer's shared process pool (:mod:`ai.pool`)."""

    async def hint(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Hint:
        """The suggested move and win chance (or proven verdict) for ``user_id``, the player to
        move in the channel's game (or game ``game_id``), counted as one of their hints.

        Raises NoGameHere (also: ``game_id`` is not in this channel), GameFinished (also:
        the asker's clock ran out), NotAPlayer, NoHint (the game does not allow hints, or it
        moved on while the computer thought), NotYourTurn.  A refusal writes nothing.
        """
        check_id(channel_id, "channel id")
        check_id(user_id, "user id")
        check_optional_id(game_id, "game id")
        row, record = await self._position(channel_id, user_id, game_id)
        loop = asyncio.get_running_loop()
        judged: Judgement = await loop.run_in_executor(
            self.executor or get_pool(), judge_record, record, self.settings, row.id
        )
        async with self._write() as tx:
            counts = await tx.hints.count_hint(row.id, row.version, user_id)
            if counts is None:
                raise NoHint("The game moved on while the computer thought; ask again.")
            # The event names no move: /history is public, and the hint is the asker's alone.
            await tx.games.add_event(row.id, self._stamp(), "hint", user_id)
        used = counts[0] if user_id == row.first_id else counts[1]
        return Hint(row.id, user_id, judged.best, judged.win_chance, judged.proven, used)

    @warms_engines
    async def _position(
        self, channel_id: int, user_id: int, game_id: int | None
    ) -> tuple[GameRow, str]:
        """The game and its record, once every refusal is checked (nothing written)."""
        async with self.store.read() as tx:
            row = await self._hinted_row(tx, channel_id, game_id)
            game = await self._engine(tx, row)
            self._check(row, user_id, convert.user_of(convert.seats(row, game), game.to_move))
            if row.deadline_at is not None and self._stamp() >= row.deadline_at:
                # the clock sweep (or the next move) records the loss; no advice after it
                raise GameFinished("Your time ran out: the game is lost on time.")
            return row, game.record()

    async def _hinted_row(self, tx: Tx, channel_id: int, game_id: int | None) -> GameRow:
        if game_id is None:
            return await self._active_row(tx, channel_id)
        row = await tx.games.game(game_id)
        if row is None or row.channel_id != channel_id:
            raise NoGameHere(f"There is no game number {game_id} in this channel.")
        if row.status != "active":
            raise GameFinished("That game is over: hints are only for games in progress.")
        return row

    @staticmethod
    def _check(row: GameRow, user_id: int, to_move_id: int | None) -> None:
        if user_id not in (row.first_id, row.second_id):
            raise NotAPlayer("You are not playing in this game.")
        if not convert.hints_allowed(row):
            raise NoHint(
                "This game does not allow hints: only unrated games whose challenge allowed "
                "hints, and games against the computer, do."
            )
        if to_move_id != user_id:
            raise NotYourTurn("It's not your turn: hints are for your own move.")


__all__ = ["HINT_SETTINGS", "Hints"]
