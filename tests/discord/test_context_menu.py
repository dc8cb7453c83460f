"""The user context menu "Challenge to a game" at the wire (issue 47): right-click a player,
pick the game in the private select, and the challenge is posted as ``/challenge`` posts it;
the pick still works after a restart, and in a server that never added the bot the menu is
refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord_fakes as fakes

from bot.discord.payloads import command_payloads

ALICE, BOB = fakes.ALICE, fakes.BOB
h = fakes.h
close_harnesses = fakes.close_harnesses
MENU = "Challenge to a game"


def user_command(h: Any, who: fakes.Player, target: fakes.Player) -> dict[str, Any]:
    """A user command (type 2) on ``target``, as Discord sends it from the Apps menu."""
    payload = h.payloads.command(MENU, who, members=[target])
    data = payload["data"]
    data.update(name=MENU, type=2, target_id=str(target.id), options=[])
    return payload


def pick(h: Any, custom_id: str, who: fakes.Player, game: str) -> dict[str, Any]:
    payload = h.payloads.button(custom_id, who)
    payload["data"] = {"custom_id": custom_id, "component_type": 3, "values": [game]}
    return payload


def test_the_menu_is_offered_where_the_player_commands_are() -> None:
    [menu] = [p for p in command_payloads() if p["type"] == 2]
    assert menu["name"] == MENU
    assert (menu["integration_types"], menu["contexts"]) == ([0, 1], [0, 1, 2])
    assert menu["name_localizations"]["de"] == "Zu einer Partie herausfordern"
    assert all(1 <= len(n) <= 32 for n in menu["name_localizations"].values())


async def test_the_menu_posts_a_challenge_after_a_restart_too(db_path: Path, clock: Any) -> None:
    h = await fakes.open_harness(db_path, clock)
    [asked] = await h.run(user_command(h, ALICE, BOB))
    assert asked.kind == "reply" and asked.ephemeral
    assert asked.content == f"Which game do you want to play with <@{BOB.id}>?"
    select_id = f"cp:menu:challenge:{BOB.id}"
    assert asked.custom_ids == [select_id]
    assert await h.service.challenges.pending_challenges(fakes.GUILD, BOB.id) == []  # not yet
    fake = h.fake
    await h.close()
    h = await fakes.open_harness(db_path, clock, fake=fake)  # the pick comes after a restart
    [sizes] = await h.run(pick(h, select_id, ALICE, "crosscut"))
    assert sizes.kind == "update" and sizes.content == "Which board size for Crosscut?"
    size_id = f"cp:menu:size:{BOB.id}:crosscut"
    assert sizes.custom_ids == [size_id]
    [select] = sizes.message["components"][0]["components"]
    assert [o["value"] for o in select["options"]] == ["0", *map(str, range(5, 11))]
    sent = await h.run(pick(h, size_id, ALICE, "6"))
    [posted] = [s for s in sent if s.kind == "reply"]
    assert not posted.ephemeral
    assert posted.content == f"<@{BOB.id}>: <@{ALICE.id}> wants to play Crosscut."
    assert BOB.id in posted.pingable
    [challenge] = await h.service.challenges.pending_challenges(fakes.GUILD, BOB.id)
    assert (challenge.game, challenge.size, challenge.challenger_id) == ("crosscut", 6, ALICE.id)
    accept = next(c for c in posted.custom_ids if c.startswith("cp:chal:accept:"))
    await h.click(accept, BOB)
    assert (await h.service.get_game(fakes.CHANNEL)) is not None
    await h.close()


async def test_a_forged_pick_changes_nothing(h: Any) -> None:
    [asked] = await h.run(user_command(h, ALICE, BOB))
    select_id = asked.custom_ids[0]
    refused = fakes.refusal(await h.run(pick(h, select_id, ALICE, "chess")))
    assert refused.content == "Choose a game"
    [sizes] = await h.run(pick(h, select_id, ALICE, "minefield"))
    size_id = sizes.custom_ids[0]
    for forged in ("99", "x", "3"):
        refused = fakes.refusal(await h.run(pick(h, size_id, ALICE, forged)))
        assert refused.content == "Choose a board size"
    assert await h.service.challenges.pending_challenges(fakes.GUILD, BOB.id) == []


async def test_the_menu_in_a_server_that_did_not_add_crosspath_is_refused(h: Any) -> None:
    """In a DM it works (tests/discord/test_dm_games.py); in a server reached only through a
    user install the bot could not run the game, so it says so."""
    payload = fakes.user_installed(user_command(h, ALICE, BOB), ALICE, "guild")
    reply = fakes.refusal(await h.run(payload))
    assert reply.content.startswith("Crosspath is not installed in this server"), reply
