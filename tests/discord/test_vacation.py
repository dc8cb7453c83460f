"""``/vacation`` and ``/claim`` at the wire: discord.py's own request code against the fake
Discord (only the HTTP session and the gateway are faked), over a real SQLite store."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord_fakes as fakes
from discord_fakes import ALICE, BOB, CAROL
from game_fixtures import FakeClock

CHANNEL, GUILD = fakes.CHANNEL, fakes.GUILD
h = fakes.h
close_harnesses = fakes.close_harnesses


async def start(h: Any, channel: int, time_control: str, opponent: Any = BOB) -> int:
    challenge = await h.service.create_challenge(
        GUILD, channel, ALICE.id, opponent.id, "minefield", 5, "me", time_control
    )
    return int((await h.service.accept_challenge(challenge.id, opponent.id)).game.id)


async def test_vacation_stops_the_clocks_and_tells_each_opponent_once(h: Any) -> None:
    first = await start(h, CHANNEL, "3d+1d max 5d")
    second = await start(h, CHANNEL + 1, "1d", opponent=CAROL)
    sent = await h.command("vacation start", ALICE, days=3)
    assert [s.kind for s in sent] == ["defer", "followup", "channel_message", "channel_message"]
    assert sent[0].ephemeral and sent[1].ephemeral
    assert "You are on vacation until" in sent[1].content and "27 of 30" in sent[1].content
    notices = {s.channel_id: s for s in sent[2:]}
    assert set(notices) == {CHANNEL, CHANNEL + 1}
    assert notices[CHANNEL].pingable == {BOB.id} and notices[CHANNEL + 1].pingable == {CAROL.id}
    assert f"game #{first}" in notices[CHANNEL].content
    assert f"game #{second}" in notices[CHANNEL + 1].content
    info = await h.service.get_game(CHANNEL)
    assert info.paused_until is not None

    refused = fakes.refusal(await h.command("vacation start", ALICE, days=1))
    assert "already on vacation" in refused.content

    back = await h.command("vacation end", ALICE)
    assert [s.kind for s in back] == ["defer", "followup", "channel_message", "channel_message"]
    assert "Welcome back" in back[1].content and "29 of 30" in back[1].content
    assert all("is back" in s.content for s in back[2:])
    assert (await h.service.get_game(CHANNEL)).paused_until is None
    refused = fakes.refusal(await h.command("vacation end", ALICE))
    assert "not on vacation" in refused.content


async def test_the_board_and_the_turn_notice_show_the_time_left(h: Any) -> None:
    await start(h, CHANNEL, "3d+1d max 5d")
    sent = await h.command("move", ALICE, point="c3")
    (board,) = [s for s in sent if s.kind == "channel_message"]
    assert "your move in Minefield (3d left)" in board.content
    # Bob never spoke in this server, so his name is not cached: the renderer's fallback
    assert re.search(r"Time left: Alice 4d · \S+ 3d\n", board.embed_text())
    listed = (await h.command("games", ALICE))[-1]
    assert "their move · you 4d, them 3d" in listed.content


async def test_claim_buttons_end_a_stalled_untimed_game_after_a_restart(
    db_path: Path, clock: FakeClock
) -> None:
    discord_side = fakes.FakeDiscord()
    first = await fakes.open_harness(db_path, clock, fake=discord_side)
    game = await start(first, CHANNEL, "none")
    await first.service.play_move(CHANNEL, ALICE.id, "c3")
    early = fakes.refusal(await first.command("claim", ALICE))
    assert "still has time" in early.content
    clock.advance(days=14)
    assert "waiting on you" in fakes.refusal(await first.command("claim", BOB)).content
    (offer,) = await first.command("claim", ALICE)
    assert offer.ephemeral and offer.custom_ids == [
        f"cp:soft:yes:{game}:1",
        f"cp:soft:no:{game}:1",
    ]
    # a claim button forged onto a message in another channel acts on nothing
    elsewhere = first.fake.posted_earlier(CHANNEL + 5, {"content": "elsewhere"})
    elsewhere["components"] = fakes.message_with_buttons(f"cp:soft:yes:{game}:1")
    forged = first.payloads.button(f"cp:soft:yes:{game}:1", ALICE, message=elsewhere)
    fakes.refusal(await first.run(forged))
    assert (await first.service.get_game(CHANNEL)).is_active
    await first.close()

    second = await fakes.open_harness(db_path, clock, fake=discord_side)
    sent = await second.click(f"cp:soft:yes:{game}:1", ALICE)
    assert sent[0].kind == "update" and sent[0].content == "You claimed the win."
    (board,) = [s for s in sent if s.kind == "channel_message"]
    assert "ran out of time" in board.content
    over = await second.service.get_game_by_id(game)
    assert over.result is not None and (over.result.reason, over.result.winner_id) == (
        "time",
        ALICE.id,
    )
    again = fakes.refusal(await second.click(f"cp:soft:no:{game}:1", ALICE))
    assert "nothing was changed" in again.content or "over" in again.content
    await second.close()


async def test_admins_set_vacation_days_and_soft_time(h: Any) -> None:
    await start(h, CHANNEL, "1d")
    [saved] = await h.command("admin settings set", fakes.ADMIN, vacation_days=5, soft_time_days=3)
    assert "Vacation days a year:** 5" in saved.content and "3 days" in saved.content
    refused = fakes.refusal(await h.command("vacation start", ALICE, days=6))
    assert "only 5 vacation days left" in refused.content
    settings = await h.service.moderation.get_settings(GUILD)
    assert (settings.vacation_days, settings.soft_time) == (5, 3 * 86400)


async def test_the_sweep_posts_the_soft_time_notice_once_with_its_buttons(
    h: Any, clock: FakeClock
) -> None:
    game = await start(h, CHANNEL, "none")
    await h.service.play_move(CHANNEL, ALICE.id, "c3")  # Bob to move, Alice waits
    cog = h.bot.get_cog("ClockCog")
    h.fake.clear()
    clock.advance(days=13, hours=23)
    await cog.run_once()
    assert h.fake.sent == []
    clock.advance(hours=1)
    await cog.run_once()
    (notice,) = h.fake.sent
    assert notice.kind == "channel_message" and notice.channel_id == CHANNEL
    assert notice.pingable == {ALICE.id}, "only the waiting player is pinged"
    assert f"game #{game}" in notice.content and "claim the win" in notice.content
    assert notice.custom_ids == [f"cp:soft:yes:{game}:1", f"cp:soft:no:{game}:1"]
    clock.advance(days=2)
    await cog.run_once()
    assert len(h.fake.sent) == 1, "posted once"
    # Bob, to move, cannot use Alice's buttons; Alice's claim ends the game
    assert "waiting on you" in fakes.refusal(await h.click(f"cp:soft:yes:{game}:1", BOB)).content
    sent = await h.click(f"cp:soft:yes:{game}:1", ALICE)
    assert sent[0].kind == "update" and sent[0].content == "You claimed the win."
    assert not (await h.service.get_game_by_id(game)).is_active
