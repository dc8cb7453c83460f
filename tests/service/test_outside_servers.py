"""Games in DMs and group DMs (issue 47): the challenge and its game remember that they live
outside any server, and such a game is unrated and never on the web, whatever the front end
asked for."""

from __future__ import annotations

import pytest
from game_fixtures import ALICE, BOB

from bot.service import ChannelBusy, GameService

DM = 3000  # the DM's channel id, also its pool ("server id") by the Discord adapter's choice


async def test_a_game_outside_servers_is_unrated_private_and_says_where(
    service: GameService,
) -> None:
    created = await service.create_challenge(
        DM, DM, ALICE, BOB, "minefield", 5, rated=True, public=True, outside_servers=True
    )
    assert created.outside_servers and not created.rated and not created.public
    game = (await service.accept_challenge(created.id, BOB)).game
    assert game.outside_servers and not game.rated and not game.public
    assert await service.web.served_game(game.web_token or "") is None
    assert await service.web.served_games() == []
    await service.resign(DM, ALICE)
    over = await service.get_game_by_id(game.id)
    assert over.outside_servers and not over.rated
    assert await service.ratings.leaderboard(DM, "minefield") == []


async def test_a_forged_venue_option_cannot_make_it_rated(service: GameService) -> None:
    created = await service.create_challenge(
        DM, DM, ALICE, BOB, "minefield", 5, options={"venue": "server"}, public=True
    )
    assert created.outside_servers and not created.rated and not created.public


async def test_a_server_game_is_not_outside_servers(service: GameService) -> None:
    created = await service.create_challenge(1000, 2000, ALICE, BOB, "minefield", 5)
    assert not created.outside_servers and created.rated


async def test_one_game_at_a_time_in_a_dm(service: GameService) -> None:
    first = await service.create_challenge(DM, DM, ALICE, BOB, "minefield", 5, outside_servers=True)
    await service.accept_challenge(first.id, BOB)
    with pytest.raises(ChannelBusy):
        await service.create_challenge(DM, DM, BOB, ALICE, "crosscut", 6, outside_servers=True)
