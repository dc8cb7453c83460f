"""Persistent buttons across a restart, autocomplete, takebacks, threads, clocks and lookups."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord_fakes as fakes
import loop_guard as guard
import pytest
from discord_fakes import ADMIN, ALICE, BOB, CAROL

CHANNEL, OTHER_CHANNEL = fakes.CHANNEL, fakes.OTHER_CHANNEL
h = fakes.h
loop_guard = guard.loop_guard  # every test fails if a callback blocks the loop > 0.5 s
close_harnesses = fakes.close_harnesses


def autocomplete(h: Any, who: Any, typed: str, channel_id: int = CHANNEL) -> dict[str, Any]:
    option = fakes.opt("point", typed, 3, focused=True)
    return h.payloads.command("move", who, [option], channel_id=channel_id, autocomplete=True)


async def test_autocomplete_offers_legal_moves_matching_the_prefix(h: Any) -> None:
    await fakes.challenge_and_accept(h, size=9)
    [answer] = await h.run(autocomplete(h, ALICE, ""))
    assert answer.kind == "autocomplete"
    assert len(answer.choices) == 25, "81 legal points, capped at 25"
    [answer] = await h.run(autocomplete(h, ALICE, "C"))
    values = [c["value"] for c in answer.choices]
    assert values == [f"c{n}" for n in range(1, 10)]
    assert all(c["name"] == c["value"] for c in answer.choices)
    await h.command("move", ALICE, point="c3")
    [answer] = await h.run(autocomplete(h, BOB, "c"))
    assert "c3" not in [c["value"] for c in answer.choices]
    assert len(answer.choices) == 8
    # not your turn, or no game: nothing to offer (typed input is still validated on submit)
    [answer] = await h.run(autocomplete(h, ALICE, "c"))
    assert answer.choices == []
    [answer] = await h.run(autocomplete(h, ALICE, "", channel_id=OTHER_CHANNEL))
    assert answer.choices == []


async def test_autocomplete_leaves_out_minefield_mines(h: Any) -> None:
    await fakes.challenge_and_accept(h, size=5)
    await h.command("move", ALICE, point="b2")
    await h.command("move", BOB, point="c2")
    # c3 would make a hard corner for Black (b2, c3 diagonal around White's c2): a mine
    [answer] = await h.run(autocomplete(h, ALICE, "c"))
    offered = [c["value"] for c in answer.choices]
    assert offered == ["c4", "c5"]
    text = fakes_only_refusal(await h.command("move", ALICE, point="c3"))
    assert "c3" in text


def fakes_only_refusal(sent: list[Any]) -> str:
    return str(fakes.refusal(sent).content)


async def test_buttons_work_after_a_restart(
    db_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    discord_side = fakes.FakeDiscord()  # Discord keeps its messages while the bot restarts
    first = await fakes.open_harness(db_path, clock, fake=discord_side)
    [reply] = await first.command(
        "challenge", ALICE, game="minefield", opponent=BOB, size=5, time="none"
    )  # untimed: the board's alt text names the players alone
    await first.close()

    second = await fakes.open_harness(db_path, clock, fake=discord_side)
    second.fake.user_names[ALICE.id] = "Alice"
    sent = await second.click(reply.custom_ids[0], BOB)
    # the new process has not seen Alice yet: her name is fetched once for the board
    assert [s.kind for s in sent] == ["update", f"GET /users/{ALICE.id}", "channel_message"]
    assert "Black (Alice) to move" in sent[2].files[0].description
    assert (await second.service.get_game(CHANNEL)) is not None
    await second.command("move", ALICE, point="c3")
    [request] = await second.command("takeback", ALICE)
    assert request.pingable == {BOB.id}
    await second.close()

    third = await fakes.open_harness(db_path, clock, fake=discord_side)
    try:
        sent = await third.click(request.custom_ids[0], BOB)
        assert sent[0].kind == "update" and "allowed" in sent[0].content
        [posted] = [s for s in sent if s.kind == "channel_message"]
        assert "taken back" in posted.content
        info = await third.service.get_game(CHANNEL)
        assert info.moves == () and info.to_move_id == ALICE.id
        # the same request button again is stale now
        [stale] = await third.click(request.custom_ids[0], BOB)
        assert stale.ephemeral and "already answered" in stale.content
    finally:
        await third.close()


async def test_takeback_refused_keeps_the_move(h: Any) -> None:
    await fakes.challenge_and_accept(h)
    await h.command("move", ALICE, point="c3")
    [request] = await h.command("takeback", ALICE)
    yes, no = request.custom_ids
    [refusal] = await h.click(yes, ALICE)
    assert refusal.ephemeral  # the requester cannot answer their own request
    [update] = await h.click(no, BOB)
    assert update.kind == "update" and "refused" in update.content
    assert (await h.service.get_game(CHANNEL)).moves == ("c3",)


async def test_resign_asks_first_then_ends_the_game(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    [confirm] = await h.command("resign", ALICE)
    assert confirm.ephemeral and len(confirm.custom_ids) == 2
    [update] = await h.click(confirm.custom_ids[1], ALICE)
    assert update.kind == "update" and "Play on" in update.content
    assert (await h.service.get_game(CHANNEL)) is not None
    sent = await h.click(confirm.custom_ids[0], ALICE)
    assert sent[0].kind == "update" and "resigned" in sent[0].content
    assert "resigned" in sent[1].content and f"<@{BOB.id}> wins" in sent[1].content
    assert (await h.service.get_game_by_id(info.id)).result.winner_id == BOB.id


async def test_open_challenge_and_decline(h: Any) -> None:
    [open_reply] = await h.command("challenge", ALICE, game="crosscut", size=6)
    assert [c.split(":")[2] for c in open_reply.custom_ids] == ["accept", "cancel"]
    assert open_reply.pingable == set()
    sent = await h.click(open_reply.custom_ids[0], CAROL)
    assert sent[0].kind == "update"
    info = await h.service.get_game(CHANNEL)
    assert set(info.player_ids) == {ALICE.id, CAROL.id} and info.game == "crosscut"
    [direct] = await h.command(
        "challenge", BOB, game="minefield", opponent=ALICE, channel_id=OTHER_CHANNEL
    )
    [update] = await h.click(direct.custom_ids[1], ALICE)
    assert update.kind == "update" and "Declined" in update.embed_text()


async def test_game_in_a_thread_when_the_server_wants_threads(h: Any) -> None:
    [saved] = await h.command("admin settings set", ADMIN, threads=True)
    assert saved.ephemeral and "threads:** yes" in saved.content
    [reply] = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
    sent = await h.click(reply.custom_ids[0], BOB)
    kinds = [s.kind for s in sent]
    assert kinds == ["defer_update", "thread", "edit_original", "channel_message"]
    thread_id = sent[1].message_id
    assert sent[1].body["name"] == "Minefield: Alice vs Bob"
    assert sent[3].channel_id == thread_id
    info = await h.service.get_game(thread_id)
    assert info is not None and await h.service.get_game(CHANNEL) is None
    sent = await h.command("move", ALICE, point="c3", channel_id=thread_id, channel_kind=11)
    assert sent[1].channel_id == thread_id


async def test_clock_reminds_then_ends_on_time_and_survives_restart(
    db_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await fakes.open_harness(db_path, clock, monkeypatch)
    await fakes.challenge_and_accept(first, time="1h")
    board = first.fake.last("channel_message")
    assert "<t:" in board.embed_text() and ":R>" in board.embed_text()
    await first.close()

    second = await fakes.open_harness(db_path, clock, monkeypatch)
    try:
        clock.advance(minutes=35)
        cog = second.bot.get_cog("ClockCog")
        outcomes = await cog.run_once()
        assert [o.action.kind for o in outcomes] == ["reminder"]
        reminder = second.fake.last("channel_message")
        assert "reminder" in reminder.content and reminder.pingable == {ALICE.id}
        clock.advance(hours=1)
        outcomes = await cog.run_once()
        assert [o.action.kind for o in outcomes] == ["timeout"]
        ended = second.fake.last("channel_message")
        assert "ran out of time" in ended.content and f"<@{BOB.id}> wins" in ended.content
        assert await second.service.get_game(CHANNEL) is None
        assert await cog.run_once() == []
    finally:
        await second.close()


async def test_swap_is_described_from_the_new_seats(h: Any) -> None:
    await fakes.challenge_and_accept(h, game="clearpath", size=5)
    await h.command("move", ALICE, point="c3")
    sent = await h.command("swap", BOB)
    assert "Bob (red) swapped" in sent[1].embed_text()
    info = await h.service.get_game(CHANNEL)
    assert info.colour_of(BOB.id) == "red"


async def test_history_replay_games_rules_and_help(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    await h.command("move", ALICE, point="c3")
    defer, history = await h.command("history", BOB)
    assert defer.kind == "defer" and not defer.ephemeral and not history.ephemeral
    assert "minefield 5: c3" in history.content
    [record] = history.files
    assert (
        record.filename.endswith(".txt") and b"Mark Steere" in record.data and b"c3" in record.data
    )
    sent = await h.command("replay", BOB)
    assert [s.kind for s in sent] == ["defer", "followup"]
    assert sent[1].files[0].data.startswith(b"GIF8")
    defer, games = await h.command("games", ALICE)
    assert defer.kind == "defer" and defer.ephemeral
    assert games.ephemeral and f"#{info.id}" in games.content and "your move" not in games.content
    assert f"https://discord.com/channels/{fakes.GUILD}/{CHANNEL}" in games.content
    [rules] = await h.command("rules", CAROL, game="nakeddiagonal")
    assert "Mark Steere" in rules.embed_text() and rules.files[0].data.startswith(b"NAKED DIAGONAL")
    [help_reply] = await h.command("help", CAROL)
    assert "/challenge" in help_reply.embed_text()
    [board] = (await h.command("board", CAROL, game=info.id))[1:]
    assert board.files[0].data.startswith(b"\x89PNG")


async def test_unknown_buttons_are_answered_not_left_failing(h: Any) -> None:
    for custom_id in ("cp:duel:accept:5", "cp:chal:accept:notanumber"):
        h.fake.posted_earlier(CHANNEL, {"content": "from an old version", "components": [
            {"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Accept", "custom_id": custom_id}]}]})  # fmt: skip
    [answer] = await h.click("cp:duel:accept:5", ALICE)
    assert answer.ephemeral and "no longer works" in answer.content
    [answer] = await h.click("cp:chal:accept:notanumber", ALICE)
    assert answer.ephemeral and "no longer works" in answer.content


async def test_challenge_refused_where_the_bot_cannot_post_boards(h: Any) -> None:
    h.payloads.bot_permissions = fakes.BOT_PERMISSIONS & ~(1 << 15)  # no Attach Files
    [reply] = await h.command("challenge", ALICE, game="minefield", opponent=BOB)
    assert reply.ephemeral and "Attach Files" in reply.content
    assert await h.service.challenges.open_challenges(fakes.GUILD) == []


async def test_the_clock_loop_runs_by_itself_once_ready(
    db_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from bot.config import Settings

    h = await fakes.open_harness(db_path, clock, monkeypatch, settings=Settings(clock_seconds=0.02))
    try:
        [reply] = await h.command("challenge", ALICE, game="minefield", opponent=BOB)
        clock.advance(days=2)
        h.bot._ready.set()  # what READY from the gateway does
        for _ in range(200):
            if h.fake.of_kind("channel_message"):
                break
            await asyncio.sleep(0.01)
        expired = h.fake.last("channel_message")
        assert "expired" in expired.content and expired.pingable == set()
        [answer] = await h.click(reply.custom_ids[0], BOB)
        assert answer.ephemeral and "expired" in answer.content.lower()
    finally:
        await h.close()


async def test_history_after_the_game_ended_in_this_channel(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    await h.command("move", ALICE, point="c3")
    [confirm] = await h.command("resign", BOB)
    await h.click(confirm.custom_ids[0], BOB)
    _, history = await h.command("history", ALICE)
    assert f"Game #{info.id}" in history.content and "c3" in history.content
    sent = await h.command("history", ALICE, channel_id=CHANNEL + 7)  # never had a game
    # the public "thinking…" is withdrawn and the refusal is private
    assert [s.kind for s in sent] == ["defer", "delete_original", "followup"]
    assert "no game" in fakes.refusal(sent).content.lower()


async def test_anyone_in_the_channel_sees_its_finished_game(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    await h.command("move", ALICE, point="c3")
    [confirm] = await h.command("resign", BOB)
    await h.click(confirm.custom_ids[0], BOB)
    assert CAROL.id not in info.player_ids
    sent = await h.command("board", CAROL)  # not her game, no number given
    assert [s.kind for s in sent] == ["defer", "followup"]
    assert sent[1].files[0].data.startswith(b"\x89PNG") and f"#{info.id}" in sent[1].embed_text()
    _, history = await h.command("history", CAROL)
    assert not history.ephemeral and f"Game #{info.id}" in history.content
    assert "minefield 5: c3" in history.content and b"resign" in history.files[0].data
