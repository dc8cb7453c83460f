"""Stored analyses: each finished game's analysis is computed once, by one process, and kept.

A request first looks for the stored analysis of the game at its final version.  If there is
none it *claims* the computation (one conditional write that only one claimant wins, with an
owner and an expiry, like the computer's turn claims in :mod:`bot.service.claims`); a losing
claimant waits for the winner's result.  The positions are judged in the computer's process
pool (never on the event loop), and the result is stored in one transaction that also clears
the claim and reports :class:`~bot.service.events.AnalysisReady` after its commit.  A crash
mid-analysis leaves only the claim, never half a result: it lapses at its expiry and the next
request recomputes.  The same seed gives the same analysis, so a recomputation changes
nothing that anyone saw.

Requests queue with limits, so a server or a player cannot fill the pool: at most
:data:`MAX_PER_SERVER` analyses computed at once for one server, and :data:`MAX_PER_PLAYER`
asked by one player; beyond them the request is refused with a sentence (nothing written).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from concurrent.futures import Executor
from datetime import timedelta
from functools import partial

from ai.analysis import (
    Analysis,
    Judgement,
    Settings,
    analysis_from_json,
    assemble,
    finished_positions,
    judge_record,
)
from rules import Game

from ...store import AnalysisRow, GameRow, Tx
from ..checks import check_id
from ..convert import from_us
from ..core import Feature
from ..errors import AnalysisRefused, InvalidInput, NoGameHere, PermissionDenied
from ..events import AnalysisReady
from .types import Progress, StoredAnalysis, Viewer

MAX_PER_SERVER = 2
"""Analyses computed at once for one server (the pool is shared with the computer's moves)."""
MAX_PER_PLAYER = 1
"""Analyses one player may have computing at once."""
CLAIM_SECONDS = 120.0
"""How long a claim holds unless renewed: the computing process renews it as positions
complete, so only a dead process's claim lapses, and its game is recomputed within minutes."""
ANALYSIS_SEED = 0
"""The seed of every stored analysis: one seed, so an analysis is reproducible anywhere."""
POLL_SECONDS = 0.5
"""How often a request that lost the claim looks for the winner's result."""
MAX_CLAIMANT = 100


IN_FLIGHT = 2
"""Positions of one analysis handed to the pool at a time.  The computer's pool also plays
the computer's moves and judges puzzle answers, in the order they were handed over: an
analysis that handed over all its positions at once (80 for a long game, a minute or more)
would make a player's move wait behind all of them.  Two keep a worker busy between positions
while anything asked meanwhile waits behind at most two."""


class Analyses(Feature):
    """The analysis sub-service (``service.analysis``); see the module notes."""

    async def stored(self, game_id: int, viewer: Viewer | None) -> StoredAnalysis | None:
        """The stored analysis of game ``game_id`` (at its final version), None if none yet.

        ``viewer`` None is the operator (the console); otherwise a game the viewer may not
        see raises PermissionDenied, and a running game AnalysisRefused."""
        check_id(game_id, "game id")
        async with self.store.read() as tx:
            row = await self._checked_row(tx, game_id, viewer)
            found = await tx.analysis.analysis(row.id, row.version)
        return stored_analysis(found)

    async def analyse(
        self,
        game_id: int,
        viewer: Viewer | None,
        *,
        claimant: str,
        executor: Executor | None = None,
        progress: Progress | None = None,
        settings: Settings | None = None,
    ) -> StoredAnalysis:
        """The stored analysis of finished game ``game_id``, computing it first if nobody has.

        Of several requests at once (in any process) one computes and the others wait for its
        result.  ``claimant`` names this process; ``executor`` runs the positions (default:
        the computer's process pool); ``progress`` is awaited as positions complete;
        ``settings`` (default :class:`ai.analysis.Settings`) are stored with the result.
        Raises PermissionDenied (a game the viewer may not see), AnalysisRefused (a running
        or aborted game, a full queue), NoGameHere, InvalidInput; a refusal writes nothing."""
        check_id(game_id, "game id")
        if not isinstance(claimant, str) or not 1 <= len(claimant) <= MAX_CLAIMANT:
            raise InvalidInput(f"The claimant must be text of 1 to {MAX_CLAIMANT} characters.")
        chosen = settings or Settings()
        # One claim per request, so that two requests of one process never both compute.
        claimant = f"{claimant[: MAX_CLAIMANT - 9]}/{secrets.token_hex(4)}"
        while True:
            won, row, game, found = await self._claim(game_id, viewer, claimant, chosen)
            if found is not None and found.status == "done":
                stored = stored_analysis(found)
                assert stored is not None
                return stored
            if won:
                assert game is not None
                return await self._compute(row, game, claimant, chosen, executor, progress)
            # Another process computes it: wait for its result, or for its claim to lapse.
            await asyncio.sleep(POLL_SECONDS)

    # ----- internals ---------------------------------------------------------------------
    async def _checked_row(self, tx: Tx, game_id: int, viewer: Viewer | None) -> GameRow:
        row = await tx.games.game(game_id)
        if row is None:
            raise NoGameHere(f"There is no game number {game_id}.")
        if viewer is not None and not _may_see(row, viewer):
            raise PermissionDenied(
                f"Game #{game_id} is in a channel you can't see, so I can't analyse it for you."
            )
        if row.status == "active":
            raise AnalysisRefused(
                f"Game #{game_id} is still being played: analysis is only for finished games."
            )
        if row.status != "finished":
            raise AnalysisRefused(f"Game #{game_id} was aborted: it has no result to analyse.")
        return row

    async def _claim(
        self, game_id: int, viewer: Viewer | None, claimant: str, settings: Settings
    ) -> tuple[bool, GameRow, Game | None, AnalysisRow | None]:
        """One write: the stored row if done, else the claim if we win it (with the limits)."""
        now = self._stamp()
        async with self._write() as tx:
            row = await self._checked_row(tx, game_id, viewer)
            found = await tx.analysis.analysis(row.id, row.version)
            if found is not None and found.status == "done":
                return False, row, None, found
            taken = (
                found is not None
                and found.claimed_by != claimant
                and (found.claimed_until or 0) > now
            )
            if taken:
                return False, row, None, found
            game = await self._engine(tx, row)
            if not game.history:
                raise AnalysisRefused(
                    f"Game #{game_id} ended before any move: there is nothing to analyse."
                )
            if viewer is not None:
                await tx.analysis.lock_queue(row.guild_id)  # count and claim as one step
                server, mine = await tx.analysis.running(row.guild_id, viewer.user_id, now)
                if mine >= MAX_PER_PLAYER:
                    raise AnalysisRefused(
                        f"You already have {mine} analysis running; wait for it to finish"
                        f" (at most {MAX_PER_PLAYER} at a time)."
                    )
                if server >= MAX_PER_SERVER:
                    raise AnalysisRefused(
                        f"This server already has {server} analyses running, the most at a"
                        " time; try again in a few minutes."
                    )
            until = now + int(CLAIM_SECONDS * 1_000_000)
            claim = AnalysisRow(
                game_id=row.id,
                game_version=row.version,
                guild_id=row.guild_id,
                requester_id=viewer.user_id if viewer is not None else 0,
                status="running",
                playouts=settings.playouts,
                seed=ANALYSIS_SEED,
                claimed_by=claimant,
                claimed_until=until,
                result=None,
                created_at=now,
                finished_at=None,
            )
            won = await tx.analysis.claim(claim, now)
            return won, row, game.copy() if won else None, found

    async def _compute(
        self,
        row: GameRow,
        game: Game,
        claimant: str,
        settings: Settings,
        executor: Executor | None,
        progress: Progress | None,
    ) -> StoredAnalysis:
        try:
            analysis = await self._judge_all(row, game, claimant, settings, executor, progress)
        except BaseException:
            # Nothing of the result was stored; drop the claim so a retry starts at once
            # (a process that dies here leaves the claim to lapse instead).
            await asyncio.shield(self._release(row, claimant))
            raise
        text = json.dumps(analysis.as_json(), separators=(",", ":"))
        now = self._stamp()
        async with self._write() as tx:
            mine = await tx.analysis.store_result(
                row.id, row.version, text, settings.playouts, ANALYSIS_SEED, now
            )
            if mine:
                requester = await tx.analysis.analysis(row.id, row.version)
                self._emit(
                    AnalysisReady(
                        row.id,
                        row.version,
                        row.guild_id,
                        requester.requester_id if requester is not None else 0,
                    )
                )
            found = await tx.analysis.analysis(row.id, row.version)
        stored = stored_analysis(found)
        assert stored is not None
        return stored

    async def _judge_all(
        self,
        row: GameRow,
        game: Game,
        claimant: str,
        settings: Settings,
        executor: Executor | None,
        progress: Progress | None,
    ) -> Analysis:
        if executor is None:
            from ai.pool import get_pool

            executor = get_pool()
        final, todo = finished_positions(game.record(), ended=True)
        loop = asyncio.get_running_loop()
        work = partial(judge_record, settings=settings, seed=ANALYSIS_SEED)
        judged: list[Judgement | None] = [None] * len(todo)
        pending: dict[asyncio.Future[Judgement], int] = {}
        queued = 0

        def submit_next() -> None:
            nonlocal queued
            pending[loop.run_in_executor(executor, work, todo[queued])] = queued
            queued += 1

        renewed = self._now()
        try:
            while queued < len(todo) and len(pending) < IN_FLIGHT:
                submit_next()
            done = 0
            while pending:
                finished, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for future in finished:
                    judged[pending.pop(future)] = future.result()
                    done += 1
                    if queued < len(todo):
                        submit_next()
                    if progress is not None:
                        await progress(done, len(todo))
                if self._now() - renewed >= timedelta(seconds=CLAIM_SECONDS / 4):
                    renewed = self._now()
                    await self._renew(row, claimant)
        finally:
            for future in pending:
                future.cancel()
        complete = [j for j in judged if j is not None]
        assert len(complete) == len(todo)  # every future finished, or the loop raised
        return assemble(final, complete)

    async def _renew(self, row: GameRow, claimant: str) -> None:
        until = self._stamp() + int(CLAIM_SECONDS * 1_000_000)
        async with self._write() as tx:
            await tx.analysis.renew(row.id, row.version, claimant, until)

    async def _release(self, row: GameRow, claimant: str) -> None:
        async with self._write() as tx:
            await tx.analysis.release(row.id, row.version, claimant)


def _may_see(row: GameRow, viewer: Viewer) -> bool:
    if row.guild_id != viewer.guild_id:
        return False
    return viewer.user_id in (row.first_id, row.second_id) or viewer.sees_channel


def stored_analysis(found: AnalysisRow | None) -> StoredAnalysis | None:
    """The stored result of an analysis row, None for no row or a claim still running."""
    if found is None or found.status != "done" or found.result is None:
        return None
    return StoredAnalysis(
        found.game_id,
        found.game_version,
        found.playouts,
        found.seed,
        analysis_from_json(json.loads(found.result)),
        from_us(found.finished_at or found.created_at),
    )
