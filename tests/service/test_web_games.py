"""Games on the web: the public flag, the page token and the names, and what is served."""

from __future__ import annotations

from typing import Any

import pytest
from game_fixtures import ADMIN, ALICE, BOB

from bot.service import GameRecord, GameService, InvalidChallenge, engines
from bot.service.web import is_token
from bot.store import Store
from rules import Game

GUILD, OTHER_GUILD, CHANNEL, CHANNEL2, CHANNEL3 = 1000, 1001, 2000, 2002, 2003


async def start(
    service: GameService,
    channel: int,
    public: bool,
    guild: int = GUILD,
    names: tuple[str | None, str | None] = ("Alice", "Bob"),
) -> tuple[int, str]:
    created = await service.create_challenge(
        guild, channel, ALICE, BOB, "minefield", 5, public=public, challenger_name=names[0]
    )
    assert created.public is public
    started = await service.accept_challenge(created.id, BOB, name=names[1])
    info = started.game
    assert info.public is public and info.web_token is not None
    return info.id, info.web_token


async def test_a_public_game_is_served_with_its_names_and_moves(service: GameService) -> None:
    game_id, token = await start(service, CHANNEL, public=True)
    await service.play_move(CHANNEL, ALICE, "c3")
    served = await service.web.served_game(token)
    assert served is not None
    record, engine = served
    assert record.game.id == game_id and record.game.names == {ALICE: "Alice", BOB: "Bob"}
    assert [m.move for m in record.moves] == ["c3"] and engine.moves == ["c3"]
    assert is_token(token) and len(token) == 22  # 128 random bits, URL-safe
    listed = await service.web.served_games()
    assert [g.web_token for g in listed] == [token]
    assert listed[0].names == {ALICE: "Alice", BOB: "Bob"}
    assert await service.web.served_versions([token, "nope"]) == {token: 1}


async def test_private_games_and_unknown_tokens_are_alike_unknown(service: GameService) -> None:
    _, private = await start(service, CHANNEL, public=False)
    _, public = await start(service, CHANNEL2, public=True)
    assert await service.web.served_game(private) is None
    for bad in ("", "x" * 65, "../etc", "a b", public[:-1], private.upper()):
        assert await service.web.served_game(bad) is None
    assert [g.web_token for g in await service.web.served_games()] == [public]
    assert await service.web.served_versions([private, public]) == {public: 0}


async def test_tokens_differ_and_say_nothing_of_ids(service: GameService) -> None:
    tokens = [(await start(service, c, public=True))[1] for c in (CHANNEL, CHANNEL2, CHANNEL3)]
    assert len(set(tokens)) == 3
    assert not any(str(game_id) == t for game_id, t in enumerate(tokens, 1))


async def test_a_server_can_turn_its_listing_off_and_on(service: GameService) -> None:
    _, mine = await start(service, CHANNEL, public=True)
    _, theirs = await start(service, CHANNEL2, public=True, guild=OTHER_GUILD)
    settings = await service.moderation.update_settings(GUILD, ADMIN, web_listing=False)
    assert settings.web_listing is False
    assert await service.web.served_game(mine) is None
    assert [g.web_token for g in await service.web.served_games()] == [theirs]
    assert await service.web.served_versions([mine, theirs]) == {theirs: 0}
    await service.moderation.update_settings(GUILD, ADMIN, web_listing=True)
    assert await service.web.served_game(mine) is not None
    audited = [e.detail for e in await service.moderation.audit_log(GUILD)]
    assert audited == ['{"web_listing": true}', '{"web_listing": false}']


async def test_names_are_checked_and_optional(service: GameService) -> None:
    with pytest.raises(InvalidChallenge, match="too long"):
        await service.create_challenge(
            GUILD, CHANNEL, ALICE, BOB, "minefield", 5, challenger_name="x" * 101
        )
    _, token = await start(service, CHANNEL, public=True, names=(None, "<img src=x>"))
    served = await service.web.served_game(token)
    assert served is not None and served[0].game.names == {BOB: "<img src=x>"}


@pytest.mark.slow  # its first read replays the game in the replay process
async def test_a_page_process_catches_up_with_moves_played_elsewhere(
    service: GameService, store: Store, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = GameService(store, clock=clock)  # the process that plays, beside the page's
    created = await bot.create_challenge(GUILD, CHANNEL, ALICE, BOB, "minefield", 5, public=True)
    token = (await bot.accept_challenge(created.id, BOB)).game.web_token
    assert token is not None
    for user, move in ((ALICE, "c3"), (BOB, "b2")):
        await bot.play_move(CHANNEL, user, move)
    first = await service.web.served_game(token)
    assert first is not None and first[1].moves == ["c3", "b2"]

    async def no_replay(*args: object) -> None:
        raise AssertionError("the whole game was replayed")

    monkeypatch.setattr(engines, "replay_off_loop", no_replay)
    for user, move in ((ALICE, "c2"), (BOB, "d4")):
        await bot.play_move(CHANNEL, user, move)
    record, engine = await served(service, token)
    assert engine.moves == ["c3", "b2", "c2", "d4"] == [m.move for m in record.moves]
    assert engine.record() == (await bot.games.game_record(record.game.id)).text


async def served(service: GameService, token: str) -> tuple[GameRecord, Game]:
    found = await service.web.served_game(token)
    assert found is not None
    return found
