"""Persistent buttons act only on the bot's own messages, in the server and channel they are for.

A button's custom id carries what it acts on (``cp:chal:accept:<id>``, ``cp:resign:yes:<game>:
<version>``, ...) and ids are sequential.  discord.py builds a dynamic item only when the
message in the payload shows the pressed id; these tests forge the payload the way the outside
audit did (a message of the bot, or of someone else, made to show another id) and check that
each button then refuses without changing anything: the message must be the bot's, and a
challenge's buttons act only in the challenge's own server and channel.
"""

from __future__ import annotations

import copy
import logging
import sqlite3
from pathlib import Path
from typing import Any

import discord_fakes as fakes
import loop_guard as guard
import pytest
from discord_fakes import ADMIN, ALICE, BOB, CAROL

CHANNEL, OTHER_CHANNEL, GUILD = fakes.CHANNEL, fakes.OTHER_CHANNEL, fakes.GUILD
OTHER_GUILD = 800000000000000777
h = fakes.h
loop_guard = guard.loop_guard
close_harnesses = fakes.close_harnesses


def pressed_on(
    h: Any, message: dict[str, Any], custom_id: str, player: Any, **changes: Any
) -> dict[str, Any]:
    """A press of ``custom_id`` on a copy of ``message`` made to show that button (and
    changed by ``changes``, e.g. another author)."""
    forged = {**copy.deepcopy(message), **changes}
    forged["components"] = fakes.message_with_buttons(custom_id)
    return h.payloads.button(custom_id, player, message=forged)


def message_state(h: Any, message_id: int) -> dict[str, Any]:
    return copy.deepcopy(h.fake.messages[message_id])


