"""Discord's raw payloads as the gateway and REST send them, for the fake Discord: the
application, the guild and its channels, users, members, messages, and INTERACTION_CREATE
(:class:`Payloads`)."""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from discord_fakes import FakeDiscord

TOKEN = "test-token.not-a-secret"
APP_ID = 700000000000000001
BOT_USER = {
    "id": str(APP_ID),
    "username": "crosspath",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
    "verified": True,
    "mfa_enabled": False,
    "flags": 0,
}
APPLICATION = {
    "id": str(APP_ID),
    "name": "Crosspath",
    "icon": None,
    "description": "",
    "bot_public": False,
    "bot_require_code_grant": False,
    "verify_key": "0" * 64,
    "owner": {**BOT_USER, "id": "1", "bot": False, "username": "owner"},
    "flags": 0,
}
GUILD = 800000000000000001
CHANNEL = 810000000000000001
OTHER_CHANNEL = 810000000000000099
PRIVATE_CHANNEL = 810000000000000050
"""A channel only the bot, Alice and Bob can see (@everyone is denied View Channel)."""
TEXT_CHANNELS = (CHANNEL, OTHER_CHANNEL, CHANNEL + 7, PRIVATE_CHANNEL)
VIEW_CHANNEL = 1 << 10
MANAGE_GUILD = 1 << 5
EPHEMERAL = 1 << 6
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ATTACH_FILES = 1 << 15
# what the bot may do in the channel: view, send, attach, embed, threads
BOT_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 14) | ATTACH_FILES | CREATE_PUBLIC_THREADS
) | SEND_MESSAGES_IN_THREADS
NOT_FOUND = {"message": "404: Not Found", "code": 0}
GATEWAY_BOT = {
    "url": "wss://gateway.discord.gg",
    "shards": 1,
    "session_start_limit": {
        "total": 1000,
        "remaining": 999,
        "reset_after": 14_400_000,
        "max_concurrency": 1,
    },
}
"""Discord's answer to ``GET /gateway/bot``: its recommended shard count and the gateway."""


# ----- raw payloads ----------------------------------------------------------------------------
def user_payload(user_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
    }


def dm_channel_payload(channel_id: int, user_id: int, name: str) -> dict[str, Any]:
    """What ``POST /users/@me/channels`` answers: the DM channel with one recipient."""
    return {
        "id": str(channel_id),
        "type": 1,
        "last_message_id": None,
        "flags": 0,
        "recipients": [user_payload(user_id, name)],
    }


def member_payload(user_id: int, name: str, permissions: int = 0) -> dict[str, Any]:
    return {
        "user": user_payload(user_id, name),
        "roles": [],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": str(permissions),
    }


def message_payload(body: dict[str, Any], channel_id: int, message_id: int) -> dict[str, Any]:
    return {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "guild_id": str(GUILD),
        "type": 0,
        "content": body.get("content") or "",
        "author": BOT_USER,
        "attachments": [],
        "embeds": body.get("embeds") or [],
        "components": body.get("components") or [],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": "2026-11-22T12:00:00+00:00",
        "edited_timestamp": None,
        "flags": body.get("flags") or 0,
    }


def private_overwrites() -> list[dict[str, Any]]:
    """@everyone may not view the channel; the bot, Alice and Bob may."""
    denied = {"id": str(GUILD), "type": 0, "allow": "0", "deny": str(VIEW_CHANNEL)}
    members = (APP_ID, ALICE.id, BOB.id)
    allowed = [{"id": str(m), "type": 1, "allow": str(VIEW_CHANNEL), "deny": "0"} for m in members]
    return [denied, *allowed]


def text_channel_payload(channel_id: int) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(GUILD),
        "name": f"games-{channel_id % 100}",
        "position": channel_id % 100,
        "permission_overwrites": private_overwrites() if channel_id == PRIVATE_CHANNEL else [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
    }


def thread_payload(thread_id: int, parent_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(thread_id),
        "type": 11,
        "guild_id": str(GUILD),
        "parent_id": str(parent_id),
        "name": name,
        "owner_id": str(APP_ID),
        "message_count": 0,
        "member_count": 1,
        "rate_limit_per_user": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 10080,
            "archive_timestamp": "2026-11-22T12:00:00+00:00",
            "locked": False,
        },
    }


