"""Lists read stored columns only, and a cold position is rebuilt off the event loop.

``game_summaries`` and the clock's ``due`` must never build a rules engine (a cold Naked
Diagonal 13×13 replay takes about a second); ``get_game`` on a cold game replays on a worker
thread, so the loop keeps serving other commands meanwhile.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from game_fixtures import ALICE, BOB, CAROL
from loop_guard import cpu_wait_clock

from bot.service import GameInfo, GameService, GameSummary, IllegalMoveError, InvalidInput, engines
from bot.service import core as service_core
from rules import new_game

GUILD, OTHER_GUILD = 1000, 1001
StartGame = Callable[..., Awaitable[GameInfo]]
Snapshot = Callable[[], dict[str, list[tuple[Any, ...]]]]


def as_summary(info: GameInfo) -> GameSummary:
    """What the summary of a game must say, worked out from the full engine-built snapshot."""
    started = info.seats if not any(m == "swap" for m in info.moves[:2]) else info.seats[::-1]
    return GameSummary(
        id=info.id,
        guild_id=info.guild_id,
        channel_id=info.channel_id,
        game=info.game,
        title=info.title,
        size=info.size,
        status=info.status,
        first_id=started[0].user_id,
        second_id=started[1].user_id,
        to_move_id=info.to_move_id,
        to_move_colour=info.to_move_colour,
        deadline=info.deadline,
        updated_at=info.updated_at,
        result=info.result,
        version=info.version,
        time_left=info.time_left,
    )


async def populate(service: GameService, start_game: StartGame, clock: Any) -> list[int]:
    ids = []
    plays = [
        ("clearpath", ["c3", "swap"], 1),
        ("clearpath", ["c3", "swap", "d4"], 2),
        ("minefield", ["c3"], 3),
        ("crosscut", [], 4),
        ("nakeddiagonal", ["c3", "resign"], 5),
        ("clearcut", ["c3"], 6),
    ]
    for game, moves, channel in plays:
        info = await start_game(game, 5, channel=channel, time_control="1d")
        for move in moves:
            clock.advance(minutes=1)
            now = await service.get_game(channel)
            assert now is not None and now.to_move_id is not None
            if move == "resign":
                await service.resign(channel, now.to_move_id)
            else:
                await service.play_move(channel, now.to_move_id, move)
        ids.append(info.id)
    await start_game("minefield", 5, channel=7, guild=OTHER_GUILD, opponent=CAROL)
    return ids


async def test_summaries_match_the_full_snapshots_page_by_page(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    ids = await populate(service, start_game, clock)
    infos = [await service.get_game_by_id(i) for i in ids]
    expected = sorted(
        (as_summary(i) for i in infos), key=lambda s: (s.updated_at, s.id), reverse=True
    )
    assert [s.to_move_id for s in sorted(expected, key=lambda s: s.id)] == [
        ALICE,  # c3 by ALICE, swap by BOB: BOB owns red now, ALICE (blue) to move
        BOB,
        BOB,
        ALICE,
        None,
        BOB,
    ]
    service.core.forget_engines()
    seen: list[GameSummary] = []
    cursor = None
    pages = 0
    while True:
        page = await service.game_summaries(GUILD, cursor=cursor, limit=4)
        seen += page.games
        pages += 1
        if page.next_cursor is None:
            break
        assert len(page.next_cursor) <= 40
        cursor = page.next_cursor
    assert seen == expected and pages == 2
    assert not service.core._engines, "a list built an engine"

    alice_active = await service.game_summaries(GUILD, player_id=ALICE, active_only=True)
    assert alice_active.games == tuple(s for s in expected if s.is_active)
    assert alice_active.next_cursor is None
    bobs_turn = await service.game_summaries(to_move_id=BOB)
    assert [s.id for s in bobs_turn.games] == [s.id for s in expected if s.to_move_id == BOB]
    everywhere = await service.game_summaries(player_id=CAROL)
    assert [s.guild_id for s in everywhere.games] == [OTHER_GUILD]


async def test_lists_and_the_clock_never_build_an_engine(
    service: GameService, start_game: StartGame, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    await populate(service, start_game, clock)
    service.core.forget_engines()

    async def no_engine(*args: Any) -> Any:
        raise AssertionError("a rules engine was built")

    monkeypatch.setattr(service_core.ServiceCore, "_engine", no_engine)
    assert len((await service.game_summaries(GUILD, limit=100)).games) == 6
    clock.advance(hours=13)  # reminders (at half time) are due in every timed game
    due = await service.clocks.due()
    assert {a.kind for a in due} == {"reminder"}
    assert len(due) == 5
    assert all(a.user_id in (ALICE, BOB) for a in due)


async def test_bad_cursors_are_refused(service: GameService, snapshot: Snapshot) -> None:
    before = snapshot()
    for cursor in ("nonsense", "1.2.3", "x" * 500, "12.-3", 12):
        with pytest.raises(InvalidInput, match="cursor"):
            await service.game_summaries(GUILD, cursor=cursor)  # type: ignore[arg-type]
    assert snapshot() == before


@pytest.mark.parametrize(
    "cursor",
    [
        "99999999999999999999.1",  # the stamp does not fit a 64-bit column
        f"{2**63}.1",
        f"-{2**63 + 1}.1",
        f"1.{2**63}",  # nor does the game id
        "1." + "9" * 30,
    ],
)
async def test_cursors_beyond_64_bits_are_refused_before_the_database(
    service: GameService, snapshot: Snapshot, cursor: str
) -> None:
    """A forged list button carries any digits; the driver must never see them."""
    before = snapshot()
    with pytest.raises(InvalidInput, match="cursor") as refused:
        await service.game_summaries(GUILD, cursor=cursor)
    assert len(str(refused.value)) < 200
    assert snapshot() == before
    # the largest cursors that do fit are read, not refused
    page = await service.game_summaries(GUILD, cursor=f"{2**63 - 1}.{2**63 - 1}")
    assert page.games == ()
    page = await service.game_summaries(GUILD, cursor=f"-{2**63}.0")
    assert page.games == ()


@pytest.mark.slow
async def test_a_cold_position_is_rebuilt_off_the_event_loop(
    service: GameService, start_game: StartGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = await start_game("nakeddiagonal", 13)
    game = new_game("nakeddiagonal", 13)
    rng = random.Random(4)
    played = 0
    while not game.is_over and played < 120:
        move = rng.choice(game.legal_moves())
        mover = info.user_of(game.to_move or "")
        await service.play_move(info.channel_id, mover, move)
        game.play(move)
        played += 1
    service.core.forget_engines()  # as after a restart

    pools: list[object] = []
    real_pool = engines._replay_pool

    def watched() -> Any:  # the replay goes to the worker process, not this one
        pools.append(real_pool())
        return pools[-1]

    monkeypatch.setattr(engines, "_replay_pool", watched)
    worst = 0.0
    stop = asyncio.Event()

    async def probe(waited: Callable[[], float]) -> None:
        nonlocal worst
        while not stop.is_set():
            before, queued = time.perf_counter(), waited()
            await asyncio.sleep(0.005)
            # Time the thread only waited for a CPU (a busy machine) is no stall of the loop.
            stalled = time.perf_counter() - before - 0.005 - (waited() - queued)
            worst = max(worst, stalled)

    with cpu_wait_clock() as waited:
        prober = asyncio.ensure_future(probe(waited))
        await asyncio.sleep(0.02)
        cold = await service.get_game(info.channel_id)
        stop.set()
        await prober
    assert cold is not None and list(cold.moves) == game.moves
    assert pools, "the cold game was not replayed in the replay process"
    assert worst < 0.5, f"the event loop stalled {worst:.3f}s during a cold replay"


@pytest.mark.slow
async def test_a_cold_replay_holds_neither_the_loop_nor_the_store(
    service: GameService, start_game: StartGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a restarted bot rebuilds a long game, a move in another channel goes through:
    the replay runs between transactions, so the store is not held for its duration.

    The replay is held open until the other move is done: a 120-move Naked Diagonal 13×13
    game now replays in under 10 ms, too quick to overlap anything by itself."""
    big = await start_game("nakeddiagonal", 13, channel=1)
    game = new_game("nakeddiagonal", 13)
    rng = random.Random(5)
    while not game.is_over and len(game.moves) < 120:
        move = rng.choice(game.legal_moves())
        await service.play_move(1, big.user_of(game.to_move or ""), move)
        game.play(move)
    small = await start_game("minefield", 9, channel=2)
    service.core.forget_engines()
    await service.get_game(2)  # only the big game is cold

    replaying, release = asyncio.Event(), asyncio.Event()
    real_replay = engines.replay_off_loop

    async def held_replay(*job: Any) -> Any:
        replaying.set()
        await release.wait()
        return await real_replay(*job)

    monkeypatch.setattr(engines, "replay_off_loop", held_replay)
    slow = asyncio.ensure_future(service.play_move(1, big.user_of(game.to_move or ""), "zz9"))
    await asyncio.wait_for(replaying.wait(), 30)
    # The other channel's move, while the big game's replay is under way: a store held for
    # the replay would keep it waiting (the replay waits for this move, so it would time out).
    result = await asyncio.wait_for(service.play_move(2, small.to_move_id or 0, "e5"), 30)
    assert result.game.moves == ("e5",)
    assert not slow.done()
    release.set()
    with pytest.raises(IllegalMoveError):
        await slow  # then the cold game's own (bad) move is judged on the rebuilt position
    assert list((await service.get_game(1) or big).moves) == game.moves
