"""Time banks on a controlled clock: they count down only on your turn, get their increment,
stop at the maximum, and run out into one loss on time (across a restart too)."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB, CHANNEL, GUILD, StartGame

from bot.service import (
    GameFinished,
    GameService,
    InvalidTimeControl,
    OutOfTime,
    TimeControl,
    short_duration,
)
from bot.store import open_store

BANK = "3d+1d max 5d"
H = 3600
D = 86400


def test_banks_parse_and_describe_themselves() -> None:
    tc = TimeControl.parse(BANK)
    assert (tc.bank, tc.increment, tc.cap, tc.per_move) == (3 * D, D, 5 * D, None)
    assert tc.is_bank and tc.is_timed and tc.reminders == ()
    assert TimeControl.parse(tc.describe()) == tc
    assert TimeControl.parse("12h+90m") == TimeControl(bank=12 * H, increment=5400, cap=12 * H)
    assert TimeControl.parse("2d + 0 max 2d").increment == 0
    assert TimeControl.parse("12h").per_move == 12 * H  # per move, as before
    assert not TimeControl.parse("none").is_timed


@pytest.mark.parametrize(
    "text",
    ["3d+", "+1d", "3d+1d max", "3d+1dmax", "6d+1d max 5d", "3d+6d max 5d", "3d+1d max 40d",
     "3d+x", "3d+1d max 5d max 6d", "0d+1d max 5d"],
)  # fmt: skip
def test_bad_banks_are_refused_with_a_short_message(text: str) -> None:
    with pytest.raises(InvalidTimeControl) as refused:
        TimeControl.parse(text)
    assert len(str(refused.value)) < 200


def test_a_long_bad_text_is_quoted_short() -> None:
    text = "3d+" + "9" * 5000
    with pytest.raises(InvalidTimeControl) as refused:
        TimeControl.parse(text)
    assert "9" * 101 not in str(refused.value)


def test_short_durations_show_two_units() -> None:
    assert short_duration(2 * D + 4 * H + 59) == "2d 4h"
    assert short_duration(3 * D) == "3d"
    assert short_duration(5 * H + 12 * 60 + 5) == "5h 12m"
    assert short_duration(40) == "40s" and short_duration(-5) == "0s"


async def test_a_bank_counts_only_on_your_turn_gets_its_increment_and_stops_at_the_cap(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    info = await start_game("minefield", 9, time_control=BANK)
    assert info.time_left == {ALICE: 3 * D, BOB: 3 * D}
    assert info.deadline == clock.now + timedelta(days=3)
    clock.advance(hours=10)
    now = await service.get_game(CHANNEL)
    assert now is not None and now.time_left == {ALICE: 3 * D - 10 * H, BOB: 3 * D}
    moved = await service.play_move(CHANNEL, ALICE, "c3")
    # ALICE: 3d - 10h + 1d; BOB's bank has not moved while ALICE thought
    assert moved.game.time_left == {ALICE: 4 * D - 10 * H, BOB: 3 * D}
    assert moved.deadline == clock.now + timedelta(days=3)
    clock.advance(hours=5)
    now = await service.get_game(CHANNEL)
    assert now is not None and now.time_left == {ALICE: 4 * D - 10 * H, BOB: 3 * D - 5 * H}
    await service.play_move(CHANNEL, BOB, "d4")
    clock.advance(minutes=1)
    moved = await service.play_move(CHANNEL, ALICE, "e5")
    assert moved.game.time_left == {ALICE: 5 * D - 10 * H - 60, BOB: 4 * D - 5 * H}
    clock.advance(minutes=1)
    await service.play_move(CHANNEL, BOB, "f6")
    clock.advance(minutes=1)
    moved = await service.play_move(CHANNEL, ALICE, "g7")
    assert moved.game.time_left == {ALICE: 5 * D, BOB: 5 * D - 5 * H - 60}  # not 5d 14h
    clock.advance(minutes=1)
    moved = await service.play_move(CHANNEL, BOB, "h8")
    assert moved.game.time_left == {ALICE: 5 * D, BOB: 5 * D}
    assert moved.deadline == clock.now + timedelta(days=5)


async def test_per_move_time_left_is_the_turn_and_a_whole_turn(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await start_game("minefield", 9, time_control="12h")
    clock.advance(hours=2)
    now = await service.get_game(CHANNEL)
    assert now is not None and now.time_left == {ALICE: 10 * H, BOB: 12 * H}
    untimed = await start_game("minefield", 9, channel=CHANNEL + 1)
    assert untimed.time_left is None


async def test_bank_reminders_come_at_half_and_nine_tenths_of_the_turns_time(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    start = clock.now
    await start_game("minefield", 9, time_control="10h+1h max 10h")
    (first,) = [
        a for a in await service.clocks.due(start + timedelta(hours=5)) if a.kind == "reminder"
    ]
    assert first.at == start + timedelta(hours=5)
    clock.advance(hours=6)
    (outcome,) = await service.clocks.run_due()
    assert outcome.reminder is not None and outcome.reminder.deadline == start + timedelta(hours=10)
    clock.advance(hours=3)  # 9h: the nine-tenths reminder
    (second,) = await service.clocks.run_due()
    assert second.reminder is not None and second.action.reminder_index == 1
    await service.play_move(CHANNEL, ALICE, "c3")  # 1h left + 1h: BOB's turn, 10h bank
    await service.play_move(CHANNEL, BOB, "d4")
    # ALICE starts her turn with 2h (1h left, +1h): reminders at 1h and 1h48m
    turn = clock.now
    assert [a.at for a in await service.clocks.due(turn + timedelta(hours=1))] == [
        turn + timedelta(hours=1)
    ]


async def test_running_out_of_bank_loses_on_time_exactly_once(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    info = await start_game("minefield", 9, time_control="1h+10m max 1h")
    await service.play_move(CHANNEL, ALICE, "c3")
    clock.advance(minutes=59)
    await service.play_move(CHANNEL, BOB, "d4")  # BOB had 1h, 1m left + 10m
    await service.play_move(CHANNEL, ALICE, "e5")
    clock.advance(minutes=11)
    outcomes = await service.clocks.run_due()
    ended = [o.ended for o in outcomes if o.ended is not None]
    assert len(ended) == 1
    assert (ended[0].result.reason, ended[0].result.loser_id) == ("time", BOB)
    assert await service.clocks.run_due() == [] and await service.clocks.due() == []
    with pytest.raises(GameFinished):
        await service.play_move(CHANNEL, BOB, "f6")
    record = await service.games.game_record(info.id)
    assert [e.kind for e in record.history].count("time") == 1


async def test_moving_after_the_bank_ran_out_records_the_loss(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await start_game("minefield", 9, time_control="1h+0 max 1h")
    clock.advance(hours=1)
    with pytest.raises(OutOfTime) as late:
        await service.play_move(CHANNEL, ALICE, "c3")
    assert late.value.ended.result.loser_id == ALICE
    assert await service.clocks.run_due() == []


async def test_banks_survive_a_restart_and_time_out_once(
    store_target: str | Path, clock: Any
) -> None:
    async with await open_store(store_target) as store:
        service = GameService(store, clock, random.Random(0))
        challenge = await service.create_challenge(
            GUILD, CHANNEL, ALICE, BOB, "crosscut", 6, time_control="2h+1h max 3h"
        )
        started = await service.accept_challenge(challenge.id, BOB)
        clock.advance(minutes=30)
        await service.play_move(CHANNEL, ALICE, "c3")  # ALICE: 1h30 + 1h = 2h30
    clock.advance(hours=1)
    async with await open_store(store_target) as store:
        service = GameService(store, clock, random.Random(0))
        now = await service.get_game(CHANNEL)
        assert now is not None and now.time_left == {ALICE: 9000, BOB: 3600}
        await service.play_move(CHANNEL, BOB, "d4")  # BOB: 1h + 1h = 2h
    clock.advance(hours=2, minutes=30)
    async with await open_store(store_target) as store:
        service = GameService(store, clock, random.Random(0))
        (timeout,) = await service.clocks.due()
        assert (timeout.kind, timeout.user_id, timeout.game_id) == (
            "timeout",
            ALICE,
            started.game.id,
        )
        outcome = await service.clocks.apply_due(timeout)
        assert outcome is not None and outcome.ended is not None
        assert outcome.ended.result.winner_id == BOB
    async with await open_store(store_target) as store:
        service = GameService(store, clock, random.Random(0))
        assert await service.clocks.apply_due(timeout) is None
        assert await service.clocks.run_due() == []


async def test_a_takeback_restarts_the_turn_with_the_banks_as_they_stood(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await start_game("minefield", 9, time_control="2h+1h max 3h")
    clock.advance(minutes=30)
    await service.play_move(CHANNEL, ALICE, "c3")  # ALICE 2h30
    clock.advance(minutes=20)
    await service.play.request_takeback(CHANNEL, ALICE)
    answer = await service.play.answer_takeback(CHANNEL, BOB, True)
    assert answer.game.to_move_id == ALICE
    assert answer.game.time_left == {ALICE: 9000, BOB: 7200}
    assert answer.game.deadline == clock.now + timedelta(hours=2, minutes=30)


async def test_a_new_server_plays_with_a_bank_until_an_admin_changes_it(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    settings = await service.moderation.get_settings(GUILD)
    assert settings.default_time_control == TimeControl.parse(BANK)
    info = await start_game("minefield", 9, time_control=None)
    assert info.time_control == TimeControl.parse(BANK)
    assert info.time_left == {ALICE: 3 * D, BOB: 3 * D}
    await service.moderation.update_settings(GUILD, 99, default_time_control="none")
    untimed = await start_game("minefield", 9, time_control=None, channel=CHANNEL + 1)
    assert untimed.time_control == TimeControl() and untimed.time_left is None
    await service.moderation.update_settings(GUILD, 99, default_time_control="1d+12h max 2d")
    banked = await start_game("minefield", 9, time_control=None, channel=CHANNEL + 2)
    assert banked.time_control == TimeControl(bank=D, increment=12 * H, cap=2 * D)
    # reopened, the setting is read back as it was saved
    assert (
        await service.moderation.get_settings(GUILD)
    ).default_time_control == banked.time_control
