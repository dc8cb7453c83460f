"""Every refusal raises a specific domain error with a player-facing message and changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from game_fixtures import ADMIN, ALICE, BOB, CAROL, Snapshot, refused

from bot.service import (
    ChallengeExpired,
    ChallengeNotFound,
    ChannelBusy,
    GameFinished,
    GameInfo,
    GameService,
    IllegalMoveError,
    InvalidChallenge,
    InvalidSettings,
    InvalidTimeControl,
    NoGameHere,
    NotAPlayer,
    NotYourTurn,
    PermissionDenied,
    StaleAction,
)
from bot.store import DiskFull, Store

GUILD, CHANNEL, THREAD = 1000, 2000, 2001
StartGame = Callable[..., Awaitable[GameInfo]]


async def test_move_refusals_leave_the_game_unchanged(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    await start_game("minefield", 9)
    await service.play_move(CHANNEL, ALICE, "e5")
    await refused(snapshot, NotAPlayer, service.play_move(CHANNEL, CAROL, "d4"), "not playing")
    await refused(snapshot, NotYourTurn, service.play_move(CHANNEL, ALICE, "d4"), "not your turn")
    await refused(snapshot, IllegalMoveError, service.play_move(CHANNEL, BOB, "e5"), "occupied")
    await refused(snapshot, IllegalMoveError, service.play_move(CHANNEL, BOB, "z99"), "board")
    await refused(snapshot, IllegalMoveError, service.play_move(CHANNEL, BOB, "swap"), "swap")
    await refused(
        snapshot, StaleAction, service.play_move(CHANNEL, BOB, "d4", expected_version=0), "date"
    )
    await refused(snapshot, NoGameHere, service.play_move(CHANNEL + 5, BOB, "d4"), "no game")
    await refused(snapshot, NotAPlayer, service.resign(CHANNEL, CAROL), "not playing")
    # The game still accepts the right move afterwards.
    result = await service.play_move(CHANNEL, BOB, "d4", expected_version=1)
    assert result.game.moves == ("e5", "d4")


async def test_rule_violation_carries_the_engine_message(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    await start_game("minefield", 5)
    await service.play_move(CHANNEL, ALICE, "a1")
    await service.play_move(CHANNEL, BOB, "b1")
    info = await service.get_game(CHANNEL)
    assert info is not None
    reason = (await service.position(info.id)).explain("b2")
    assert reason is not None and "hard corner" in reason
    before = snapshot()
    with pytest.raises(IllegalMoveError) as refusal:
        await service.play_move(CHANNEL, ALICE, "b2")
    assert str(refusal.value) == reason and refusal.value.move == "b2"
    assert snapshot() == before


async def test_finished_game_refuses_everything(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    await start_game("minefield", 5)
    await service.resign(CHANNEL, BOB)
    await refused(snapshot, GameFinished, service.play_move(CHANNEL, ALICE, "c3"), "over")
    await refused(snapshot, GameFinished, service.resign(CHANNEL, ALICE), "over")
    await refused(snapshot, GameFinished, service.play.request_takeback(CHANNEL, ALICE), "over")
    await refused(
        snapshot, NoGameHere, service.moderation.admin_abort(GUILD, ADMIN, CHANNEL), "no game"
    )


async def test_challenge_refusals(
    service: GameService, clock: Any, start_game: StartGame, snapshot: Snapshot
) -> None:
    await refused(
        snapshot,
        InvalidChallenge,
        service.create_challenge(GUILD, CHANNEL, ALICE, ALICE, "minefield"),
        "yourself",
    )
    await refused(
        snapshot,
        InvalidChallenge,
        service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "chess"),
        "unknown game",
    )
    await refused(
        snapshot,
        InvalidChallenge,
        service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", 3),
        "3×3",
    )
    await refused(
        snapshot,
        InvalidChallenge,
        service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", first="who"),  # type: ignore[arg-type]
        "first",
    )
    await refused(
        snapshot,
        InvalidTimeControl,
        service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", time_control="soon"),
        "12h",
    )
    challenge = await service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield")
    await refused(snapshot, ChallengeNotFound, service.accept_challenge(999, BOB), "exist")
    await refused(snapshot, InvalidChallenge, service.accept_challenge(challenge.id, ALICE), "own")
    await refused(
        snapshot, PermissionDenied, service.accept_challenge(challenge.id, CAROL), "another"
    )
    await refused(
        snapshot,
        PermissionDenied,
        service.challenges.decline_challenge(challenge.id, CAROL),
        "challenged",
    )
    clock.advance(days=1, seconds=1)
    await refused(
        snapshot, ChallengeExpired, service.accept_challenge(challenge.id, BOB), "expired"
    )


async def test_a_second_game_in_a_busy_channel_is_refused(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    await service.moderation.update_settings(GUILD, ADMIN, use_threads=False)
    await start_game("minefield", 5)
    await refused(
        snapshot,
        ChannelBusy,
        service.create_challenge(GUILD, CHANNEL, CAROL, BOB, "minefield"),
        "in progress",
    )
    # With threads on, the challenge may be made, but accepting into the busy channel fails.
    await service.moderation.update_settings(GUILD, ADMIN, use_threads=True)
    challenge = await service.create_challenge(GUILD, CHANNEL, CAROL, BOB, "minefield")
    await refused(
        snapshot, ChannelBusy, service.accept_challenge(challenge.id, BOB, CHANNEL), "in progress"
    )
    started = await service.accept_challenge(challenge.id, BOB, THREAD)
    assert started.game.channel_id == THREAD


async def test_accepting_twice_is_refused(service: GameService, snapshot: Snapshot) -> None:
    challenge = await service.create_challenge(GUILD, CHANNEL, ALICE, None, "minefield")
    await service.accept_challenge(challenge.id, BOB)
    await refused(
        snapshot, InvalidChallenge, service.accept_challenge(challenge.id, CAROL), "already"
    )
    await refused(
        snapshot, InvalidChallenge, service.cancel_challenge(challenge.id, ALICE), "already"
    )


async def test_channel_not_allowed(service: GameService, snapshot: Snapshot) -> None:
    await service.moderation.update_settings(GUILD, ADMIN, allowed_channels=[42])
    await refused(
        snapshot,
        InvalidChallenge,
        service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield"),
        "channel",
    )
    ok = await service.create_challenge(GUILD, 42, ALICE, BOB, "minefield")
    assert ok.channel_id == 42


async def test_settings_refusals(service: GameService, snapshot: Snapshot) -> None:
    await refused(
        snapshot,
        InvalidSettings,
        service.moderation.update_settings(GUILD, ADMIN, default_sizes={"minefield": 40}),
        "40×40",
    )
    await refused(
        snapshot,
        InvalidSettings,
        service.moderation.update_settings(GUILD, ADMIN, default_sizes={"go": 9}),
        "unknown game",
    )
    await refused(
        snapshot,
        InvalidSettings,
        service.moderation.update_settings(GUILD, ADMIN, challenge_expiry=5),
        "expire",
    )
    await refused(
        snapshot,
        InvalidTimeControl,
        service.moderation.update_settings(GUILD, ADMIN, default_time_control="3x"),
        "3d",
    )


async def test_admin_target_must_be_a_player(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    await start_game("minefield", 5)
    await refused(
        snapshot,
        NotAPlayer,
        service.moderation.admin_award(GUILD, ADMIN, CHANNEL, CAROL),
        "not playing",
    )
    await refused(
        snapshot, NoGameHere, service.moderation.admin_abort(GUILD + 1, ADMIN, CHANNEL), "no game"
    )


async def test_a_failed_write_leaves_no_trace_in_db_or_cache(
    service: GameService,
    store: Store,
    start_game: StartGame,
    snapshot: Snapshot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await start_game("minefield", 9)
    await service.play_move(CHANNEL, ALICE, "e5")
    async with store.read() as tx:
        games = type(tx.games)  # the game queries of whatever engine runs the test

    async def disk_full(self: Any, *args: Any, **kwargs: Any) -> None:
        raise DiskFull("the disk holding the database is full; the change was not saved")

    before = snapshot()
    with monkeypatch.context() as patch:
        patch.setattr(games, "record_moves", disk_full)
        with pytest.raises(DiskFull):
            await service.play_move(CHANNEL, BOB, "d4")
    assert snapshot() == before
    # The engine that had already played d4 was not kept: the service still sees one move.
    info = await service.get_game(CHANNEL)
    assert info is not None and info.moves == ("e5",) and info.to_move_id == BOB
    result = await service.play_move(CHANNEL, BOB, "d4")
    assert result.game.moves == ("e5", "d4")
