"""``/challenge pie:``: the pie rule as a challenge option, through discord.py's own code."""

from __future__ import annotations

from typing import Any

import discord_fakes as fakes
from discord_fakes import ALICE, BOB, CHANNEL, GUILD

h = fakes.h
close_harnesses = fakes.close_harnesses


async def test_a_pie_challenge_starts_a_pie_game_and_the_swap_is_played(h: Any) -> None:
    sent = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5, pie=True)
    assert "Minefield (pie rule)" in sent[-1].content
    accept = next(c for c in sent[-1].custom_ids if c.startswith("cp:chal:accept:"))
    await h.click(accept, BOB)
    info = await h.service.get_game(CHANNEL)
    assert info.title == "Minefield (pie rule)"
    assert info.record == "minefield 5 pie:"
    await h.command("move", ALICE, point="c3")
    swapped = await h.command("swap", BOB)
    assert "Bob (black) swapped" in swapped[1].embed_text()
    info = await h.service.get_game(CHANNEL)
    assert info.colour_of(BOB.id) == "black" and info.record == "minefield 5 pie: c3 swap"


async def test_without_the_option_there_is_no_swap(h: Any) -> None:
    await fakes.challenge_and_accept(h, game="minefield", size=5)
    await h.command("move", ALICE, point="c3")
    text = fakes.refusal(await h.command("swap", BOB)).content
    assert "without the pie rule" in text
    info = await h.service.get_game(CHANNEL)
    assert info.record == "minefield 5: c3"


async def test_the_option_is_refused_where_the_game_has_no_choice(h: Any) -> None:
    text = fakes.refusal(
        await h.command("challenge", ALICE, game="crosscut", opponent=BOB, size=6, pie=True)
    ).content
    assert "Crosscut has no pie rule" in text and "Minefield, Clearcut and Naked Diagonal" in text
    text = fakes.refusal(
        await h.command("challenge", ALICE, game="clearpath", opponent=BOB, size=5, pie=False)
    ).content
    assert "always played with the pie rule" in text
    assert await h.service.challenges.open_challenges(GUILD) == []
