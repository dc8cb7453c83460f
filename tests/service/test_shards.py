"""The service for several processes, on every engine: ``due(shards=...)`` sees only the
process's servers, a due action is applied once however many services look at it, and turn
claims refuse bad input with a clear message."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import StartGame

from bot.service import GameService, InvalidId, InvalidInput, ShardFilter
from bot.store import open_store


def guild_on(shard: int) -> int:
    return (shard << 22) | 9


async def test_due_only_for_the_servers_of_these_shards(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    games = {
        shard: await start_game(guild=guild_on(shard), channel=500 + shard, time_control="1d")
        for shard in range(4)
    }
    clock.advance(hours=12)
    everything = await service.clocks.due()
    assert sorted(a.game_id for a in everything) == sorted(g.id for g in games.values())
    mine = await service.clocks.due(shards=ShardFilter(4, (1, 3)))
    assert [a.game_id for a in mine] == [games[1].id, games[3].id]
    assert all(ShardFilter(4, (1, 3)).holds(a.guild_id) for a in mine)
    applied = await service.clocks.run_due(shards=ShardFilter(4, (2,)))
    assert [o.action.game_id for o in applied] == [games[2].id]
    left = await service.clocks.due()
    assert sorted(a.game_id for a in left) == sorted(games[s].id for s in (0, 1, 3))


async def test_summaries_only_for_the_servers_of_these_shards(
    service: GameService, start_game: StartGame
) -> None:
    """The computer's resume looks for its turns with this filter, in the store query."""
    games = {
        shard: await start_game(guild=guild_on(shard), channel=600 + shard) for shard in range(4)
    }
    to_move = games[0].to_move_id
    assert to_move is not None and all(g.to_move_id == to_move for g in games.values())
    page = await service.game_summaries(
        to_move_id=to_move, active_only=True, shards=ShardFilter(4, (0, 2))
    )
    assert sorted(s.id for s in page.games) == sorted(games[s].id for s in (0, 2))
    everything = await service.game_summaries(to_move_id=to_move, active_only=True)
    assert sorted(s.id for s in everything.games) == sorted(g.id for g in games.values())
    with pytest.raises(InvalidInput, match="shard ids"):
        await service.game_summaries(shards=ShardFilter(4, ()))


@pytest.mark.parametrize(
    ("shards", "says"),
    [
        ((4, (0,)), "ShardFilter"),
        (ShardFilter(0, ()), "shard count"),
        (ShardFilter(4, ()), "shard ids"),
        (ShardFilter(4, (4,)), "0 to 3"),
        (ShardFilter(4, (1, 1)), "distinct"),
        (ShardFilter(4, (-1,)), "0 to 3"),
    ],
)
async def test_bad_shards_are_refused(service: GameService, shards: Any, says: str) -> None:
    with pytest.raises(InvalidInput, match=says):
        await service.clocks.due(shards=shards)


async def test_a_due_action_applies_once_across_services(
    store_target: str | Path, service: GameService, start_game: StartGame, clock: Any
) -> None:
    info = await start_game(time_control="1d")
    clock.advance(hours=12)
    (action,) = await service.clocks.due()
    async with await open_store(store_target) as other_store:
        other = GameService(other_store, clock=clock, rng=random.Random(2))
        (seen,) = await other.clocks.due()
        assert seen == action
        first = await other.clocks.apply_due(seen)
        second = await service.clocks.apply_due(action)
    assert first is not None and first.reminder is not None and second is None
    game = await service.get_game_by_id(info.id)
    assert game.is_active


async def test_turn_claims_through_the_service(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    info = await start_game()
    assert await service.claims.claim_turn(info.id, info.version, "one")
    assert not await service.claims.claim_turn(info.id, info.version, "two")
    clock.advance(seconds=30)
    assert not await service.claims.claim_turn(info.id, info.version, "two", seconds=5)
    await service.claims.release_turn(info.id, "one")
    assert await service.claims.claim_turn(info.id, info.version, "two", seconds=5)
    clock.advance(seconds=5)
    assert await service.claims.claim_turn(info.id, info.version, "one")  # two's claim lapsed


@pytest.mark.parametrize(
    ("args", "error", "says"),
    [
        ((0, 0, "p"), InvalidId, "game id"),
        ((1, None, "p"), InvalidInput, "version"),
        ((1, -1, "p"), InvalidInput, "version"),
        ((1, 0, ""), InvalidInput, "claimant"),
        ((1, 0, "x" * 5000), InvalidInput, "claimant"),
        ((1, 0, "p", 0), InvalidInput, "more than 0 seconds"),
        ((1, 0, "p", True), InvalidInput, "more than 0 seconds"),
    ],
)
async def test_bad_claims_are_refused(
    service: GameService, args: tuple[Any, ...], error: type[Exception], says: str
) -> None:
    with pytest.raises(error, match=says) as caught:
        await service.claims.claim_turn(*args)
    assert len(str(caught.value)) < 200
