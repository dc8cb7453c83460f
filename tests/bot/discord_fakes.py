"""A fake of Discord's network edge, and raw gateway payloads for driving a real bot.

Everything above the wire is real discord.py: interactions are built by
``ConnectionState.parse_interaction_create`` from INTERACTION_CREATE payloads shaped like the
gateway's, the real command tree and view store dispatch them, and the real response and
message code serialises what would be sent.  Only the two request functions (the bot's
``HTTPClient.request`` and the webhook adapter used for interaction responses) are replaced by
:class:`FakeDiscord`, which records each request and answers with a plausible payload.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from rules import new_game

APP_ID = 700000000000000001
BOT_USER = {
    "id": str(APP_ID),
    "username": "crosspath",
    "discriminator": "0",
    "avatar": None,
    "bot": True,
    "verified": True,
    "mfa_enabled": False,
}
GUILD = 800000000000000001
CHANNEL = 810000000000000001
MANAGE_GUILD = 1 << 5
EPHEMERAL = 1 << 6
# what the bot may do in the channel: view, send, attach, embed, threads
BOT_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 35) | (1 << 38)


@dataclass
class SentFile:
    filename: str
    data: bytes
    description: str | None


@dataclass
class Sent:
    """One request the bot made, in the terms a test cares about."""

    method: str
    path: str
    body: dict[str, Any]
    files: list[SentFile] = field(default_factory=list)
    channel_id: int | None = None
    message_id: int | None = None

    @property
    def message(self) -> dict[str, Any]:
        """The message part: ``data`` of an interaction callback, else the body itself."""
        if self.path.endswith("/callback"):
            data: dict[str, Any] = self.body.get("data") or {}
            return data
        return self.body

    @property
    def kind(self) -> str:
        if self.path.endswith("/callback"):
            return {4: "reply", 5: "defer", 6: "defer_update", 7: "update", 8: "autocomplete"}.get(
                self.body.get("type", 0), "callback"
            )
        if self.path.startswith("/webhooks/") and self.path.endswith("@original"):
            return "edit_original"
        if self.path.startswith("/webhooks/"):
            return "followup"
        if self.path.endswith("/messages") and self.method == "POST":
            return "channel_message"
        if self.path.endswith("/threads"):
            return "thread"
        return f"{self.method} {self.path}"

    @property
    def content(self) -> str:
        return str(self.message.get("content") or "")

    @property
    def ephemeral(self) -> bool:
        return bool((self.message.get("flags") or 0) & EPHEMERAL)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.message.get("embeds") or [])

    def embed_text(self) -> str:
        parts = []
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields", [])]
            parts.append((embed.get("footer") or {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    @property
    def custom_ids(self) -> list[str]:
        ids = []
        for row in self.message.get("components") or []:
            ids += [c["custom_id"] for c in row.get("components", []) if "custom_id" in c]
        return ids

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        return self.message.get("allowed_mentions")

    @property
    def pingable(self) -> set[int]:
        """Users this message may ping (allowed_mentions.users), and no mass pings allowed."""
        allowed = self.allowed_mentions or {}
        assert allowed.get("parse") == [], f"message may ping roles/everyone: {allowed}"
        return {int(u) for u in allowed.get("users", [])}

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list((self.body.get("data") or {}).get("choices") or [])


class FakeDiscord:
    """Records requests and answers them; can refuse posts to chosen channels (403)."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.refuse_posts_in: set[int] = set()
        self._ids = itertools.count(900000000000000001)
        self._interaction_channel: dict[str, int] = {}
        self.user_names: dict[int, str] = {}
        self.expire_interactions = False  # answer every interaction response with 404 10062

    def next_id(self) -> int:
        return next(self._ids)

    # ----- queries for tests ----------------------------------------------------------------
    def of_kind(self, kind: str) -> list[Sent]:
        return [s for s in self.sent if s.kind == kind]

    def last(self, kind: str | None = None) -> Sent:
        matching = self.sent if kind is None else self.of_kind(kind)
        assert matching, f"nothing of kind {kind!r} was sent; sent: {[s.kind for s in self.sent]}"
        return matching[-1]

    def clear(self) -> None:
        self.sent.clear()

    # ----- the network edge -------------------------------------------------------------------
    def _decode(
        self, payload: Any, multipart: Any, files: Any, form: Any = None
    ) -> tuple[dict[str, Any], list[SentFile]]:
        body: dict[str, Any] = {}
        if isinstance(payload, dict):
            body = payload
        parts = multipart or form or []
        for part in parts:
            if part.get("name") == "payload_json":
                body = json.loads(part["value"])
        sent_files = []
        attachments = {str(a.get("id")): a for a in body.get("attachments", [])}
        for index, file in enumerate(files or []):
            file.fp.seek(0)
            data = file.fp.read()
            meta = attachments.get(str(index), {})
            sent_files.append(SentFile(file.filename, data, meta.get("description")))
        return body, sent_files

    def _message(self, body: dict[str, Any], channel_id: int, message_id: int) -> dict[str, Any]:
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

    def _refuse(self) -> discord.Forbidden:
        response = SimpleNamespace(status=403, reason="Forbidden")
        return discord.Forbidden(response, {"code": 50013, "message": "Missing Permissions"})  # type: ignore[arg-type]

    async def _http_request(
        self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any
    ) -> Any:
        await asyncio.sleep(0)
        body, sent_files = self._decode(kwargs.get("json"), None, files, form)
        path = route.url.removeprefix(route.BASE)
        channel_id = int(route.channel_id) if route.channel_id is not None else None
        if route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            if channel_id in self.refuse_posts_in:
                self.sent.append(
                    Sent("POST", path, {"refused": True, **body}, sent_files, channel_id)
                )
                raise self._refuse()
            message_id = self.next_id()
            self.sent.append(Sent("POST", path, body, sent_files, channel_id, message_id))
            return self._message(body, channel_id or 0, message_id)
        if route.path.endswith("/threads"):
            thread_id = self.next_id()
            self.sent.append(Sent(route.method, path, body, [], channel_id, thread_id))
            return {
                "id": str(thread_id),
                "type": 11,
                "guild_id": str(GUILD),
                "parent_id": str(channel_id),
                "name": body.get("name", "thread"),
                "owner_id": str(APP_ID),
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": body.get("auto_archive_duration", 1440),
                    "archive_timestamp": "2026-11-22T12:00:00+00:00",
                    "locked": False,
                },
                "message_count": 0,
                "member_count": 1,
            }
        self.sent.append(Sent(route.method, path, body, sent_files, channel_id))
        if route.method == "GET" and route.path == "/users/{user_id}":
            user_id = int(path.rsplit("/", 1)[1])
            return user_payload(user_id, self.user_names.get(user_id, f"user{user_id % 1000}"))
        if route.method == "DELETE" and route.path == "/channels/{channel_id}":
            return {"id": str(channel_id), "type": 11, "guild_id": str(GUILD), "name": "gone"}
        return {}

    # ----- building interactions ------------------------------------------------------------------
    def register_interaction(self, token: str, channel_id: int) -> None:
        self._interaction_channel[token] = channel_id


