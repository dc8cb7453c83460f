"""How long a /move takes inside the bot on 9×9, without network (target: p95 <= 150 ms).

Each sample is one /move delivered as a raw INTERACTION_CREATE payload to the real bot:
command tree, service validation and commit in a real SQLite file, board rendering in a worker
thread, turn message building, and serialising the requests to Discord.  Only the network
is replaced (by the test suite's wire-level fake, tests/support/discord_fakes.py), so the figure
is the bot's own share of the latency a player sees.

Run: python bench/bot_bench.py [--moves 200] [--game minefield]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def load_fakes() -> Any:
    """The test suite's wire-level fake of Discord (tests/support/discord_fakes.py)."""
    sys.path.insert(0, str(ROOT / "tests" / "support"))
    return importlib.import_module("discord_fakes")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def bench(moves: int, game: str, size: int) -> None:
    fakes = load_fakes()
    from bot.discord.play import posting
    from rules import parse_record

    with tempfile.TemporaryDirectory() as tmp:
        h = await fakes.open_harness(Path(tmp) / "bench.db", lambda: datetime.now(UTC))
        rng = random.Random(1)
        players = {fakes.ALICE.id: fakes.ALICE, fakes.BOB.id: fakes.BOB}
        total: list[float] = []
        commit: list[float] = []
        draw: list[float] = []
        games = 0
        while len(total) < moves:
            await fakes.challenge_and_accept(h, game=game, size=size)
            games += 1
            while len(total) < moves:
                info = await h.service.get_game(fakes.CHANNEL)
                if info is None:
                    break
                move = rng.choice(parse_record(info.record).legal_moves())
                payload = h.payloads.command(
                    "move", players[info.to_move_id], [fakes.opt("point", move)]
                )
                start = time.perf_counter()
                sent = await h.run(payload)
                total.append((time.perf_counter() - start) * 1000)
                assert [s.kind for s in sent] == ["defer", "channel_message", "followup"], sent
        # the parts, measured separately on a fresh game
        if await h.service.get_game(fakes.CHANNEL) is not None:
            await h.command("admin abort", fakes.ADMIN)
        await fakes.challenge_and_accept(h, game=game, size=size)
        for _ in range(min(60, moves)):
            info = await h.service.get_game(fakes.CHANNEL)
            if info is None:
                break
            move = rng.choice(parse_record(info.record).legal_moves())
            t0 = time.perf_counter()
            result = await h.service.play_move(info.channel_id, info.to_move_id, move)
            t1 = time.perf_counter()
            await posting.build_turn_message(h.bot, result.game)
            t2 = time.perf_counter()
            commit.append((t1 - t0) * 1000)
            draw.append((t2 - t1) * 1000)
        await h.close()

    print(f"/move inside the bot, {game} {size}x{size}, {len(total)} moves over {games} games")
    print(
        f"  end to end : p50 {statistics.median(total):6.1f} ms   p95 {pct(total, 0.95):6.1f} ms"
        f"   max {max(total):6.1f} ms   (target p95 <= 150 ms)"
    )
    print(
        f"  service    : p50 {statistics.median(commit):6.1f} ms   p95 {pct(commit, 0.95):6.1f} ms"
    )
    print(f"  render+msg : p50 {statistics.median(draw):6.1f} ms   p95 {pct(draw, 0.95):6.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--game", default="minefield")
    parser.add_argument("--size", type=int, default=9)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    asyncio.run(bench(args.moves, args.game, args.size))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
