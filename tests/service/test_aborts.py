"""Players' aborts: alone while either has made fewer than two turns, else by an offer the
opponent accepts or declines; an offer dies when the position changes, and an aborted game is
unrated.  Runs on both engines."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB, CAROL, Snapshot, refused

from bot.service import (
    AbortAnswer,
    AbortOffer,
    GameEnded,
    GameFinished,
    GameInfo,
    GameService,
    NoAbort,
    NotAPlayer,
    PermissionDenied,
    StaleAction,
)
from bot.store import open_store

GUILD, CHANNEL = 1000, 2000
StartGame = Callable[..., Awaitable[GameInfo]]


async def play_turns(service: GameService, count: int) -> GameInfo:
    """``count`` moves (one turn each in Minefield), each the first legal move."""
    for _ in range(count):
        info = await service.get_game(CHANNEL)
        assert info is not None and info.to_move_id is not None
        position = await service.position(info.id)
        await service.play_move(CHANNEL, info.to_move_id, position.legal_moves()[0])
    info = await service.get_game(CHANNEL)
    assert info is not None
    return info


async def test_either_player_aborts_alone_until_both_made_two_turns(
    service: GameService, start_game: StartGame
) -> None:
    await start_game("minefield", 5)
    await play_turns(service, 3)  # Alice two turns, Bob one: still alone
    ended = await service.aborts.abort(CHANNEL, ALICE)
    assert isinstance(ended, GameEnded)
    assert ended.game.status == "aborted" and ended.result.reason == "abort"
    assert ended.result.winner_id is None and ended.result.actor_id == ALICE
    assert not ended.result.rated and ended.result.unrated_reason == "aborted"
    record = await service.games.game_record(ended.game.id)
    assert [(e.kind, e.user_id, e.detail) for e in record.history][-1] == (
        "abort",
        ALICE,
        "early abort",
    )
    # the channel is free again
    await start_game("minefield", 5)
    alone = await service.aborts.abort_alone(CHANNEL, BOB)  # before any move, the second player too
    assert alone.game.status == "aborted"


async def test_after_two_turns_each_an_abort_is_an_offer(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    await start_game("minefield", 5)
    info = await play_turns(service, 4)
    await refused(snapshot, NoAbort, service.aborts.abort_alone(CHANNEL, ALICE), "offer an abort")
    await refused(snapshot, NotAPlayer, service.aborts.abort(CHANNEL, CAROL), "not playing")
    offer = await service.aborts.abort(CHANNEL, ALICE)
    assert isinstance(offer, AbortOffer)
    assert (offer.offered_by, offer.version, offer.game.status) == (ALICE, info.version, "active")
    await refused(snapshot, NoAbort, service.aborts.offer_abort(CHANNEL, ALICE), "already waiting")
    await refused(snapshot, NoAbort, service.aborts.offer_abort(CHANNEL, BOB), "accept their offer")
    await refused(
        snapshot,
        PermissionDenied,
        service.aborts.answer_abort(CHANNEL, ALICE, True, version=info.version),
        "your own",
    )
    await refused(
        snapshot,
        NotAPlayer,
        service.aborts.answer_abort(CHANNEL, CAROL, True, version=info.version),
        "not playing",
    )
    answer = await service.aborts.answer_abort(
        CHANNEL, BOB, True, version=info.version, game_id=info.id
    )
    assert isinstance(answer, AbortAnswer) and answer.accepted and answer.ended is not None
    assert (answer.offered_by, answer.answered_by) == (ALICE, BOB)
    assert answer.game.status == "aborted" and answer.ended.result.unrated_reason == "aborted"
    assert await service.get_game(CHANNEL) is None


async def test_a_declined_offer_waits_for_the_next_move_and_a_move_kills_an_offer(
    service: GameService, start_game: StartGame, snapshot: Snapshot
) -> None:
    await start_game("minefield", 5)
    info = await play_turns(service, 4)
    await service.aborts.offer_abort(CHANNEL, BOB)
    declined = await service.aborts.answer_abort(CHANNEL, ALICE, False, version=info.version)
    assert not declined.accepted and declined.ended is None and declined.game.is_active
    await refused(snapshot, NoAbort, service.aborts.offer_abort(CHANNEL, BOB), "declined")
    await refused(snapshot, NoAbort, service.aborts.offer_abort(CHANNEL, ALICE), "declined")
    await refused(
        snapshot,
        NoAbort,
        service.aborts.answer_abort(CHANNEL, ALICE, True, version=info.version),
        "no abort",
    )
    moved = await play_turns(service, 1)
    offer = await service.aborts.offer_abort(CHANNEL, BOB)  # a new position: a new offer is fine
    assert offer.version == moved.version
    after = await play_turns(service, 1)  # the position changes: the offer dies
    await refused(
        snapshot,
        StaleAction,
        service.aborts.answer_abort(CHANNEL, ALICE, True, version=offer.version),
        "out of date",
    )
    await refused(
        snapshot,
        NoAbort,
        service.aborts.answer_abort(CHANNEL, ALICE, True, version=after.version),
        "no abort offer",
    )
    assert (await service.get_game(CHANNEL)) is not None


async def after(delay: float, call: Awaitable[Any]) -> Any:
    await asyncio.sleep(delay)
    return await call


@pytest.mark.slow
async def test_an_accept_racing_a_move_ends_at_most_one_way(
    store_target: str | Path, clock: Any
) -> None:
    """Alice offers an abort, then plays on while Bob accepts, from two store connections:
    each time exactly one of the two is stored, and an accepted abort is recorded once."""
    async with await open_store(store_target) as first, await open_store(store_target) as second:
        one = GameService(first, clock, random.Random(1))
        two = GameService(second, clock, random.Random(2))
        winners: list[str] = []
        for round_ in range(6):
            channel = CHANNEL + round_
            challenge = await one.create_challenge(GUILD, channel, ALICE, BOB, "minefield", 5)
            await one.accept_challenge(challenge.id, BOB)
            for _ in range(4):
                info = await one.get_game(channel)
                assert info is not None and info.to_move_id is not None
                move = (await one.position(info.id)).legal_moves()[0]
                await one.play_move(channel, info.to_move_id, move)
            offer = await one.aborts.offer_abort(channel, ALICE)
            move = (await one.position(offer.game.id)).legal_moves()[0]
            # a head start for one side in the first rounds, so both outcomes are seen; then
            # both at once
            head_start = (0.05, 0.0) if round_ % 2 else (0.0, 0.05)
            if round_ >= 4:
                head_start = (0.0, 0.0)
            results = await asyncio.gather(
                after(head_start[0], one.play_move(channel, ALICE, move, offer.version)),
                after(
                    head_start[1],
                    two.aborts.answer_abort(channel, BOB, True, version=offer.version),
                ),
                return_exceptions=True,
            )
            stored = [r for r in results if not isinstance(r, BaseException)]
            assert len(stored) == 1, results
            refusals = [r for r in results if isinstance(r, BaseException)]
            assert all(isinstance(r, (StaleAction, GameFinished)) for r in refusals), results
            record = await one.games.game_record(offer.game.id)
            aborts = [e for e in record.history if e.kind == "abort"]
            if isinstance(stored[0], AbortAnswer):
                winners.append("abort")
                assert record.game.status == "aborted" and len(aborts) == 1
                assert len(record.moves) == 4
            else:
                winners.append("move")
                assert record.game.is_active and not aborts and len(record.moves) == 5
        assert set(winners) == {"abort", "move"}, winners