def _bind_webhook(fake: FakeDiscord) -> Any:
    async def request(
        adapter: Any,
        route: Any,
        session: Any = None,
        *,
        payload: Any = None,
        multipart: Any = None,
        files: Any = None,
        **kwargs: Any,
    ) -> Any:
        await asyncio.sleep(0)
        body, sent_files = fake._decode(payload, multipart, files)
        token = route.webhook_token
        channel_id = fake._interaction_channel.get(token, CHANNEL)
        path = route.url.removeprefix(route.BASE)
        message_id = fake.next_id()
        sent = Sent(route.method, path, body, sent_files, channel_id, message_id)
        fake.sent.append(sent)
        if fake.expire_interactions:
            response = SimpleNamespace(status=404, reason="Not Found")
            raise discord.NotFound(response, {"code": 10062, "message": "Unknown interaction"})  # type: ignore[arg-type]
        if path.endswith("/callback"):
            data = body.get("data") or {}
            kind = body.get("type")
            result: dict[str, Any] = {
                "interaction": {
                    "id": str(route.webhook_id),
                    "type": 2,
                    "response_message_id": str(message_id),
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL),
                }
            }
            if kind in (4, 7):
                result["resource"] = {
                    "type": kind,
                    "message": fake._message(data, channel_id, message_id),
                }
            elif kind is not None:
                result["resource"] = {"type": kind}
            return result
        return fake._message(body, channel_id, message_id)

    return request


def install(fake: FakeDiscord, bot: discord.Client, monkeypatch: Any) -> None:
    """Replace the two request functions of ``bot`` (and of the webhook adapter) by ``fake``."""
    monkeypatch.setattr(bot.http, "request", fake._http_request)
    monkeypatch.setattr(AsyncWebhookAdapter, "request", _bind_webhook(fake))


# ----- raw gateway payloads ----------------------------------------------------------------------
def user_payload(user_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
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


def channel_payload(channel_id: int, kind: int = 0) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(channel_id),
        "type": kind,
        "guild_id": str(GUILD),
        "name": "games" if kind == 0 else "game thread",
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
    }
    if kind == 11:
        data["parent_id"] = str(CHANNEL)
        data["owner_id"] = str(APP_ID)
        data["message_count"] = 1
        data["member_count"] = 2
        data["thread_metadata"] = {
            "archived": False,
            "auto_archive_duration": 10080,
            "archive_timestamp": "2026-11-22T12:00:00+00:00",
            "locked": False,
        }
    return data


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
        self, kind: int, player: Player, channel_id: int, channel_kind: int
    ) -> dict[str, Any]:
        interaction_id = next(self._ids)
        token = f"token-{interaction_id}"
        self.fake.register_interaction(token, channel_id)
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
        channel_id: int = CHANNEL,
        channel_kind: int = 0,
        message_id: int | None = None,
        ephemeral: bool = False,
    ) -> dict[str, Any]:
        payload = self._base(3, player, channel_id, channel_kind)
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        message = self.fake._message(
            {
                "content": "",
                "flags": EPHEMERAL if ephemeral else 0,
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
                        ],
                    }
                ],
            },
            channel_id,
            message_id or self.fake.next_id(),
        )
        payload["message"] = message
        return payload


