"""At the wire: open challenges, ``/challenges`` and its buttons, ``/abort`` and its answer,
and game threads by default for a new server (with the admins' note when they can't be made).

A real bot over a real store; only discord.py's HTTP session and gateway are faked.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import discord_fakes as fakes
import loop_guard as guard
from discord_fakes import ALICE, BOB, CAROL

from bot.discord.play.ai_opponent import in_process_move

CHANNEL, OTHER_CHANNEL, GUILD = fakes.CHANNEL, fakes.OTHER_CHANNEL, fakes.GUILD
h = fakes.h
loop_guard = guard.loop_guard
close_harnesses = fakes.close_harnesses
COMPUTER = fakes.Player(fakes.APP_ID, "crosspath")
THREAD_PERMISSIONS = fakes.CREATE_PUBLIC_THREADS | fakes.SEND_MESSAGES_IN_THREADS


def challenge_id(custom_id: str) -> int:
    return int(custom_id.rsplit(":", 1)[1])


async def play_turns(h: Any, count: int, channel: int = CHANNEL) -> Any:
    """``count`` Minefield moves (a turn each) through ``/move``, each the first legal one."""
    for _ in range(count):
        info = await h.service.get_game(channel)
        point = (await h.service.position(info.id)).legal_moves()[0]
        player = ALICE if info.to_move_id == ALICE.id else BOB
        sent = await h.command("move", player, point=point, channel_id=channel)
        assert any(s.kind == "channel_message" for s in sent), sent
    return await h.service.get_game(channel)


# ----- open challenges and /challenges --------------------------------------------------------
async def test_an_open_challenge_is_taken_once(h: Any) -> None:
    [posted] = await h.command("challenge", ALICE, game="minefield", size=5)
    assert posted.content.startswith("Anyone:") and posted.pingable == set()
    accept = posted.custom_ids[0]
    assert [c.split(":")[2] for c in posted.custom_ids] == ["accept", "cancel"]
    refused = fakes.refusal(await h.click(accept, ALICE))
    assert "your own" in refused.content
    sent = await h.click(accept, CAROL)
    assert sent[0].kind == "update" and "Accepted by" in sent[0].embed_text()
    info = await h.service.get_game(CHANNEL)
    assert set(info.player_ids) == {ALICE.id, CAROL.id}
    # Bob's client still shows the old message with its Accept button
    late = fakes.refusal(await h.click(accept, BOB))
    assert "another player already took" in late.content
    assert (await h.service.get_game(CHANNEL)).id == info.id


def listed_ids(content: str) -> list[int]:
    return [
        int(line.split("#")[1].split(":")[0])
        for line in content.splitlines()
        if line.startswith("Challenge #")
    ]


async def test_challenges_pages_with_previous_and_next_after_a_restart(
    db_path: Path, clock: Any
) -> None:
    discord_side = fakes.FakeDiscord()
    first = await fakes.open_harness(db_path, clock, fake=discord_side)
    ids = []
    for n in range(13):  # thirteen challenges to Bob, in as many channels
        challenge = await first.service.create_challenge(
            GUILD, CHANNEL + 10 + n, ALICE.id, BOB.id, "minefield", 5, "me", "none"
        )
        ids.append(challenge.id)
    listing = (await first.command("challenges", BOB))[-1]
    assert listed_ids(listing.content) == ids[:10]
    assert "More with the buttons below." in listing.content
    assert listing.custom_ids[-1] == f"cp:chalpage:{BOB.id}:next:{ids[9]}"
    assert not any(":prev:" in c for c in listing.custom_ids)  # the first page
    assert len(listing.custom_ids) == 10 * 2 + 1  # Accept and Decline each, and Next
    await first.close()

    second = await fakes.open_harness(db_path, clock, fake=discord_side)  # a restart
    refused = fakes.refusal(await second.click(f"cp:chalpage:{BOB.id}:next:{ids[9]}", CAROL))
    assert "belongs to someone else" in refused.content
    [page] = await second.click(f"cp:chalpage:{BOB.id}:next:{ids[9]}", BOB)
    assert page.kind == "update" and listed_ids(page.content) == ids[10:]
    assert page.custom_ids[-1] == f"cp:chalpage:{BOB.id}:prev:{ids[10]}"
    assert not any(":next:" in c for c in page.custom_ids)  # the last page
    # one challenge of the first page is gone meanwhile: Previous shows the ten before
    await second.service.cancel_challenge(ids[0], ALICE.id)
    [back] = await second.click(f"cp:chalpage:{BOB.id}:prev:{ids[10]}", BOB)
    assert listed_ids(back.content) == ids[1:10]
    assert back.custom_ids[-1] == f"cp:chalpage:{BOB.id}:next:{ids[9]}"
    assert not any(":prev:" in c for c in back.custom_ids)
    # the list's own buttons still act on a page reached with the buttons
    sent = await second.click(f"cp:chals:decline:{ids[5]}", BOB)
    assert (await second.service.challenges.get_challenge(ids[5])).status == "declined"
    assert any(s.kind == "edit_original" for s in sent)
    await second.close()


async def test_challenges_lists_with_buttons_that_act_and_refresh(h: Any) -> None:
    [open_one] = await h.command("challenge", ALICE, game="minefield", size=5)
    [to_bob] = await h.command(
        "challenge", CAROL, game="crosscut", opponent=BOB, channel_id=OTHER_CHANNEL
    )
    [by_bob] = await h.command("challenge", BOB, game="minefield", opponent=CAROL, size=5)
    ids = [challenge_id(p.custom_ids[0]) for p in (open_one, to_bob, by_bob)]
    sent = await h.command("challenges", BOB, channel_id=OTHER_CHANNEL)
    assert [s.kind for s in sent] == ["defer", "followup"]
    listing = sent[-1]
    assert listing.ephemeral and listing.pingable == set()
    lines = [line for line in listing.content.splitlines() if line.startswith("Challenge #")]
    assert [int(line.split("#")[1].split(":")[0]) for line in lines] == ids
    assert "open to anyone" in lines[0] and "to you" in lines[1] and "from you" in lines[2]
    assert listing.custom_ids == [
        f"cp:chals:accept:{ids[0]}",
        f"cp:chals:accept:{ids[1]}",
        f"cp:chals:decline:{ids[1]}",
        f"cp:chals:cancel:{ids[2]}",
    ]

    # Cancel from the list: the list is re-read and the challenge's own message loses its
    # buttons
    sent = await h.click(f"cp:chals:cancel:{ids[2]}", BOB)
    refreshed = next(s for s in sent if s.kind == "edit_original")
    assert f"You cancelled challenge #{ids[2]}" in refreshed.content
    assert f"cp:chals:cancel:{ids[2]}" not in refreshed.custom_ids
    own = next(s for s in sent if s.kind == "edit_message")
    assert own.path.endswith(f"/messages/{h.fake.message_with(by_bob.custom_ids[0])['id']}")
    assert own.custom_ids == [] and "Cancelled by" in own.embed_text()
    assert (await h.service.challenges.get_challenge(ids[2])).status == "cancelled"

    # Accept the open one from a list shown in another channel: the game is played where the
    # challenge was made
    sent = await h.click(f"cp:chals:accept:{ids[0]}", BOB)
    info = await h.service.get_game(CHANNEL)
    assert info is not None and set(info.player_ids) == {ALICE.id, BOB.id}
    board = next(s for s in sent if s.kind == "channel_message")
    assert board.channel_id == CHANNEL and f"Game #{info.id} starts" in board.content
    refreshed = next(s for s in sent if s.kind == "edit_original")
    assert f"You accepted challenge #{ids[0]}" in refreshed.content
    assert refreshed.custom_ids == [f"cp:chals:accept:{ids[1]}", f"cp:chals:decline:{ids[1]}"]

    # Decline the last one; the list is then empty
    sent = await h.click(f"cp:chals:decline:{ids[1]}", BOB)
    refreshed = next(s for s in sent if s.kind == "edit_original")
    assert "No pending challenges" in refreshed.content and refreshed.custom_ids == []
    assert (await h.service.challenges.get_challenge(ids[1])).status == "declined"


async def test_a_list_button_works_after_a_restart(db_path: Path, clock: Any) -> None:
    first = await fakes.open_harness(db_path, clock)
    [posted] = await first.command("challenge", ALICE, game="minefield", size=5)
    await first.command("challenges", CAROL)
    listing = first.fake.last("followup")
    await first.close()
    second = await fakes.open_harness(db_path, clock)
    try:
        custom_id = f"cp:chals:accept:{challenge_id(posted.custom_ids[0])}"
        await second.run(second.payloads.button(custom_id, CAROL, message=listing_message(listing)))
        info = await second.service.get_game(CHANNEL)
        assert info is not None and set(info.player_ids) == {ALICE.id, CAROL.id}
    finally:
        await second.close()


def listing_message(listing: Any) -> dict[str, Any]:
    """The ephemeral list as Discord shows it with a press (author: the bot)."""
    message = fakes.message_payload(copy.deepcopy(listing.message), CHANNEL, 640000000000000001)
    message["flags"] = 64
    return message


async def test_a_forged_list_button_reaches_nothing(h: Any, snapshot: Any) -> None:
    [posted] = await h.command("challenge", ALICE, game="minefield", size=5)
    target = challenge_id(posted.custom_ids[0])
    await fakes.challenge_and_accept(h)  # a game list of Bob's would number game #1
    await h.command("challenges", CAROL, channel_id=OTHER_CHANNEL)
    listing = h.fake.last("followup")
    before = snapshot()
    # the real list names the challenge, but the press is forged onto other messages of the
    # bot: one naming no challenge, and a game list naming game numbers
    others = [
        h.fake.posted_earlier(OTHER_CHANNEL, {"content": "Accept?"}),
        h.fake.posted_earlier(OTHER_CHANNEL, {"content": f"#{target} Minefield 5×5 vs x"}),
    ]
    for other in others:
        forged = {**copy.deepcopy(other)}
        forged["components"] = fakes.message_with_buttons(f"cp:chals:accept:{target}")
        sent = await h.run(h.payloads.button(f"cp:chals:accept:{target}", CAROL, message=forged))
        assert "another list" in fakes.refusal(sent).content
    assert snapshot() == before
    assert f"Challenge #{target}:" in listing.content


# ----- /abort ---------------------------------------------------------------------------------
async def test_abort_alone_before_two_turns_each(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    await play_turns(h, 1)
    sent = await h.command("abort", BOB)
    assert sent[0].kind == "reply" and not sent[0].ephemeral and sent[0].pingable == set()
    assert f"aborted game #{info.id}" in sent[0].content
    board = next(s for s in sent if s.kind == "channel_message")
    assert "before both players had made two turns" in board.content
    ended = await h.service.get_game_by_id(info.id)
    assert ended.status == "aborted" and ended.result.unrated_reason == "aborted"
    assert await h.service.get_game(CHANNEL) is None


async def test_abort_offer_declined_then_stale_then_accepted(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    game = await play_turns(h, 4)
    [offer] = await h.command("abort", ALICE)
    assert offer.pingable == {BOB.id} and "offers to abort" in offer.content
    assert offer.custom_ids == [
        f"cp:abort:yes:{info.id}:{game.version}",
        f"cp:abort:no:{info.id}:{game.version}",
    ]
    own = fakes.refusal(await h.click(offer.custom_ids[0], ALICE))
    assert "your own" in own.content
    [declined] = await h.click(offer.custom_ids[1], BOB)
    assert declined.kind == "update" and "declined" in declined.content
    assert declined.custom_ids == []
    again = fakes.refusal(await h.command("abort", ALICE))
    assert "declined at this position" in again.content

    game = await play_turns(h, 1)  # Alice's move: a new position
    [offer] = await h.command("abort", BOB)
    await play_turns(h, 1)  # and another: the offer lapses
    stale = fakes.refusal(await h.click(offer.custom_ids[0], ALICE))
    assert "out of date" in stale.content
    assert (await h.service.get_game(CHANNEL)).is_active

    [offer] = await h.command("abort", BOB)
    sent = await h.click(offer.custom_ids[0], ALICE)
    assert sent[0].kind == "update" and "agreed to abort" in sent[0].content
    board = next(s for s in sent if s.kind == "channel_message")
    assert "aborted by agreement" in board.content
    assert (await h.service.get_game_by_id(info.id)).status == "aborted"


# ----- threads for a new server ---------------------------------------------------------------
async def test_a_new_server_plays_in_threads(db_path: Path, clock: Any) -> None:
    h = await fakes.open_harness(db_path, clock, new_server=True)
    try:
        assert (await h.service.moderation.get_settings(GUILD)).use_threads
        await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
        sent = await h.click(h.fake.last("reply").custom_ids[0], BOB)
        assert [s.kind for s in sent] == [
            "defer_update",
            "thread",
            "edit_original",
            "channel_message",
        ]
        thread_id = sent[1].message_id
        assert await h.service.get_game(thread_id) is not None
        assert await h.service.get_game(CHANNEL) is None
        assert "admins" not in sent[-1].content
    finally:
        await h.close()


async def test_without_thread_permissions_the_game_is_here_with_a_note(
    db_path: Path, clock: Any
) -> None:
    h = await fakes.open_harness(db_path, clock, new_server=True)
    try:
        h.payloads = fakes.Payloads(h.fake, fakes.BOT_PERMISSIONS & ~THREAD_PERMISSIONS)
        [posted] = await h.command("challenge", ALICE, game="minefield", size=5)
        sent = await h.click(posted.custom_ids[0], CAROL)
        assert "thread" not in [s.kind for s in sent]
        board = next(s for s in sent if s.kind == "channel_message")
        assert board.channel_id == CHANNEL
        assert "Note for this server's admins" in board.content
        assert "Create Public Threads" in board.content and board.pingable <= {ALICE.id, CAROL.id}
        assert (await h.service.get_game(CHANNEL)) is not None
    finally:
        await h.close()


async def test_the_computer_agrees_to_an_abort_offer(db_path: Path, clock: Any) -> None:
    h = await fakes.open_harness(db_path, clock)
    h.bot.computer.choose = in_process_move
    try:
        await h.command("challenge", ALICE, game="minefield", opponent=COMPUTER, size=7, level=1)
        for _ in range(2):  # the computer answers each move before the command's tasks end
            info = await h.service.get_game(CHANNEL)
            assert info.to_move_id == ALICE.id
            point = (await h.service.position(info.id)).legal_moves()[0]
            await h.command("move", ALICE, point=point)
        info = await h.service.get_game(CHANNEL)
        assert info.to_move_id == ALICE.id and len(info.moves) == 4
        sent = await h.command("abort", ALICE)
        assert "the computer agreed" in sent[0].content and sent[0].custom_ids == []
        ended = await h.service.get_game_by_id(info.id)
        assert ended.status == "aborted"
        history = (await h.service.games.game_record(info.id)).history
        assert [e.kind for e in history][-2:] == ["abort_offered", "abort"]
    finally:
        await h.bot.computer.idle()
        await h.close()


async def test_an_abort_after_the_deadline_announces_the_loss_on_time(h: Any, clock: Any) -> None:
    info = await fakes.challenge_and_accept(h, time="1h")
    clock.advance(hours=2)
    sent = await h.command("abort", BOB)
    board = next(s for s in sent if s.kind == "channel_message")
    assert "ran out of time" in board.content
    assert "lost on time" in fakes.refusal([s for s in sent if s.kind != "channel_message"]).content
    ended = await h.service.get_game_by_id(info.id)
    assert ended.result.reason == "time" and ended.result.loser_id == ALICE.id


async def test_a_list_accept_after_someone_else_took_it_is_refused_privately(h: Any) -> None:
    [posted] = await h.command("challenge", ALICE, game="minefield", size=5)
    target = challenge_id(posted.custom_ids[0])
    await h.command("challenges", CAROL, channel_id=OTHER_CHANNEL)
    await h.click(posted.custom_ids[0], BOB)  # Bob takes it on the challenge itself
    sent = await h.click(f"cp:chals:accept:{target}", CAROL)
    assert [s.kind for s in sent] == ["defer_update", "followup"]
    assert sent[-1].ephemeral and "another player already took" in sent[-1].content
    assert not any(s.kind == "thread" for s in sent)
