"""Puzzles (issue 48): a puzzle near the player's puzzle rating, answers judged by the solver,
openskill puzzle ratings and streaks, and each server's daily puzzle posted once.

Puzzles are the shipped starter set (loaded into the store lazily, the first time a game's
puzzles are asked for) and, later, ones mined from finished games.  Judging an answer replays
the position and can run the solver (the defence, the refutation), so it runs in the
computer's process pool (:mod:`ai.pool`), never on the event loop's thread: a worker thread
would still hold the GIL while the solver thinks.

Expiry without a race: an answer counts if it *arrived* before the attempt expired, whatever
the judging took; the time is taken when the call starts, and the write is conditional on
the attempt being exactly as read (still open, the same moves), so a second answer or a
give-up racing it fails cleanly (StaleAction) and nothing is half-written.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from datetime import datetime, timedelta

from openskill.models import PlackettLuce

from ai import background
from ai.pool import get_pool
from ai.puzzles import Puzzle, find_puzzle, load_starter, replay
from ai.puzzles import answer as judge_answer
from ai.puzzles.difficulty import level3_effort, seed_mu
from rules import IllegalMove, InvalidNotation, UnknownGame, game_class, game_names, parse_record

from ...store import Tx
from ...store.rows import PuzzleAttemptRow, PuzzleDailyRow, PuzzleRatingRow, PuzzleRow
from ..checks import check_id
from ..convert import from_us, to_us
from ..core import Feature
from ..errors import (
    N_,
    IllegalMoveError,
    InvalidInput,
    PuzzleNotFound,
    PuzzleOver,
    StaleAction,
    quote,
)
from .types import DailyPuzzle, DailySolution, PuzzleAnswer, PuzzleStanding, PuzzleView

CHOICE_CACHE = 512
"""Positions whose legal moves are kept for autocomplete (a few bytes each)."""
ATTEMPT_MINUTES = 15
"""How long a player has to finish a puzzle once given it."""
MAX_MOVE_TEXT = 20
MINE_POSITIONS = 12
"""A finished game's last positions looked at for puzzles (the solver's ground)."""
MINE_SECONDS = 20.0
"""The solver time one finished game may take, in the background worker (:mod:`ai.background`)."""

_MODEL = PlackettLuce()
INITIAL_MU: float = _MODEL.mu
INITIAL_SIGMA: float = _MODEL.sigma
DISPLAY_SCALE: float = 400.0 / (math.log(10.0) * math.sqrt(2.0) * _MODEL.beta)


def display(mu: float) -> int:
    """``mu`` on the players' scale (1500 for a new player or puzzle)."""
    return round(1500.0 + DISPLAY_SCALE * (mu - INITIAL_MU))


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split()) if text else ()


def _puzzle(row: PuzzleRow) -> Puzzle:
    return Puzzle(row.id, row.game, row.size, _split(row.moves), _split(row.solution))


