"""How long one hint takes at ``HINT_SETTINGS`` (docs/analysis.md, Hints), in this process.

``python -m bench.hint_latency`` judges a few positions (random legal moves from a fixed seed)
the way ``service.hints.hint`` does and prints the seconds each took.  A player waits for this
(the Discord answer is deferred), so it is measured, not asserted.
"""

from __future__ import annotations

import random
import time

from ai.analysis import judge_record
from bot.service.hints import HINT_SETTINGS
from rules import new_game

POSITIONS = (("minefield", 9, 0), ("minefield", 9, 30), ("crosscut", 9, 40), ("minefield", 4, 3))
"""(game, size, random plies played first)."""


def main() -> None:
    for name, size, plies in POSITIONS:
        game = new_game(name, size)
        rng = random.Random(7)
        for _ in range(plies):
            game.play(rng.choice(game.legal_moves()))
            if game.is_over:  # keep a position someone could still ask about
                game.pop()
                break
        start = time.perf_counter()
        judged = judge_record(game.record(), HINT_SETTINGS, 1)
        took = time.perf_counter() - start
        print(
            f"{name} {size}x{size} after {len(game.history)} plies: {took:.2f} s, "
            f"move {judged.best}, chance {judged.win_chance:.2f}, proven {judged.proven}"
        )


if __name__ == "__main__":
    main()
