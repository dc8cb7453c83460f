"""The daily puzzle at the wire (issue 48): posted once per server and day whichever process
asks, a Solve button that answers privately and only once per player, the next day's solution
with how many solved it, and the admin setting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import discord_fakes as fakes
from discord_fakes import ADMIN, ALICE, BOB

from bot.discord.puzzles.daily import post_daily

CHANNEL = fakes.CHANNEL
h = fakes.h
close_harnesses = fakes.close_harnesses
MORNING = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)


async def test_the_daily_puzzle_is_posted_once_and_solved_privately(h: Any) -> None:
    await h.service.puzzles.set_channel(fakes.GUILD, CHANNEL)
    cog = h.bot.get_cog("PuzzleCog")
    assert await cog.post_daily(MORNING) == 1
    post = h.fake.last("channel_message")
    solve = f"cp:pz:day:{fakes.GUILD}:2026-11-29"
    assert post.channel_id == CHANNEL and solve in post.custom_ids
    assert post.content.startswith("Daily puzzle, 2026-11-29:") and post.files
    assert post.pingable == set()
    # Another process (another claimant), and this one again: nothing is posted twice.
    assert await post_daily(h.bot, MORNING + timedelta(hours=1), "another-process") == 0
    assert await cog.post_daily(MORNING + timedelta(hours=2)) == 0

    task = (await h.click(solve, BOB))[-1]
    assert task.ephemeral and "to move and win" in task.content and task.files
    give = next(c for c in task.custom_ids if c.startswith("cp:pz:give:"))
    assert "You gave up." in (await h.click(give, BOB))[-1].content
    again = fakes.refusal(await h.click(solve, BOB))  # one try a day
    assert "already had your try" in again.content

    assert await cog.post_daily(MORNING + timedelta(days=1)) == 2
    posts = [s for s in h.fake.sent if s.kind == "channel_message"][-2:]
    assert posts[0].content.startswith("Solution of the daily puzzle of 2026-11-29: ")
    assert "0 players solved it." in posts[0].content
    assert posts[1].content.startswith("Daily puzzle, 2026-11-30:")


async def test_only_managers_choose_the_puzzle_channel(h: Any, snapshot: Any) -> None:
    await h.service.puzzles.set_channel(fakes.GUILD, CHANNEL)
    before = snapshot()
    refused = fakes.refusal(await h.command("admin settings puzzle-channel", ALICE))
    assert refused.ephemeral and snapshot() == before
    stopped = (await h.command("admin settings puzzle-channel", ADMIN))[-1]
    assert stopped.ephemeral and stopped.content == "No daily puzzle will be posted."
    assert await h.bot.get_cog("PuzzleCog").post_daily(MORNING) == 0
