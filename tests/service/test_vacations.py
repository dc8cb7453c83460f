"""Vacations stop every clock of a player's games in every server, and start them again;
soft time lets the waiting player end an untimed game that stalls."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from game_fixtures import ADMIN, ALICE, BOB, CAROL, CHANNEL, GUILD, StartGame

from bot.service import (
    GameFinished,
    GameService,
    InvalidInput,
    InvalidSettings,
    NotAPlayer,
    SoftTimeRefused,
    VacationRefused,
)

OTHER_GUILD = 1001
D = 86400


async def three_games(start_game: StartGame) -> tuple[int, int, int]:
    """ALICE to move against BOB (bank), BOB to move against ALICE in another server (per
    move), and an untouched bank game of BOB and CAROL."""
    mine = await start_game("minefield", 9, time_control="3d+1d max 5d")
    theirs = await start_game(
        "minefield", 9, time_control="2d", channel=CHANNEL + 1, guild=OTHER_GUILD,
        challenger=BOB, opponent=ALICE,
    )  # fmt: skip
    others = await start_game(
        "minefield", 9, time_control="1d+1d max 2d", channel=CHANNEL + 2, challenger=BOB,
        opponent=CAROL,
    )  # fmt: skip
    return mine.id, theirs.id, others.id


async def test_a_vacation_stops_every_clock_of_the_player_and_they_restart_when_it_ends(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    mine, theirs, others = await three_games(start_game)
    clock.advance(hours=6)
    before = {g: await service.get_game_by_id(g) for g in (mine, theirs, others)}
    vacation = await service.start_vacation(ALICE, 3)
    assert vacation.running and vacation.days == 3 and vacation.days_used == 3
    assert vacation.allowance == 30 and vacation.days_left == 27
    assert vacation.ends_at == clock.now + timedelta(days=3)
    told = {(g.game_id, g.channel_id, g.opponent_id) for g in vacation.games}
    assert told == {(mine, CHANNEL, BOB), (theirs, CHANNEL + 1, BOB)}  # each game once
    stopped = {g: await service.get_game_by_id(g) for g in (mine, theirs)}
    for g, info in stopped.items():
        old = before[g].deadline
        assert old is not None and info.deadline == old + timedelta(days=3)
        assert info.paused_until == clock.now + timedelta(days=3)
        assert info.version == before[g].version  # the board's buttons stay valid
    clock.advance(days=2, hours=23)  # the old deadlines have passed; the clocks stood still
    for g in (mine, theirs):
        assert (await service.get_game_by_id(g)).time_left == before[g].time_left
    assert [a.kind for a in await service.clocks.due()] == ["timeout"]  # only BOB v CAROL's
    (ended,) = await service.clocks.run_due()
    assert ended.ended is not None and ended.ended.game.id == others
    clock.advance(hours=1)  # the vacation is over: the clocks run again
    clock.advance(hours=2)
    now = await service.get_game_by_id(mine)
    left = before[mine].time_left
    assert left is not None and now.time_left == {ALICE: left[ALICE] - 2 * 3600, BOB: left[BOB]}
    assert (await service.vacations.vacation(ALICE)).running is False
    # the per-move game times out 3 days after its old deadline, once
    old = before[theirs].deadline
    assert old is not None
    clock.now = old + timedelta(days=3)
    outcomes = await service.clocks.run_due()
    assert [(o.ended.game.id, o.ended.result.loser_id) for o in outcomes if o.ended] == [
        (theirs, BOB)
    ]


async def test_ending_a_vacation_early_moves_the_deadlines_back_and_gives_days_back(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    mine, _, _ = await three_games(start_game)
    deadline = (await service.get_game_by_id(mine)).deadline
    assert deadline is not None
    await service.start_vacation(ALICE, 5)
    clock.advance(days=1, hours=1)
    ended = await service.end_vacation(ALICE)
    assert not ended.running and ended.days_used == 2  # two days begun, three given back
    assert {g.game_id for g in ended.games} >= {mine}
    info = await service.get_game_by_id(mine)
    assert info.deadline == deadline + timedelta(days=1, hours=1) and info.paused_until is None
    with pytest.raises(VacationRefused, match="not on vacation"):
        await service.end_vacation(ALICE)


async def test_a_move_on_vacation_keeps_the_opponents_clock_stopped(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await start_game("minefield", 9, time_control="3d+1d max 5d")
    await service.start_vacation(ALICE, 2)
    clock.advance(hours=5)
    moved = await service.play_move(CHANNEL, ALICE, "c3")  # she may still play
    assert moved.game.time_left == {ALICE: 4 * D, BOB: 3 * D}  # no time counted, +1 day
    assert moved.deadline == clock.now + timedelta(days=2, hours=-5, seconds=3 * D)


async def test_both_players_away_stop_the_game_until_the_later_return(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    info = await start_game("minefield", 9, time_control="1d")
    assert info.deadline is not None
    await service.start_vacation(ALICE, 2)
    await service.start_vacation(BOB, 4)
    stopped = await service.get_game(CHANNEL)
    assert stopped is not None and stopped.deadline == info.deadline + timedelta(days=4)
    await service.end_vacation(BOB)  # ALICE is still away: stopped until her return
    stopped = await service.get_game(CHANNEL)
    assert stopped is not None and stopped.deadline == info.deadline + timedelta(days=2)


async def test_vacation_refusals_change_nothing(
    service: GameService,
    start_game: StartGame,
    clock: Any,
    snapshot: Any,
) -> None:
    await start_game("minefield", 9, time_control="1d")
    await service.moderation.update_settings(GUILD, ADMIN, vacation_days=4)
    for bad in (0, -1, 400, 1.5, "2", True):
        with pytest.raises(InvalidInput):
            await service.start_vacation(ALICE, bad)  # type: ignore[arg-type]
    with pytest.raises(VacationRefused, match="not on vacation"):
        await service.end_vacation(ALICE)
    with pytest.raises(VacationRefused, match="only 4 vacation days left"):
        await service.start_vacation(ALICE, 5)
    await service.start_vacation(ALICE, 3)
    before = snapshot()
    with pytest.raises(VacationRefused, match="already on vacation"):
        await service.start_vacation(ALICE, 1)
    assert snapshot() == before
    await service.end_vacation(ALICE)  # one day begun
    clock.advance(hours=1)
    await service.start_vacation(ALICE, 3)
    clock.advance(days=3)
    with pytest.raises(VacationRefused, match="no vacation days left in 2026"):
        await service.start_vacation(ALICE, 1)
    # A new year brings new days.
    clock.now = clock.now.replace(year=2027)
    with pytest.raises(VacationRefused, match="already run out"):  # her 1d clock ran out
        await service.start_vacation(ALICE, 1)
    before = snapshot()
    with pytest.raises(VacationRefused):
        await service.start_vacation(ALICE, 1)
    assert snapshot() == before
    await service.clocks.run_due()
    assert (await service.start_vacation(ALICE, 4)).days_left == 26  # no game: the default


async def test_the_largest_allowance_of_the_players_servers_applies(
    service: GameService, start_game: StartGame
) -> None:
    await start_game("minefield", 9)
    await start_game("minefield", 9, channel=CHANNEL + 1, guild=OTHER_GUILD)
    await service.moderation.update_settings(GUILD, ADMIN, vacation_days=5)
    await service.moderation.update_settings(OTHER_GUILD, ADMIN, vacation_days=40)
    assert (await service.vacations.vacation(ALICE)).allowance == 40
    await service.moderation.update_settings(OTHER_GUILD, ADMIN, vacation_days=0)
    assert (await service.vacations.vacation(ALICE)).allowance == 5
    with pytest.raises(InvalidSettings):
        await service.moderation.update_settings(GUILD, ADMIN, vacation_days=366)


async def test_a_game_started_during_a_vacation_waits_for_its_end(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await service.start_vacation(BOB, 2)
    info = await start_game("minefield", 9, time_control="1d")
    assert info.deadline == clock.now + timedelta(days=3)
    assert info.time_left == {ALICE: D, BOB: D}


# ----- soft time ------------------------------------------------------------------------------


async def test_the_waiting_player_may_claim_a_stalled_untimed_game(
    service: GameService, start_game: StartGame, clock: Any, snapshot: Any
) -> None:
    info = await start_game("minefield", 9)
    await service.play_move(CHANNEL, ALICE, "c3")  # BOB to move
    moved_at = clock.now
    assert await service.soft_time.soft_time_at(CHANNEL) == moved_at + timedelta(days=14)
    clock.advance(days=13, hours=23)
    before = snapshot()
    with pytest.raises(SoftTimeRefused, match="you can claim from 2026-03-15 12:00"):
        await service.soft_time.claim_soft_time(CHANNEL, ALICE, "win")
    with pytest.raises(SoftTimeRefused, match="waiting on you"):
        await service.soft_time.claim_soft_time(CHANNEL, BOB, "win")
    with pytest.raises(NotAPlayer):
        await service.soft_time.claim_soft_time(CHANNEL, CAROL, "win")
    with pytest.raises(InvalidInput):
        await service.soft_time.claim_soft_time(CHANNEL, ALICE, "draw")  # type: ignore[arg-type]
    assert snapshot() == before
    clock.advance(hours=1)
    ended = await service.soft_time.claim_soft_time(CHANNEL, ALICE, "win", game_id=info.id)
    assert (ended.result.reason, ended.result.winner_id, ended.result.loser_id) == (
        "time",
        ALICE,
        BOB,
    )
    record = await service.games.game_record(info.id)
    assert [(e.kind, e.detail) for e in record.history][-1] == ("time", "soft time")
    with pytest.raises(GameFinished):  # a second claim (say, a second button) is refused
        await service.soft_time.claim_soft_time(CHANNEL, ALICE, "abort", game_id=info.id)


async def test_soft_time_abort_follows_the_server_setting_and_skips_timed_games(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await service.moderation.update_settings(GUILD, ADMIN, soft_time=3 * D)
    await start_game("minefield", 9)
    clock.advance(days=3)
    ended = await service.soft_time.claim_soft_time(CHANNEL, BOB, "abort")
    assert ended.result.reason == "abort" and ended.game.status == "aborted"
    await start_game("minefield", 9, time_control="30d", channel=CHANNEL + 1)
    clock.advance(days=20)
    with pytest.raises(SoftTimeRefused, match="has a clock"):
        await service.soft_time.claim_soft_time(CHANNEL + 1, BOB, "win")
    assert await service.soft_time.soft_time_at(CHANNEL + 1) is None


async def test_soft_time_waits_for_a_vacation(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await start_game("minefield", 9)
    clock.advance(days=13)
    await service.start_vacation(ALICE, 3)
    clock.advance(days=2)
    with pytest.raises(SoftTimeRefused, match="on vacation"):
        await service.soft_time.claim_soft_time(CHANNEL, BOB, "win")
    clock.advance(days=1)
    # the 14 days count from the vacation's end, not the turn's start
    with pytest.raises(SoftTimeRefused, match="you can claim from"):
        await service.soft_time.claim_soft_time(CHANNEL, BOB, "win")
