"""``crosspath sync`` sends exactly what ``crosspath commands --json`` prints.

The network is faked at the wire (the aiohttp session, see discord_wire.py), so discord.py's
own request code, status mapping (401 -> LoginFailure) and JSON encoding run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from discord_wire import WireRequest, WireResponse, fake_sessions

from bot.config import SETTINGS
from bot.discord import sync
from bot.discord.payloads import command_payloads

APP_ID = "700000000000000001"
USER = {"id": APP_ID, "username": "crosspath", "discriminator": "0", "avatar": None, "bot": True}
APPLICATION = {
    "id": APP_ID,
    "name": "Crosspath",
    "icon": None,
    "description": "",
    "bot_public": False,
    "bot_require_code_grant": False,
    "verify_key": "0" * 64,
    "owner": {**USER, "id": "1", "bot": False},
    "flags": 0,
}


class FakeHTTP:
    """Discord's REST side for ``crosspath sync``, behind the wire-level fake session."""

    def __init__(self, token_ok: bool = True) -> None:
        self.token_ok = token_ok
        self.calls: list[tuple[str, str, Any]] = []

    async def handle(self, request: WireRequest) -> WireResponse:
        path = request.path
        body = request.json
        self.calls.append((request.method, path, body))
        assert request.headers["Authorization"] == "Bot token-for-tests"
        if path == "/users/@me":
            if not self.token_ok:
                return WireResponse(401, {"code": 0, "message": "401: Unauthorized"})
            return WireResponse(200, USER)
        if path == "/oauth2/applications/@me":
            return WireResponse(200, APPLICATION)
        if request.method == "PUT" and path.endswith("/commands"):
            return WireResponse(
                200,
                [
                    {
                        "description": "",  # Discord answers a context menu with an empty one
                        **command,
                        "id": str(i + 1),
                        "application_id": APP_ID,
                        "version": "1",
                    }
                    for i, command in enumerate(body)
                ],
            )
        raise AssertionError(f"unexpected request {request.method} {path}")


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "token-for-tests")


def test_guild_sync_puts_the_exported_payloads(
    env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = FakeHTTP()
    with fake_sessions(fake):
        assert sync.main(["--guild", "42"]) == 0
    [put] = [c for c in fake.calls if c[0] == "PUT"]
    assert put[1] == f"/applications/{APP_ID}/guilds/42/commands"
    assert put[2] == json.loads(json.dumps(command_payloads()))
    assert f"synced {len(command_payloads())} commands to server 42" in capsys.readouterr().out


def test_global_sync_and_rejected_token(
    env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = FakeHTTP()
    with fake_sessions(fake):
        assert sync.main(["--global"]) == 0
    assert [c[1] for c in fake.calls if c[0] == "PUT"] == [f"/applications/{APP_ID}/commands"]

    fake.token_ok = False
    with fake_sessions(fake):
        assert sync.main(["--guild", "42"]) == 3
    err = capsys.readouterr().err
    assert "rejected the token" in err and "Traceback" not in err
