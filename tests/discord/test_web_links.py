"""The web side of the Discord adapter: a game is public when @everyone could read its
channel (decided from the permission payloads Discord sends), the players' display names are
kept, and board posts of public games link to their page when CROSSPATH_PUBLIC_URL is set."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
import discord_fakes as fakes
import pytest
from discord_fakes import ADMIN, ALICE, BOB

from bot.discord.play.web_links import WATCH_LABEL, everyone_can_view

GUILD, CHANNEL, PRIVATE = fakes.GUILD, fakes.CHANNEL, fakes.PRIVATE_CHANNEL
VIEW = fakes.VIEW_CHANNEL
h = fakes.h
close_harnesses = fakes.close_harnesses
URL = "https://games.example.org"
OTHER_ROLE = 870000000000000001


def link_buttons(message: Any) -> list[dict[str, Any]]:
    return [
        c
        for row in message.body.get("components") or []
        for c in row.get("components", [])
        if c.get("style") == 5
    ]


async def start(h: Any, channel: int) -> Any:
    sent = await h.command(
        "challenge", ALICE, game="minefield", opponent=BOB, size=5, channel_id=channel
    )
    accept = next(c for c in sent[-1].custom_ids if c.startswith("cp:chal:accept:"))
    await h.click(accept, BOB)
    info = await h.service.get_game(channel)
    assert info is not None
    return info


async def test_a_game_everyone_can_read_is_public_and_keeps_the_names(h: Any) -> None:
    h.bot.settings = replace(h.bot.settings, public_url=URL)
    info = await start(h, CHANNEL)
    assert info.public and info.names == {ALICE.id: ALICE.name, BOB.id: BOB.name}
    board = h.fake.last("channel_message")
    [button] = link_buttons(board)
    assert button["label"] == WATCH_LABEL and button["url"] == f"{URL}/games/{info.web_token}"


async def test_a_game_in_a_private_channel_is_private_and_links_nothing(h: Any) -> None:
    h.bot.settings = replace(h.bot.settings, public_url=URL)
    info = await start(h, PRIVATE)
    assert not info.public and info.names == {ALICE.id: ALICE.name, BOB.id: BOB.name}
    assert link_buttons(h.fake.last("channel_message")) == []
    assert await h.service.web.served_game(info.web_token) is None


async def test_no_link_without_a_public_url_or_with_the_listing_off(h: Any) -> None:
    info = await start(h, CHANNEL)
    assert info.public and link_buttons(h.fake.last("channel_message")) == []
    h.bot.settings = replace(h.bot.settings, public_url=URL)
    await h.command("admin settings set", ADMIN, web=False)
    assert "hidden" in h.fake.last().content
    await h.command("move", ALICE, point="c3")
    assert link_buttons(h.fake.last("channel_message")) == []


def overwrite(target: int, kind: int, allow: int = 0, deny: int = 0) -> dict[str, Any]:
    return {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}


@pytest.mark.parametrize(
    ("everyone_base", "overwrites", "public"),
    [
        (VIEW, [], True),
        (VIEW, [overwrite(GUILD, 0, deny=VIEW)], False),
        (0, [], False),
        (0, [overwrite(GUILD, 0, allow=VIEW)], True),
        # a role or a member allowed in does not make the channel readable by everyone
        (0, [overwrite(OTHER_ROLE, 0, allow=VIEW), overwrite(ALICE.id, 1, allow=VIEW)], False),
        (VIEW, [overwrite(GUILD, 0, deny=VIEW), overwrite(OTHER_ROLE, 0, allow=VIEW)], False),
    ],
)
async def test_public_is_computed_from_the_default_roles_permissions_and_overwrites(
    h: Any, everyone_base: int, overwrites: list[dict[str, Any]], public: bool
) -> None:
    guild = h.bot.get_guild(GUILD)
    state = guild._state
    everyone = guild.default_role
    everyone._update({**role_payload(GUILD, "@everyone"), "permissions": str(everyone_base)})
    guild._add_role(discord.Role(guild=guild, state=state, data=role_payload(OTHER_ROLE, "x")))
    payload = {**fakes.text_channel_payload(CHANNEL + 90), "permission_overwrites": overwrites}
    channel = discord.TextChannel(state=state, guild=guild, data=payload)
    guild._add_channel(channel)
    assert everyone_can_view(guild, channel.id) is public
    thread = discord.Thread(
        guild=guild,
        state=state,
        data={**fakes.thread_payload(CHANNEL + 91, channel.id, "t"), "type": 12},
    )
    guild._add_thread(thread)
    assert everyone_can_view(guild, thread.id) is False  # a private thread never is
    assert everyone_can_view(guild, CHANNEL + 92) is False  # not cached: never public


def role_payload(role_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "permissions": "0",
        "position": 0 if role_id == GUILD else 1,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
