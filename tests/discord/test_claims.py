"""The computer's seat claims its turn before thinking: when another process holds the claim,
this one does not think; once the claim lapses, it plays.  Also the clock asks only for the
servers of this process's shards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord_fakes as fakes
import pytest
from discord_fakes import ALICE, CHANNEL, GUILD

from bot.config import Settings
from bot.service import ShardFilter

from .test_ai import COMPUTER, Spy, alice_plays_first_legal_move


async def test_no_thinking_while_another_process_holds_the_turn(
    db_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await fakes.open_harness(db_path, clock, monkeypatch)
    spy = h.bot.computer.choose = Spy()
    try:
        await h.command("challenge", ALICE, game="minefield", opponent=COMPUTER, size=5, level=1)
        info = await h.service.get_game(CHANNEL)
        assert info.to_move_id == ALICE.id
        # another process claims the computer's coming turn the moment Alice has moved
        original = h.service.play_move

        async def alice_then_rival(*args: Any, **kwargs: Any) -> Any:
            result = await original(*args, **kwargs)
            if result.game.to_move_id == COMPUTER.id:
                won = await h.service.claims.claim_turn(
                    result.game.id, result.game.version, "rival"
                )
                assert won
            return result

        monkeypatch.setattr(h.service, "play_move", alice_then_rival)
        await alice_plays_first_legal_move(h)
        await h.bot.computer.idle()
        monkeypatch.setattr(h.service, "play_move", original)
        assert spy.calls == [], "thought although another process held the turn"
        waiting = await h.service.get_game(CHANNEL)
        assert waiting.to_move_id == COMPUTER.id and len(waiting.moves) == 1
        # what GUILD_CREATE from the gateway does; then the clock looks for pending turns
        h.bot._connection._add_guild_from_data(
            {"id": str(GUILD), "name": "test", "roles": [], "emojis": [], "features": []}
        )
        await h.bot.get_cog("ClockCog").run_once()
        await h.bot.computer.idle()
        assert spy.calls == []  # still held
        clock.advance(seconds=301)  # the rival died: its claim lapses
        await h.bot.get_cog("ClockCog").run_once()
        await h.bot.computer.idle()
        assert len(spy.calls) == 1
        after = await h.service.get_game(CHANNEL)
        assert after.to_move_id == ALICE.id and len(after.moves) == 2
    finally:
        await h.bot.computer.idle()
        await h.close()


async def test_the_clock_asks_for_this_process_s_shards_only(
    db_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await fakes.open_harness(db_path, clock, monkeypatch)
    try:
        asked: list[Any] = []
        original = h.service.clocks.due

        async def recording_due(*args: Any, **kwargs: Any) -> Any:
            asked.append(kwargs.get("shards"))
            return await original(*args, **kwargs)

        monkeypatch.setattr(h.service.clocks, "due", recording_due)
        await h.bot.get_cog("ClockCog").run_once()
        monkeypatch.setattr(h.bot, "settings", Settings(shard_count=4, shard_ids=(1, 2)))
        await h.bot.get_cog("ClockCog").run_once()
        assert asked == [None, ShardFilter(4, (1, 2))]
    finally:
        await h.close()
