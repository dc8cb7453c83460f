"""Whole games through the real bot: slash commands and buttons in, Discord requests out.

The bot, command tree, view store, service and SQLite store are all real; only the network
edge is faked (see discord_fakes.py).
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from rules import new_game


def _load_fakes() -> Any:
    name = "crosspath_tests_discord_fakes"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, Path(__file__).with_name("discord_fakes.py")
        )
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


fakes = _load_fakes()
Player = fakes.Player
ALICE = Player(310000000000000001, "Alice")
BOB = Player(320000000000000002, "Bob")
CAROL = Player(330000000000000003, "Carol")
ADMIN = Player(340000000000000004, "Admin", fakes.MANAGE_GUILD)
OTHER_CHANNEL = 810000000000000099


@pytest.fixture
async def h(db_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    harness = await fakes.open_harness(db_path, clock, monkeypatch)
    try:
        yield harness
    finally:
        await harness.close()


def winning_line(game: str, size: int, seed: int) -> list[str]:
    """A complete random game that ends with a winner, found with the engine itself."""
    rng = random.Random(seed)
    while True:
        g = new_game(game, size)
        while not g.is_over:
            g.play(rng.choice(g.legal_moves()))
        if g.winner:
            return g.moves


async def challenge_and_accept(h: Any, game: str = "minefield", size: int = 5, **extra: Any) -> Any:
    sent = await h.command("challenge", ALICE, game=game, opponent=BOB, size=size, **extra)
    accept = next(c for c in sent[-1].custom_ids if c.startswith("cp:chal:accept:"))
    await h.click(accept, BOB)
    info = await h.service.get_game(fakes.CHANNEL)
    assert info is not None
    return info


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
    assert kinds[0] == "defer_update" and "edit_original" in kinds
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

    [refusal] = await h.command("move", ALICE, point="a1")
    assert refusal.kind == "reply" and refusal.ephemeral and "over" in refusal.content
