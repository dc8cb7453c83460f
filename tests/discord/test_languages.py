"""A game at the wire in German, Japanese and Russian reads the shipped catalogs.

The fake's interactions and server carry the locale en-US; here it is mapped to each language
in turn, so every answer and post takes that language's catalog, as a German, Japanese or
Russian client and server would.
"""

from __future__ import annotations

from typing import Any

import discord_fakes as fakes
import pytest

from bot import i18n

ALICE, BOB = fakes.ALICE, fakes.BOB
h = fakes.h
close_harnesses = fakes.close_harnesses


@pytest.mark.parametrize("language", ["de", "ja", "ru"])
async def test_a_game_in_the_servers_language(
    h: Any, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(i18n.DISCORD_LOCALES, "en-US", language)
    tr = i18n.tongue(language)
    sent = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
    buttons = [c["label"] for row in sent[-1].message["components"] for c in row["components"]]
    assert tr.gettext("Accept") in buttons and "Accept" not in buttons
    await h.click(next(c for c in sent[-1].custom_ids if c.startswith("cp:chal:accept:")), BOB)
    posted = await h.command("move", ALICE, point="c3")
    [turn] = [s for s in posted if s.kind == "channel_message"]
    expected = tr.gettext("{who}, your move in {game}.", who=f"<@{BOB.id}>", game="Minefield")
    expected_timed = expected.split("Minefield")[0]  # the timed form adds the time left
    assert turn.content.startswith(expected_timed), turn.content
    assert turn.embeds[0]["fields"][0]["name"] == tr.gettext("Players")
    [private] = [s for s in posted if s.kind == "followup"]
    assert private.content == tr.gettext("Played {moves}.", moves="c3")


@pytest.mark.parametrize("language", i18n.SHIPPED)
def test_help_fits_discords_embed_limits_in_every_language(language: str) -> None:
    from bot.discord.info.cog import help_embed

    embed = help_embed(i18n.tongue(language))
    assert len(embed) <= 6000
    assert all(len(f.name or "") <= 256 and len(f.value or "") <= 1024 for f in embed.fields)
    assert len(embed.description or "") <= 4096
    assert embed.to_dict() != help_embed().to_dict()  # really translated