def channel_payload(channel_id: int, kind: int = 0) -> dict[str, Any]:
    """The partial channel an interaction carries."""
    if kind == 11:
        return thread_payload(channel_id, CHANNEL, "game thread")
    return text_channel_payload(channel_id)


def ready_payload() -> dict[str, Any]:
    return {
        "v": 10,
        "user": BOT_USER,
        "guilds": [{"id": str(GUILD), "unavailable": True}],
        "session_id": "fake-session",
        "resume_gateway_url": "wss://gateway.discord.gg",
        "shard": [0, 1],
        "application": {"id": str(APP_ID), "flags": 0},
    }


def guild_payload() -> dict[str, Any]:
    """GUILD_CREATE for the test server: roles, text channels and the bot's own member."""
    everyone = {
        "id": str(GUILD),
        "name": "@everyone",
        "permissions": str(BOT_PERMISSIONS),
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    bot_member = member_payload(APP_ID, "crosspath")
    del bot_member["permissions"]
    bot_member["user"] = BOT_USER
    return {
        "id": str(GUILD),
        "name": "Crosspath test server",
        "icon": None,
        "owner_id": "1",
        "region": "europe",
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [everyone],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": "2026-01-01T00:00:00+00:00",
        "large": False,
        "unavailable": False,
        "member_count": 5,
        "voice_states": [],
        "members": [bot_member],
        "channels": [text_channel_payload(c) for c in TEXT_CHANNELS],
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    permissions: int = 0


class Payloads:
    """Builds INTERACTION_CREATE payloads the way the gateway sends them."""

    def __init__(self, fake: FakeDiscord, bot_permissions: int = BOT_PERMISSIONS) -> None:
        self.fake = fake
        self.bot_permissions = bot_permissions
        self._ids = itertools.count(600000000000000001)

    def _base(
        self,
        kind: int,
        player: Player,
        channel_id: int,
        channel_kind: int,
        message_id: int | None = None,
    ) -> dict[str, Any]:
        interaction_id = next(self._ids)
        token = f"token-{interaction_id}"
        self.fake.register_interaction(token, interaction_id, channel_id, message_id)
        return {
            "id": str(interaction_id),
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": str(GUILD),
            "channel_id": str(channel_id),
            "channel": channel_payload(channel_id, channel_kind),
            "member": member_payload(player.id, player.name, player.permissions),
            "app_permissions": str(self.bot_permissions),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD)},
            "context": 0,
            "attachment_size_limit": 26214400,
        }

    def command(
        self,
        name: str,
        player: Player,
        options: list[dict[str, Any]] | None = None,
        *,
        channel_id: int = CHANNEL,
        channel_kind: int = 0,
        members: list[Player] = (),  # type: ignore[assignment]
        autocomplete: bool = False,
    ) -> dict[str, Any]:
        """A slash command (or, with ``autocomplete``, an autocomplete request).

        ``name`` may be ``"admin settings view"``: subcommands become nested options.
        """
        parts = name.split()
        opts: list[dict[str, Any]] = list(options or [])
        for depth, sub in enumerate(reversed(parts[1:])):
            kind = 1 if depth == 0 else 2
            opts = [{"name": sub, "type": kind, "options": opts}]
        data: dict[str, Any] = {
            "id": str(APP_ID + 1000 + len(parts[0])),
            "name": parts[0],
            "type": 1,
            "options": opts,
            "guild_id": str(GUILD),
        }
        if members:
            data["resolved"] = {
                "users": {str(m.id): user_payload(m.id, m.name) for m in members},
                "members": {
                    str(m.id): {
                        k: v
                        for k, v in member_payload(m.id, m.name, m.permissions).items()
                        if k != "user"
                    }
                    for m in members
                },
            }
        payload = self._base(4 if autocomplete else 2, player, channel_id, channel_kind)
        payload["data"] = data
        return payload

    def button(
        self,
        custom_id: str,
        player: Player,
        *,
        message: dict[str, Any] | None = None,
        channel_kind: int | None = None,
    ) -> dict[str, Any]:
        """A press of a button on a message the bot posted (found by its custom id)."""
        message = message if message is not None else self.fake.message_with(custom_id)
        assert custom_id in custom_ids_of(message), "that message has no such button"
        channel_id = int(message["channel_id"])
        if channel_kind is None:
            channel_kind = 11 if channel_id in self.fake.threads else 0
        payload = self._base(3, player, channel_id, channel_kind, int(message["id"]))
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        payload["message"] = message
        return payload

    def modal_submit(
        self, form: dict[str, Any], player: Player, values: list[str], *, channel_id: int = CHANNEL
    ) -> dict[str, Any]:
        """The submission of the form the bot opened (``form``: the ``data`` of its type 9
        callback), with ``values`` typed into its text inputs in order."""
        payload = self._base(5, player, channel_id, 0)
        inputs = [c for row in form["components"] for c in row["components"]]
        assert len(inputs) == len(values), "one value per text input"
        payload["data"] = {
            "custom_id": form["custom_id"],
            "components": [
                {"type": 1, "components": [{"type": 4, "custom_id": c["custom_id"], "value": v}]}
                for c, v in zip(inputs, values, strict=True)
            ],
        }
        return payload


