"""``/hint`` and the ``hints`` option of ``/challenge`` at the wire (issue 48): the challenge
says the game is unrated before anyone accepts, the hint is private, a rated game refuses it,
and the record counts each player's hints."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord_fakes as fakes
import pytest
from discord_fakes import ALICE, BOB

from ai.analysis import Settings
from bot.discord.clocks.clock_text import caption_names
from bot.i18n import tongue

CHANNEL = fakes.CHANNEL
h = fakes.h
close_harnesses = fakes.close_harnesses


@pytest.fixture
def small_hints(h: Any) -> Iterator[Any]:
    """Small budgets, the search on a thread (off the loop, without spawning a process pool)."""
    with ThreadPoolExecutor(1) as pool:
        h.service.hints.settings = Settings(playouts=30, solve_empties=4, solve_nodes=1000)
        h.service.hints.executor = pool
        yield h


async def test_a_rated_game_refuses_hint_and_changes_nothing(
    small_hints: Any, snapshot: Any
) -> None:
    h = small_hints
    info = await fakes.challenge_and_accept(h)
    assert info.rated and info.hints is None
    before = snapshot()
    answer = fakes.refusal(await h.command("hint", ALICE))
    assert "does not allow hints" in answer.content
    assert snapshot() == before


async def test_a_challenge_with_hints_says_unrated_and_hint_is_private(small_hints: Any) -> None:
    h = small_hints
    sent = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5, hints=True)
    challenge = sent[-1]
    assert "Hints allowed; unrated." in challenge.embed_text()
    accept = next(c for c in challenge.custom_ids if c.startswith("cp:chal:accept:"))
    await h.click(accept, BOB)
    info = await h.service.get_game(CHANNEL)
    assert info is not None and not info.rated and info.hints == {ALICE.id: 0, BOB.id: 0}

    sent = await h.command("hint", ALICE)
    assert [s.kind for s in sent] == ["defer", "followup"]
    assert sent[0].ephemeral and sent[1].ephemeral  # nobody else sees the advice
    assert "Hints you used in this game: 1." in sent[1].content
    assert "win" in sent[1].content  # a chance on 5×5 this early, or a proven verdict

    refused = fakes.refusal(await h.command("hint", BOB))  # not Bob's turn
    assert "not your turn" in refused.content.lower()

    _, history = await h.command("history", BOB)
    [record] = history.files
    assert b"# Hints used by" in record.data and b": 1\n" in record.data
    info = await h.service.get_game(CHANNEL)
    shown = caption_names(info, {ALICE.id: "Alice", BOB.id: "Bob"}, tongue("de"))
    assert shown[info.seats[0].colour].endswith("· Tipps: 1")  # Alice moves first
    assert shown[info.seats[1].colour].endswith("· Tipps: 0")