def opt(name: str, value: Any, kind: int = 3, focused: bool = False) -> dict[str, Any]:
    option: dict[str, Any] = {"name": name, "type": kind, "value": value}
    if focused:
        option["focused"] = True
    return option


def _is_view_timer(task: asyncio.Task[Any]) -> bool:
    """discord.py's per-view timeout timer: background bookkeeping, not interaction handling."""
    coro = task.get_coro()
    return "timeout_task" in getattr(coro, "__qualname__", "")


async def deliver(bot: discord.Client, payload: dict[str, Any], timeout: float = 5) -> None:
    """Hand a payload to the real gateway handler and wait for every task it started."""
    before = asyncio.all_tasks()
    bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while True:
        pending = [t for t in asyncio.all_tasks() - before if not t.done()]
        pending = [t for t in pending if t is not asyncio.current_task() and not _is_view_timer(t)]
        if not pending:
            return
        if loop.time() > give_up:
            stacks = "\n".join(f"{t.get_name()}: {t.get_stack(limit=8)}" for t in pending)
            raise AssertionError(f"interaction tasks did not finish:\n{stacks}")
        await asyncio.wait(pending, timeout=0.5)


# ----- a running bot over a real store, with the fake network edge --------------------------------
@dataclass
class Harness:
    """A real :class:`CrosspathBot` over a real SQLite store, with only the network faked."""

    bot: Any
    fake: FakeDiscord
    payloads: Payloads
    store: Any
    service: Any

    async def run(self, payload: dict[str, Any]) -> list[Sent]:
        """Deliver one interaction; return what the bot sent because of it."""
        start = len(self.fake.sent)
        await deliver(self.bot, payload)
        return self.fake.sent[start:]

    async def command(self, name: str, who: Player, /, **options: Any) -> list[Sent]:
        channel_id = options.pop("channel_id", CHANNEL)
        channel_kind = options.pop("channel_kind", 0)
        members = [v for v in options.values() if isinstance(v, Player)]
        opts = [
            opt(k, str(v.id), 6) if isinstance(v, Player) else opt(k, v, _kind_of(v))
            for k, v in options.items()
        ]
        payload = self.payloads.command(
            name, who, opts, channel_id=channel_id, channel_kind=channel_kind, members=members
        )
        return await self.run(payload)

    async def click(self, custom_id: str, player: Player, **kwargs: Any) -> list[Sent]:
        return await self.run(self.payloads.button(custom_id, player, **kwargs))

    async def close(self) -> None:
        for cog in list(self.bot.cogs.values()):
            unload = getattr(cog, "cog_unload", None)
            if unload is not None:
                await unload()
        await self.store.close()


def _kind_of(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    return 3


async def open_harness(
    db_path: Any,
    clock: Any,
    monkeypatch: Any,
    fake: FakeDiscord | None = None,
    seed: int = 7,
    settings: Any = None,
) -> Harness:
    """Start a bot the way ``crosspath run`` does, minus the gateway connection.

    With ``settings`` the clock loop runs too (it starts once the bot is marked ready).
    """
    import random

    from bot.discord.app import CrosspathBot
    from bot.service import GameService
    from bot.store import open_store

    store = await open_store(db_path)
    service = GameService(store, clock=clock, rng=random.Random(seed))
    bot = CrosspathBot(service, settings, run_clock=settings is not None)
    fake = fake or FakeDiscord()
    install(fake, bot, monkeypatch)
    await bot._async_setup_hook()
    # what READY would set: the bot's own user
    bot._connection.user = discord.ClientUser(state=bot._connection, data=BOT_USER)
    await bot.setup_hook()
    return Harness(bot, fake, Payloads(fake), store, service)


# ----- players and shared steps for the Discord tests ------------------------------------------
ALICE = Player(310000000000000001, "Alice")
BOB = Player(320000000000000002, "Bob")
CAROL = Player(330000000000000003, "Carol")
ADMIN = Player(340000000000000004, "Admin", MANAGE_GUILD)
OTHER_CHANNEL = 810000000000000099


@pytest.fixture
async def h(db_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    harness = await open_harness(db_path, clock, monkeypatch)
    try:
        yield harness
    finally:
        await harness.close()


def winning_line(game: str, size: int, seed: int) -> list[str]:
    """A complete random game that ends with a winner, found with the engine itself."""
    rng = random.Random(seed)
    while True:
        g = new_game(game, size)
        while not g.is_over:
            g.play(rng.choice(g.legal_moves()))
        if g.winner:
            return g.moves


async def challenge_and_accept(h: Any, game: str = "minefield", size: int = 5, **extra: Any) -> Any:
    sent = await h.command("challenge", ALICE, game=game, opponent=BOB, size=size, **extra)
    accept = next(c for c in sent[-1].custom_ids if c.startswith("cp:chal:accept:"))
    await h.click(accept, BOB)
    info = await h.service.get_game(CHANNEL)
    assert info is not None
    return info
