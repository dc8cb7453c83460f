"""Fifty tasks race moves and resigns on one game: one outcome per turn, a consistent history.

Half the tasks use one store connection and half another (two services on one database file),
so the guarantee comes from BEGIN IMMEDIATE and the version column, not only the in-process lock.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB

from bot.service import GameEnded, GameService, MoveResult, ServiceError
from bot.store import open_store
from rules import parse_record

GUILD, CHANNEL = 1000, 2000


async def racer(
    service: GameService, user: int, seed: int, log: list[tuple[str, int]], refused: list[str]
) -> None:
    rng = random.Random(seed)
    while True:
        info = await service.get_game(CHANNEL)
        if info is None:
            return
        try:
            if rng.random() < 0.004:
                ended: GameEnded = await service.resign(CHANNEL, user, info.version)
                log.append(("resign", ended.game.version - 1))
                return
            position = await service.position(info.id)
            moves = position.legal_moves()
            if not moves:
                continue
            result: MoveResult = await service.play_move(
                CHANNEL, user, rng.choice(moves), expected_version=info.version
            )
            log.append(("move", result.game.version - 1))
        except ServiceError as exc:
            refused.append(type(exc).__name__)
            await asyncio.sleep(0)


@pytest.mark.slow
async def test_fifty_racing_tasks(store_target: str | Path, clock: Any) -> None:
    async with await open_store(store_target) as first, await open_store(store_target) as second:
        one = GameService(first, clock, random.Random(1))
        two = GameService(second, clock, random.Random(2))
        challenge = await one.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", 7)
        await two.accept_challenge(challenge.id, BOB)
        log: list[tuple[str, int]] = []
        refused: list[str] = []
        tasks = [
            racer(one if i % 2 else two, ALICE if i % 4 < 2 else BOB, i, log, refused)
            for i in range(50)
        ]
        await asyncio.gather(*tasks)
        record = await one.games.game_record(challenge.id)

    # The tasks really collided: stale versions and wrong turns were refused.
    assert {"StaleAction", "NotYourTurn"} <= set(refused)
    versions = [v for _, v in log]
    # Exactly one successful action per version, with no gaps: one outcome per turn.
    assert sorted(versions) == list(range(len(log)))
    # At most one ending, and it is the last action.
    endings = [v for kind, v in log if kind == "resign"]
    assert len(endings) <= 1 and (not endings or endings[0] == max(versions))
    moves_made = sum(1 for kind, _ in log if kind == "move")
    assert len(record.moves) == moves_made and record.game.version == len(log)
    assert record.game.status == "finished"
    # The stored moves replay to the stored record, and each was made by the right player.
    replayed = parse_record(record.text)
    assert replayed.moves == [m.move for m in record.moves]
    for stored in record.moves:
        assert record.game.colour_of(stored.user_id) == stored.colour
    if not endings:
        assert replayed.is_over and record.game.result is not None
        assert record.game.result.winner_colour == replayed.winner
