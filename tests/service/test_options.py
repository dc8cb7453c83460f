"""Per-game options: stored with a challenge, copied to its game, kept across restarts."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB

from bot.service import GameService, InvalidChallenge
from bot.store import open_store

GUILD, CHANNEL, THREAD = 1000, 2000, 2001


async def test_options_round_trip_through_close_and_reopen(
    store_target: str | Path, clock: Any
) -> None:
    options = {"ai_level": "2", "variant": "x"}
    async with await open_store(store_target) as store:
        service = GameService(store, clock, random.Random(1))
        created = await service.create_challenge(
            GUILD, CHANNEL, ALICE, BOB, "minefield", 5, options=options
        )
        pending = await service.create_challenge(
            GUILD, CHANNEL, BOB, None, "crosscut", options={"ai_level": "5"}
        )
        assert created.options == options
        started = await service.accept_challenge(created.id, BOB, THREAD)
        assert started.game.options == options and started.challenge.options == options
        created.options["ai_level"] = "9"  # a snapshot: changing it stores nothing
    async with await open_store(store_target) as store:
        service = GameService(store, clock, random.Random(1))
        assert (await service.challenges.get_challenge(created.id)).options == options
        assert (await service.challenges.get_challenge(pending.id)).options == {"ai_level": "5"}
        game = await service.get_game(THREAD)
        assert game is not None and game.options == options
        result = await service.play_move(THREAD, game.to_move_id or 0, "c3")
        assert result.game.options == options  # moves keep them
        [listed] = await service.games.active_games(GUILD)
        assert listed.options == options


async def test_without_options_challenges_and_games_have_none(service: GameService) -> None:
    created = await service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", 5)
    started = await service.accept_challenge(created.id, BOB)
    assert created.options == {} and started.game.options == {}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({f"k{i}": "v" for i in range(9)}, "at most 8 game options, not 9"),
        ({"": "v"}, "names must be text of 1 to 32 characters"),
        ({"k" * 33: "v"}, "names must be text of 1 to 32 characters"),
        ({"ai_level": "v" * 65}, "'ai_level' must be text of at most 64 characters"),
        ({"ai_level": 2}, "'ai_level' must be text"),
        ({3: "v"}, "names must be text"),
        (["ai_level"], "must be a mapping"),
    ],
)
async def test_bad_options_are_refused_and_change_nothing(
    service: GameService, snapshot: Any, options: Any, message: str
) -> None:
    before = snapshot()
    with pytest.raises(InvalidChallenge, match=message):
        await service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", options=options)
    assert snapshot() == before
    assert await service.challenges.open_challenges(GUILD) == []


async def test_eight_short_options_are_allowed(service: GameService) -> None:
    options = {f"key{i}": "v" * 64 for i in range(8)}
    created = await service.create_challenge(
        GUILD, CHANNEL, ALICE, None, "minefield", options=options
    )
    assert created.options == options
