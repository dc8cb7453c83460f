"""The wire under discord.py: a fake ``aiohttp.ClientSession`` and a fake gateway socket.

Why this seam.  discord.py builds exactly one ``aiohttp.ClientSession``, in
``HTTPClient.static_login`` (run by ``Client.login``), and sends everything through it: REST
calls (``HTTPClient.request``), interaction callbacks and follow-ups (the webhook adapter gets
the same session through ``Interaction._session``) and the gateway (``HTTPClient.ws_connect``).
The public hook ``Client(connector=...)`` sits one level lower, at TCP: using it would mean a
TLS server for ``discord.com`` with a certificate the tests would have to mint.  So the fake is
installed where discord.py creates its session: :func:`fake_sessions` replaces the name
``aiohttp.ClientSession`` only while ``login()`` runs, discord.py's own call constructs a
:class:`FakeSession` with its real arguments, and no private attribute is touched.

Above this line everything is real discord.py: the rate limiter and its bucket headers, the
retry loop for 5xx and 429, status-to-exception mapping, ``aiohttp.FormData`` multipart
encoding (serialised here with aiohttp's own writer and parsed back with the standard library's
MIME parser), and the gateway client (HELLO, IDENTIFY, READY, GUILD_CREATE, dispatches).
"""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.policy
import json
import types
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

import aiohttp
from multidict import CIMultiDict, CIMultiDictProxy
from yarl import URL

API = "https://discord.com/api/v10"


@dataclass
class Part:
    """One part of a multipart/form-data body, as the server would parse it."""

    name: str
    filename: str | None
    content_type: str
    data: bytes


@dataclass
class WireRequest:
    """One HTTP request as it left discord.py, body already decoded."""

    method: str
    url: URL
    headers: dict[str, str]
    json: Any = None
    parts: list[Part] = field(default_factory=list)

    @property
    def path(self) -> str:
        """The API path, like ``/channels/1/messages`` (no host, version or query)."""
        return self.url.path.removeprefix("/api/v10")


@dataclass
class WireResponse:
    status: int
    body: Any = None  # JSON-able, or str for a non-JSON body
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[WireRequest], Awaitable[WireResponse]]


async def decode_body(data: Any, headers: dict[str, str]) -> tuple[Any, list[Part]]:
    """JSON text, or FormData serialised by aiohttp and parsed back part by part."""
    if data is None:
        return None, []
    if isinstance(data, (str, bytes)):
        text = data.decode() if isinstance(data, bytes) else data
        ctype = headers.get("Content-Type", "")
        assert ctype == "application/json", f"a text body must be JSON, not {ctype!r}"
        return json.loads(text), []
    assert isinstance(data, aiohttp.FormData), f"unexpected body type {type(data)}"
    payload = data()
    raw = await payload.as_bytes()
    content_type = payload.content_type
    assert content_type.startswith("multipart/form-data"), content_type
    message = email.message_from_bytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + raw, policy=email.policy.HTTP
    )
    assert message.is_multipart(), "the multipart body does not parse back"
    parts = []
    body = None
    for part in message.iter_parts():
        disposition = part.get("Content-Disposition", "")
        assert disposition.startswith("form-data"), disposition
        name = part.get_param("name", header="content-disposition")
        blob = part.get_payload(decode=True)
        assert isinstance(name, str) and isinstance(blob, bytes)
        parsed = Part(name, part.get_filename(), part.get_content_type(), blob)
        parts.append(parsed)
        if name == "payload_json":
            body = json.loads(blob)
    return body, parts


class FakeResponse:
    """Enough of ``aiohttp.ClientResponse`` for discord.py: status, reason, headers, text."""

    def __init__(self, method: str, url: URL, answer: WireResponse) -> None:
        self.method = method
        self.url = url
        self.status = answer.status
        self.reason = HTTPStatus(answer.status).phrase
        headers = CIMultiDict(answer.headers)
        if isinstance(answer.body, str):
            headers.setdefault("Content-Type", "text/plain; charset=utf-8")
            self._text = answer.body
        elif answer.body is None and answer.status == 204:
            self._text = ""
        else:
            headers.setdefault("Content-Type", "application/json")
            self._text = json.dumps(answer.body)
        self.headers = CIMultiDictProxy(headers)

    async def text(self, encoding: str | None = None, errors: str = "strict") -> str:
        return self._text

    async def read(self) -> bytes:
        return self._text.encode()

    async def json(self, **_: Any) -> Any:
        return json.loads(self._text)

    def release(self) -> None:
        pass

    async def __aenter__(self) -> FakeResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        pass


