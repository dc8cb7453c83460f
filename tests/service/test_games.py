"""Whole games through the service and a real SQLite file: challenges, moves, swap, takebacks."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from game_fixtures import ALICE, BOB, CAROL

from bot.service import (
    ChallengeNotFound,
    GameInfo,
    GameService,
    InvalidInput,
    MoveResult,
    NoTakeback,
    PermissionDenied,
)
from rules import game_names, parse_record

# The ids the shared fixtures in conftest.py use.
GUILD, CHANNEL, THREAD = 1000, 2000, 2001
StartGame = Callable[..., Awaitable[GameInfo]]


async def play_out(service: GameService, info: GameInfo, seed: int = 7) -> MoveResult:
    """Random legal moves through the service until the game ends."""
    rng = random.Random(seed)
    channel = info.channel_id
    while True:
        current = await service.get_game(channel)
        assert current is not None
        position = await service.position(current.id)
        move = rng.choice(position.legal_moves())
        assert current.to_move_id is not None
        result = await service.play_move(channel, current.to_move_id, move, current.version)
        if result.is_over:
            return result


@pytest.mark.parametrize("name", sorted(game_names()))
async def test_whole_game_from_challenge_to_result(
    service: GameService, start_game: StartGame, name: str
) -> None:
    info = await start_game(name, 5)
    assert info.status == "active" and info.to_move_id == ALICE and info.version == 0
    final = await play_out(service, info)
    assert final.next_id is None and final.result is not None
    assert await service.get_game(CHANNEL) is None
    record = await service.games.game_record(info.id)
    assert record.game.status == "finished"
    # The stored record replays to the same final position the service reached.
    replayed = parse_record(record.text)
    assert replayed.is_over
    assert replayed.winner == final.result.winner_colour
    assert [m.move for m in record.moves] == list(record.game.moves)
    assert [m.ply for m in record.moves] == list(range(len(record.moves)))
    assert {m.user_id for m in record.moves} <= {ALICE, BOB}
    if final.result.is_draw:
        assert final.result.winner_id is None
    else:
        assert final.result.reason == "connection"
        assert final.result.winner_id in (ALICE, BOB)
        assert final.result.loser_id == ({ALICE, BOB} - {final.result.winner_id}).pop()
        assert record.game.colour_of(final.result.winner_id) == final.result.winner_colour
    assert [e.kind for e in record.history] == ["started", final.result.reason]


async def test_move_result_describes_the_turn(service: GameService, start_game: StartGame) -> None:
    info = await start_game("minefield", 9)
    result = await service.play_move(CHANNEL, ALICE, " E5 ", expected_version=0)
    (event,) = result.events
    assert (event.move, event.colour, event.user_id, event.ply) == ("e5", "black", ALICE, 0)
    assert (result.next_id, result.next_colour) == (BOB, "white")
    assert result.game.version == 1 and result.game.moves == ("e5",)
    assert result.game.record == "minefield 9: e5"
    assert not result.is_over and result.deadline is None
    assert (await service.get_game(CHANNEL)) == result.game
    assert info.seats[0].colour == "black"


async def test_clear_path_swap_exchanges_owners_not_engine_colours(
    service: GameService, start_game: StartGame
) -> None:
    await start_game("clearpath", 7)
    await service.play_move(CHANNEL, ALICE, "d4")
    result = await service.play.swap(CHANNEL, BOB)
    assert result.events[0].swap and result.events[0].user_id == BOB
    game = result.game
    # The engine still has blue to move; BOB (the swapper) now owns red, so ALICE moves as blue.
    assert game.to_move_colour == "blue" and game.to_move_id == ALICE
    assert game.colour_of(BOB) == "red" and game.colour_of(ALICE) == "blue"
    # Ownership survives a cold engine cache and a store reopen (derived from the moves).
    service.core.forget_engines()
    again = await service.get_game(CHANNEL)
    assert again is not None and again.seats == game.seats


async def test_random_first_player_is_deterministic_under_a_seeded_rng(
    service: GameService, start_game: StartGame
) -> None:
    firsts = []
    for i in range(8):
        info = await start_game("minefield", 5, first="random", channel=5000 + i)
        firsts.append(info.seats[0].user_id)
    service.core.rng = random.Random(1234)
    again = []
    for i in range(8):
        info = await start_game("minefield", 5, first="random", channel=6000 + i)
        again.append(info.seats[0].user_id)
    assert firsts == again
    assert set(firsts) == {ALICE, BOB}


async def test_first_them_gives_the_opponent_the_first_colour(start_game: StartGame) -> None:
    info = await start_game("crosscut", 6, first="them")
    assert info.seats[0].user_id == BOB and info.to_move_id == BOB


async def test_open_challenge_taken_by_anyone_into_a_thread(service: GameService) -> None:
    challenge = await service.create_challenge(GUILD, CHANNEL, ALICE, None, "Clear Path", 6)
    assert challenge.is_open and challenge.game == "clearpath" and challenge.size == 6
    assert [c.id for c in await service.challenges.open_challenges(GUILD)] == [challenge.id]
    started = await service.accept_challenge(challenge.id, CAROL, THREAD)
    assert started.game.channel_id == THREAD and set(started.game.player_ids) == {ALICE, CAROL}
    assert started.challenge.status == "accepted" and started.challenge.game_id == started.game.id
    assert await service.challenges.open_challenges(GUILD) == []


async def test_decline_and_cancel(service: GameService) -> None:
    first = await service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield")
    assert (await service.challenges.decline_challenge(first.id, BOB)).status == "declined"
    second = await service.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield")
    with pytest.raises(PermissionDenied):
        await service.cancel_challenge(second.id, BOB)
    assert (await service.cancel_challenge(second.id, ALICE)).status == "cancelled"
    assert await service.challenges.open_challenges(GUILD, ALICE) == []


async def test_resign_on_the_opponents_turn(service: GameService, start_game: StartGame) -> None:
    await start_game("minefield", 5)
    await service.play_move(CHANNEL, ALICE, "c3")
    ended = await service.resign(CHANNEL, ALICE)
    assert ended.result.reason == "resign"
    assert (ended.result.winner_id, ended.result.loser_id, ended.result.actor_id) == (
        BOB,
        ALICE,
        ALICE,
    )
    assert ended.game.status == "finished" and ended.game.to_move_id is None


async def test_takeback_accepted_undoes_the_last_turn(
    service: GameService, start_game: StartGame
) -> None:
    await start_game("minefield", 9)
    await service.play_move(CHANNEL, ALICE, "e5")
    await service.play_move(CHANNEL, BOB, "d4")
    request = await service.play.request_takeback(CHANNEL, BOB)
    assert request.requester_id == BOB
    pending = await service.get_game(CHANNEL)
    assert pending is not None and pending.takeback is not None and pending.version == 2
    answer = await service.play.answer_takeback(CHANNEL, ALICE, accept=True)
    assert answer.accepted and [e.move for e in answer.undone] == ["d4"]
    assert answer.game.moves == ("e5",) and answer.game.to_move_id == BOB
    assert answer.game.takeback is None and answer.game.version == 3
    # The moves table (the source of truth) agrees after a cold start.
    service.core.forget_engines()
    record = await service.games.game_record(answer.game.id)
    assert [m.move for m in record.moves] == ["e5"]
    assert [e.kind for e in record.history][-2:] == ["takeback_requested", "takeback_accepted"]
    # And play continues from there.
    result = await service.play_move(CHANNEL, BOB, "c3")
    assert result.game.moves == ("e5", "c3")


async def test_takeback_of_a_clear_path_chain_removes_the_whole_turn(
    service: GameService, start_game: StartGame
) -> None:
    await start_game("clearpath", 5)
    # a1 corner: two board edges; a stone on b1 makes a1 surrounded on three sides.
    await service.play_move(CHANNEL, ALICE, "b1")
    await service.play_move(CHANNEL, BOB, "e5")
    result = await service.play_move(CHANNEL, ALICE, "a1")
    assert result.events[0].continues and result.next_id == ALICE
    position = await service.position(result.game.id)
    follow = next(m for m in position.legal_moves() if m != "swap")
    done = await service.play_move(CHANNEL, ALICE, follow)
    assert done.next_id == BOB
    await service.play.request_takeback(CHANNEL, ALICE)
    answer = await service.play.answer_takeback(CHANNEL, BOB, accept=True)
    assert [e.move for e in answer.undone] == ["a1", follow]
    assert answer.game.moves == ("b1", "e5") and answer.game.to_move_id == ALICE


async def test_takeback_declined_and_refusals(service: GameService, start_game: StartGame) -> None:
    await start_game("minefield", 9)
    with pytest.raises(NoTakeback):
        await service.play.request_takeback(CHANNEL, ALICE)
    await service.play_move(CHANNEL, ALICE, "e5")
    with pytest.raises(NoTakeback):
        await service.play.request_takeback(CHANNEL, BOB)  # not BOB's turn to take back
    with pytest.raises(NoTakeback):
        await service.play.answer_takeback(CHANNEL, BOB, accept=True)  # nothing pending
    await service.play.request_takeback(CHANNEL, ALICE)
    with pytest.raises(NoTakeback):
        await service.play.request_takeback(CHANNEL, ALICE)  # already pending
    with pytest.raises(PermissionDenied):
        await service.play.answer_takeback(CHANNEL, ALICE, accept=True)
    answer = await service.play.answer_takeback(CHANNEL, BOB, accept=False)
    assert not answer.accepted and answer.game.moves == ("e5",) and answer.game.version == 1


async def test_a_move_cancels_a_pending_takeback(
    service: GameService, start_game: StartGame
) -> None:
    await start_game("minefield", 9)
    await service.play_move(CHANNEL, ALICE, "e5")
    await service.play.request_takeback(CHANNEL, ALICE)
    result = await service.play_move(CHANNEL, BOB, "d4")
    assert result.game.takeback is None
    with pytest.raises(NoTakeback):
        await service.play.answer_takeback(CHANNEL, BOB, accept=True)


async def test_queries(service: GameService, start_game: StartGame) -> None:
    one = await start_game("minefield", 5, channel=1)
    two = await start_game("crosscut", 6, channel=2, opponent=CAROL)
    await service.resign(2, CAROL)
    mine = await service.games.games_for_player(GUILD, ALICE)
    assert {g.id for g in mine} == {one.id, two.id}
    assert [g.id for g in await service.games.games_for_player(GUILD, ALICE, active_only=True)] == [
        one.id
    ]
    assert [g.id for g in await service.games.games_for_player(GUILD, BOB)] == [one.id]
    assert await service.games.games_for_player(GUILD + 1, ALICE) == []
    assert [g.id for g in await service.games.active_games(GUILD)] == [one.id]
    fetched: Any = await service.get_game_by_id(two.id)
    assert fetched.status == "finished" and fetched.result.reason == "resign"


async def test_automatic_skip_gives_the_mover_another_turn(
    service: GameService, start_game: StartGame
) -> None:
    # In this Clearcut game the second player has no legal placement after c2.
    record = "clearcut 4: d2 a2 b1 c4 b3 d3 d1 c1 b2 a1 a4 d4 c3 a3 c2"
    await start_game("clearcut", 4)
    result = None
    for move in record.split(": ")[1].split():
        current = await service.get_game(CHANNEL)
        assert current is not None and current.to_move_id is not None
        result = await service.play_move(CHANNEL, current.to_move_id, move)
    assert result is not None and not result.is_over
    (event,) = result.events
    mover = event.user_id
    assert event.skipped_id == ({ALICE, BOB} - {mover}).pop()
    assert event.skipped_colour == result.game.colour_of(event.skipped_id)
    assert result.next_id == mover
    assert result.game.record == record + " -"


async def test_a_challenges_message_is_recorded_once_on_both_engines(
    service: GameService,
) -> None:
    created = await service.create_challenge(1, 2, 11, 22, "minefield")
    assert created.message_id is None
    assert await service.challenges.record_challenge_message(created.id, 900)
    assert not await service.challenges.record_challenge_message(created.id, 901)
    assert (await service.challenges.get_challenge(created.id)).message_id == 900
    with pytest.raises(ChallengeNotFound):
        await service.challenges.record_challenge_message(created.id + 1, 5)
    with pytest.raises(InvalidInput):
        await service.challenges.record_challenge_message(created.id, -1)