DM_CHANNEL = 820000000000000001
"""Alice's DM with Bob, reached through a user install (channel type 1)."""
GROUP_DM = 830000000000000001
"""A group DM of Alice, Bob and Carol (channel type 3)."""


def user_installed(
    payload: dict[str, Any], player: Player, where: str = "dm", channel_id: int | None = None
) -> dict[str, Any]:
    """``payload`` (from :class:`Payloads`) as Discord sends it when only ``player`` installed
    Crosspath (``authorizing_integration_owners`` {"1": user id}): ``where`` is ``dm``
    (a DM between two people: context 2 PRIVATE_CHANNEL, channel type 1), ``group`` (context
    2, type 3), ``bot_dm`` (the player's DM with the bot: context 1 BOT_DM, type 1), all
    without a server, or ``guild`` (context 0: a server that never added the bot)."""
    owners = {"1": str(player.id)}
    payload["authorizing_integration_owners"] = owners
    payload["app_permissions"] = "0"  # the bot is no member where it was not installed
    if where == "guild":
        return payload
    channel_id = channel_id or (DM_CHANNEL if where == "dm" else GROUP_DM)
    user = payload.pop("member")["user"]
    payload["user"] = user
    for key in ("guild_id", "guild_locale"):
        payload.pop(key, None)
    if isinstance(payload.get("data"), dict):
        payload["data"].pop("guild_id", None)
    payload["channel_id"] = str(channel_id)
    kind = 3 if where == "group" else 1
    payload["channel"] = {"id": str(channel_id), "type": kind, "recipients": [user]}
    payload["context"] = 1 if where == "bot_dm" else 2
    if isinstance(payload.get("message"), dict):
        payload["message"]["channel_id"] = str(channel_id)
        payload["message"].pop("guild_id", None)
    return payload


def option_kind(value: Any) -> int:
    """The application command option type Discord gives ``value`` (string, integer, boolean)."""
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    return 3


def opt(name: str, value: Any, kind: int = 3, focused: bool = False) -> dict[str, Any]:
    option: dict[str, Any] = {"name": name, "type": kind, "value": value}
    if focused:
        option["focused"] = True
    return option


def custom_ids_of(message: dict[str, Any]) -> list[str]:
    ids = []
    for row in message.get("components") or []:
        ids += [c["custom_id"] for c in row.get("components", []) if "custom_id" in c]
    return ids


def message_with_buttons(*custom_ids: str) -> list[dict[str, Any]]:
    """The ``components`` of a message showing one button per custom id, in one row."""
    buttons = [{"type": 2, "style": 2, "label": "…", "custom_id": c} for c in custom_ids]
    return [{"type": 1, "components": buttons}]


def _bucket_headers(path: str) -> dict[str, str]:
    """The rate-limit headers Discord sends with every answer (plenty left in the bucket)."""
    return {
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "4",
        "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
        "X-RateLimit-Reset-After": "1.000",
        "X-RateLimit-Bucket": "b-" + re.sub(r"\d+", "id", path.split("?")[0])[:40],
    }


# ----- players ----------------------------------------------------------------------------------
ALICE = Player(310000000000000001, "Alice")
BOB = Player(320000000000000002, "Bob")
CAROL = Player(330000000000000003, "Carol")
ADMIN = Player(340000000000000004, "Admin", MANAGE_GUILD)
