"""Whole games in a DM and in a group DM, reached through a user install (issue 47), at the wire.

The bot may only answer interactions there: every board is an interaction's own answer (a
callback or a webhook follow-up, at most five per interaction), the player who did not act
hears of it by DM, and the clock's reminders and losses on time go by DM too.  After every
test, nothing was POSTed to the conversation's ``/messages`` by the bot on its own, and every
callback and follow-up body matches Discord's OpenAPI spec.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord_fakes as fakes
import pytest
import user_install

ALICE, BOB, CAROL = fakes.ALICE, fakes.BOB, fakes.CAROL
close_harnesses = fakes.close_harnesses
WHERE = fakes.DM_WHERE
MENU = "Challenge to a game"


h = user_install.h
check_sent = user_install.check_sent
command, click = fakes.dm_command, fakes.dm_click


def answers(sent: list[Any]) -> list[Any]:
    """The interaction's own answers (not the DMs the bot sent meanwhile)."""
    return [s for s in sent if "/interactions/" in s.path or s.path.startswith("/webhooks/")]


def board_of(sent: list[Any]) -> Any:
    """The one public answer carrying a board."""
    [board] = [s for s in answers(sent) if s.files and not s.ephemeral]
    assert board.embeds
    return board


async def start(h: Any, where: str, **options: Any) -> Any:
    sent = await command(
        h, where, "challenge", ALICE, game="minefield", opponent=BOB, size=5, **options
    )
    [posted] = sent
    assert posted.kind == "reply" and not posted.ephemeral
    assert "Played outside a server: unrated, and not shown on the web." in posted.embed_text()
    assert "Rated: no" in posted.embed_text()
    accept = next(c for c in posted.custom_ids if c.startswith("cp:chal:accept:"))
    sent = await click(h, where, accept, BOB)
    assert answers(sent)[0].kind == "update"  # the challenge message says it was accepted
    first = board_of(sent)
    assert "Game #1 starts" in first.content
    info = await h.service.get_game(WHERE[where])
    assert info is not None and info.outside_servers and not info.rated and not info.public
    return info


def other(user_id: int) -> fakes.Player:
    return BOB if user_id == ALICE.id else ALICE


@pytest.mark.parametrize("where", ["dm", "group"])
async def test_a_whole_game_with_a_clock_and_a_restart_in_the_middle(
    db_path: Path, clock: Any, where: str
) -> None:
    """A whole game in a DM and in a group DM, on a one-day clock: turn DMs, a restart in
    the middle (an old button answered after it, autocomplete), a reminder by DM from the
    restarted bot's clock, and the win told to both."""
    h = await fakes.open_harness(db_path, clock)
    info = await start(h, where, time="1d")
    assert "Your move in Minefield game #1" in h.fake.dms_to(info.to_move_id)[-1].content
    assert f"/channels/@me/{WHERE[where]}/" in h.fake.dms_to(info.to_move_id)[-1].content
    line = fakes.winning_line("minefield", 5, seed=3)
    half = len(line) // 2
    for point in line[:half]:
        mover = ALICE if info.to_move_id == ALICE.id else BOB
        sent = await command(h, where, "move", mover, point=point)
        assert [s.kind for s in answers(sent)] == ["defer", "followup"], sent
        assert not sent[0].ephemeral  # a public "thinking…" the board replaces
        board_of(sent)
        info = await h.service.get_game(WHERE[where])
        dm = h.fake.dms_to(info.to_move_id)[-1]
        assert dm.ok and "Your move" in dm.content and dm.files  # the board, by DM
    # a takeback asked before the restart is answered after it, on the old message
    mover = other(info.to_move_id)
    [asked] = await command(h, where, "takeback", mover)
    refuse = next(c for c in asked.custom_ids if ":no:" in c)
    fake = h.fake
    check_sent(fake)
    await h.close()

    h = await fakes.open_harness(db_path, clock, fake=fake)
    try:
        [answer] = await click(h, where, refuse, other(mover.id))
        assert answer.kind == "update" and "Takeback refused" in answer.content
        # autocomplete of /move works in the DM too
        focused = fakes.opt("point", "", 3, focused=True)
        to_move = ALICE if info.to_move_id == ALICE.id else BOB
        payload = h.payloads.command(
            "move", to_move, [focused], channel_id=WHERE[where], autocomplete=True
        )
        [choices] = await h.run(fakes.user_installed(payload, to_move, where))
        assert choices.kind == "autocomplete" and choices.choices
        # the restarted bot's clock reminds the player to move, by DM
        before = len(h.fake.dms_to(to_move.id))
        clock.advance(hours=13)
        outcomes = await h.bot.get_cog("ClockCog").run_once()
        assert [o.action.kind for o in outcomes] == ["reminder"]
        assert len(h.fake.dms_to(to_move.id)) == before + 1
        assert "reminder" in h.fake.dms_to(to_move.id)[-1].content
        for point in line[half:]:
            mover = ALICE if info.to_move_id == ALICE.id else BOB
            sent = await command(h, where, "move", mover, point=point)
            board = board_of(sent)
            info = await h.service.get_game_by_id(info.id)
        assert info.status == "finished" and info.result is not None
        assert "wins" in board.content
        loser = info.result.loser_id
        assert loser is not None and "wins" in h.fake.dms_to(loser)[-1].content  # told by DM
        assert "Ratings" not in board.embed_text() or "nrated" in board.embed_text()
        assert await h.service.ratings.leaderboard(WHERE[where], "minefield") == []
        check_sent(h.fake)
    finally:
        await h.close()


