"""``/tournament`` and the web at the wire: a tournament created where @everyone can read is
public (decided from the permission payloads Discord sent), one in a private channel is not,
and the players' display names reach its page and its games' pages."""

from __future__ import annotations

import re
from typing import Any

import discord_fakes as fakes
from discord_fakes import ADMIN, ALICE, BOB, CAROL

CHANNEL, PRIVATE = fakes.CHANNEL, fakes.PRIVATE_CHANNEL
h = fakes.h
close_harnesses = fakes.close_harnesses


async def create(h: Any, channel: int) -> int:
    [reply] = await h.command(
        "tournament create", ADMIN, game="minefield", format="round_robin", size=5,
        channel_id=channel,
    )  # fmt: skip
    found = re.search(r"tournament #([0-9]+)$", reply.embeds[0]["title"])
    assert found, reply.embeds
    return int(found[1])


async def test_a_tournament_in_a_public_channel_is_public_with_its_players_names(h: Any) -> None:
    tid = await create(h, CHANNEL)
    info = await h.service.get_tournament(tid)
    assert info.public
    join = next(c for c in h.fake.last().custom_ids if c.startswith("cp:tourn:join:"))
    await h.click(join, ALICE)
    await h.command("tournament join", BOB, tournament=tid, channel_id=CHANNEL)
    await h.command("tournament join", CAROL, tournament=tid, channel_id=CHANNEL)
    await h.command("tournament start", ADMIN, tournament=tid, channel_id=CHANNEL)
    served = await h.service.web.served_tournament(info.web_token)
    names = {ALICE.id: ALICE.name, BOB.id: BOB.name, CAROL.id: CAROL.name}
    assert served is not None and served.names == names
    games = await h.service.tournament_games(tid)
    assert games and all(g.public and g.web_token for g in games)
    assert all(g.names == {u: names[u] for u in g.player_ids} for g in games)


async def test_a_tournament_in_a_private_channel_is_never_served(h: Any) -> None:
    tid = await create(h, PRIVATE)
    info = await h.service.get_tournament(tid)
    assert not info.public
    assert await h.service.web.served_tournament(info.web_token) is None
