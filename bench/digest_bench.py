"""The daily digest for many players: how long it takes, and the worst event-loop block.

A real SQLite store holds ``--players`` players who all chose the digest at the same hour, and
``--games`` active games between them (two random players each, one of them to move, their
turns started at random over the last week); it is filled in one bulk import, not through
the service, so that building 50,000 games takes seconds.  The bot is the real one, started as
``crosspath run`` does, against the test suite's wire-level fake of Discord
(tests/support/discord_fakes.py) with only the HTTP session faked; this bench's fake adds what
Discord does at scale:

* a round trip of ``--latency`` seconds for every request;
* rate-limit headers per bucket (a DM channel: 5 messages per 5 s; other routes 50 per s)
  with the remaining count going down, so discord.py's own bucket handling runs and waits
  when a bucket is empty, and a 429 for a request that finds it empty anyway;
* the global limit of 50 requests a second for the whole bot, answered with a global 429
  (``"global": true``) that discord.py waits out.

Then the digest cog's pass sends every digest due (claim, read, DM), at the sender's own pace
(``DIGEST_RATE`` DMs a second, ``--rate`` to change it).  Measured: the time the pass took,
the DMs and requests sent, the 429s Discord would have answered, and the event loop's
worst block, two ways: the longest callback (asyncio's ``Handle._run`` timed, less the time
the thread waited for a CPU, as tests/support/loop_guard.py does) and how late a 5 ms sleep
woke.

``--heap both`` runs the pass twice in one process, first on the heap as start-up left it,
then on a frozen one (``gc.freeze()``, as ``crosspath run`` does once ready), each with its
own database and bot.

Run: nice -n 10 python bench/digest_bench.py [--players 10000] [--games 50000] [--heap both]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import random
import sys
import tempfile
import time
from collections import deque
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOUR = 13
NOW = datetime(2026, 3, 2, HOUR, 0, 30, tzinfo=UTC)
GUILDS = 500
PLAYER_BASE = 310000000000000001
CHANNEL_BASE = 820000000000000001
BLOCK_LIMIT = 0.05
"""The target: no callback holds the loop longer (those that do are named)."""


def load_bench(name: str) -> Any:
    """Another benchmark's module (bench/), for what they share."""
    sys.path.insert(0, str(ROOT / "bench"))
    return importlib.import_module(name)


def load_support(name: str) -> Any:
    """A module of the test suite's helpers (tests/support/)."""
    sys.path.insert(0, str(ROOT / "tests" / "support"))
    return importlib.import_module(name)


async def build_database(path: Path, players: int, games: int, seed: int) -> int:
    """Fill ``path``; returns how many players have a game waiting on them."""
    from bot.service.convert import to_us
    from bot.store import GameRow, NoticeRow, StoreContents, open_store

    fakes = load_support("discord_fakes")
    rng = random.Random(seed)
    people = [PLAYER_BASE + i for i in range(players)]
    now = to_us(NOW)
    rows = []
    waiting: set[int] = set()
    for number in range(1, games + 1):
        first, second = rng.sample(people, 2)
        to_move_id = rng.choice((first, second))
        waiting.add(to_move_id)
        started = now - rng.randrange(7 * 86400) * 1_000_000
        rows.append(
            GameRow(
                id=number,
                guild_id=fakes.GUILD + number % GUILDS,
                channel_id=CHANNEL_BASE + number,
                game="minefield",
                size=9,
                first_id=first,
                second_id=second,
                status="active",
                version=1,
                record="minefield 9: e5",
                to_move="black" if to_move_id == first else "white",
                per_move=None,
                reminders=(),
                turn_started_at=started,
                deadline_at=None,
                remind_at=None,
                reminders_sent=0,
                takeback_by=None,
                takeback_at=None,
                takeback_version=None,
                result_reason=None,
                winner_id=None,
                winner_colour=None,
                loser_id=None,
                loser_colour=None,
                result_actor=None,
                challenge_id=None,
                created_at=started,
                updated_at=started,
                finished_at=None,
                to_move_id=to_move_id,
            )
        )
    due = to_us(NOW.replace(minute=0, second=0))
    notices = tuple(NoticeRow(p, "digest", HOUR, due, False, now) for p in people)
    store = await open_store(path)
    try:
        await store.import_all(StoreContents((), (), tuple(rows), (), (), (), notices=notices))
    finally:
        await store.close()
    return len(waiting)


