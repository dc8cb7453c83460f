"""Whole games through the real bot: slash commands and buttons in, Discord requests out.

The bot, command tree, view store, service and SQLite store are all real; only the network
edge is faked (see discord_fakes.py).
"""

from __future__ import annotations

from typing import Any

import discord_fakes as fakes
import loop_guard as guard
import pytest
from discord_fakes import ALICE, BOB, CAROL

from rules import format_record, game_names, parse_record

h = fakes.h
loop_guard = guard.loop_guard  # every test fails if a callback blocks the loop > 0.5 s
close_harnesses = fakes.close_harnesses
winning_line = fakes.winning_line


async def test_whole_game_from_challenge_to_win(h: Any) -> None:
    sent = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
    [reply] = sent
    assert reply.kind == "reply" and not reply.ephemeral
    assert reply.pingable == {BOB.id}
    assert f"<@{BOB.id}>" in reply.content
    assert "Mark Steere" in reply.embed_text()
    ids = reply.custom_ids
    assert [i.split(":")[2] for i in ids] == ["accept", "decline", "cancel"]

    sent = await h.click(ids[0], BOB)
    kinds = [s.kind for s in sent]
    assert kinds == ["update", "channel_message"]
    assert "Accepted" in sent[0].embed_text() and sent[0].custom_ids == []
    board = h.fake.last("channel_message")
    assert board.channel_id == fakes.CHANNEL
    [png] = board.files
    assert png.data.startswith(b"\x89PNG") and png.description and "Minefield" in png.description
    assert board.embeds[0]["image"]["url"] == f"attachment://{png.filename}"
    assert board.pingable == {ALICE.id}
    assert "To move" in board.embed_text() and "Deadline" in board.embed_text()

    line = winning_line("minefield", 5, seed=3)
    players = [ALICE, BOB]
    for ply, move in enumerate(line):
        info = await h.service.get_game(fakes.CHANNEL)
        mover = ALICE if info.to_move_id == ALICE.id else BOB
        sent = await h.command("move", mover, point=move)
        assert [s.kind for s in sent] == ["defer", "channel_message", "followup"], (ply, sent)
        assert sent[2].ephemeral and move in sent[2].content
        turn = sent[1]
        assert f"placed on {move}" in turn.embed_text()
        if ply < len(line) - 1:
            nxt = (await h.service.get_game(fakes.CHANNEL)).to_move_id
            assert turn.pingable == {nxt}
    final = h.fake.last("channel_message")
    assert "wins" in final.content and "Result" in final.embed_text()
    assert final.pingable == {p.id for p in players}
    assert await h.service.get_game(fakes.CHANNEL) is None

    refusal = fakes.refusal(await h.command("move", ALICE, point="a1"))
    assert "over" in refusal.content


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(game_names()))
async def test_a_whole_game_of_each_kind(h: Any, game: str) -> None:
    """Chains, swaps, flips, removals and skips all flow through /move and the turn embed."""
    size = 6
    line = winning_line(game, size, seed=11)
    info = await fakes.challenge_and_accept(h, game=game, size=size)
    posted = len(h.fake.of_kind("channel_message"))
    for move in line:
        info = await h.service.get_game(fakes.CHANNEL)
        mover = ALICE if info.to_move_id == ALICE.id else BOB
        sent = await h.command("move", mover, point=move)
        assert [s.kind for s in sent] == ["defer", "channel_message", "followup"], move
    assert len(h.fake.of_kind("channel_message")) == posted + len(line)
    final = h.fake.last("channel_message")
    assert "wins" in final.content
    finished = await h.service.get_game_by_id(info.id)
    assert finished.record == format_record(parse_record(f"{game} {size}: {' '.join(line)}"))


async def test_each_handled_command_is_logged_with_context(
    h: Any, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    with caplog.at_level(logging.INFO, logger="crosspath.discord"):
        await h.command("help", CAROL)
    [record] = [r for r in caplog.records if r.getMessage() == "command handled"]
    assert record.command == "help" and record.user_id == CAROL.id  # type: ignore[attr-defined]
