"""Open challenges: anyone in the server but the challenger may accept, exactly once.

Two players race to accept from two store connections (and, on PostgreSQL, from two
processes): one game starts and the other is told the challenge was already taken.  Runs on
both engines.  This file is also the child script of the two-process race (``accept URL …``).
"""

from __future__ import annotations

import asyncio
import random
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB, CAROL, DAVE
from racing_children import finish, spawn, wait_for

from bot.service import GameService, GameStarted, InvalidChallenge, InvalidInput
from bot.store import open_store

GUILD, CHANNEL, OTHER_GUILD = 1000, 2000, 1001
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
TAKEN = "another player already took"


async def test_the_challenges_a_player_sees(service: GameService, clock: Any) -> None:
    open_one = await service.create_challenge(GUILD, CHANNEL, ALICE, None, "minefield", 5)
    to_bob = await service.create_challenge(GUILD, CHANNEL, CAROL, BOB, "minefield", 5)
    by_bob = await service.create_challenge(GUILD, CHANNEL, BOB, DAVE, "minefield", 5)
    await service.create_challenge(OTHER_GUILD, CHANNEL, ALICE, None, "minefield", 5)
    await service.create_challenge(GUILD, CHANNEL, CAROL, DAVE, "minefield", 5)

    def ids(found: list[Any]) -> list[int]:
        return [c.id for c in found]

    assert ids(await service.challenges.pending_challenges(GUILD, BOB)) == [
        open_one.id,
        to_bob.id,
        by_bob.id,
    ]
    assert ids(await service.challenges.pending_challenges(GUILD, ALICE)) == [open_one.id]
    assert ids(await service.challenges.pending_challenges(GUILD, BOB, limit=1)) == [open_one.id]
    await service.cancel_challenge(to_bob.id, CAROL)
    assert ids(await service.challenges.pending_challenges(GUILD, BOB)) == [open_one.id, by_bob.id]
    clock.advance(days=2)  # past the default expiry, before the clock has marked them
    assert await service.challenges.pending_challenges(GUILD, BOB) == []


async def test_the_challenges_a_player_sees_page_by_page(service: GameService) -> None:
    mine = [
        (await service.create_challenge(GUILD, CHANNEL + n, ALICE, BOB, "minefield", 5)).id
        for n in range(7)
    ]
    await service.create_challenge(GUILD, CHANNEL, CAROL, DAVE, "minefield", 5)  # not Bob's

    async def page(**where: int) -> list[int]:
        return [c.id for c in await service.challenges.pending_challenges(GUILD, BOB, 3, **where)]

    assert await page() == mine[:3]
    assert await page(after_id=mine[2]) == mine[3:6]
    assert await page(after_id=mine[5]) == mine[6:]
    assert await page(before_id=mine[6]) == mine[3:6]  # the three just before, oldest first
    assert await page(before_id=mine[2]) == mine[:2]
    assert await page(before_id=mine[0]) == []
    with pytest.raises(InvalidInput, match="not both"):
        await page(after_id=mine[0], before_id=mine[6])
    with pytest.raises(InvalidInput):
        await page(after_id=-1)


async def test_anyone_but_the_challenger_takes_an_open_challenge_once(
    service: GameService,
) -> None:
    challenge = await service.create_challenge(GUILD, CHANNEL, ALICE, None, "minefield", 5)
    with pytest.raises(InvalidChallenge, match="your own"):
        await service.accept_challenge(challenge.id, ALICE)
    started = await service.accept_challenge(challenge.id, DAVE, CHANNEL + 1)
    assert set(started.game.player_ids) == {ALICE, DAVE}
    with pytest.raises(InvalidChallenge, match=TAKEN):
        await service.accept_challenge(challenge.id, BOB, CHANNEL + 2)
    # a direct challenge accepted twice keeps its plain words
    direct = await service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", 5)
    await service.accept_challenge(direct.id, BOB, CHANNEL + 3)
    with pytest.raises(InvalidChallenge, match="already accepted"):
        await service.accept_challenge(direct.id, BOB, CHANNEL + 4)


@pytest.mark.slow
async def test_two_players_racing_to_accept_get_one_game(
    store_target: str | Path, clock: Any
) -> None:
    """Bob and Carol accept the same open challenge at once, each into a thread of their own
    (as the Discord adapter does), from two store connections, many times over."""
    async with await open_store(store_target) as first, await open_store(store_target) as second:
        one = GameService(first, clock, random.Random(1))
        two = GameService(second, clock, random.Random(2))
        for round_ in range(8):
            challenge = await one.create_challenge(GUILD, CHANNEL, ALICE, None, "minefield", 5)
            threads = (10_000 + 2 * round_, 10_001 + 2 * round_)
            results = await asyncio.gather(
                one.accept_challenge(challenge.id, BOB, threads[0]),
                two.accept_challenge(challenge.id, CAROL, threads[1]),
                return_exceptions=True,
            )
            started = [r for r in results if isinstance(r, GameStarted)]
            refused = [r for r in results if not isinstance(r, GameStarted)]
            assert len(started) == 1 and len(refused) == 1, results
            assert isinstance(refused[0], InvalidChallenge) and TAKEN in str(refused[0])
            winner = started[0]
            assert (await one.challenges.get_challenge(challenge.id)).accepted_by in (BOB, CAROL)
            assert (await one.challenges.get_challenge(challenge.id)).game_id == winner.game.id
            loser_thread = threads[1] if winner.game.channel_id == threads[0] else threads[0]
            assert await one.get_game(loser_thread) is None


# ----- two processes (PostgreSQL) -------------------------------------------------------------
async def accept_child(url: str, go: Path, user: str, thread: str, challenge: str) -> None:
    async with await open_store(url) as store:
        service = GameService(store, clock=lambda: START)
        await wait_for(go)
        try:
            started = await service.accept_challenge(int(challenge), int(user), int(thread))
            print(f"started {started.game.id}")
        except InvalidChallenge as exc:
            print(f"refused {exc}")


@pytest.mark.slow
async def test_two_processes_racing_to_accept_get_one_game(pg_url: str, tmp_path: Path) -> None:
    async with await open_store(pg_url) as store:
        service = GameService(store, clock=lambda: START)
        challenge = await service.create_challenge(GUILD, CHANNEL, ALICE, None, "minefield", 5)
    go = tmp_path / "go"
    children = [
        spawn(__file__, "accept", pg_url, str(go), str(user), str(thread), str(challenge.id))
        for user, thread in ((BOB, 3001), (CAROL, 3002))
    ]
    outputs = [out.strip() for out in await asyncio.to_thread(finish, children, go)]
    assert sorted(line.split()[0] for line in outputs) == ["refused", "started"], outputs
    assert any(TAKEN in line for line in outputs), outputs
    async with await open_store(pg_url) as store:
        service = GameService(store, clock=lambda: START)
        games = await service.games.active_games(GUILD)
        taken = await service.challenges.get_challenge(challenge.id)
    assert len(games) == 1 and taken.game_id == games[0].id
    assert set(games[0].player_ids) == {ALICE, taken.accepted_by}


if __name__ == "__main__":
    mode, url, *rest = sys.argv[1:]
    assert mode == "accept", mode
    asyncio.run(accept_child(url, Path(rest[0]), *rest[1:]))