def rate_limited_discord(latency: float, per_second: int) -> Any:
    """The test suite's fake Discord, with round trips, buckets and the global limit."""
    fakes = load_support("discord_fakes")
    wire = load_support("discord_wire")

    class RateLimitedDiscord(fakes.FakeDiscord):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.window: deque[float] = deque()
            self.buckets: dict[str, tuple[int, float]] = {}
            self.global_429 = 0
            self.bucket_429 = 0
            self.requests = 0
            self.delivered = 0

        @staticmethod
        def bucket_of(path: str) -> tuple[str, int, float]:
            if path.startswith("/channels/") and path.endswith("/messages"):
                return path, 5, 5.0  # each channel's messages: 5 per 5 s
            return path.split("/")[1], 50, 1.0

        async def handle(self, request: Any) -> Any:
            await asyncio.sleep(latency)
            self.requests += 1
            now = time.monotonic()
            while self.window and self.window[0] <= now - 1.0:
                self.window.popleft()
            if len(self.window) >= per_second:
                self.global_429 += 1
                retry = self.window[0] + 1.0 - now
                return wire.WireResponse(
                    429,
                    {"message": "You are being rate limited.", "retry_after": retry,
                     "global": True, "code": 0},
                    {"Retry-After": f"{retry:.3f}", "X-RateLimit-Global": "true",
                     "X-RateLimit-Scope": "global", "Via": "1.1 google"},
                )  # fmt: skip
            self.window.append(now)
            bucket, limit, per = self.bucket_of(request.path)
            remaining, reset_at = self.buckets.get(bucket, (limit, now + per))
            if now >= reset_at:
                remaining, reset_at = limit, now + per
            headers = {
                "X-RateLimit-Limit": str(limit),
                "X-RateLimit-Reset": f"{time.time() + reset_at - now:.3f}",
                "X-RateLimit-Reset-After": f"{reset_at - now:.3f}",
                "X-RateLimit-Bucket": f"bucket-{abs(hash(bucket)):x}",
            }
            if remaining == 0:
                self.bucket_429 += 1
                return wire.WireResponse(
                    429,
                    {"message": "You are being rate limited.", "retry_after": reset_at - now,
                     "global": False, "code": 0},
                    {**headers, "X-RateLimit-Remaining": "0", "X-RateLimit-Scope": "user",
                     "Retry-After": f"{reset_at - now:.3f}", "Via": "1.1 google"},
                )  # fmt: skip
            self.buckets[bucket] = (remaining - 1, reset_at)
            answer = await super().handle(request)
            answer.headers.update({**headers, "X-RateLimit-Remaining": str(remaining - 1)})
            if request.path.endswith("/messages") and answer.status == 200:
                self.delivered += 1
            # keep no copies of 10,000 DMs: the bot's heap, not the fake's, is measured
            self.sent.clear()
            self.messages.clear()
            self.versions.clear()
            return answer

    return RateLimitedDiscord()


class GcPauses:
    """The longest garbage collection while inside, in CPU time of the loop's thread (it
    runs inside some callback; wall-clock time would count a loaded machine's waits)."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.count = 0
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.thread_time()
            return
        self.worst = max(self.worst, time.thread_time() - self._started)
        self.count += info["generation"] == 2

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)


VARIANTS = ("default", "frozen")
"""``default``: the heap as start-up left it (collected once); ``frozen``: then frozen, as
``crosspath run`` does once READY has come (bot/discord/heap.py)."""


async def one_pass(args: argparse.Namespace, variant: str) -> None:
    """Build the database, start the bot, send every digest; print what it took."""
    fakes = load_support("discord_fakes")
    from bot.discord.heap import settle_heap
    from bot.discord.notices.dms import DIGEST_RATE, DigestSender

    rate = args.rate or DIGEST_RATE
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "digest.sqlite3"
        started = time.perf_counter()
        waiting = await build_database(db, args.players, args.games, args.seed)
        built = time.perf_counter() - started
        fake = rate_limited_discord(args.latency, args.global_limit)
        h = await fakes.open_harness(db, lambda: NOW, fake=fake)
        cog = h.bot.get_cog("NoticesCog")
        cog.digests = DigestSender(h.bot, rate=rate)
        fake.requests = fake.global_429 = fake.bucket_429 = fake.delivered = 0
        gc.unfreeze()  # nothing an earlier pass froze
        gc.collect()
        heap = len(gc.get_objects())
        if variant == "frozen":
            settle_heap()
        pauses = GcPauses()
        probe = load_bench("interaction_latency").StallProbe()
        guarding = load_support("loop_guard").guarding
        try:
            with (
                guarding(asyncio.get_running_loop(), limit=BLOCK_LIMIT, debug=False) as worst,
                pauses,
            ):
                probe.start()
                started = time.perf_counter()
                run = await cog.run_once()
                took = time.perf_counter() - started
                await probe.stop()
        finally:
            await h.close()
            gc.unfreeze()
    print(
        f"daily digest, heap {variant} ({heap:,} objects at the start): {args.players:,}"
        f" players, {args.games:,} active games (database built in {built:.1f} s;"
        f" {waiting:,} players have a game waiting)"
    )
    print(
        f"  pace {rate:g} DMs/s, {args.latency * 1000:.0f} ms round trips, global limit "
        f"{args.global_limit}/s"
    )
    print(
        f"  claimed {run.claimed:,}, sent {run.sent:,} DMs ({fake.delivered:,} on the wire), "
        f"empty {run.empty:,}, failed {run.failed:,}, closed {run.closed:,}"
    )
    print(
        f"  took {took:.1f} s ({run.sent / took:.1f} DMs/s); {fake.requests:,} requests, "
        f"429s: {fake.global_429} global, {fake.bucket_429} per bucket"
    )
    print(
        f"  longest callback: {worst.worst * 1000:.1f} ms; longest garbage collection: "
        f"{pauses.worst * 1000:.1f} ms ({pauses.count} collections of the oldest generation)"
    )
    for report in worst.reports[:5]:
        print(f"    over {BLOCK_LIMIT * 1000:.0f} ms: {report[:300]}")
    print(f"  longest loop stall (5 ms sleep probe): {probe.worst * 1000:.1f} ms (target <= 50 ms)")


async def bench(args: argparse.Namespace) -> None:
    """Each variant asked for, in turn, in this one process (so they share the machine)."""
    for variant in VARIANTS if args.heap == "both" else (args.heap,):
        await one_pass(args, variant)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument(
        "--rate", type=float, default=None, help="DMs a second (default: the bot's)"
    )
    parser.add_argument("--latency", type=float, default=0.05, help="seconds a round trip")
    parser.add_argument("--global-limit", type=int, default=50, help="requests a second")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument(
        "--heap",
        choices=(*VARIANTS, "both"),
        default="frozen",
        help="the heap as the pass starts: frozen (as the bot runs), default, or both in turn",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    asyncio.run(bench(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
