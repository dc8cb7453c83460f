"""Finished games searched for puzzles in the background, one game at a time.

Each game that ends is queued (a bounded queue: when games end faster than they are mined, the
newest are skipped and a line is logged, so a busy server never builds an unbounded backlog).
One task mines them in turn through ``service.puzzles.mine_game``, whose solver runs under its
own time cap in the background process (:mod:`ai.background`, one low-priority worker apart
from the computer's pool), so the event loop only waits on it and a player's move never queues
behind it.  A game whose channel not
everyone could read gives puzzles for its own server alone; a public one, for every server.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from ai.background import shutdown_background
from bot.service import GameInfo

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

log = logging.getLogger("crosspath.discord")

BACKLOG = 64
"""Games waiting to be mined, at most; more are skipped."""
SHORTEST = 8
"""Games with fewer moves hold no position worth a puzzle (none is left to decide)."""


class PuzzleMiner:
    """Queued by :meth:`game_ended` (a ``GameOver`` listener); :meth:`close` stops it."""

    def __init__(self, bot: CrosspathBot, backlog: int = BACKLOG) -> None:
        self.bot = bot
        self.enabled = True
        self.mined = 0
        self._queue: asyncio.Queue[tuple[int, int | None]] = asyncio.Queue(maxsize=backlog)
        self._task: asyncio.Task[None] | None = None

    def game_ended(self, game: GameInfo) -> None:
        if not self.enabled or game.status != "finished" or len(game.moves) < SHORTEST:
            return
        scope = None if game.public else game.guild_id
        try:
            self._queue.put_nowait((game.id, scope))
        except asyncio.QueueFull:
            log.info("puzzle mining skipped a game: the queue is full", extra={"game": game.id})
            return
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._work(), name="puzzle-miner")

    async def _work(self) -> None:
        while not self._queue.empty():
            game_id, scope = self._queue.get_nowait()
            try:
                found = await self.bot.service.puzzles.mine_game(game_id, scope)
            except Exception:
                log.exception("puzzle mining failed", extra={"game": game_id})
                continue
            self.mined += 1
            if found:
                log.info("puzzles found", extra={"game": game_id, "puzzles": len(found)})

    async def close(self) -> None:
        """Stop mining, and the background worker with it (a job it runs is dropped: the
        game's puzzles are lost, nothing is half-written)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        shutdown_background(wait=False)
