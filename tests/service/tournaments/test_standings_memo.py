"""A league's table read after every change agrees with the recomputation: the divisions
the service remembers between reads never outlive the rows they were built from."""

from __future__ import annotations

import random

import pytest
from game_fixtures import CHANNEL, GUILD
from service_sim import GAME, ORGANISER, SIZE, check_table

from bot.service import GameService
from bot.service.tournaments.tables import _division_table

pytestmark = pytest.mark.engines("sqlite", "postgresql")


async def test_each_read_follows_every_result_and_withdrawal(service: GameService) -> None:
    rng = random.Random(4)
    t = await service.create_tournament(
        GUILD, CHANNEL, ORGANISER, game=GAME, size=SIZE, format="league", division_size=4
    )
    for user in range(101, 113):
        t = await service.join_tournament(t.id, user)
    t = await service.start_tournament(t.id, ORGANISER)
    before = await service.tournament_standings(t.id)
    leaver = None
    for n in range(100):
        active = [g for g in await service.tournament_games(t.id) if g.status == "active"]
        if not active:
            break
        if n == 5:  # forfeits the rest of their games: the entrant rows change too
            leaver = active[-1].seats[1].user_id
            await service.tournaments.withdraw_from_tournament(t.id, leaver, leaver)
        else:
            await service.resign(active[0].channel_id, rng.choice(active[0].seats).user_id)
        rows = await service.tournament_standings(t.id)
        pairings = await service.tournaments.tournament_pairings(t.id)
        check_table(rows, [p for p in pairings if p.bye or p.result is not None], False)
        _division_table.cache_clear()
        assert rows == await service.tournament_standings(t.id)
    assert n > 10 and not active
    assert rows != before
    assert [r.withdrawn for r in rows if r.user_id == leaver] == [True]
