"""A fake Discord at the wire, and a real bot started against it the way ``crosspath run`` does.

:class:`FakeDiscord` is the other end of discord.py's HTTP session and gateway socket (see
``discord_wire.py`` for the seam).  It answers REST routes with plausible payloads, keeps every
message it was asked to post so a button press carries that exact message (components and
all), and can be told to fail requests (500, 429 with ``Retry-After``, 403) to exercise
discord.py's own retries and error mapping.

:func:`open_harness` starts a real :class:`CrosspathBot` over a real SQLite store: a real
``login()`` against the fake (``GET /users/@me``, ``GET /oauth2/applications/@me``), then
``connect()`` to the fake gateway, which sends HELLO, answers IDENTIFY with READY and
GUILD_CREATE, so discord.py's state parser fills the guild, channel and permission caches.
Interactions arrive as INTERACTION_CREATE dispatches on that socket.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import random
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
from discord_payloads import (  # noqa: F401  (re-exported: tests use fakes.<name>)
    ADMIN,
    ALICE,
    APP_ID,
    APPLICATION,
    ATTACH_FILES,
    BOB,
    BOT_PERMISSIONS,
    BOT_USER,
    CAROL,
    CHANNEL,
    CREATE_PUBLIC_THREADS,
    DM_CHANNEL,
    EPHEMERAL,
    GATEWAY_BOT,
    GROUP_DM,
    GUILD,
    MANAGE_GUILD,
    NOT_FOUND,
    OTHER_CHANNEL,
    PRIVATE_CHANNEL,
    SEND_MESSAGES_IN_THREADS,
    TEXT_CHANNELS,
    TOKEN,
    VIEW_CHANNEL,
    Payloads,
    Player,
    _bucket_headers,
    channel_payload,
    custom_ids_of,
    dm_channel_payload,
    guild_payload,
    member_payload,
    message_payload,
    message_with_buttons,
    opt,
    option_kind,
    private_overwrites,
    ready_payload,
    text_channel_payload,
    thread_payload,
    user_installed,
    user_payload,
)
from discord_wire import (
    GatewaySocket,
    ScaledRetries,
    WireRequest,
    WireResponse,
    fake_sessions,
)
from yarl import URL

from rules import new_game


@dataclass
class SentFile:
    filename: str
    data: bytes
    description: str | None
    content_type: str = "application/octet-stream"


@dataclass
class Sent:
    """One request the bot made, in the terms a test cares about, and how it was answered."""

    method: str
    path: str
    body: dict[str, Any]
    files: list[SentFile] = field(default_factory=list)
    channel_id: int | None = None
    message_id: int | None = None
    status: int = 200
    request: WireRequest | None = None
    at: float = field(default_factory=time.perf_counter)  # when it reached the wire

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

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
            return "delete_original" if self.method == "DELETE" else "edit_original"
        if self.path.startswith("/webhooks/"):
            return "followup"
        if self.path.endswith("/messages") and self.method == "POST":
            return "channel_message"
        if self.path.endswith("/threads"):
            return "thread"
        if self.path.startswith("/channels/") and self.method == "PATCH":
            return "edit_message"
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
        return custom_ids_of(self.message)

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


@dataclass
class Fault:
    """Answer matching requests with ``status`` (``times`` of them) instead of success."""

    method: str
    path: str  # a regular expression matched against the API path
    status: int
    times: int = 1
    retry_after: float = 0.25
    code: int = 0

    def matches(self, request: WireRequest) -> bool:
        return (
            self.times > 0
            and request.method == self.method
            and re.fullmatch(self.path, request.path) is not None
        )

    def answer(self) -> WireResponse:
        self.times -= 1
        if self.status == 429:
            return WireResponse(
                429,
                {
                    "message": "You are being rate limited.",
                    "retry_after": self.retry_after,
                    "global": False,
                    "code": 0,
                },
                {
                    "Retry-After": str(self.retry_after),
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": str(self.retry_after),
                    "X-RateLimit-Bucket": "fake-bucket",
                    "X-RateLimit-Scope": "user",
                    "Via": "1.1 google",
                },
            )
        if self.status == 403:
            return WireResponse(403, {"message": "Missing Permissions", "code": self.code or 50013})
        phrase = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
        return WireResponse(
            self.status, {"message": f"{self.status}: {phrase.get(self.status, '')}", "code": 0}
        )


@dataclass
class InteractionInfo:
    id: int
    channel_id: int
    message_id: int | None  # the message a component sits on
    original_id: int | None = None  # the response message, once there is one
    deferred_update: bool = False


class FakeDiscord:
    """Discord's side of the wire: REST routes, stored messages, the gateway, faults."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.faults: list[Fault] = []
        self.refuse_posts_in: set[int] = set()  # 403 on every post to these channels
        self.user_names: dict[int, str] = {}
        self.unknown_users: set[int] = set()  # GET /users/{id} answers 404 Unknown User
        self.expire_interactions = False  # answer every interaction response with 404 10062
        self.messages: dict[int, dict[str, Any]] = {}
        self.versions: dict[int, list[dict[str, Any]]] = {}  # every state each message had
        self.threads: dict[int, int] = {}  # thread id -> parent channel id
        self.dm_channels: dict[int, int] = {}  # user id -> their DM channel's id
        self.closed_dms: set[int] = set()  # DMs to these users answer 403 with code 50007
        self.sessions: list[Any] = []
        self.socket: GatewaySocket | None = None
        self.identified: dict[str, Any] | None = None
        self._ids = itertools.count(900000000000000001)
        self._interactions: dict[str, InteractionInfo] = {}

    def next_id(self) -> int:
        return next(self._ids)

    # ----- queries and set-up for tests ---------------------------------------------------------
    def of_kind(self, kind: str) -> list[Sent]:
        return [s for s in self.sent if s.kind == kind]

    def last(self, kind: str | None = None) -> Sent:
        matching = self.sent if kind is None else self.of_kind(kind)
        assert matching, f"nothing of kind {kind!r} was sent; sent: {[s.kind for s in self.sent]}"
        return matching[-1]

    def clear(self) -> None:
        self.sent.clear()

    def fail(self, method: str, path: str, status: int, times: int = 1, **kw: Any) -> Fault:
        fault = Fault(method, path, status, times, **kw)
        self.faults.append(fault)
        return fault

    def posted_earlier(self, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
        """A message the bot posted before this test (say, by an older version)."""
        message_id = self.next_id()
        return self._store(body, channel_id, message_id, Sent("POST", "", body))

    def dms_to(self, user_id: int) -> list[Sent]:
        """Every message the bot tried to send to ``user_id`` privately (refused ones too)."""
        channel = self.dm_channels.get(user_id)
        path = f"/channels/{channel}/messages"
        return [s for s in self.sent if s.method == "POST" and s.path == path]

    def message_with(self, custom_id: str) -> dict[str, Any]:
        """The newest message showing this button; else the newest state that ever showed it
        (a client that has not refreshed yet still shows the old components)."""
        for message in reversed(self.messages.values()):
            if custom_id in custom_ids_of(message):
                return copy.deepcopy(message)
        for states in reversed(self.versions.values()):
            for state in reversed(states):
                if custom_id in custom_ids_of(state):
                    return copy.deepcopy(state)
        raise AssertionError(f"no message the bot posted carries a button {custom_id!r}")

    # ----- the gateway ----------------------------------------------------------------------
    async def gateway_connect(self, url: URL, options: dict[str, Any]) -> GatewaySocket:
        assert url.host == "gateway.discord.gg" and url.query.get("encoding") == "json", url
        self.socket = GatewaySocket(self._on_frame)
        self.socket.push(10, {"heartbeat_interval": 41250})  # HELLO
        return self.socket

    def _on_frame(self, socket: GatewaySocket, frame: dict[str, Any]) -> None:
        op = frame["op"]
        if op == 1:  # heartbeat
            socket.push(11, None)
        elif op == 2:  # IDENTIFY
            data = frame["d"]
            assert data["token"] == TOKEN and data["intents"] == discord.Intents(guilds=True).value
            self.identified = data
            socket.push(0, ready_payload(), "READY")
            socket.push(0, guild_payload(), "GUILD_CREATE")

    # ----- REST ---------------------------------------------------------------------------------
    async def handle(self, request: WireRequest) -> WireResponse:
        await asyncio.sleep(0)
        assert request.headers.get("Authorization") in (f"Bot {TOKEN}", None), "wrong token"
        body = request.json if isinstance(request.json, dict) else {}
        files = self._files(request, body)
        sent = Sent(request.method, request.path, body, files, request=request)
        self.sent.append(sent)
        answer = self._fault_for(request, sent)
        if answer is None:
            answer = self._route(request, body, sent)
        sent.status = answer.status
        if 200 <= answer.status < 300:
            answer.headers.update(_bucket_headers(request.path))
        return answer

    def _files(self, request: WireRequest, body: dict[str, Any]) -> list[SentFile]:
        message = body.get("data") or {} if "type" in body and "data" in body else body
        described = {str(a.get("id")): a for a in message.get("attachments") or []}
        files = []
        for part in request.parts:
            match = re.fullmatch(r"files\[(\d+)\]", part.name)
            if match is None:
                assert part.name == "payload_json", f"unexpected form field {part.name!r}"
                continue
            meta = described.get(match[1], {})
            assert part.filename and meta.get("filename") == part.filename, (part, meta)
            description = meta.get("description")
            files.append(SentFile(part.filename, part.data, description, part.content_type))
        return files

    def _fault_for(self, request: WireRequest, sent: Sent) -> WireResponse | None:
        for fault in self.faults:
            if fault.matches(request):
                return fault.answer()
        match = re.fullmatch(r"/channels/(\d+)/messages", request.path)
        if request.method == "POST" and match and int(match[1]) in self.refuse_posts_in:
            sent.channel_id = int(match[1])
            return Fault("POST", ".*", 403).answer()
        if request.method == "POST" and match and self._closed_dm(int(match[1])):
            sent.channel_id = int(match[1])
            return WireResponse(
                403, {"message": "Cannot send messages to this user", "code": 50007}
            )
        if self.expire_interactions and re.match(r"/(interactions|webhooks)/", request.path):
            return WireResponse(404, {"message": "Unknown interaction", "code": 10062})
        return None

    def _closed_dm(self, channel_id: int) -> bool:
        return any(self.dm_channels.get(u) == channel_id for u in self.closed_dms)

    def _route(self, request: WireRequest, body: dict[str, Any], sent: Sent) -> WireResponse:
        method, path = request.method, request.path
        if method == "POST" and path == "/users/@me/channels":  # open (or find) a DM
            user_id = int(body["recipient_id"])
            channel_id = self.dm_channels.setdefault(user_id, self.next_id())
            name = self.user_names.get(user_id, f"user{user_id % 1000}")
            return WireResponse(200, dm_channel_payload(channel_id, user_id, name))
        if method == "GET" and path == "/users/@me":
            return WireResponse(200, BOT_USER)
        if method == "GET" and path == "/oauth2/applications/@me":
            return WireResponse(200, APPLICATION)
        if method == "GET" and path == "/gateway/bot":  # AutoShardedBot asks how many shards
            return WireResponse(200, GATEWAY_BOT)
        if m := re.fullmatch(r"/users/(\d+)", path):
            user_id = int(m[1])
            if user_id in self.unknown_users:
                return WireResponse(404, {"message": "Unknown User", "code": 10013})
            name = self.user_names.get(user_id, f"user{user_id % 1000}")
            return WireResponse(200, user_payload(user_id, name))
        if method == "POST" and (m := re.fullmatch(r"/channels/(\d+)/messages", path)):
            sent.channel_id = int(m[1])
            sent.message_id = self.next_id()
            return WireResponse(200, self._store(body, sent.channel_id, sent.message_id, sent))
        if method == "PATCH" and (m := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)):
            sent.channel_id, sent.message_id = int(m[1]), int(m[2])
            if sent.message_id not in self.messages:
                return WireResponse(404, {"message": "Unknown Message", "code": 10008})
            return WireResponse(200, self._edit(sent.message_id, body))
        threads = r"/channels/(\d+)(?:/messages/(\d+))?/threads"
        if method == "POST" and (m := re.fullmatch(threads, path)):
            sent.channel_id = int(m[1])
            sent.message_id = thread_id = int(m[2]) if m[2] else self.next_id()
            self.threads[thread_id] = sent.channel_id
            thread = thread_payload(thread_id, sent.channel_id, body.get("name", "thread"))
            if self.socket is not None:
                self.socket.push(0, {**thread, "newly_created": True}, "THREAD_CREATE")
            return WireResponse(201, thread)
        if method == "DELETE" and (m := re.fullmatch(r"/channels/(\d+)", path)):
            sent.channel_id = int(m[1])
            return WireResponse(200, thread_payload(int(m[1]), CHANNEL, "gone"))
        if m := re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path):
            return self._callback(request, body, sent, m[2])
        if m := re.fullmatch(r"/webhooks/(\d+)/([^/]+)(?:/messages/(@original|\d+))?", path):
            return self._webhook(request, body, sent, m[2], m[3])
        return WireResponse(404, NOT_FOUND)

    def _callback(
        self, request: WireRequest, body: dict[str, Any], sent: Sent, token: str
    ) -> WireResponse:
        info = self._interactions[token]
        sent.channel_id = info.channel_id
        kind = body.get("type")
        data = body.get("data") or {}
        resource: dict[str, Any] = {"type": kind}
        if kind in (4, 5):
            info.original_id = sent.message_id = self.next_id()
            content = data if kind == 4 else {"flags": data.get("flags") or 0}
            resource["message"] = self._store(content, info.channel_id, info.original_id, sent)
        elif kind == 7:
            assert info.message_id is not None, "an update needs the component's message"
            sent.message_id = info.original_id = info.message_id
            resource["message"] = self._edit(info.message_id, data)
        elif kind == 6:
            info.original_id = info.message_id
            info.deferred_update = True
        if request.url.query.get("with_response") not in ("1", "true"):
            return WireResponse(204, None)
        return WireResponse(
            200,
            {
                "interaction": {
                    "id": str(info.id),
                    "type": 2,
                    "response_message_id": str(info.original_id or ""),
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL),
                },
                "resource": resource,
            },
        )

    def _webhook(
        self,
        request: WireRequest,
        body: dict[str, Any],
        sent: Sent,
        token: str,
        which: str | None,
    ) -> WireResponse:
        info = self._interactions.get(token)
        if info is None:
            return WireResponse(404, {"message": "Unknown Webhook", "code": 10015})
        sent.channel_id = info.channel_id
        if which is None and request.method == "POST":  # a follow-up
            sent.message_id = self.next_id()
            return WireResponse(200, self._store(body, info.channel_id, sent.message_id, sent))
        target = info.original_id if which == "@original" else int(which or 0)
        if target is None or target not in self.messages:
            return WireResponse(404, {"message": "Unknown Message", "code": 10008})
        sent.message_id = target
        if request.method == "GET":
            return WireResponse(200, copy.deepcopy(self.messages[target]))
        if request.method == "PATCH":
            return WireResponse(200, self._edit(target, body))
        if request.method == "DELETE":
            del self.messages[target]
            return WireResponse(204, None)
        return WireResponse(404, NOT_FOUND)

    def _store(
        self, body: dict[str, Any], channel_id: int, message_id: int, sent: Sent
    ) -> dict[str, Any]:
        message = message_payload(body, channel_id, message_id)
        message["attachments"] = [
            {
                "id": str(self.next_id()),
                "filename": f.filename,
                "size": len(f.data),
                "url": f"https://cdn.discordapp.com/attachments/{channel_id}/{f.filename}",
                "proxy_url": f"https://media.discordapp.net/attachments/{channel_id}/{f.filename}",
                "content_type": f.content_type,
                "description": f.description,
            }
            for f in sent.files
        ]
        self.messages[message_id] = message
        self.versions.setdefault(message_id, []).append(copy.deepcopy(message))
        return copy.deepcopy(message)

    def _edit(self, message_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        message = self.messages[message_id]
        for key in ("content", "embeds", "components", "flags"):
            if key in changes:
                message[key] = changes[key] if changes[key] is not None else []
        message["edited_timestamp"] = "2026-11-22T12:00:01+00:00"
        self.versions.setdefault(message_id, []).append(copy.deepcopy(message))
        return copy.deepcopy(message)

    # ----- interactions ---------------------------------------------------------------------
    def register_interaction(
        self, token: str, interaction_id: int, channel_id: int, message_id: int | None = None
    ) -> None:
        self._interactions[token] = InteractionInfo(interaction_id, channel_id, message_id)


BACKGROUND_TASKS = frozenset({"puzzle-miner"})
"""The bot's own background work that an interaction may start but never waits for (mining a
game that just ended, in a low-priority process that a loaded machine may hold back for
seconds): a test that wants it waits for it itself."""


def _background(task: asyncio.Task[Any]) -> bool:
    """discord.py's per-view timeout timer, or the bot's background work: not interaction
    handling."""
    coro = task.get_coro()
    return (
        "timeout_task" in getattr(coro, "__qualname__", "") or task.get_name() in BACKGROUND_TASKS
    )


async def wait_for_new_tasks(before: set[asyncio.Task[Any]], timeout: float) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while True:
        pending = [t for t in asyncio.all_tasks() - before if not t.done()]
        pending = [t for t in pending if t is not asyncio.current_task() and not _background(t)]
        if not pending:
            return
        if loop.time() > give_up:
            stacks = "\n".join(f"{t.get_name()}: {t.get_stack(limit=8)}" for t in pending)
            raise AssertionError(f"interaction tasks did not finish:\n{stacks}")
        await asyncio.wait(pending, timeout=0.5)


# ----- a running bot over a real store, with the fake network edge --------------------------------
@dataclass(eq=False)
class Harness:
    """A real :class:`CrosspathBot` over a real SQLite store, connected to :class:`FakeDiscord`."""

    bot: Any
    fake: FakeDiscord
    payloads: Payloads
    store: Any
    service: Any
    gateway: asyncio.Task[None]

    async def deliver(self, payload: dict[str, Any], timeout: float = 5) -> None:
        """Send one INTERACTION_CREATE on the gateway; wait for every task it started."""
        assert self.fake.socket is not None
        before = asyncio.all_tasks()
        await self.fake.socket.dispatch("INTERACTION_CREATE", payload)
        await wait_for_new_tasks(before, timeout)

    async def run(self, payload: dict[str, Any], timeout: float = 5) -> list[Sent]:
        """Deliver one interaction; return what the bot sent because of it."""
        start = len(self.fake.sent)
        await self.deliver(payload, timeout)
        return self.fake.sent[start:]

    async def command(self, name: str, who: Player, /, **options: Any) -> list[Sent]:
        channel_id = options.pop("channel_id", CHANNEL)
        channel_kind = options.pop("channel_kind", 11 if channel_id in self.fake.threads else 0)
        locale = options.pop("locale", None)  # the player's client language (default en-US)
        members = [v for v in options.values() if isinstance(v, Player)]
        opts = [
            opt(k, str(v.id), 6) if isinstance(v, Player) else opt(k, v, option_kind(v))
            for k, v in options.items()
        ]
        payload = self.payloads.command(
            name, who, opts, channel_id=channel_id, channel_kind=channel_kind, members=members
        )
        if locale is not None:
            payload["locale"] = locale
        return await self.run(payload)

    async def click(self, custom_id: str, player: Player, **kwargs: Any) -> list[Sent]:
        return await self.run(self.payloads.button(custom_id, player, **kwargs))

    async def close(self) -> None:
        _open.discard(self)
        await self.bot.close()
        await asyncio.wait_for(self.gateway, 5)
        await self.store.close()


_open: set[Harness] = set()


@pytest.fixture(autouse=True)
async def close_harnesses() -> AsyncIterator[None]:
    """Close any harness a failing test left open (its gateway heartbeat thread would
    otherwise outlive the test's event loop)."""
    yield
    for harness in list(_open):
        await harness.close()


async def open_harness(
    db_path: Any,
    clock: Any,
    monkeypatch: Any = None,
    fake: FakeDiscord | None = None,
    seed: int = 7,
    settings: Any = None,
    *,
    new_server: bool = False,
) -> Harness:
    """Start a bot the way ``crosspath run`` does: ``login()``, then ``connect()``.

    With ``settings`` the clock loop runs too (it starts once READY has been handled).  The
    test server is one that saved its settings with games in their channels (threads off),
    as servers did before games got threads by default; ``new_server=True`` leaves it with
    no settings at all, as a server that just added the bot.
    """
    from bot.discord.app import CrosspathBot
    from bot.service import GameService, GuildSettings
    from bot.service.convert import settings_row
    from bot.store import open_store

    store = await open_store(db_path)
    if not new_server:
        async with store.write() as tx:
            if await tx.moderation.settings(GUILD) is None:
                await tx.moderation.save_settings(
                    settings_row(GuildSettings(GUILD, use_threads=False), 1)
                )
    service = GameService(store, clock=clock, rng=random.Random(seed))
    bot = CrosspathBot(service, settings, run_clock=settings is not None, guild_ready_timeout=0.01)
    fake = fake or FakeDiscord()
    with fake_sessions(fake) as sessions:
        await bot.login(TOKEN)
    fake.sessions += sessions
    gateway = asyncio.create_task(bot.connect(), name="fake-gateway-connection")
    await asyncio.wait_for(bot.wait_until_ready(), 5)
    assert bot.get_guild(GUILD) is not None, "GUILD_CREATE filled the guild cache"
    # exact autocomplete answers even on a loaded CI machine (the 50 ms budget has its own test)
    bot.get_cog("PlayCog").autocomplete_budget = 1.0
    # Mining every ended game for puzzles takes seconds of solver time: only the tests of
    # the miner turn it on (tests/discord/test_puzzle_miner.py).
    bot.puzzle_miner.enabled = False
    fake.clear()
    harness = Harness(bot, fake, Payloads(fake), store, service, gateway)
    _open.add(harness)
    return harness


REFUSAL_SHAPES = (
    ["reply"],  # answered at once
    ["defer", "followup"],  # acknowledged privately first, then refused
    ["defer", "delete_original", "followup"],  # public "thinking…" withdrawn, refused privately
)


def refusal(sent: list[Sent]) -> Sent:
    """The one private answer a refused interaction gets, whichever way it was acknowledged."""
    kinds = [s.kind for s in sent]
    assert kinds in REFUSAL_SHAPES, kinds
    answer = sent[-1]
    assert answer.ephemeral and answer.content, answer
    if kinds == ["defer", "followup"]:
        assert sent[0].ephemeral, "a refusal after a public defer would be seen by everyone"
    return answer


# ----- players and shared steps for the Discord tests ------------------------------------------


@pytest.fixture
async def h(db_path: Path, clock: Any) -> AsyncIterator[Any]:
    harness = await open_harness(db_path, clock)
    try:
        yield harness
    finally:
        await harness.close()


@pytest.fixture
def fast_retries(monkeypatch: pytest.MonkeyPatch) -> ScaledRetries:
    """discord.py's retry waits (HTTP and webhook adapter) at 1/100 of real time, recorded."""
    import discord.http
    import discord.webhook.async_

    scaled = ScaledRetries(0.01)
    monkeypatch.setattr(discord.http, "asyncio", scaled)
    monkeypatch.setattr(discord.webhook.async_, "asyncio", scaled)
    return scaled


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


DM_WHERE = {"dm": DM_CHANNEL, "group": GROUP_DM}
"""The conversations a user-installed Crosspath is used in: a DM between two people and a
group DM."""
SLOW_INTERACTION = 30
"""Seconds an interaction may take on a loaded machine (a cold game after a restart is
rebuilt in a worker process first)."""


async def dm_command(h: Any, where: str, name: str, who: Player, **options: Any) -> list[Any]:
    """``/name`` typed in the DM (or group DM) by ``who``, who installed Crosspath."""
    members = [v for v in options.values() if isinstance(v, Player)]
    opts = [
        opt(k, str(v.id), 6) if isinstance(v, Player) else opt(k, v, option_kind(v))
        for k, v in options.items()
    ]
    payload = h.payloads.command(name, who, opts, channel_id=DM_WHERE[where], members=members)
    payload = user_installed(payload, who, where)
    payload["data"].get("resolved", {}).pop("members", None)  # no server, no members
    return list(await h.run(payload, timeout=SLOW_INTERACTION))


async def dm_click(h: Any, where: str, custom_id: str, who: Player) -> list[Any]:
    """A button pressed in the DM (or group DM) by ``who``."""
    payload = user_installed(h.payloads.button(custom_id, who), who, where)
    return list(await h.run(payload, timeout=SLOW_INTERACTION))
