"""The sweep announces soft time: once an untimed game has waited the server's soft time on
one player, ``due``/``apply_due`` yield one notice for the player waiting, exactly once per
turn (across a restart and with processes racing), and never while a vacation stops it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from game_fixtures import ADMIN, ALICE, BOB, CAROL, CHANNEL, GUILD, StartGame

from bot.service import DueOutcome, GameService
from bot.store import open_store

D = 86400


async def notices(service: GameService) -> list[DueOutcome]:
    return [o for o in await service.clocks.run_due() if o.soft_time is not None]


async def test_the_waiting_player_is_told_once_per_turn(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    info = await start_game("minefield", 9)
    await service.play_move(CHANNEL, ALICE, "c3")  # BOB to move, ALICE waits
    moved_at = clock.now
    clock.advance(days=13, hours=23)
    assert await notices(service) == []
    clock.advance(hours=1)
    (outcome,) = await notices(service)
    notice = outcome.soft_time
    assert notice is not None
    assert (notice.user_id, notice.to_move_id, notice.waiting_since) == (ALICE, BOB, moved_at)
    assert (notice.game.id, notice.game.version) == (info.id, 1)
    assert outcome.action.kind == "soft_time" and outcome.action.user_id == ALICE
    clock.advance(days=3)
    assert await notices(service) == []  # once: not again at the next sweep
    # the notice's buttons claim at the version it was made for
    ended = await service.soft_time.claim_soft_time(
        CHANNEL, ALICE, "win", expected_version=notice.game.version
    )
    assert ended.result.winner_id == ALICE
    assert await notices(service) == []


async def test_a_new_turn_gets_its_own_notice_and_settings_and_timed_games_count(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await service.moderation.update_settings(GUILD, ADMIN, soft_time=3 * D)
    await start_game("minefield", 9)  # ALICE to move, BOB waits
    await start_game("minefield", 9, time_control="30d", channel=CHANNEL + 1, opponent=CAROL)
    clock.advance(days=3)
    [first] = await notices(service)
    assert first.soft_time is not None and first.soft_time.user_id == BOB
    assert first.action.channel_id == CHANNEL  # the timed game is never announced
    await service.play_move(CHANNEL, ALICE, "c3")
    await service.play_move(CHANNEL, BOB, "d4")  # ALICE's turn again: a new turn
    clock.advance(days=2, hours=23)
    assert await notices(service) == []
    clock.advance(hours=1)
    [again] = await notices(service)
    assert again.soft_time is not None and again.soft_time.user_id == BOB
    assert again.soft_time.game.version == 2


async def test_no_notice_while_a_vacation_stops_the_game(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await start_game("minefield", 9)  # ALICE to move
    clock.advance(days=10)
    await service.start_vacation(ALICE, 10)  # stopped until day 20: soft time from then
    clock.advance(days=5)
    assert await notices(service) == []
    clock.advance(days=18, hours=23)  # 14 days after the vacation's end, less an hour
    assert await notices(service) == []
    clock.advance(hours=1)
    [outcome] = await notices(service)
    assert outcome.soft_time is not None and outcome.soft_time.user_id == BOB


async def test_a_vacation_begun_after_the_sweep_read_voids_the_notice(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await start_game("minefield", 9)  # ALICE to move
    clock.advance(days=14)
    [action] = [a for a in await service.clocks.due() if a.kind == "soft_time"]
    await service.start_vacation(ALICE, 2)
    assert await service.clocks.apply_due(action) is None
    clock.advance(days=16)
    assert len(await notices(service)) == 1


async def test_a_restart_and_racing_processes_send_it_exactly_once(
    service: GameService, start_game: StartGame, store_target: str | Path, clock: Any
) -> None:
    channels = [CHANNEL + i for i in range(12)]
    for channel in channels:
        await start_game("minefield", 9, channel=channel)
    clock.advance(days=14)
    # each process read the same due actions before any applied them
    async with (
        await open_store(store_target) as second_store,
        await open_store(store_target) as third_store,
    ):
        others = [
            GameService(s, clock=clock, rng=random.Random(1)) for s in (second_store, third_store)
        ]
        readers = [service, *others]
        due = await asyncio.gather(*(r.clocks.due() for r in readers))
        assert all(len([a for a in d if a.kind == "soft_time"]) == 12 for d in due)

        async def apply_all(who: GameService, actions: list[Any]) -> list[int]:
            applied = []
            for action in actions:
                if (outcome := await who.clocks.apply_due(action)) is not None:
                    assert outcome.soft_time is not None
                    applied.append(outcome.action.channel_id)
                await asyncio.sleep(0)
            return applied

        results = await asyncio.gather(
            *(apply_all(r, d) for r, d in zip(readers, due, strict=True))
        )
    sent = sorted(c for applied in results for c in applied)
    assert sent == channels
    async with await open_store(store_target) as reopened:  # a restart finds nothing more
        restarted = GameService(reopened, clock=clock, rng=random.Random(2))
        assert await notices(restarted) == []


async def test_a_copied_database_does_not_announce_again(
    service: GameService,
    store: Any,
    start_game: StartGame,
    clock: Any,
    other_store_target: str | Path,
) -> None:
    await start_game("minefield", 9)  # ALICE to move, BOB waits
    clock.advance(days=14)
    assert len(await notices(service)) == 1
    contents = await store.export_all()
    [row] = contents.games
    assert row.soft_noticed_at is not None  # the mark travels with the game
    async with await open_store(other_store_target) as other:
        await other.import_all(contents)
        copied = GameService(other, clock=clock)
        clock.advance(days=1)
        assert await notices(copied) == []  # the copy knows the notice was sent