def _measured(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with its level-3 effort (the starter files carry it; a puzzle mined from a
    stored game is measured here).  CPU work: call it in a worker, never on the loop."""
    if puzzle.effort is not None:
        return puzzle
    return replace(puzzle, effort=level3_effort(puzzle))


def _row(puzzle: Puzzle, now: int) -> PuzzleRow:
    """The stored puzzle, its rating seeded from the level-3 effort (issue 48;
    :mod:`ai.puzzles.difficulty`); solvers' results move it from there."""
    assert puzzle.effort is not None, "measure the puzzle first (_measured, in a worker)"
    mu = seed_mu(puzzle.effort)
    return PuzzleRow(
        puzzle.id,
        puzzle.game,
        puzzle.size,
        " ".join(puzzle.moves),
        " ".join(puzzle.solution),
        None,
        None,
        mu,
        INITIAL_SIGMA,
        0,
        0,
        now,
    )


def _starter_rows(game: str, now: int) -> list[PuzzleRow]:
    return [_row(_measured(p), now) for p in load_starter(game)]


def _legal_names(row: PuzzleRow, played: tuple[str, ...]) -> tuple[str, ...]:
    """The legal moves at an attempt's position (engine work: a worker thread)."""
    position = _puzzle(row).position()
    for move in played:
        position.play(move)
    return tuple(position.legal_moves())


def _to_move(row: PuzzleRow, played: tuple[str, ...]) -> str:
    position = _puzzle(row).position()
    for move in played:
        position.play(move)
    return position.to_move or ""


def _mine(record: str, limit: int, seconds: float) -> list[Puzzle]:
    """The puzzles among a finished game's last ``limit`` positions (CPU work: the background
    process; a module-level function, so it can be sent there)."""
    game = parse_record(record)
    moves = [rec.move for rec in game.history]
    found: list[Puzzle] = []
    deadline = time.monotonic() + seconds
    for ply in range(len(moves) - 1, max(-1, len(moves) - 1 - limit), -1):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            position = replay(game.name, game.size, moves[:ply])
        except (IllegalMove, InvalidNotation):
            break  # a game with the pie rule chosen: starter positions replay without it
        puzzle = find_puzzle(position, seconds=left)
        if puzzle is not None:
            found.append(_measured(puzzle))
    return found


def _shown_in(row: PuzzleRow, guild_id: int | None) -> bool:
    """Whether puzzle ``row`` may be shown in ``guild_id`` (None: outside servers): a public
    one anywhere, a server's own only there."""
    return row.guild_id is None or row.guild_id == guild_id


def check_day(day: str) -> str:
    try:
        datetime.strptime(day, "%Y-%m-%d")
    except (TypeError, ValueError):
        raise InvalidInput(N_("A day is written YYYY-MM-DD, not {day}."), day=quote(day)) from None
    return day


class Puzzles(Feature):
    """``service.puzzles``: puzzles, answers, ratings and the daily puzzle."""

    executor: Executor | None = None
    """Where answers are judged; None: the computer's shared process pool (:mod:`ai.pool`)."""
    background: Executor | None = None
    """Where finished games are mined; None: the low-priority background pool
    (:mod:`ai.background`), so a mining job never queues a player's move nor holds the GIL."""
    _choices: dict[tuple[str, str], tuple[str, ...]] | None = None
    """Legal moves by (puzzle, moves played since), for autocomplete; oldest dropped first."""

    def _game(self, game: str | None) -> str | None:
        if game is None:
            return None
        try:
            return game_class(game).name
        except UnknownGame as exc:
            raise InvalidInput(exc.wording) from None

    async def _ensure_starter(self, games: list[str]) -> None:
        """Load the starter puzzles of ``games`` into the store if none are there yet."""
        async with self.store.read() as tx:
            missing = [g for g in games if await tx.puzzles.starter_count(g) == 0]
        for game in missing:
            rows = await asyncio.to_thread(_starter_rows, game, self._stamp())
            if rows:
                async with self._write() as tx:
                    await tx.puzzles.add(rows)

    async def start(
        self, user_id: int, guild_id: int | None, game: str | None = None
    ) -> PuzzleView:
        """A puzzle near ``user_id``'s puzzle rating that they have not tried, of ``game``
        (any game if None), among the starter set and ``guild_id``'s own."""
        check_id(user_id, "user id")
        if guild_id is not None:
            check_id(guild_id, "server id")
        name = self._game(game)
        await self._ensure_starter([name] if name else game_names())
        now = self._now()
        async with self._write() as tx:
            rating = await tx.puzzles.rating(user_id)
            mu = INITIAL_MU if rating is None else rating.mu
            row = await tx.puzzles.choose(name, guild_id, user_id, mu)
            if row is None:
                raise PuzzleNotFound(N_("You have tried every puzzle there is here; well done!"))
            return await self._open(tx, row, user_id, guild_id, now, None)

    async def start_daily(self, user_id: int, guild_id: int, day: str) -> PuzzleView:
        """The server's daily puzzle of ``day`` for ``user_id`` (their open try if any)."""
        check_id(user_id, "user id")
        check_id(guild_id, "server id")
        check_day(day)
        now = self._now()
        async with self._write() as tx:
            daily = await tx.puzzles.daily(guild_id, day)
            if daily is None:
                raise PuzzleNotFound(N_("There is no daily puzzle for that day here."))
            row = await tx.puzzles.puzzle(daily.puzzle_id)
            assert row is not None
            tried = await tx.puzzles.daily_attempt(user_id, row.id, day)
            if tried is not None:
                attempt = await tx.puzzles.attempt(tried)
                assert attempt is not None
                if attempt.status != "open" or to_us(now) > attempt.expires_at:
                    raise PuzzleOver(N_("You have already had your try at today's puzzle."))
                return self._view(row, attempt)
            return await self._open(tx, row, user_id, guild_id, now, day)

    async def _open(
        self,
        tx: Tx,
        row: PuzzleRow,
        user_id: int,
        guild_id: int | None,
        now: datetime,
        day: str | None,
    ) -> PuzzleView:
        expires = now + timedelta(minutes=ATTEMPT_MINUTES)
        attempt_id = await tx.puzzles.open_attempt(
            row.id, user_id, guild_id, to_us(now), to_us(expires), day
        )
        attempt = PuzzleAttemptRow(
            attempt_id, row.id, user_id, guild_id, "", "open", to_us(now), to_us(expires), None, day
        )
        return self._view(row, attempt)

    def _view(self, row: PuzzleRow, attempt: PuzzleAttemptRow) -> PuzzleView:
        played = _split(attempt.played)
        return PuzzleView(
            attempt.id,
            row.id,
            row.game,
            row.size,
            _split(row.moves),
            played,
            _to_move(row, played),
            display(row.mu),
            from_us(attempt.expires_at),
            attempt.daily_day,
        )

    async def _attempt(self, attempt_id: int, user_id: int) -> tuple[PuzzleAttemptRow, PuzzleRow]:
        check_id(attempt_id, "puzzle attempt")
        check_id(user_id, "user id")
        async with self.store.read() as tx:
            attempt = await tx.puzzles.attempt(attempt_id)
            row = None if attempt is None else await tx.puzzles.puzzle(attempt.puzzle_id)
        if attempt is None or row is None or attempt.user_id != user_id:
            raise PuzzleNotFound(N_("There is no such puzzle of yours."))
        return attempt, row

    async def answer(
        self, attempt_id: int, user_id: int, move: str, *, guild_id: int | None = None
    ) -> PuzzleAnswer:
        """Judge ``move`` as the next answer of the attempt, sent from ``guild_id`` (None: a
        DM, a group DM or the console).  A move that is not a legal point here is refused
        (IllegalMoveError), and a server's own puzzle answered from anywhere else is refused
        (PuzzleNotFound, :meth:`_check_here`); either changes nothing."""
        arrived = to_us(self._now())  # the answer counts if it arrived in time (module notes)
        if not isinstance(move, str) or not 0 < len(move) <= MAX_MOVE_TEXT:
            raise IllegalMoveError(N_("Name a point like c3."), str(move)[:MAX_MOVE_TEXT])
        attempt, row = await self._attempt(attempt_id, user_id)
        self._check_here(row, guild_id)
        self._check_open(attempt, arrived)
        played = _split(attempt.played)
        loop = asyncio.get_running_loop()
        try:
            reply = await loop.run_in_executor(
                self.executor or get_pool(), judge_answer, _puzzle(row), played, move
            )
        except (IllegalMove, InvalidNotation) as exc:
            raise IllegalMoveError(exc.wording, move) from None
        name = move.strip().lower()
        now = to_us(self._now())
        if not reply.correct:
            return await self._end(attempt, row, "failed", played, now, name, reply)
        after = (*played, name, *reply.defence)
        if reply.solved:
            return await self._end(attempt, row, "solved", after, now, name, reply)
        async with self._write() as tx:
            if not await tx.puzzles.update_attempt(
                attempt.id, attempt.played, " ".join(after), "open", None
            ):
                raise StaleAction(N_("This puzzle moved on meanwhile; look again."))
        moved = replace(attempt, played=" ".join(after))
        # A chain of the defence's is shown as its placements in order ("c1 b2").
        defence = " ".join(reply.defence) or None
        return PuzzleAnswer(self._view(row, moved), name, True, False, defence=defence)

    async def answer_open(
        self, user_id: int, move: str, *, guild_id: int | None = None
    ) -> PuzzleAnswer:
        """:meth:`answer` for ``user_id``'s open puzzle (``/puzzle move:``) from ``guild_id``;
        PuzzleNotFound if they have none open, or if it is a server's own and this is not
        that server."""
        check_id(user_id, "user id")
        async with self.store.read() as tx:
            attempt = await tx.puzzles.latest_open(user_id, to_us(self._now()))
        if attempt is None:
            raise PuzzleNotFound(N_("You have no puzzle open; ask for one with /puzzle."))
        return await self.answer(attempt.id, user_id, move, guild_id=guild_id)

    async def answer_choices(self, user_id: int, *, guild_id: int | None = None) -> tuple[str, ...]:
        """The legal moves at ``user_id``'s open puzzle (none if they have none open, or if
        it is a server's own and ``guild_id`` is not that server), for autocomplete: one
        read, and the engine only on a position not seen lately (in a worker thread), so a
        keystroke costs the loop a query and a dictionary lookup."""
        check_id(user_id, "user id")
        async with self.store.read() as tx:
            attempt = await tx.puzzles.latest_open(user_id, to_us(self._now()))
            row = None if attempt is None else await tx.puzzles.puzzle(attempt.puzzle_id)
        if attempt is None or row is None or not _shown_in(row, guild_id):
            return ()
        if self._choices is None:
            self._choices = {}
        key = (row.id, attempt.played)
        found = self._choices.get(key)
        if found is None:
            found = await asyncio.to_thread(_legal_names, row, _split(attempt.played))
            if len(self._choices) >= CHOICE_CACHE:
                del self._choices[next(iter(self._choices))]
            self._choices[key] = found
        return found

    async def give_up(
        self, attempt_id: int, user_id: int, *, guild_id: int | None = None
    ) -> PuzzleAnswer:
        """End the attempt as a failure and show the solution (from ``guild_id``, as
        :meth:`answer`: a server's own puzzle only in that server)."""
        arrived = to_us(self._now())
        attempt, row = await self._attempt(attempt_id, user_id)
        self._check_here(row, guild_id)
        self._check_open(attempt, arrived)
        return await self._end(attempt, row, "gave_up", _split(attempt.played), arrived, None, None)

    def _check_here(self, row: PuzzleRow, guild_id: int | None) -> None:
        """Refuse a server's own puzzle (mined from a game only its members could see) outside
        that server: its position and solution are never shown anywhere else."""
        if guild_id is not None:
            check_id(guild_id, "server id")
        if not _shown_in(row, guild_id):
            raise PuzzleNotFound(
                N_("This puzzle comes from a server's own games: answer it in that server.")
            )

    def _check_open(self, attempt: PuzzleAttemptRow, arrived: int) -> None:
        if attempt.status != "open":
            raise PuzzleOver(N_("This puzzle is already over."))
        if arrived > attempt.expires_at:
            raise PuzzleOver(N_("Time is up for this puzzle; ask for a new one with /puzzle."))

    async def _end(
        self,
        attempt: PuzzleAttemptRow,
        row: PuzzleRow,
        status: str,
        played: tuple[str, ...],
        now: int,
        move: str | None,
        reply: object,
    ) -> PuzzleAnswer:
        from ai.puzzles import Reply

        solved = status == "solved"
        async with self._write() as tx:
            if not await tx.puzzles.update_attempt(
                attempt.id, attempt.played, " ".join(played), status, now
            ):
                raise StaleAction(N_("This puzzle moved on meanwhile; look again."))
            puzzle = await tx.puzzles.puzzle(row.id, lock=True)
            assert puzzle is not None
            rating = await tx.puzzles.rating(attempt.user_id, lock=True)
            if rating is None:
                rating = PuzzleRatingRow(
                    attempt.user_id, INITIAL_MU, INITIAL_SIGMA, 0, 0, 0, 0, now
                )
            player = _MODEL.rating(mu=rating.mu, sigma=rating.sigma)
            task = _MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)
            ranks = [1.0, 2.0] if solved else [2.0, 1.0]
            [[player_after], [task_after]] = _MODEL.rate([[player], [task]], ranks=ranks)
            streak = rating.streak + 1 if solved else 0
            saved = PuzzleRatingRow(
                attempt.user_id,
                player_after.mu,
                player_after.sigma,
                rating.solved + solved,
                rating.failed + (not solved),
                streak,
                max(rating.best_streak, streak),
                now,
            )
            await tx.puzzles.save_rating(saved)
            await tx.puzzles.rate_puzzle(row.id, task_after.mu, task_after.sigma, solved)
        done = replace(attempt, played=" ".join(played), status=status)
        refutation = reply.refutation if isinstance(reply, Reply) else None
        return PuzzleAnswer(
            self._view(row, done),
            move,
            solved,
            solved,
            reply=None if refutation is None else refutation.reply,
            connects=False if refutation is None else refutation.connects,
            solution=_split(row.solution),
            rating=display(saved.mu),
            streak=streak,
        )

    async def mine_game(
        self, game_id: int, guild_id: int | None, limit: int = MINE_POSITIONS
    ) -> list[str]:
        """Look for puzzles in finished game ``game_id`` (its last ``limit`` positions, within
        :data:`MINE_SECONDS` of solver time, in the background process) and store those found: for
        any server if ``guild_id`` is None, else only for ``guild_id`` (the front end passes
        the server of a game played in a private channel).  No player is stored with them.
        Returns the ids stored (a position already stored is left as it is)."""
        check_id(game_id, "game id")
        if guild_id is not None:
            check_id(guild_id, "server id")
        async with self.store.read() as tx:
            row = await tx.games.game(game_id)
        if row is None:
            raise PuzzleNotFound(N_("There is no such game."))
        if row.status == "active":
            raise InvalidInput(N_("Puzzles come from finished games only; this one is running."))
        # The shipped puzzles first: a mined position that is also a shipped one stays public.
        await self._ensure_starter([row.game])
        found = await self._mined(row.record, limit)
        now = self._stamp()
        rows = [replace(_row(p, now), guild_id=guild_id, source_game_id=game_id) for p in found]
        if rows:
            async with self._write() as tx:
                await tx.puzzles.add(rows)
        return [r.id for r in rows]

    async def _mined(self, record: str, limit: int) -> list[Puzzle]:
        """:func:`_mine` in the background pool; a pool whose worker died is dropped, so the
        next game starts a fresh one (this one fails: the miner logs it and goes on)."""
        pool = self.background or background.get_background_pool()
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, _mine, record, limit, MINE_SECONDS)
        except BrokenProcessPool:
            if self.background is None and isinstance(pool, ProcessPoolExecutor):
                background.discard(pool)
            raise

    async def standing(self, user_id: int) -> PuzzleStanding | None:
        """The player's puzzle rating and streak, None if they never finished a puzzle."""
        check_id(user_id, "user id")
        async with self.store.read() as tx:
            row = await tx.puzzles.rating(user_id)
        if row is None:
            return None
        return PuzzleStanding(display(row.mu), row.solved, row.failed, row.streak, row.best_streak)

    # ----- the daily puzzle -----------------------------------------------------------------------
    async def set_channel(self, guild_id: int, channel_id: int | None) -> None:
        """Post the server's daily puzzle in ``channel_id`` (None: stop posting it)."""
        check_id(guild_id, "server id")
        if channel_id is not None:
            check_id(channel_id, "channel id")
        async with self._write() as tx:
            await tx.puzzles.set_channel(guild_id, channel_id)

    async def claim_daily(self, day: str, claimant: str) -> list[DailyPuzzle]:
        """The daily puzzles of ``day`` this process must post now: for each server with a
        puzzle channel and no puzzle yet that day, one claim row; a server another process
        claimed first is left out, so each day's puzzle is posted once."""
        check_day(day)
        await self._ensure_starter(game_names())
        claimed: list[DailyPuzzle] = []
        async with self.store.read() as tx:
            channels = await tx.puzzles.channels()
        for channel in channels:
            async with self._write() as tx:
                if await tx.puzzles.daily(channel.guild_id, day) is not None:
                    continue
                row = await self._daily_choice(tx, channel.guild_id, day)
                if row is None:
                    continue
                won = await tx.puzzles.claim_daily(
                    PuzzleDailyRow(
                        channel.guild_id, day, row.id, channel.channel_id, claimant, None, 0
                    )
                )
            if won:
                claimed.append(
                    DailyPuzzle(
                        channel.guild_id,
                        channel.channel_id,
                        day,
                        row.id,
                        row.game,
                        row.size,
                        _split(row.moves),
                    )
                )
        return claimed

    async def _daily_choice(self, tx: Tx, guild_id: int, day: str) -> PuzzleRow | None:
        """The day's puzzle: chosen by the day's hash near a middling rating, so every process
        would choose the same one."""
        seed = int(hashlib.sha256(f"{guild_id}:{day}".encode()).hexdigest()[:8], 16)
        games = sorted(game_names())
        for offset in range(len(games)):
            game = games[(seed + offset) % len(games)]
            found = await tx.puzzles.choose(game, guild_id, 0, INITIAL_MU + (seed % 7) - 3)
            if found is not None:
                return found
        return None

    async def daily_posted(self, guild_id: int, day: str, message_id: int) -> None:
        check_id(message_id, "message id")
        async with self._write() as tx:
            await tx.puzzles.set_daily_message(guild_id, day, message_id)

    async def claim_solution(self, guild_id: int, day: str) -> DailySolution | None:
        """The solution post of ``day``'s daily puzzle, if this process is the one to post
        it (exactly one caller gets it); None if there is none or it went out already."""
        check_id(guild_id, "server id")
        check_day(day)
        async with self._write() as tx:
            daily = await tx.puzzles.daily(guild_id, day)
            if daily is None or not await tx.puzzles.claim_solution_post(guild_id, day):
                return None
            row = await tx.puzzles.puzzle(daily.puzzle_id)
            assert row is not None
            solved = await tx.puzzles.solved_count(row.id, day)
        return DailySolution(
            guild_id,
            daily.channel_id,
            day,
            row.id,
            row.game,
            row.size,
            _split(row.moves),
            _split(row.solution),
            solved,
        )
