"""A computer player with fixed settings, for the console and the bot to hold on to."""

from __future__ import annotations

from concurrent.futures import Executor

from rules import Game

from .levels import Level, parse_level
from .pool import ai_move, think


class AIPlayer:
    """Chooses moves at one level.  ``seed`` makes its play reproducible (playout budgets only
    are fully deterministic; the levels' time caps only bite on slow machines)."""

    def __init__(
        self,
        level: int | str | None = None,
        seed: int | None = None,
        executor: Executor | None = None,
    ) -> None:
        self.level: Level = parse_level(level)
        self.seed = seed
        self.executor = executor

    def choose(self, game: Game) -> str:
        """Think in this process (blocks); for scripts, tests and the console."""
        return think(game, self.level, self.seed).move

    async def move(self, game: Game | str) -> str:
        """Think in the process pool; takes the game or its text record."""
        record = game if isinstance(game, str) else game.record()
        return await ai_move(record, self.level.number, self.seed, executor=self.executor)

    def __repr__(self) -> str:
        return f"AIPlayer(level={self.level.label})"
