"""What happens when Discord answers badly: 5xx, 429, 403, and a restart over cold games.

These run discord.py's own request code against the wire-level fake (discord_wire.py): its
retry loop, rate-limit handling and status-to-exception mapping decide what the bot sees.
``fast_retries`` keeps every retry decision but sleeps a hundredth of the requested time and
records what was requested.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from pathlib import Path
from typing import Any

import discord_fakes as fakes
import loop_guard as guard
import pytest
from discord_fakes import ADMIN, ALICE, BOB, CAROL
from discord_wire import ScaledRetries

from bot.discord.names import RETRY_FAILED_AFTER
from rules import new_game

CHANNEL, GUILD = fakes.CHANNEL, fakes.GUILD
POSTS = rf"/channels/{CHANNEL}/messages"
CALLBACKS = r"/interactions/\d+/[^/]+/callback"
h = fakes.h
fast_retries = fakes.fast_retries
loop_guard = guard.loop_guard
close_harnesses = fakes.close_harnesses


async def test_the_multipart_board_parses_back_to_a_png_and_its_json(h: Any) -> None:
    await fakes.challenge_and_accept(h)
    sent = await h.command("move", ALICE, point="c3")
    post = sent[1]
    assert post.request is not None and post.request.json is not None
    names = [part.name for part in post.request.parts]
    assert names == ["payload_json", "files[0]"]
    [png] = post.files
    assert png.data.startswith(b"\x89PNG\r\n\x1a\n")
    assert png.content_type == "application/octet-stream"
    [attachment] = post.body["attachments"]
    assert attachment == {"id": 0, "filename": png.filename, "description": png.description}
    assert post.body["embeds"][0]["image"]["url"] == f"attachment://{png.filename}"


async def test_a_500_then_success_on_the_board_post_is_invisible_to_players(
    h: Any, fast_retries: ScaledRetries
) -> None:
    await fakes.challenge_and_accept(h)
    h.fake.fail("POST", POSTS, 500, times=1)
    sent = await h.command("move", ALICE, point="c3")
    assert [(s.kind, s.status) for s in sent] == [
        ("defer", 200),
        ("channel_message", 500),
        ("channel_message", 200),  # discord.py's own retry
        ("followup", 200),
    ]
    assert fast_retries.slept == [1]  # discord.py waits 1 s before the first 5xx retry
    assert sent[3].content == "Played c3." and sent[3].ephemeral
    assert len(h.bot.unposted) == 0


async def test_a_429_waits_retry_after_then_posts(h: Any, fast_retries: ScaledRetries) -> None:
    await fakes.challenge_and_accept(h)
    h.fake.fail("POST", POSTS, 429, times=1, retry_after=0.75)
    sent = await h.command("move", ALICE, point="c3")
    assert [(s.kind, s.status) for s in sent] == [
        ("defer", 200),
        ("channel_message", 429),
        ("channel_message", 200),
        ("followup", 200),
    ]
    assert 0.75 in fast_retries.slept, "discord.py waited what Retry-After said"
    assert sent[3].content == "Played c3."


async def test_a_403_on_the_board_post_says_which_permission(h: Any) -> None:
    await fakes.challenge_and_accept(h)
    h.fake.fail("POST", POSTS, 403, times=1)
    sent = await h.command("move", ALICE, point="c3")
    assert [(s.kind, s.status) for s in sent] == [
        ("defer", 200),
        ("channel_message", 403),  # no retry: a refusal is final
        ("followup", 200),
    ]
    notice = sent[2].content
    assert notice.startswith("Your move counts, but I couldn't post the board")
    assert "Attach Files" in notice and "/board" in notice
    assert (await h.service.get_game(CHANNEL)).moves == ("c3",)
    assert len(h.bot.unposted) == 0, "a permission problem needs a person, not a retry"


async def test_discord_5xx_on_the_board_is_reposted_when_discord_recovers(
    h: Any, fast_retries: ScaledRetries
) -> None:
    await fakes.challenge_and_accept(h)
    h.fake.fail("POST", POSTS, 502, times=5)  # more than discord.py's retries
    sent = await h.command("move", ALICE, point="c3")
    assert [s.status for s in sent if s.kind == "channel_message"] == [502] * 5
    notice = sent[-1].content
    assert notice == (
        "Your move counts, but Discord had an error, the board will be re-posted when it recovers."
    )
    assert "permission" not in notice
    assert len(h.bot.unposted) == 1
    h.fake.clear()
    await h.bot.get_cog("ClockCog").run_once()
    [board] = h.fake.of_kind("channel_message")
    assert board.ok and "placed on c3" in board.embed_text() and board.pingable == {BOB.id}
    assert len(h.bot.unposted) == 0
    h.fake.clear()
    await h.bot.get_cog("ClockCog").run_once()
    assert h.fake.of_kind("channel_message") == [], "posted once, not again"


@pytest.mark.slow
async def test_not_posted_notices_name_the_action(h: Any, fast_retries: ScaledRetries) -> None:
    [reply] = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
    h.fake.fail("POST", POSTS, 403, times=1)
    sent = await h.click(reply.custom_ids[0], BOB)
    assert sent[-1].ephemeral and sent[-1].content.startswith("The game has started, but")
    [confirm] = await h.command("resign", BOB)
    h.fake.fail("POST", POSTS, 500, times=5)
    sent = await h.click(confirm.custom_ids[0], BOB)
    assert sent[-1].ephemeral
    assert sent[-1].content.startswith("You resigned, but Discord had an error")
    assert all("Your move counts" not in s.content for s in h.fake.sent)


@pytest.mark.slow  # waits out Discord's 3 s first-response window
async def test_a_500_on_the_challenge_reply_is_not_retried_in_a_storm(
    h: Any, fast_retries: ScaledRetries, caplog: pytest.LogCaptureFixture
) -> None:
    h.fake.fail("POST", CALLBACKS, 500, times=100)
    with caplog.at_level(logging.WARNING, logger="crosspath.discord"):
        sent = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
    callbacks = [s for s in sent if s.kind == "reply"]
    # discord.py's five tries for the challenge, then at most one more answer (five tries)
    assert len(callbacks) <= 10, len(callbacks)
    assert callbacks[0].content.startswith(f"<@{BOB.id}>: <@{ALICE.id}> wants to play")
    assert all(s.status == 500 for s in callbacks)
    assert await h.service.challenges.open_challenges(GUILD) == [], "nobody saw it: withdrawn"
    assert "could not deliver a reply" in caplog.text


async def test_challenge_in_a_busy_channel_is_refused_when_no_thread_can_be_made(
    h: Any,
) -> None:
    await fakes.challenge_and_accept(h)  # a game in CHANNEL itself (threads off)
    await h.command("admin settings set", ADMIN, threads=True)
    h.payloads.bot_permissions = fakes.BOT_PERMISSIONS & ~fakes.CREATE_PUBLIC_THREADS
    text = fakes.refusal(
        await h.command("challenge", CAROL, game="minefield", opponent=BOB, size=5)
    ).content
    assert "already has a game" in text and "Create Public Threads" in text
    assert await h.service.challenges.open_challenges(GUILD) == []
    # with the permission, the new game would get its own thread: allowed
    h.payloads.bot_permissions = fakes.BOT_PERMISSIONS
    [reply] = await h.command("challenge", CAROL, game="minefield", opponent=BOB, size=5)
    assert reply.kind == "reply" and not reply.ephemeral


async def test_challenge_inside_a_game_thread_is_refused(h: Any) -> None:
    await h.command("admin settings set", ADMIN, threads=True)
    [reply] = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
    sent = await h.click(reply.custom_ids[0], BOB)
    thread_id = next(s for s in sent if s.kind == "thread").message_id
    text = fakes.refusal(
        await h.command("challenge", ALICE, game="crosscut", opponent=CAROL, channel_id=thread_id)
    ).content
    assert "game thread can't hold a second game" in text
    assert await h.service.challenges.open_challenges(GUILD) == []


async def test_display_names_are_per_server_and_failed_lookups_are_remembered(h: Any) -> None:
    payload = h.payloads.command("move", ALICE, [fakes.opt("point", "c3")])
    payload["member"]["nick"] = "Ally"  # Alice's nickname in this server only
    await h.run(payload)
    here = h.bot.get_guild(GUILD)
    assert h.bot.name_of(ALICE.id, here) == "Ally"
    elsewhere = type("OtherGuild", (), {"id": GUILD + 1, "get_member": lambda self, uid: None})()
    assert h.bot.name_of(ALICE.id, elsewhere) == "Alice", "her global name, not this nickname"

    ghost = 350000000000000005
    h.fake.unknown_users.add(ghost)
    for _ in range(3):
        names = await h.bot.fetch_names((ghost,), here)
        assert names[ghost] == f"user {ghost}"
    lookups = [s for s in h.fake.sent if s.path == f"/users/{ghost}"]
    assert [s.status for s in lookups] == [404], "asked once, then remembered"
    h.bot.names.clock = lambda: time.monotonic() + RETRY_FAILED_AFTER + 1
    await h.bot.fetch_names((ghost,), here)
    assert len([s for s in h.fake.sent if s.path == f"/users/{ghost}"]) == 2


async def test_autocomplete_answers_within_its_budget_and_finishes_loading_behind(h: Any) -> None:
    await fakes.challenge_and_accept(h, size=9)
    h.bot.get_cog("PlayCog").autocomplete_budget = 0  # as if the game were still loading
    typed = fakes.opt("point", " C4 ", 3, focused=True)
    [answer] = await h.run(h.payloads.command("move", ALICE, [typed], autocomplete=True))
    assert answer.choices == [{"name": "c4", "value": "c4"}], "what was typed, to submit"
    h.bot.get_cog("PlayCog").autocomplete_budget = 1.0
    [answer] = await h.run(h.payloads.command("move", ALICE, [typed], autocomplete=True))
    assert [c["value"] for c in answer.choices] == ["c4"]


# ----- a restart over cold, large games ---------------------------------------------------------
def naked_diagonal_line() -> list[str]:
    """120 moves of a legal random 13×13 Naked Diagonal game."""
    rng = random.Random(5)
    game = new_game("nakeddiagonal", 13)
    while not game.is_over and len(game.moves) < 120:
        game.play(rng.choice(game.legal_moves()))
    return list(game.moves)


async def fill(service: Any, channels: list[int], moves: list[str], finish: bool) -> None:
    for channel in channels:
        challenge = await service.create_challenge(
            GUILD, channel, ALICE.id, BOB.id, "nakeddiagonal", 13
        )
        await service.accept_challenge(challenge.id, BOB.id)
        for move in moves:
            info = await service.get_game(channel)
            await service.play_move(channel, info.to_move_id, move)
        if finish:
            await service.resign(channel, ALICE.id)


@pytest.mark.slow
async def test_first_responses_stay_fast_after_a_restart_over_cold_games(
    db_path: Path, clock: Any
) -> None:
    line = await asyncio.to_thread(naked_diagonal_line)  # seconds of search: off the loop
    first = await fakes.open_harness(db_path, clock)
    finished = [CHANNEL + 100 + i for i in range(12)]
    await fill(first.service, finished, line, finish=True)
    await fill(first.service, [CHANNEL], line, finish=False)
    await first.close()

    second = await fakes.open_harness(db_path, clock)  # a new process: no engine is cached
    try:
        mover = ALICE if len(line) % 2 == 0 else BOB
        timings = {}
        for name, payload in (
            ("games", second.payloads.command("games", ALICE)),
            ("move", second.payloads.command("move", mover, [fakes.opt("point", "zz")])),
            ("board", second.payloads.command("board", CAROL)),
        ):
            start = time.perf_counter()
            # The first response is what is timed; the rest (replaying 120 Naked Diagonal moves
            # cold, drawing a 13×13 board) runs off the loop and may take seconds on a busy host.
            sent = await second.run(payload, timeout=120)
            timings[name] = sent[0].at - start
            assert sent[0].kind == "defer", (name, [s.kind for s in sent])
        typed = fakes.opt("point", "a", 3, focused=True)
        start = time.perf_counter()
        [answer] = await second.run(
            second.payloads.command("move", mover, [typed], autocomplete=True), timeout=120
        )
        timings["autocomplete"] = answer.at - start
        assert answer.kind == "autocomplete" and answer.choices
        assert all(seconds < 1.0 for seconds in timings.values()), timings
    finally:
        await second.close()


async def test_games_are_listed_in_pages_whose_buttons_survive_a_restart(
    db_path: Path, clock: Any
) -> None:
    discord_side = fakes.FakeDiscord()
    first = await fakes.open_harness(db_path, clock, fake=discord_side)
    for i in range(18):
        channel = CHANNEL + 200 + i
        challenge = await first.service.create_challenge(
            GUILD, channel, ALICE.id, BOB.id, "minefield", 5
        )
        await first.service.accept_challenge(challenge.id, BOB.id)
        if i % 3:
            await first.service.resign(channel, BOB.id)
        clock.advance(minutes=1)  # distinct update times: a stable newest-first order
    defer, page_one = await first.command("games", ALICE)
    assert defer.ephemeral and page_one.ephemeral
    lines = page_one.content.splitlines()
    assert len(lines) == 16 and lines[-1] == "More with the button below."
    # the games waiting longest on Alice first (at most 5), then the others, newest first
    numbers = [line.split()[0] for line in lines]
    assert numbers[:7] == ["**Your", "#1", "#4", "#7", "#10", "#13", "**Your"]
    assert numbers[7:15] == ["#18", "#17", "#16", "#15", "#14", "#12", "#11", "#9"]
    assert "won" in page_one.content
    assert "your move" in page_one.content and page_one.pingable == set()
    next_game, next_id = page_one.custom_ids
    assert next_game == f"cp:nextgame:{ALICE.id}"
    [active] = (await first.command("admin active", ADMIN))[1:]
    assert len(active.content.splitlines()) == 6  # 6 of 18 games are still running
    await first.close()

    second = await fakes.open_harness(db_path, clock, fake=discord_side)
    refused = fakes.refusal(await second.click(next_id, BOB))
    assert "someone else" in refused.content
    [page_two] = await second.click(next_id, ALICE)
    assert page_two.kind == "update" and page_two.custom_ids == [next_game]
    numbers = [line.split()[0] for line in page_two.content.splitlines()]
    assert numbers == ["#8", "#6", "#5", "#3", "#2"]  # #7, #4, #1 are on the first page
    await second.close()


@pytest.mark.parametrize(
    ("where", "command"),
    [("dm", "analyse"), ("group", "analyse"), ("guild", "challenge"), ("guild", "puzzle")],
)
async def test_a_command_that_needs_the_bots_own_posts_is_refused_and_changes_nothing(
    h: Any, where: str, command: str
) -> None:
    """A user install reaches DMs, group DMs and servers that never added the bot: a command
    that needs the bot's own posts is refused there with where to play, before any write
    (games themselves are played in DMs: tests/discord/test_dm_games.py, and puzzles solved:
    tests/discord/test_dm_puzzles.py)."""
    options = [fakes.opt("game", "minefield"), fakes.opt("size", 5, 4)] if where == "guild" else []
    payload = fakes.user_installed(h.payloads.command(command, ALICE, options), ALICE, where)
    reply = fakes.refusal(await h.run(payload))
    if where == "guild":
        assert reply.content.startswith("Crosspath is not installed in this server"), reply
    else:
        root = command.split()[0]
        expected = f"/{root} works only in a server that added Crosspath"
        assert reply.content.startswith(expected), reply
    assert await h.service.challenges.open_challenges(fakes.GUILD) == []
    assert await h.service.challenges.pending_challenges(fakes.GUILD, ALICE.id) == []


@pytest.mark.parametrize(
    "owners",
    [{}, {"0": str(fakes.GUILD), "1": str(ALICE.id)}],
    ids=["no owners named", "installed by the server and the player"],
)
async def test_a_server_that_installed_crosspath_plays_whatever_else_is_installed(
    h: Any, owners: dict[str, str]
) -> None:
    payload = h.payloads.command("challenge", ALICE, [fakes.opt("game", "minefield")])
    payload["authorizing_integration_owners"] = owners
    [posted] = await h.run(payload)
    assert posted.kind == "reply" and not posted.ephemeral and posted.custom_ids


@pytest.mark.parametrize("where", ["dm", "group"])
async def test_help_rules_and_notify_answer_in_a_dm_and_a_group_dm(h: Any, where: str) -> None:
    sent = await h.run(fakes.user_installed(h.payloads.command("help", ALICE), ALICE, where))
    assert [s.kind for s in sent] == ["reply"] and sent[0].ephemeral
    assert sent[0].embeds[0]["title"] == "Crosspath"
    rules = h.payloads.command("rules", ALICE, [fakes.opt("game", "crosscut")])
    [answer] = await h.run(fakes.user_installed(rules, ALICE, where))
    assert answer.kind == "reply" and answer.ephemeral and answer.files
    notify = h.payloads.command("notify", ALICE, [fakes.opt("mode", "dm")])
    [answer] = await h.run(fakes.user_installed(notify, ALICE, where))
    assert answer.ephemeral and (await h.service.notices.notice_prefs(ALICE.id)).mode == "dm"
    posted = [s for s in h.fake.sent if s.method == "POST" and "/channels/" in s.path]
    assert posted == []  # nothing the bot cannot send from a user install


async def test_game_numbers_autocomplete_over_the_players_games(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    option = fakes.opt("game", "", 4, focused=True)
    [answer] = await h.run(h.payloads.command("board", BOB, [option], autocomplete=True))
    assert answer.choices == [{"name": f"#{info.id} Minefield 5×5 (playing)", "value": info.id}]
    [answer] = await h.run(h.payloads.command("board", CAROL, [option], autocomplete=True))
    assert answer.choices == [], "only the player's own games"
    sent = await h.command("board", CAROL, game=info.id)
    assert [s.kind for s in sent] == ["defer", "followup"] and sent[1].files
