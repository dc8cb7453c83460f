"""The pie rule as a challenge option, through the service and a real store on every engine.

Minefield, Clearcut and Naked Diagonal accept ``pie=True``; Clear Path always has the rule and
Crosscut never does.  The choice is stored with the challenge and its game, so an engine
rebuilt from the moves (after a restart) plays the same rules, and a pie game is rated in its
own pool (``minefield+pie``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from game_fixtures import ADMIN, ALICE, BOB

from bot.service import GameService, InvalidChallenge
from bot.store import Store

GUILD = 1000


async def start(service: GameService, channel: int, game: str = "minefield", **extra: Any) -> int:
    challenge = await service.create_challenge(GUILD, channel, ALICE, BOB, game, 5, "me", **extra)
    started = await service.accept_challenge(challenge.id, BOB)
    return started.game.id


async def finish_with_turns(service: GameService, channel: int, seed: int) -> None:
    """Play four random turns (swapping whenever offered), then Bob resigns."""
    rng = random.Random(seed)
    for _ in range(4):
        info = await service.get_game(channel)
        assert info is not None and info.to_move_id is not None
        engine = await service.position(info.id)
        moves = engine.legal_moves()
        move = "swap" if "swap" in moves else rng.choice(moves)
        await service.play_move(channel, info.to_move_id, move)
    await service.resign(channel, BOB)


@pytest.mark.parametrize("game", ["minefield", "clearcut", "nakeddiagonal"])
async def test_a_pie_game_swaps_and_survives_a_restart(service: GameService, game: str) -> None:
    challenge = await service.create_challenge(GUILD, 1, ALICE, BOB, game, 5, "me", pie=True)
    assert challenge.options == {"pie": "on"} and challenge.title.endswith("(pie rule)")
    started = await service.accept_challenge(challenge.id, BOB)
    assert started.game.record == f"{game} 5 pie:"
    first, second = started.game.seats
    await service.play_move(1, ALICE, "c3")
    result = await service.play.swap(1, BOB)
    assert result.events[0].swap
    service.core.forget_engines()  # as after a restart: the engine is replayed from the moves
    info = await service.get_game(1)
    assert info is not None
    assert info.record == f"{game} 5 pie: c3 swap"
    assert info.colour_of(BOB) == first.colour and info.colour_of(ALICE) == second.colour
    assert info.to_move_id == ALICE  # the first player, now playing the second colour
    engine = await service.position(info.id)
    assert engine.swapped and engine.variant == f"{game}+pie"


async def test_without_the_option_swap_is_refused(service: GameService) -> None:
    await start(service, 1)
    await service.play_move(1, ALICE, "c3")
    with pytest.raises(Exception, match="without the pie rule"):
        await service.play.swap(1, BOB)
    service.core.forget_engines()
    info = await service.get_game(1)
    assert info is not None and info.record == "minefield 5: c3"


@pytest.mark.parametrize(
    ("game", "pie", "options", "message"),
    [
        ("crosscut", True, None, "Crosscut has no pie rule: the pie option is for Minefield"),
        ("clearpath", False, None, "Clear Path is always played with the pie rule"),
        ("minefield", None, {"pie": "maybe"}, "must be on or off"),
        ("minefield", False, {"pie": "on"}, "given twice"),
        ("minefield", "yes", None, "must be true or false"),
        ("crosscut", None, {"pie": "on"}, "Crosscut has no pie rule"),
    ],
)
async def test_a_pie_choice_the_game_cannot_make_is_refused_and_nothing_is_written(
    service: GameService,
    snapshot: Callable[[], Any],
    game: str,
    pie: Any,
    options: dict[str, str] | None,
    message: str,
) -> None:
    before = snapshot()
    with pytest.raises(InvalidChallenge, match=message):
        await service.create_challenge(
            GUILD, 1, ALICE, BOB, game, 6, "me", pie=pie, options=options
        )
    assert snapshot() == before


async def test_clear_path_accepts_the_option_it_always_has(service: GameService) -> None:
    challenge = await service.create_challenge(GUILD, 1, ALICE, BOB, "clearpath", 5, pie=True)
    assert "pie" not in challenge.options and challenge.title == "Clear Path"
    plain = await service.create_challenge(GUILD, 2, ALICE, BOB, "minefield", 5, pie=False)
    assert plain.options == {} and plain.title == "Minefield"


async def test_pie_games_are_rated_in_their_own_pool(service: GameService, store: Store) -> None:
    await start(service, 1, pie=True)
    await finish_with_turns(service, 1, seed=1)
    await start(service, 2)
    await finish_with_turns(service, 2, seed=2)
    pie_board = await service.leaderboard(GUILD, "minefield+pie")
    plain_board = await service.leaderboard(GUILD, "Minefield")
    assert {s.user_id for s in pie_board} == {s.user_id for s in plain_board} == {ALICE, BOB}
    assert all(s.games == 1 for s in pie_board + plain_board)
    contents = await store.export_all()
    assert {r.game for r in contents.ratings} == {"minefield", "minefield+pie"}
    profile = await service.ratings.profile(GUILD, ALICE)
    assert {g.game for g in profile.games} == {"minefield", "minefield+pie"}
    # A rebuild puts every game back in the pool it was rated in.
    report = await service.ratings.rebuild_ratings()
    assert report.games == 2 and report.changed == 0
    # A reset of the pie pool leaves the rule sheet's pool alone, and a rebuild agrees.
    assert await service.ratings.ratings_reset(GUILD, "minefield+pie", ADMIN) == 2
    assert await service.leaderboard(GUILD, "minefield+pie") == []
    assert len(await service.leaderboard(GUILD, "minefield")) == 2
    report = await service.ratings.rebuild_ratings()
    assert report.games == 1 and report.changed == 0
    assert await service.leaderboard(GUILD, "minefield+pie") == []


async def test_a_pool_name_must_be_a_real_variant(service: GameService) -> None:
    for bad in ("crosscut+pie", "clearpath+pie", "minefield+swap"):
        with pytest.raises(Exception, match="There is no game called"):
            await service.leaderboard(GUILD, bad)
