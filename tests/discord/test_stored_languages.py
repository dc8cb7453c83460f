"""Stored languages at the wire (issue 47): a player's DMs speak their last seen locale after a
restart, and ``/admin settings language`` sets the language of the server's game posts, over
Discord's server locale, in this process at once and in the next one from the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord_fakes as fakes

from bot import i18n

ALICE, BOB, ADMIN = fakes.ALICE, fakes.BOB, fakes.ADMIN
h = fakes.h
close_harnesses = fakes.close_harnesses


def turn_post(sent: list[Any]) -> Any:
    [turn] = [s for s in sent if s.kind == "channel_message"]
    return turn


async def test_a_dm_speaks_the_players_stored_locale_after_a_restart(
    db_path: Path, clock: Any
) -> None:
    h = await fakes.open_harness(db_path, clock)
    info = await fakes.challenge_and_accept(h)
    assert info.to_move_id == ALICE.id
    await h.command("notify", BOB, mode="dm", locale="ja")  # Bob's client speaks Japanese
    assert (await h.service.notices.notice_prefs(BOB.id)).locale == "ja"
    await h.close()
    h = await fakes.open_harness(db_path, clock)  # a new process: nothing in its memory
    assert h.bot.locales.tongue_of(BOB.id).language == "en"
    await h.command("move", ALICE, point="c3")
    [dm] = h.fake.dms_to(BOB.id)
    ja = i18n.tongue("ja")
    expected = ja.gettext("Your move in {game} game #{id}: {link}", game="Minefield", id=info.id,
                          link="")  # fmt: skip
    assert dm.content.startswith(expected), dm.content
    await h.close()


async def test_an_unchanged_locale_is_not_written_again(h: Any) -> None:
    await h.command("games", ALICE, locale="de")
    assert (await h.service.notices.notice_prefs(ALICE.id)).locale == "de"
    writes = 0
    real = h.store.write

    def counting() -> Any:
        nonlocal writes
        writes += 1
        return real()

    h.store.write = counting
    try:
        for _ in range(3):
            await h.command("games", ALICE, locale="de")
    finally:
        h.store.write = real
    assert writes == 0


async def test_the_servers_language_rules_its_game_posts(db_path: Path, clock: Any) -> None:
    h = await fakes.open_harness(db_path, clock)
    de = i18n.tongue("de")
    sent = await h.command("admin settings language", ADMIN, language="de")
    saved = sent[-1]
    assert saved.ephemeral and "Deutsch" in saved.content
    assert "**Language of game posts:** Deutsch" in saved.content  # the admin reads en-US
    info = await fakes.challenge_and_accept(h)
    posted = await h.command("move", ALICE, point="c3")  # the server's locale is en-US
    turn = turn_post(posted)
    assert turn.embeds[0]["fields"][0]["name"] == de.gettext("Players")
    [private] = [s for s in posted if s.kind == "followup"]
    assert private.content == "Played c3."  # an answer for Alice alone: her language
    await h.close()
    h = await fakes.open_harness(db_path, clock)  # the next process reads it from the store
    turn = turn_post(await h.command("move", BOB, point="a1"))
    assert turn.embeds[0]["fields"][0]["name"] == de.gettext("Players")
    sent = await h.command("admin settings language", ADMIN, language="discord")
    assert "**Language of game posts:** Discord's server language" in sent[-1].content
    turn = turn_post(await h.command("move", ALICE, point="e5"))
    assert turn.embeds[0]["fields"][0]["name"] == "Players"
    assert (await h.service.moderation.get_settings(fakes.GUILD)).language is None
    assert info.id
    await h.close()


async def test_a_refused_language_changes_nothing(h: Any) -> None:
    sent = await h.command("admin settings language", ALICE, language="de")  # not a manager
    assert fakes.refusal(sent).ephemeral
    assert (await h.service.moderation.get_settings(fakes.GUILD)).language is None
    assert h.bot.languages.chosen(fakes.GUILD) is None


async def test_a_digest_after_a_restart_speaks_the_stored_locale(db_path: Path, clock: Any) -> None:
    from game_fixtures import START

    h = await fakes.open_harness(db_path, clock)
    await fakes.challenge_and_accept(h)  # Alice moves first: the game waits on her
    await h.command("notify", ALICE, mode="digest", hour=13, locale="ru")  # her last locale
    await h.close()
    h = await fakes.open_harness(db_path, clock)  # this process never saw Alice
    clock.now = START.replace(hour=13)
    run = await h.bot.get_cog("NoticesCog").run_once()
    assert run.sent == 1
    [digest] = h.fake.dms_to(ALICE.id)
    ru = i18n.tongue("ru")
    expected = ru.ngettext(
        "Your daily Crosspath digest: {n} game waits on your move.",
        "Your daily Crosspath digest: {n} games wait on your move.",
        1,
    )
    assert expected in digest.content and "waits on your move" not in digest.content
    await h.close()