async def test_a_forged_accept_on_another_challenge_message_changes_nothing(
    h: Any, snapshot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    [first] = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
    [second] = await h.command(
        "challenge", CAROL, game="crosscut", opponent=BOB, channel_id=OTHER_CHANNEL
    )
    first_id = int(first.custom_ids[0].rsplit(":", 1)[1])
    target = h.fake.message_with(second.custom_ids[0])
    before, shown_before = snapshot(), message_state(h, int(target["id"]))

    with caplog.at_level(logging.WARNING, logger="crosspath.discord"):
        sent = await h.run(pressed_on(h, target, f"cp:chal:accept:{first_id}", BOB))

    answer = fakes.refusal(sent)
    assert "another channel" in answer.content
    assert snapshot() == before, "no game started, no challenge answered"
    assert message_state(h, int(target["id"])) == shown_before, "the other message is untouched"
    assert not h.fake.of_kind("thread") and not h.fake.of_kind("channel_message")
    [record] = [r for r in caplog.records if "button pressed" in r.getMessage()]
    assert record.levelno == logging.WARNING and not record.exc_info
    assert record.custom_id == f"cp:chal:accept:{first_id}"  # type: ignore[attr-defined]


async def test_a_forged_accept_on_another_challenge_message_in_the_same_channel(
    h: Any, snapshot: Any
) -> None:
    """Same server, same channel: the message still names its own challenge (its embed
    title says ``challenge #N``), so a press for another challenge is refused there too."""
    [first] = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
    [second] = await h.command("challenge", CAROL, game="crosscut", opponent=BOB)
    first_id = int(first.custom_ids[0].rsplit(":", 1)[1])
    target = h.fake.message_with(second.custom_ids[0])
    before, shown_before = snapshot(), message_state(h, int(target["id"]))
    sent = await h.run(pressed_on(h, target, f"cp:chal:accept:{first_id}", BOB))
    assert "another challenge" in fakes.refusal(sent).content
    assert snapshot() == before
    assert message_state(h, int(target["id"])) == shown_before


async def test_a_forged_accept_on_any_other_message_of_the_bot_is_refused(
    h: Any, snapshot: Any, db_path: Path
) -> None:
    """The challenge stores the id of the message it was posted in: a press on any other
    message (here one of the bot's, in the same channel, naming no challenge) is refused."""
    [reply] = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
    accept = reply.custom_ids[0]
    challenge_id = int(accept.rsplit(":", 1)[1])
    posted = h.fake.message_with(accept)
    assert (await h.service.challenges.get_challenge(challenge_id)).message_id == int(posted["id"])
    before = snapshot()
    for action in ("accept", "decline", "cancel"):
        other = h.fake.posted_earlier(CHANNEL, {"content": "Accept?"})
        presser = ALICE if action == "cancel" else BOB
        custom_id = f"cp:chal:{action}:{challenge_id}"
        sent = await h.run(pressed_on(h, other, custom_id, presser))
        assert "another challenge" in fakes.refusal(sent).content
        assert snapshot() == before
    # a challenge stored before message ids were (no id: NULL) falls back to the title check
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE challenges SET message_id = NULL WHERE id = ?", (challenge_id,))
    conn.close()
    old = h.fake.posted_earlier(CHANNEL, {"content": "Accept?"})
    await h.run(pressed_on(h, old, accept, BOB))
    assert (await h.service.challenges.get_challenge(challenge_id)).status == "accepted"


async def test_a_challenge_button_pressed_in_another_server_is_refused(
    h: Any, snapshot: Any
) -> None:
    await h.command("admin settings set", ADMIN, threads=True)
    [reply] = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
    accept = reply.custom_ids[0]
    before = snapshot()

    abroad = h.fake.posted_earlier(OTHER_CHANNEL + 1, {"content": "a message in server B"})
    abroad["guild_id"] = str(OTHER_GUILD)
    payload = pressed_on(h, abroad, accept, BOB)
    payload["guild_id"] = str(OTHER_GUILD)
    payload["channel"]["guild_id"] = str(OTHER_GUILD)
    answer = fakes.refusal(await h.run(payload))
    assert "another channel" in answer.content
    assert snapshot() == before
    assert not h.fake.of_kind("thread"), "no thread was opened in the other server"

    # the real button, on its own message, still works
    await h.click(accept, BOB)
    assert await h.service.challenges.open_challenges(GUILD) == []
    assert (
        await h.service.challenges.get_challenge(int(accept.rsplit(":", 1)[1]))
    ).status == "accepted"


async def test_every_button_refuses_a_message_that_is_not_the_bots(
    h: Any, snapshot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    info = await fakes.challenge_and_accept(h)
    await h.command("move", ALICE, point="c3")
    [challenge] = await h.command("challenge", CAROL, game="crosscut", channel_id=OTHER_CHANNEL)
    [request] = await h.command("takeback", ALICE)
    game = await h.service.get_game(CHANNEL)
    theirs = h.fake.posted_earlier(CHANNEL, {"content": "another app's message"})
    someone = {**fakes.BOT_USER, "id": "720000000000000009", "username": "otherbot"}
    forged = [
        (f"cp:chal:cancel:{challenge.custom_ids[0].rsplit(':', 1)[1]}", CAROL),
        (f"cp:resign:yes:{info.id}:{game.version}", BOB),
        (request.custom_ids[0], BOB),
        (f"cp:list:mine:{ALICE.id}:0.0", ALICE),
        ("cp:lb:minefield:0", ALICE),
        (f"cp:rr:minefield:{ADMIN.id}", ADMIN),
        ("cp:retired:1", ALICE),
    ]
    before = snapshot()
    with caplog.at_level(logging.WARNING, logger="crosspath.discord"):
        for custom_id, player in forged:
            sent = await h.run(pressed_on(h, theirs, custom_id, player, author=someone))
            answer = fakes.refusal(sent)
            assert "isn't one of my buttons" in answer.content, custom_id
    assert snapshot() == before
    assert (await h.service.get_game(CHANNEL)).is_active
    assert len([r for r in caplog.records if "button pressed" in r.getMessage()]) == len(forged)