async def test_a_turn_dm_refused_with_50007_tells_the_mover(h: Any) -> None:
    info = await start(h, "dm")
    h.fake.closed_dms.add(BOB.id)
    assert info.to_move_id == ALICE.id
    sent = await command(h, "dm", "move", ALICE, point="c3")
    kinds = [s.kind for s in answers(sent)]
    assert kinds == ["defer", "followup", "followup"], kinds
    told = answers(sent)[-1]
    assert told.kind == "followup" and told.ephemeral
    assert told.content.startswith(f"I couldn't tell <@{BOB.id}> by direct message")
    assert "next open this conversation" in told.content
    assert [d.status for d in h.fake.dms_to(BOB.id)][-1] == 403
    tried = len(h.fake.dms_to(BOB.id))
    await command(h, "dm", "move", BOB, point="d4")
    sent = await command(h, "dm", "move", ALICE, point="b2")
    assert len(h.fake.dms_to(BOB.id)) == tried, "a DM known to fail is not tried again"
    assert answers(sent)[-1].ephemeral and "I couldn't tell" in answers(sent)[-1].content


async def test_a_group_dm_game_reminds_and_ends_on_time_by_dm(h: Any, clock: Any) -> None:
    info = await start(h, "group", time="1h")
    for mover, point in ((ALICE, "c3"), (BOB, "d4")):
        board_of(await command(h, "group", "move", mover, point=point))
    info = await h.service.get_game(fakes.GROUP_DM)
    assert info.to_move_id == ALICE.id and info.moves == ("c3", "d4")
    cog = h.bot.get_cog("ClockCog")
    before = len(h.fake.dms_to(ALICE.id))
    clock.advance(minutes=35)
    outcomes = await cog.run_once()
    assert [o.action.kind for o in outcomes] == ["reminder"]
    reminder = h.fake.dms_to(ALICE.id)[-1]
    assert len(h.fake.dms_to(ALICE.id)) == before + 1
    assert "reminder: it's your move in Minefield game #1" in reminder.content
    clock.advance(hours=1)
    outcomes = await cog.run_once()
    assert [o.action.kind for o in outcomes] == ["timeout"]
    for player in (ALICE, BOB):
        ended = h.fake.dms_to(player.id)[-1]
        assert "ran out of time" in ended.content and ended.files
    assert await h.service.get_game(fakes.GROUP_DM) is None


async def test_resign_in_a_group_dm_is_confirmed_then_shown_to_all(h: Any) -> None:
    await start(h, "group")
    [asked] = await command(h, "group", "resign", BOB)
    assert asked.ephemeral
    yes = next(c for c in asked.custom_ids if ":yes:" in c)
    sent = await click(h, "group", yes, BOB)
    assert answers(sent)[0].kind == "update"
    assert "resigned" in board_of(sent).content
    assert "resigned" in h.fake.dms_to(ALICE.id)[-1].content


