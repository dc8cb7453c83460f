"""What keeping each player's last seen locale costs the store (issue 47).

The bot stores a player's Discord locale when one of their commands succeeds with a locale
this process has not stored for them yet (``SeenLocales.to_store``): at most once per player
per process and per change, in the background, outside the move's transaction.  The service
then reads first and writes only when the stored locale differs (``Notices.saw_locale``).
Measured here on a real SQLite file, per player: a first sighting (a read and an insert), the
same locale again (a read only: what each new process pays once per player) and a changed one
(a read and an update).

Run: nice -n 10 python bench/locale_bench.py [--players 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from bot.service import GameService
from bot.store import open_store


async def measure(players: int) -> dict[str, float]:
    """Milliseconds per player for each case."""
    with tempfile.TemporaryDirectory() as folder:
        async with await open_store(Path(folder) / "bench.db") as store:
            service = GameService(store, rng=random.Random(1))
            times: dict[str, float] = {}
            for case, locale in (("first", "de"), ("unchanged", "de"), ("changed", "ja")):
                start = time.perf_counter()
                for user_id in range(1, players + 1):
                    await service.notices.saw_locale(user_id, locale)
                times[case] = (time.perf_counter() - start) * 1000 / players
            return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    args = parser.parse_args()
    times = asyncio.run(measure(args.players))
    print(
        f"{args.players} players, SQLite file, ms per player: first sighting"
        f" {times['first']:.3f}, unchanged {times['unchanged']:.3f} (read only),"
        f" changed {times['changed']:.3f} (read + write)"
    )


if __name__ == "__main__":
    main()
