"""``/analyse`` and the Analyse button at the wire (issue 48): a running game is refused with
nothing stored, the final board carries the button, and both answers show progress, then the
chart (a PNG with the summary as its alt text) and the summary."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord_fakes as fakes
import pytest
from discord_fakes import ALICE, BOB

from ai.analysis import Settings
from bot.discord.analysis.cog import AnalysisCog
from bot.discord.analysis.flow import Analyst

CHANNEL = fakes.CHANNEL
h = fakes.h
close_harnesses = fakes.close_harnesses
SMALL = Settings(playouts=20, solve_empties=6, solve_nodes=500, proof_board_nodes=500)


@pytest.fixture
def analysing(h: Any) -> Iterator[Any]:
    """Small budgets, positions judged on a thread (no process pool to spawn in a test)."""
    with ThreadPoolExecutor(1) as pool:
        cog = h.bot.get_cog("AnalysisCog")
        assert isinstance(cog, AnalysisCog)
        cog.analyst = Analyst(pool, SMALL)
        yield h


async def play_out(h: Any) -> list[fakes.Sent]:
    """A whole Minefield 5×5 game through /move; what the last move sent."""
    players = {ALICE.id: ALICE, BOB.id: BOB}
    sent: list[fakes.Sent] = []
    for point in fakes.winning_line("minefield", 5, seed=4):
        info = await h.service.get_game(CHANNEL)
        sent = await h.command("move", players[info.to_move_id], point=point)
    return sent


async def test_a_running_game_is_refused_and_nothing_is_stored(
    analysing: Any, snapshot: Any
) -> None:
    h = analysing
    info = await fakes.challenge_and_accept(h)
    await h.command("move", ALICE, point="c3")
    before = snapshot()
    answer = fakes.refusal(await h.command("analyse", BOB, game=info.id))
    assert "still being played" in answer.content
    assert snapshot() == before


async def test_the_final_board_offers_analysis_and_both_ways_answer(analysing: Any) -> None:
    h = analysing
    info = await fakes.challenge_and_accept(h)
    assert not any(c.startswith("cp:analyse:") for c in h.fake.last("channel_message").custom_ids)
    last = await play_out(h)
    final = [s for s in last if f"cp:analyse:{info.id}" in s.custom_ids]
    assert final, [s.custom_ids for s in last]  # the final board carries the button

    sent = await h.command("analyse", ALICE)
    assert sent[0].kind == "defer" and not sent[0].ephemeral
    edits = [s for s in sent if s.kind == "edit_original"]
    answer = edits[-1]
    assert answer.content.startswith(f"Computer analysis of game #{info.id}")
    assert "accuracy" in answer.content
    chart, moves = answer.files
    assert chart.data.startswith(b"\x89PNG") and chart.description
    assert chart.description.startswith("Computer analysis")
    # The costliest moves drawn: the move played beside the better one, said in the alt text.
    assert moves.data.startswith(b"\x89PNG") and moves.description
    assert "(played)" in moves.description and "Better: " in moves.description
    progress = [s.content for s in edits[:-1]]
    assert any("move" in text and "of" in text for text in progress), progress

    # The button: a private answer for whoever presses it, from the stored analysis.
    pressed = await h.click(f"cp:analyse:{info.id}", BOB)
    assert pressed[0].kind == "defer" and pressed[0].ephemeral
    shown = [s for s in pressed if s.kind == "edit_original"][-1]
    assert shown.content == answer.content
    assert shown.files[0].data == chart.data