async def test_the_context_menu_challenges_in_a_dm(h: Any) -> None:
    payload = h.payloads.command(MENU, ALICE, members=[BOB], channel_id=fakes.DM_CHANNEL)
    payload["data"].update(name=MENU, type=2, target_id=str(BOB.id), options=[])
    payload = fakes.user_installed(payload, ALICE, "dm")
    payload["data"]["resolved"].pop("members")
    [asked] = await h.run(payload)
    assert asked.kind == "reply" and asked.ephemeral
    select_id = f"cp:menu:challenge:{BOB.id}"
    pick = fakes.user_installed(h.payloads.button(select_id, ALICE), ALICE, "dm")
    pick["data"] = {"custom_id": select_id, "component_type": 3, "values": ["crosscut"]}
    [sizes] = await h.run(pick)
    assert sizes.kind == "update" and sizes.custom_ids == [f"cp:menu:size:{BOB.id}:crosscut"]
    size_id = f"cp:menu:size:{BOB.id}:crosscut"
    pick = fakes.user_installed(h.payloads.button(size_id, ALICE), ALICE, "dm")
    pick["data"] = {"custom_id": size_id, "component_type": 3, "values": ["6"]}
    sent = await h.run(pick)
    [posted] = [s for s in sent if s.kind == "reply"]
    assert not posted.ephemeral and "unrated" in posted.embed_text()
    [challenge] = await h.service.challenges.pending_challenges(fakes.DM_CHANNEL, BOB.id)
    assert challenge.outside_servers and (challenge.game, challenge.size) == ("crosscut", 6)


async def test_the_computer_and_analysis_stay_in_servers(h: Any) -> None:
    computer = fakes.Player(fakes.APP_ID, "crosspath")
    sent = await command(h, "dm", "challenge", ALICE, game="minefield", opponent=computer)
    assert fakes.refusal(sent).content.startswith("The computer plays only in servers")
    sent = await command(h, "dm", "analyse", ALICE)
    refused = fakes.refusal(sent).content
    assert refused.startswith("/analyse works only in a server that added Crosspath")
    assert await h.service.challenges.open_challenges(fakes.DM_CHANNEL) == []


async def test_a_server_that_did_not_add_crosspath_still_refuses_games(h: Any) -> None:
    options = [fakes.opt("game", "minefield"), fakes.opt("size", 5, 4)]
    payload = fakes.user_installed(h.payloads.command("challenge", ALICE, options), ALICE, "guild")
    reply = fakes.refusal(await h.run(payload))
    assert reply.content.startswith("Crosspath is not installed in this server")
    assert await h.service.challenges.open_challenges(fakes.GUILD) == []


async def test_the_reading_commands_answer_in_a_dm(h: Any) -> None:
    info = await start(h, "dm")
    await command(h, "dm", "move", ALICE, point="c3")
    sent = answers(await command(h, "dm", "board", BOB))
    assert any(s.files for s in sent), [s.kind for s in sent]
    sent = answers(await command(h, "dm", "history", BOB))
    assert any("c3" in (s.content + s.embed_text()) for s in sent), [s.content for s in sent]
    sent = answers(await command(h, "dm", "games", BOB))
    assert sent[-1].ephemeral and f"#{info.id}" in sent[-1].content
    sent = answers(await command(h, "dm", "challenges", BOB))
    assert sent[-1].ephemeral
    sent = answers(await command(h, "dm", "board", BOB, game=info.id))
    assert any(s.files for s in sent)


async def test_a_vacation_is_told_to_the_dm_opponent_by_dm(h: Any) -> None:
    await start(h, "group", time="1d")
    before = len(h.fake.dms_to(BOB.id))
    await command(h, "group", "vacation start", ALICE, days=2)
    [told] = h.fake.dms_to(BOB.id)[before:]
    assert "is on vacation: the clocks of game #1 are stopped" in told.content


async def test_a_challenge_in_the_players_own_dm_with_the_bot_is_refused(h: Any) -> None:
    options = [fakes.opt("game", "minefield"), fakes.opt("opponent", str(BOB.id), 6)]
    payload = h.payloads.command("challenge", ALICE, options, members=[BOB])
    payload = fakes.user_installed(payload, ALICE, "bot_dm", channel_id=fakes.DM_CHANNEL + 7)
    payload["data"]["resolved"].pop("members")
    refused = fakes.refusal(await h.run(payload)).content
    assert refused.startswith("Nobody else can see this conversation with me.")
    assert await h.service.challenges.pending_challenges(fakes.DM_CHANNEL + 7, BOB.id) == []


async def test_an_early_abort_in_a_dm_shows_the_final_board_to_both(h: Any) -> None:
    await start(h, "dm")
    sent = await command(h, "dm", "abort", ALICE)
    assert [s.kind for s in answers(sent)] == ["reply", "followup"]
    assert "aborted game #1" in answers(sent)[0].content
    assert "aborted" in board_of(sent).content
    assert "aborted" in h.fake.dms_to(BOB.id)[-1].content
    assert (await h.service.get_game_by_id(1)).status == "aborted"
