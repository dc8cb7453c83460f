"""Stored languages (issue 47), on every engine: a player's last seen Discord locale, written
only when it changes and kept through their notice choices, carried by the move's notice read
and by the digest; and a server's language for its channel posts."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ADMIN, ALICE, BOB, GUILD, START, StartGame

from bot.service import GameService, InvalidInput, InvalidSettings
from bot.store import open_store


async def test_a_players_locale_is_kept_and_written_only_when_it_changes(
    service: GameService, store_target: str | Path, clock: Any
) -> None:
    assert (await service.notices.notice_prefs(ALICE)).locale is None
    assert await service.notices.saw_locale(ALICE, "de")
    assert not await service.notices.saw_locale(ALICE, "de")  # unchanged: nothing written
    prefs = await service.notices.notice_prefs(ALICE)
    assert (prefs.locale, prefs.mode, prefs.pings) == ("de", "mention", True)  # the default
    assert await service.notices.saw_locale(ALICE, "ja")
    dm = await service.notices.set_notice(ALICE, "dm")  # a new choice keeps the locale
    assert dm.locale == "ja"
    assert await service.notices.close_dms(ALICE)
    assert await service.notices.saw_locale(ALICE, "es-419")
    kept = await service.notices.notice_prefs(ALICE)
    assert (kept.mode, kept.dm_closed, kept.locale) == ("dm", True, "es-419")
    assert (await service.notices.notice_prefs(BOB)).locale is None
    async with await open_store(store_target) as reopened:  # a restart keeps it
        restarted = GameService(reopened, clock=clock, rng=random.Random(2))
        assert (await restarted.notices.notice_prefs(ALICE)).locale == "es-419"


async def test_an_unchanged_locale_takes_no_write(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await service.notices.saw_locale(ALICE, "ru")
    writes = 0
    real = service.store.write

    def counting() -> Any:
        nonlocal writes
        writes += 1
        return real()

    monkeypatch.setattr(service.store, "write", counting)
    for _ in range(3):
        assert not await service.notices.saw_locale(ALICE, "ru")
    assert writes == 0
    assert await service.notices.saw_locale(ALICE, "ko")
    assert writes == 1


@pytest.mark.parametrize("bad", ["", "x" * 40, "de DE", "<@1>", 7, None])
async def test_a_malformed_locale_is_refused_and_changes_nothing(
    service: GameService, bad: Any
) -> None:
    with pytest.raises(InvalidInput, match="not a Discord locale code"):
        await service.notices.saw_locale(ALICE, bad)
    assert (await service.notices.notice_prefs(ALICE)).locale is None


async def test_the_move_and_the_digest_carry_the_waiting_players_locale(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await service.notices.set_notice(BOB, "digest", 13)
    await service.notices.saw_locale(BOB, "ja")
    game = await start_game()
    mover = game.to_move_id
    assert mover is not None
    other = BOB if mover == ALICE else ALICE
    await service.notices.saw_locale(other, "ja")
    result = await service.play_move(game.channel_id, mover, "a1")
    assert result.waiting is not None and result.waiting.locale == "ja"
    clock.now = START.replace(hour=13)
    (digest,) = await service.notices.claim_digests()
    assert (digest.user_id, digest.locale) == (BOB, "ja")


async def test_a_servers_language_is_set_audited_and_cleared(service: GameService) -> None:
    assert (await service.moderation.get_settings(GUILD)).language is None
    german = await service.moderation.update_settings(GUILD, ADMIN, language="de")
    assert german.language == "de"
    assert (await service.moderation.get_settings(GUILD)).language == "de"
    other = await service.moderation.update_settings(GUILD, ADMIN, use_threads=False)
    assert other.language == "de"  # another setting leaves it
    cleared = await service.moderation.update_settings(GUILD, ADMIN, language="discord")
    assert cleared.language is None
    log = await service.moderation.audit_log(GUILD)
    assert [e.detail for e in log if "language" in e.detail] == [
        '{"language": null}',
        '{"language": "de"}',
    ]


@pytest.mark.parametrize("bad", ["klingon", "de-DE", "", "EN"])
async def test_an_unknown_server_language_is_refused_and_changes_nothing(
    service: GameService, bad: str
) -> None:
    await service.moderation.update_settings(GUILD, ADMIN, language="fr")
    with pytest.raises(InvalidSettings, match="not a language Crosspath speaks"):
        await service.moderation.update_settings(GUILD, ADMIN, language=bad)
    assert (await service.moderation.get_settings(GUILD)).language == "fr"
