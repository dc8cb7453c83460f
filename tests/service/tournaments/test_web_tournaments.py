"""Tournaments on the web: the public flag, the entrants' names, and what is served.

A tournament is served only while it is public and its server's listing is on; its games are
public games with their own pages.  Anything else answers as an unknown token does.
"""

from __future__ import annotations

import pytest
from game_fixtures import ADMIN, CHANNEL, GUILD, FakeClock

from bot.service import GameService, TournamentError, TournamentInfo

pytestmark = pytest.mark.engines("sqlite", "postgresql")

ORGANISER = 7
PLAYERS = (101, 102, 103, 104)


async def opened(
    service: GameService,
    *,
    public: bool,
    format: str = "round_robin",
    names: tuple[str | None, ...] = ("Ann", "Ben", "Cat", "Dan"),
    channel: int = CHANNEL,
) -> TournamentInfo:
    t = await service.create_tournament(
        GUILD, channel, ORGANISER, game="minefield", size=5, format=format, public=public
    )
    assert t.public is public
    for user, name in zip(PLAYERS, names, strict=False):
        t = await service.join_tournament(t.id, user, name=name)
    return t


async def finish(service: GameService, tournament_id: int) -> None:
    """Every game ends by the player to move resigning, round after round."""
    for _ in range(50):
        games = [g for g in await service.tournament_games(tournament_id) if g.is_active]
        if not games:
            return
        for g in games:
            assert g.to_move_id is not None
            await service.resign(g.channel_id, g.to_move_id)
    raise AssertionError("the tournament never finished")


async def test_a_public_tournament_is_served_with_names_standings_and_game_links(
    service: GameService,
) -> None:
    t = await opened(service, public=True)
    t = await service.start_tournament(t.id, ORGANISER)
    games = await service.tournament_games(t.id)
    assert games and all(g.public and g.web_token for g in games)
    names = {101: "Ann", 102: "Ben", 103: "Cat", 104: "Dan"}
    assert all(g.names == {u: names[u] for u in g.player_ids} for g in games)
    first = games[0]
    assert first.to_move_id is not None and first.web_token is not None
    await service.resign(first.channel_id, first.to_move_id)
    served = await service.web.served_tournament(t.web_token)
    assert served is not None
    assert served.info.id == t.id and served.names == names
    assert sorted(r.user_id for r in served.standings) == sorted(PLAYERS)
    assert sum(r.points for r in served.standings) == 1
    assert served.standings == tuple(await service.tournament_standings(t.id))
    assert list(served.pairings) == await service.tournaments.tournament_pairings(t.id)
    assert served.game_tokens == {g.id: g.web_token for g in games}
    page = await service.web.served_game(first.web_token)
    assert page is not None and page[0].game.tournament_id == t.id
    assert [x.id for x in await service.web.served_tournaments()] == [t.id]


async def test_private_hidden_and_unknown_tournaments_are_alike_unknown(
    service: GameService,
) -> None:
    private = await opened(service, public=False)
    private = await service.start_tournament(private.id, ORGANISER)
    games = await service.tournament_games(private.id)
    assert games and not any(g.public or g.web_token for g in games)
    assert await service.web.served_tournament(private.web_token) is None
    public = await opened(service, public=True, channel=CHANNEL + 5)
    for bad in ("", "x" * 65, "../etc", "a b", public.web_token[:-1], str(public.id)):
        assert await service.web.served_tournament(bad) is None
    assert [x.id for x in await service.web.served_tournaments()] == [public.id]
    public = await service.start_tournament(public.id, ORGANISER)
    token = (await service.tournament_games(public.id))[0].web_token
    assert token is not None and await service.web.served_game(token) is not None
    await service.moderation.update_settings(GUILD, ADMIN, web_listing=False)
    assert await service.web.served_tournament(public.web_token) is None
    assert await service.web.served_tournaments() == []
    assert await service.web.served_game(token) is None
    await service.moderation.update_settings(GUILD, ADMIN, web_listing=True)
    assert await service.web.served_tournament(public.web_token) is not None


async def test_players_without_a_name_are_numbered_never_shown_by_id(
    service: GameService,
) -> None:
    t = await opened(service, public=True, names=("Ann", None, "", "Dan"))
    t = await service.start_tournament(t.id, ORGANISER)
    served = await service.web.served_tournament(t.web_token)
    assert served is not None
    assert served.names == {101: "Ann", 102: "Player 2", 103: "Player 3", 104: "Dan"}
    for g in await service.tournament_games(t.id):
        assert set(g.names.values()) <= set(served.names.values())
        assert not any(str(u) in n for u in PLAYERS for n in g.names.values())


async def test_a_name_too_long_is_refused_and_nothing_joins(service: GameService) -> None:
    t = await opened(service, public=True, names=())
    with pytest.raises(TournamentError, match="player name"):
        await service.join_tournament(t.id, 101, name="x" * 101)
    assert (await service.get_tournament(t.id)).player_ids == ()


async def test_a_leagues_next_season_inherits_public_and_names(
    service: GameService, clock: FakeClock
) -> None:
    for public in (True, False):
        t = await opened(service, public=public, format="league", channel=CHANNEL + public)
        t = await service.start_tournament(t.id, ORGANISER)
        await finish(service, t.id)
        seasons = [
            s
            for s in await service.tournaments.list_tournaments(GUILD, status="registration")
            if s.league_id == t.id
        ]
        assert len(seasons) == 1 and seasons[0].season == 2 and seasons[0].public is public
        served = await service.web.served_tournament(seasons[0].web_token)
        if public:
            assert served is not None and served.names == {
                101: "Ann",
                102: "Ben",
                103: "Cat",
                104: "Dan",
            }
        else:
            assert served is None
