"""Clocks with an injected time source: reminders, loss on time, challenge expiry, restarts."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB
from hypothesis import given
from hypothesis import strategies as st

from bot.service import GameFinished, GameInfo, GameService, OutOfTime, TimeControl
from bot.store import open_store

GUILD, CHANNEL = 1000, 2000
StartGame = Callable[..., Awaitable[GameInfo]]


def test_time_control_parsing() -> None:
    assert TimeControl.parse("none") == TimeControl()
    assert TimeControl.parse("1d").per_move == 86400
    assert TimeControl.parse("1d12h").per_move == 36 * 3600
    assert TimeControl.parse(" 90m ").per_move == 5400
    assert TimeControl.parse("2d").reminders == (86400, int(2 * 86400 * 0.9))
    assert TimeControl.parse("1d12h").describe() == "1d12h per move"
    assert TimeControl().describe() == "no clock"


async def test_reminders_then_loss_on_time(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    info = await start_game("minefield", 5, time_control="1d")
    start = info.turn_started_at
    assert info.deadline == start + timedelta(days=1)
    assert await service.clocks.next_due_at() == start + timedelta(hours=12)
    clock.advance(hours=11, minutes=59)
    assert await service.clocks.due() == []

    clock.advance(minutes=1)
    (action,) = await service.clocks.due()
    assert (action.kind, action.user_id, action.game_id) == ("reminder", ALICE, info.id)
    outcome = await service.clocks.apply_due(action)
    assert outcome is not None and outcome.reminder is not None
    assert outcome.reminder.user_id == ALICE and outcome.reminder.deadline == info.deadline
    assert await service.clocks.apply_due(action) is None  # applying twice does nothing
    assert await service.clocks.due() == []

    clock.advance(hours=9, minutes=36)  # 90% of a day
    (second,) = await service.clocks.run_due()
    assert second.reminder is not None and second.action.reminder_index == 1

    clock.now = info.deadline
    (timeout,) = await service.clocks.run_due()
    assert timeout.ended is not None
    result = timeout.ended.result
    assert (result.reason, result.loser_id, result.winner_id) == ("time", ALICE, BOB)
    assert await service.get_game(CHANNEL) is None
    assert await service.clocks.due() == [] and await service.clocks.next_due_at() is None


async def test_a_move_restarts_the_clock_and_voids_old_actions(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    info = await start_game("minefield", 5, time_control="1d")
    clock.advance(hours=12)
    (reminder,) = await service.clocks.due()
    clock.advance(hours=1)
    result = await service.play_move(CHANNEL, ALICE, "c3")
    assert result.deadline == clock.now + timedelta(days=1)
    assert result.game.turn_started_at == clock.now
    assert await service.clocks.apply_due(reminder) is None
    # At ALICE's old deadline nothing is due for BOB yet.
    clock.now = info.deadline
    assert await service.clocks.due() == []
    clock.now = result.deadline
    (timeout,) = await service.clocks.due()
    assert timeout.kind == "timeout" and timeout.user_id == BOB


async def test_moving_after_the_deadline_records_the_loss(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    info = await start_game("minefield", 5, time_control="2h")
    clock.now = info.deadline
    with pytest.raises(OutOfTime) as raised:
        await service.play_move(CHANNEL, ALICE, "c3")
    assert isinstance(raised.value, GameFinished)
    assert raised.value.ended.result.reason == "time"
    assert raised.value.ended.result.loser_id == ALICE
    record = await service.games.game_record(info.id)
    assert record.moves == () and record.game.status == "finished"
    # The scheduler finds nothing left to do.
    assert await service.clocks.due() == []


async def test_untimed_game_with_reminders_never_times_out(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await start_game("minefield", 5, time_control=TimeControl(None, (3600, 7200)))
    clock.advance(days=30)
    kinds = [o.action.kind for o in await service.clocks.run_due()]
    assert kinds == ["reminder", "soft_time"]  # untimed: the waiting player may claim it
    assert [o.action.kind for o in await service.clocks.run_due()] == ["reminder"]
    assert await service.clocks.run_due() == []
    assert (await service.get_game(CHANNEL)) is not None


async def test_challenge_expiry(service: GameService, clock: Any) -> None:
    await service.moderation.update_settings(GUILD, 99, challenge_expiry=3600)
    challenge = await service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield")
    assert challenge.expires_at == clock.now + timedelta(hours=1)
    assert await service.clocks.next_due_at() == challenge.expires_at
    clock.advance(minutes=59)
    assert await service.clocks.due() == []
    clock.advance(minutes=1)
    (outcome,) = await service.clocks.run_due()
    assert outcome.expired is not None and outcome.expired.status == "expired"
    assert outcome.action.user_id == ALICE
    assert (await service.challenges.get_challenge(challenge.id)).status == "expired"
    assert await service.challenges.open_challenges(GUILD) == []


async def test_deadlines_survive_a_restart(store_target: str | Path, clock: Any) -> None:
    async with await open_store(store_target) as store:
        service = GameService(store, clock, random.Random(0))
        challenge = await service.create_challenge(
            GUILD, CHANNEL, ALICE, BOB, "crosscut", 6, time_control="3d"
        )
        started = await service.accept_challenge(challenge.id, BOB)
        await service.play_move(CHANNEL, ALICE, "c3")
    clock.advance(days=3)
    async with await open_store(store_target) as store:
        service = GameService(store, clock, random.Random(0))
        (timeout,) = await service.clocks.due()
        assert (timeout.kind, timeout.user_id, timeout.game_id) == ("timeout", BOB, started.game.id)
        outcome = await service.clocks.apply_due(timeout)
        assert outcome is not None and outcome.ended is not None
        assert outcome.ended.result.winner_id == ALICE


@given(minutes=st.integers(1, 30 * 24 * 60))
def test_time_control_text_round_trips(minutes: int) -> None:
    from bot.service import format_duration

    tc = TimeControl.parse(format_duration(minutes * 60))
    assert tc.per_move == minutes * 60
    assert all(0 < r < minutes * 60 for r in tc.reminders)
    assert TimeControl.parse(tc.describe().removesuffix(" per move")) == tc


@pytest.mark.parametrize("text", ["soon", "3x", "d3", "0d", "31d", "-2h", "12h 5"])
def test_bad_time_controls_are_refused(text: str) -> None:
    from bot.service import InvalidTimeControl

    with pytest.raises(InvalidTimeControl):
        TimeControl.parse(text)
