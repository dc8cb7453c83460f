"""``GameService.latest_game``: a channel's most recent game, finished or not, for anyone."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from game_fixtures import ADMIN, ALICE, BOB, CAROL

from bot.service import GameInfo, GameService
from bot.store import open_store

GUILD, CHANNEL, THREAD = 1000, 2000, 2001
StartGame = Callable[..., Awaitable[GameInfo]]
Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]


async def test_no_game_ever_gives_none(service: GameService) -> None:
    assert await service.latest_game(CHANNEL) is None


async def test_the_active_game_is_the_latest(service: GameService, start_game: StartGame) -> None:
    started = await start_game("minefield", 7)
    await service.play_move(CHANNEL, ALICE, "d4")
    latest = await service.latest_game(CHANNEL)
    active = await service.get_game(CHANNEL)
    assert latest is not None and latest == active
    assert latest.id == started.id and latest.is_active and latest.moves == ("d4",)


async def test_a_finished_game_stays_visible_with_its_result(
    service: GameService, start_game: StartGame
) -> None:
    started = await start_game("minefield", 7)
    await service.play_move(CHANNEL, ALICE, "d4")
    await service.resign(CHANNEL, BOB)
    assert await service.get_game(CHANNEL) is None
    latest = await service.latest_game(CHANNEL)
    assert latest is not None and latest.id == started.id and not latest.is_active
    assert latest.status == "finished" and latest.moves == ("d4",)
    assert latest.result is not None and latest.result.reason == "resign"
    assert latest.result.winner_id == ALICE


async def test_the_newest_of_several_games_wins_and_channels_stay_apart(
    service: GameService, start_game: StartGame
) -> None:
    first = await start_game("minefield", 7)
    await service.moderation.admin_abort(GUILD, ADMIN, CHANNEL, "test")
    second = await start_game("clearpath", 5, challenger=BOB, opponent=CAROL)
    await service.resign(CHANNEL, CAROL)
    elsewhere = await start_game("crosscut", 6, channel=THREAD)
    latest = await service.latest_game(CHANNEL)
    assert latest is not None and latest.id == second.id != first.id
    assert latest.game == "clearpath" and set(latest.player_ids) == {BOB, CAROL}
    there = await service.latest_game(THREAD)
    assert there is not None and there.id == elsewhere.id and there.is_active


async def test_an_aborted_game_is_still_the_latest(
    service: GameService, start_game: StartGame
) -> None:
    started = await start_game("minefield", 7)
    await service.moderation.admin_abort(GUILD, ADMIN, CHANNEL, "spam")
    latest = await service.latest_game(CHANNEL)
    assert latest is not None and latest.id == started.id and latest.status == "aborted"
    assert latest.result is not None and latest.result.winner_id is None


async def test_looking_changes_nothing_and_survives_a_cold_cache(
    store_target: str | Path, service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    await start_game("minefield", 7)
    await service.play_move(CHANNEL, ALICE, "d4")
    await service.play_move(CHANNEL, BOB, "c3")
    await service.resign(CHANNEL, ALICE)
    before = snapshot()
    service.core.forget_engines()
    latest = await service.latest_game(CHANNEL)
    assert latest is not None and latest.moves == ("d4", "c3")
    assert latest.record == "minefield 7: d4 c3"
    assert snapshot() == before
    async with await open_store(
        store_target
    ) as other:  # a second process sees the same latest game
        seen = await GameService(other).latest_game(CHANNEL)
    assert seen == latest
