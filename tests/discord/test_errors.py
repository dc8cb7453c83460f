"""Every refusal is an ephemeral reply that says exactly what is wrong and changes nothing.

Also: nothing leaves a player with "This interaction failed" - unexpected errors are logged
with their context (never the token) and answered with an apology - and a board that Discord
refuses to post after a commit leaves the move standing, recoverable with /board.
"""

from __future__ import annotations

import logging
from typing import Any

import discord_fakes as fakes
import loop_guard as guard
import pytest
from discord_fakes import ADMIN, ALICE, BOB, CAROL

from bot.discord.replies import APOLOGY

CHANNEL, OTHER_CHANNEL = fakes.CHANNEL, fakes.OTHER_CHANNEL
h = fakes.h
loop_guard = guard.loop_guard  # every test fails if a callback blocks the loop > 0.5 s
close_harnesses = fakes.close_harnesses


def only_refusal(sent: list[Any]) -> str:
    """The single private answer an erroneous command must produce; returns its text."""
    answer = fakes.refusal(sent)
    assert answer.content != APOLOGY
    return str(answer.content)


async def test_wrong_player_wrong_turn_and_bad_points_change_nothing(h: Any, snapshot: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    assert info.to_move_id == ALICE.id
    before = snapshot()

    text = only_refusal(await h.command("move", CAROL, point="c3"))
    assert "not playing" in text
    text = only_refusal(await h.command("move", BOB, point="c3"))
    assert "turn" in text.lower()
    text = only_refusal(await h.command("move", ALICE, point="z9"))
    assert "z9" in text
    text = only_refusal(await h.command("move", ALICE, point="swap"))
    assert "swap" in text.lower()
    assert snapshot() == before
    assert not h.fake.of_kind("channel_message")[1:], "no board was posted for a refusal"


async def test_occupied_point_names_the_point(h: Any) -> None:
    await fakes.challenge_and_accept(h)
    await h.command("move", ALICE, point="c3")
    text = only_refusal(await h.command("move", BOB, point="c3"))
    assert "c3" in text and "occupied" in text


async def test_no_game_here(h: Any) -> None:
    for command, options in (
        ("move", {"point": "c3"}),
        ("board", {}),
        ("resign", {}),
        ("takeback", {}),
    ):
        text = only_refusal(await h.command(command, ALICE, channel_id=OTHER_CHANNEL, **options))
        assert "no game" in text.lower(), command


async def test_ended_game_refuses_moves_and_buttons(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    [confirm] = await h.command("resign", BOB)
    yes = confirm.custom_ids[0]
    await h.click(yes, BOB)
    assert (await h.service.get_game_by_id(info.id)).status == "finished"
    assert "over" in only_refusal(await h.command("move", ALICE, point="c3"))
    # the same confirmation button again: the game is over, so it is stale
    assert "out of date" in only_refusal(await h.click(yes, BOB))


async def test_stale_resign_button_after_a_move(h: Any, snapshot: Any) -> None:
    await fakes.challenge_and_accept(h)
    [confirm] = await h.command("resign", BOB)
    await h.command("move", ALICE, point="c3")
    before = snapshot()
    text = only_refusal(await h.click(confirm.custom_ids[0], BOB))
    assert "moved on" in text
    assert snapshot() == before


async def test_challenge_buttons_only_for_the_right_people(h: Any, snapshot: Any) -> None:
    [reply] = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)
    accept, decline, cancel = reply.custom_ids
    before = snapshot()
    assert only_refusal(await h.click(accept, CAROL))
    assert only_refusal(await h.click(decline, CAROL))
    assert only_refusal(await h.click(cancel, BOB))
    assert only_refusal(await h.click(accept, ALICE))
    assert snapshot() == before
    # clicked on the very message the bot posted (components and all): exactly one answer
    [update] = await h.click(cancel, ALICE)
    assert (
        update.kind == "update" and update.custom_ids == [] and "Cancelled" in update.embed_text()
    )
    text = only_refusal(await h.click(accept, BOB))
    assert text


async def test_self_challenge_and_bad_size_and_bad_clock(h: Any) -> None:
    assert only_refusal(await h.command("challenge", ALICE, game="minefield", opponent=ALICE))
    text = only_refusal(await h.command("challenge", ALICE, game="crosscut", opponent=BOB, size=19))
    assert "19" in text
    text = only_refusal(await h.command("challenge", ALICE, game="minefield", time="soon"))
    assert "soon" in text
    # a client may send more than the option's 20 characters: the refusal still quotes little
    text = only_refusal(await h.command("challenge", ALICE, game="minefield", time="y" * 5000))
    assert "yyyy" in text and len(text) < 300


async def test_admin_commands_are_refused_to_non_admins(h: Any, snapshot: Any) -> None:
    await fakes.challenge_and_accept(h)
    before = snapshot()
    for name, options in (
        ("admin settings view", {}),
        ("admin settings set", {"threads": True}),
        ("admin abort", {}),
        ("admin award", {"player": BOB}),
        ("admin forfeit", {"player": ALICE}),
        ("admin active", {}),
    ):
        text = only_refusal(await h.command(name, ALICE, **options))
        assert "Manage Server" in text, name
    assert snapshot() == before


async def test_admin_can_abort_and_list(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    defer, listing = await h.command("admin active", ADMIN)
    assert defer.kind == "defer" and defer.ephemeral, "a list query: Discord is answered first"
    assert listing.ephemeral and f"#{info.id}" in listing.content
    sent = await h.command("admin abort", ADMIN, reason="testing")
    assert sent[0].ephemeral and "aborted" in sent[0].content
    assert "aborted" in h.fake.last("channel_message").content
    assert (await h.service.get_game_by_id(info.id)).status == "aborted"


async def test_board_refused_by_discord_after_commit_move_stands_and_board_recovers(
    h: Any,
) -> None:
    await fakes.challenge_and_accept(h)
    h.fake.refuse_posts_in.add(CHANNEL)
    sent = await h.command("move", ALICE, point="c3")
    assert [s.kind for s in sent] == ["defer", "channel_message", "followup"]
    assert sent[1].status == 403
    assert sent[2].ephemeral and "/board" in sent[2].content
    info = await h.service.get_game(CHANNEL)
    assert info.moves == ("c3",), "the move stands"
    h.fake.refuse_posts_in.clear()
    sent = await h.command("board", BOB)
    assert [s.kind for s in sent] == ["defer", "followup"]
    assert sent[1].files[0].data.startswith(b"\x89PNG")
    assert "placed on c3" in sent[1].embed_text()
    assert sent[1].pingable == set(), "/board re-posts without pinging anyone"


async def test_unexpected_error_is_logged_with_context_and_apologised_for(
    h: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(channel_id: int) -> None:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(h.service, "get_game", broken)
    with caplog.at_level(logging.ERROR, logger="crosspath.discord"):
        reply = fakes.refusal(await h.command("board", ALICE))
    assert reply.content == APOLOGY
    [record] = [r for r in caplog.records if r.name == "crosspath.discord"]
    assert record.exc_info and "database on fire" in str(record.exc_info[1])
    assert record.command == "board" and record.user_id == ALICE.id  # type: ignore[attr-defined]
    assert record.channel_id == CHANNEL  # type: ignore[attr-defined]
    assert "token" not in caplog.text.lower()


async def test_unexpected_error_in_a_button_is_apologised_for(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    [reply] = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5)

    async def broken(challenge_id: int) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(h.service.challenges, "get_challenge", broken)
    [answer] = await h.click(reply.custom_ids[0], BOB)
    assert answer.kind == "reply" and answer.ephemeral and answer.content == APOLOGY


async def test_missing_bot_permissions_are_explained(h: Any) -> None:
    await fakes.challenge_and_accept(h)
    h.fake.refuse_posts_in.add(CHANNEL)
    sent = await h.command("admin abort", ADMIN)
    assert [s.kind for s in sent] == ["reply", "channel_message", "followup"]
    assert sent[0].ephemeral  # the admin is answered; the announcement was refused
    assert sent[1].status == 403
    assert sent[2].ephemeral and sent[2].content.startswith("The game has ended, but")
    assert "missing the Send Messages, Embed Links or Attach Files" in sent[2].content


async def test_admin_award_forfeit_and_settings(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    sent = await h.command("admin award", ADMIN, player=BOB, reason="walkover")
    assert sent[0].ephemeral and f"awarded to <@{BOB.id}>" in sent[0].content
    ended = await h.service.get_game_by_id(info.id)
    assert ended.result.reason == "award" and ended.result.winner_id == BOB.id
    assert f"awarded the game to <@{BOB.id}>" in h.fake.last("channel_message").content

    info = await fakes.challenge_and_accept(h)
    text = only_refusal(await h.command("admin forfeit", ADMIN, player=CAROL))
    assert "not" in text.lower()
    sent = await h.command("admin forfeit", ADMIN, player=ALICE)
    assert (await h.service.get_game_by_id(info.id)).result.loser_id == ALICE.id

    [saved] = await h.command("admin settings channel", ADMIN, action="allow")
    assert f"<#{CHANNEL}>" in saved.content
    text = only_refusal(
        await h.command("challenge", ALICE, game="minefield", channel_id=OTHER_CHANNEL)
    )
    assert "channel" in text.lower()
    [saved] = await h.command("admin settings size", ADMIN, game="minefield", size=7)
    assert "minefield 7×7" in saved.content
    [view] = await h.command("admin settings view", ADMIN)
    assert "minefield 7×7" in view.content and f"<#{CHANNEL}>" in view.content
    [bad] = await h.command("admin settings set", ADMIN, time="forever")
    assert bad.ephemeral and "forever" in bad.content
    [audit] = await h.command("admin audit", ADMIN)
    assert audit.ephemeral and f"<@{ADMIN.id}>" in audit.content and "walkover" in audit.content
    assert only_refusal(await h.command("admin audit", ALICE))


@pytest.mark.slow  # waits out Discord's 3 s first-response window
async def test_an_expired_interaction_still_posts_the_committed_move(
    h: Any, caplog: pytest.LogCaptureFixture
) -> None:
    await fakes.challenge_and_accept(h)
    h.fake.expire_interactions = True
    sent = await h.command("move", ALICE, point="c3")
    assert [s.kind for s in sent] == ["defer", "channel_message"]
    assert "placed on c3" in sent[1].embed_text()
    assert (await h.service.get_game(CHANNEL)).moves == ("c3",)
    assert "could not defer" in caplog.text


async def test_out_of_range_and_outdated_commands_are_explained(h: Any) -> None:
    [reply] = await h.command("challenge", ALICE, game="minefield", size=99)
    assert reply.ephemeral and "not 99×99" in reply.content
    # a command the client still shows but the bot no longer has
    [reply] = await h.command("teleport", ALICE)
    assert reply.ephemeral and "crosspath sync" in reply.content


async def test_no_game_here_points_to_the_players_games(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    text = only_refusal(await h.command("move", ALICE, point="c3", channel_id=OTHER_CHANNEL))
    assert f"#{info.id} in <#{CHANNEL}>" in text
    text = only_refusal(await h.command("resign", CAROL, channel_id=OTHER_CHANNEL))
    assert "Your games" not in text


@pytest.mark.slow  # waits out Discord's 3 s first-response window
async def test_a_committed_resign_is_announced_even_if_the_click_expired(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    [confirm] = await h.command("resign", BOB)
    h.fake.expire_interactions = True
    sent = await h.click(confirm.custom_ids[0], BOB)
    assert [s.kind for s in sent] == ["update", "channel_message"]
    assert "resigned" in sent[1].content
    assert (await h.service.get_game_by_id(info.id)).status == "finished"


@pytest.mark.slow  # waits out Discord's 3 s first-response window
async def test_a_challenge_nobody_could_see_is_withdrawn(h: Any) -> None:
    h.fake.expire_interactions = True
    await h.command("challenge", ALICE, game="minefield", opponent=BOB)
    assert await h.service.challenges.open_challenges(fakes.GUILD) == []
