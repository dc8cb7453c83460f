"""Turn notices at the wire: ``/notify``, the DM of a turn with its board, the channel mention
that stands in when DMs are closed (and no DM tried again until ``/notify``), the daily digest
at its hour on a controlled clock, and ``/games``'s Next game button across a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord_fakes as fakes
import loop_guard as guard
from discord_fakes import ALICE, BOB, CAROL
from game_fixtures import START

from bot.discord.notices.dms import FIX_DMS

GUILD, CHANNEL = fakes.GUILD, fakes.CHANNEL
h = fakes.h
loop_guard = guard.loop_guard
close_harnesses = fakes.close_harnesses
fast_retries = fakes.fast_retries
PNG = b"\x89PNG\r\n\x1a\n"


async def notify(h: Any, who: fakes.Player, mode: str, **options: Any) -> fakes.Sent:
    [answer] = await h.command("notify", who, mode=mode, **options)
    assert answer.kind == "reply" and answer.ephemeral, answer
    return answer


async def play_any(h: Any, who: fakes.Player, channel_id: int = CHANNEL) -> list[fakes.Sent]:
    """``who`` plays the first legal move of the game in ``channel_id``."""
    info = await h.service.get_game(channel_id)
    assert info is not None and info.to_move_id == who.id
    move = (await h.service.position(info.id)).legal_moves()[0]
    return list(await h.command("move", who, point=move, channel_id=channel_id))


def turn_posts(sent: list[fakes.Sent]) -> list[fakes.Sent]:
    return [s for s in sent if s.kind == "channel_message" and s.channel_id == CHANNEL]


async def test_a_dm_turn_notice_carries_the_board_and_a_link(h: Any) -> None:
    answer = await notify(h, ALICE, "dm")
    assert "direct message" in answer.content and "every server" in answer.content
    h.fake.clear()
    info = await fakes.challenge_and_accept(h)  # Alice moves first
    [post] = turn_posts(h.fake.sent)
    assert f"<@{ALICE.id}>, your move" in post.content
    assert post.pingable == set(), "a player who chose DMs is named, not pinged, in the channel"
    [dm] = h.fake.dms_to(ALICE.id)
    assert dm.ok and dm.files and dm.files[0].data.startswith(PNG)
    assert f"https://discord.com/channels/{GUILD}/{CHANNEL}/{post.message_id}" in dm.content
    assert f"game #{info.id}" in dm.content
    assert dm.pingable == set() and dm.embeds[0]["image"]["url"].startswith("attachment://")
    # Bob chose nothing: after Alice's move his turn pings him, and only him, and no DM
    h.fake.clear()
    sent = await play_any(h, ALICE)
    [post] = turn_posts(sent)
    assert post.pingable == {BOB.id}
    assert h.fake.dms_to(BOB.id) == [] and h.fake.dms_to(ALICE.id) == []


async def test_closed_dms_fall_back_to_the_mention_once_until_notify(h: Any) -> None:
    await notify(h, ALICE, "dm")
    h.fake.closed_dms.add(ALICE.id)
    h.fake.clear()
    await fakes.challenge_and_accept(h)
    post, fallback = turn_posts(h.fake.sent)
    [refused] = h.fake.dms_to(ALICE.id)
    assert refused.status == 403
    assert post.pingable == set() and post.files
    assert fallback.pingable == {ALICE.id} and f"<@{ALICE.id}>" in fallback.content
    assert FIX_DMS in fallback.content and "/notify" in fallback.content
    prefs = await h.service.notices.notice_prefs(ALICE.id)
    assert prefs.dm_closed and prefs.pings
    # the next turns: the channel post pings Alice itself, no DM is tried, no advice again
    for _ in range(2):
        await play_any(h, ALICE)
        h.fake.clear()
        [post] = turn_posts(await play_any(h, BOB))
        assert post.pingable == {ALICE.id} and FIX_DMS not in post.content
        assert h.fake.dms_to(ALICE.id) == []
    # Alice opens her DMs and chooses again: the DM is tried and goes through
    h.fake.closed_dms.clear()
    await notify(h, ALICE, "dm")
    await play_any(h, ALICE)
    h.fake.clear()
    [post] = turn_posts(await play_any(h, BOB))
    assert post.pingable == set()
    [dm] = h.fake.dms_to(ALICE.id)
    assert dm.ok and dm.files


async def test_a_dm_that_fails_otherwise_mentions_without_closing(
    h: Any, fast_retries: Any
) -> None:
    await notify(h, ALICE, "dm")
    h.fake.clear()
    h.fake.fail("POST", r"/users/@me/channels", 500, times=5)
    await fakes.challenge_and_accept(h)
    post, fallback = turn_posts(h.fake.sent)
    assert post.pingable == set() and fast_retries.slept, "discord.py retried the 500s"
    assert fallback.pingable == {ALICE.id} and FIX_DMS not in fallback.content
    assert not (await h.service.notices.notice_prefs(ALICE.id)).dm_closed  # tried again next turn


async def test_the_daily_digest_comes_at_its_hour(h: Any, clock: Any) -> None:
    answer = await notify(h, ALICE, "digest", hour=13)
    next_at = int(START.replace(hour=13).timestamp())
    assert "13:00 UTC" in answer.content and f"<t:{next_at}:t>" in answer.content
    await notify(h, CAROL, "digest", hour=13)  # nothing waits on Carol: no DM for her
    first = await fakes.challenge_and_accept(h)
    assert all(s.pingable == set() for s in turn_posts(h.fake.sent))  # digest: no pings
    cog = h.bot.get_cog("NoticesCog")
    h.fake.clear()
    clock.now = START.replace(hour=12, minute=59)
    run = await cog.run_once()
    assert run.claimed == 0 and h.fake.dms_to(ALICE.id) == []
    clock.now = START.replace(hour=13)
    run = await cog.run_once()
    assert (run.claimed, run.sent, run.empty) == (2, 1, 1)
    [digest] = h.fake.dms_to(ALICE.id)
    assert digest.ok and "1 game waits on your move" in digest.content
    assert f"#{first.id}" in digest.content
    assert f"https://discord.com/channels/{GUILD}/{CHANNEL}" in digest.content
    assert digest.pingable == set() and h.fake.dms_to(CAROL.id) == []
    clock.advance(hours=23, minutes=59)
    assert (await cog.run_once()).claimed == 0  # once a day
    clock.advance(minutes=1)
    assert (await cog.run_once()).sent == 1
    assert len(h.fake.dms_to(ALICE.id)) == 2


async def test_a_digest_to_closed_dms_mentions_once_in_the_game(h: Any, clock: Any) -> None:
    await notify(h, ALICE, "digest", hour=13)
    await fakes.challenge_and_accept(h)
    h.fake.closed_dms.add(ALICE.id)
    h.fake.clear()
    clock.now = START.replace(hour=13)
    cog = h.bot.get_cog("NoticesCog")
    run = await cog.run_once()
    assert (run.claimed, run.sent, run.closed) == (1, 0, 1)
    [fallback] = turn_posts(h.fake.sent)
    assert fallback.pingable == {ALICE.id} and FIX_DMS in fallback.content
    clock.advance(days=1)
    assert (await cog.run_once()).claimed == 0  # no DM tried until /notify
    h.fake.clear()
    [post] = turn_posts(await play_any(h, ALICE) + await play_any(h, BOB))[1:]
    assert post.pingable == {ALICE.id}  # meanwhile her turns ping her in the channel


async def test_next_game_jumps_to_the_longest_wait_across_a_restart(
    db_path: Path, clock: Any
) -> None:
    discord_side = fakes.FakeDiscord()
    first = await fakes.open_harness(db_path, clock, fake=discord_side)
    older = await fakes.challenge_and_accept(first)
    clock.advance(hours=2)
    sent = await first.command(
        "challenge", ALICE, game="minefield", opponent=BOB, size=5, channel_id=CHANNEL + 7
    )
    accept = next(c for c in sent[-1].custom_ids if c.startswith("cp:chal:accept:"))
    await first.click(accept, BOB)
    newer = await first.service.get_game(CHANNEL + 7)
    assert newer is not None and newer.to_move_id == ALICE.id
    _, page = await first.command("games", ALICE)
    lines = page.content.splitlines()
    assert lines[0].startswith("**Your move**")
    assert lines[1].startswith(f"#{older.id} ") and lines[2].startswith(f"#{newer.id} ")
    [next_game] = page.custom_ids
    assert next_game == f"cp:nextgame:{ALICE.id}"
    await first.close()

    # a new process: the button still works
    second = await fakes.open_harness(db_path, clock, fake=discord_side)
    refused = fakes.refusal(await second.click(next_game, BOB))
    assert "someone else" in refused.content
    [answer] = await second.click(next_game, ALICE)
    assert answer.kind == "reply" and answer.ephemeral and answer.pingable == set()
    assert answer.content.startswith("Next game: ") and f" #{older.id} vs " in answer.content
    assert answer.content.endswith(f"https://discord.com/channels/{GUILD}/{CHANNEL}")
    await play_any(second, ALICE)  # the oldest no longer waits on her: the newer one is next
    [answer] = await second.click(next_game, ALICE)
    assert f" #{newer.id} vs " in answer.content
    assert answer.content.endswith(f"/{CHANNEL + 7}")
    await play_any(second, ALICE, CHANNEL + 7)
    [answer] = await second.click(next_game, ALICE)
    assert "No game is waiting on your move" in answer.content
    await second.close()


async def test_notify_off_and_back_to_mention(h: Any) -> None:
    answer = await notify(h, ALICE, "off")
    assert "No notices" in answer.content and "/games" in answer.content
    await fakes.challenge_and_accept(h)
    [post] = turn_posts(h.fake.sent)
    assert f"<@{ALICE.id}>, your move" in post.content and post.pingable == set()
    assert h.fake.dms_to(ALICE.id) == []
    answer = await notify(h, ALICE, "mention")
    assert "mention you" in answer.content
    await play_any(h, ALICE)
    h.fake.clear()
    [post] = turn_posts(await play_any(h, BOB))
    assert post.pingable == {ALICE.id}