class _Pending:
    """What ``session.request(...)`` returns: awaited through ``async with``."""

    def __init__(self, session: FakeSession, method: str, url: str, kwargs: dict[str, Any]):
        self.session, self.method, self.url, self.kwargs = session, method, url, kwargs

    async def __aenter__(self) -> FakeResponse:
        if self.session.closed:
            raise RuntimeError("Session is closed")
        headers = dict(self.kwargs.get("headers") or {})
        body, parts = await decode_body(self.kwargs.get("data"), headers)
        url = URL(self.url)
        params = self.kwargs.get("params")
        if params:
            url = url.update_query({k: str(v) for k, v in params.items()})
        request = WireRequest(self.method, url, headers, body, parts)
        answer = await self.session.model.handle(request)
        return FakeResponse(self.method, url, answer)

    async def __aexit__(self, *exc: object) -> None:
        pass


class FakeSession:
    """Stands in for the ``aiohttp.ClientSession`` discord.py creates at login."""

    def __init__(self, model: Any, **created_with: Any) -> None:
        self.model = model
        self.created_with = created_with
        self.closed = False

    def request(self, method: str, url: str, **kwargs: Any) -> _Pending:
        return _Pending(self, method, str(url), kwargs)

    def get(self, url: str, **kwargs: Any) -> _Pending:
        return self.request("GET", url, **kwargs)

    async def ws_connect(self, url: str, **kwargs: Any) -> GatewaySocket:
        return await self.model.gateway_connect(URL(url), kwargs)

    async def close(self) -> None:
        self.closed = True


@contextlib.contextmanager
def fake_sessions(model: Any) -> Iterator[list[FakeSession]]:
    """While active, ``aiohttp.ClientSession(...)`` builds a :class:`FakeSession` on ``model``.

    Use it around ``client.login()`` only: that is where discord.py creates its session.
    """
    created: list[FakeSession] = []
    original = aiohttp.ClientSession

    def make(*args: Any, **kwargs: Any) -> FakeSession:
        assert not args, "discord.py passes keyword arguments only"
        session = FakeSession(model, **kwargs)
        created.append(session)
        return session

    aiohttp.ClientSession = make  # type: ignore[misc,assignment]
    try:
        yield created
    finally:
        aiohttp.ClientSession = original  # type: ignore[misc]


class GatewaySocket:
    """Enough of ``aiohttp.ClientWebSocketResponse`` for discord.py's gateway client.

    Frames are uncompressed JSON text frames (Discord sends those too).  :meth:`dispatch`
    returns once discord.py has fully handled the frame, i.e. asked for the next one.
    """

    def __init__(self, on_frame: Callable[[GatewaySocket, dict[str, Any]], None]) -> None:
        self._inbox: asyncio.Queue[aiohttp.WSMessage] = asyncio.Queue()
        self._on_frame = on_frame
        self.frames_sent: list[dict[str, Any]] = []
        self.closed = False
        self.close_code: int | None = None
        self._seq = 0
        self._pushed = 0
        self._taken = 0
        self._done = 0
        self._handled = asyncio.Condition()

    def push(self, op: int, data: Any, event: str | None = None) -> int:
        frame: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
        if op == 0:
            self._seq += 1
            frame["s"] = self._seq
        self._inbox.put_nowait(aiohttp.WSMessage(aiohttp.WSMsgType.TEXT, json.dumps(frame), None))
        self._pushed += 1
        return self._pushed

    async def dispatch(self, event: str, data: Any) -> None:
        """Send one DISPATCH and wait until discord.py has handled it."""
        number = self.push(0, data, event)
        async with self._handled:
            await self._handled.wait_for(lambda: self._done >= number or self.closed)

    async def receive(self, timeout: float | None = None) -> aiohttp.WSMessage:
        async with self._handled:
            self._done = self._taken  # every frame taken before this call is fully handled
            self._handled.notify_all()
        if self.closed and self._inbox.empty():
            return aiohttp.WSMessage(aiohttp.WSMsgType.CLOSED, None, None)
        message = await self._inbox.get()
        self._taken += 1
        return message

    async def send_str(self, data: str, compress: int | None = None) -> None:
        if self.closed:
            raise RuntimeError("socket is closed")  # what aiohttp raises for a closed socket
        frame = json.loads(data)
        self.frames_sent.append(frame)
        self._on_frame(self, frame)

    async def close(self, *, code: int = 1000, message: bytes = b"") -> bool:
        if self.closed:
            return False
        self.closed = True
        self.close_code = code
        self._inbox.put_nowait(aiohttp.WSMessage(aiohttp.WSMsgType.CLOSED, None, None))
        async with self._handled:
            self._handled.notify_all()
        return True


class ScaledRetries(types.ModuleType):
    """``asyncio`` as seen by discord.py's HTTP and webhook modules, with sleeps shortened.

    discord.py waits 1, 3, 5, 7 and 9 s between 5xx retries and ``retry_after`` on a 429;
    the tests keep every decision and record every requested wait, but sleep ``scale`` times
    as long so a run of five 500s takes a quarter of a second, not 25 s.
    """

    def __init__(self, scale: float) -> None:
        super().__init__("asyncio")
        self.scale = scale
        self.slept: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        self.slept.append(delay)
        return await asyncio.sleep(delay * self.scale, result)
