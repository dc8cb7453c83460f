"""``crosspath run`` / ``sync`` / settings: clear exits, no tracebacks, token never logged."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import signal
from pathlib import Path

import discord
import pytest

from bot import logs
from bot.config import SETTINGS, SettingsError, settings_from
from bot.discord import heap, runner, sync
from bot.discord.app import CrosspathBot
from bot.store import SqliteStore as Store

TOKEN = "MTIzNDU2Nzg5.secret-token-value"


pytestmark = pytest.mark.usefixtures("clean_env")


@pytest.fixture(autouse=True)
def database_in_tmp(clean_env: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """After the settings are cleared: the runner's database goes in the test's folder."""
    monkeypatch.setenv("CROSSPATH_DB", str(tmp_path / "bot.db"))


def test_missing_token_is_a_clear_message_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN is not set" in err and "Traceback" not in err
    assert sync.main([]) == 2


def test_bad_setting_is_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSPATH_CLOCK_SECONDS", "soon")
    assert runner.main([]) == 2
    assert "CROSSPATH_CLOCK_SECONDS" in capsys.readouterr().err


def test_dotenv_in_the_working_directory_is_read(tmp_path: Path) -> None:
    from bot.config import load_settings

    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-dotenv\nCROSSPATH_LOG_FORMAT=text\n")
    settings = load_settings()
    assert settings.token == "from-dotenv" and settings.log_format == "text"
    assert "from-dotenv" not in repr(settings)


def test_rejected_token_exits_non_zero_without_traceback_or_token(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    async def refuse(self: CrosspathBot, token: str, *, reconnect: bool = True) -> None:
        logging.getLogger("crosspath.discord").info("trying %s", token)  # a careless library
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(CrosspathBot, "start", refuse)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert runner.main([]) == runner.EXIT_LOGIN
    err = capsys.readouterr().err
    assert "Discord rejected the token" in err
    assert "Traceback" not in err and TOKEN not in err
    assert "[redacted token]" in err
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    assert any(line["msg"] == "database closed" for line in lines)


def test_sigterm_shuts_down_gracefully_and_closes_the_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    closed: list[Path] = []
    original_close = Store.close

    async def record_close(self: Store) -> None:
        closed.append(tmp_path)
        await original_close(self)

    async def run_until_closed(self: CrosspathBot, token: str, *, reconnect: bool = True) -> None:
        asyncio.get_running_loop().call_later(0.05, os.kill, os.getpid(), signal.SIGTERM)
        while not self.is_closed():
            await asyncio.sleep(0.01)

    monkeypatch.setattr(Store, "close", record_close)
    monkeypatch.setattr(CrosspathBot, "start", run_until_closed)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert runner.main([]) == 0
    assert closed, "the store was closed on SIGTERM"
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_the_heap_is_frozen_once_after_the_first_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    settled: list[int] = []

    def settle() -> int:
        settled.append(heap.settle_heap())
        return settled[-1]

    async def ready_twice(self: CrosspathBot, token: str, *, reconnect: bool = True) -> None:
        for _ in range(2):  # the first READY, then a reconnect's
            self.dispatch("ready")
            await asyncio.sleep(0.01)
        asyncio.get_running_loop().call_later(0.01, os.kill, os.getpid(), signal.SIGTERM)
        while not self.is_closed():
            await asyncio.sleep(0.01)

    monkeypatch.setattr(runner, "settle_heap", settle)
    monkeypatch.setattr(CrosspathBot, "start", ready_twice)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    try:
        assert runner.main([]) == 0
        assert len(settled) == 1 and settled[0] > 1000 and gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()  # leave the test process's heap as it was


def test_settings_defaults_and_errors() -> None:
    settings = settings_from({})
    assert settings.database == "crosspath.sqlite3" and not settings.has_token
    assert settings_from({"CROSSPATH_DEV_GUILD": "123"}).dev_guild == 123
    for bad in (
        {"CROSSPATH_DEV_GUILD": "home"},
        {"CROSSPATH_LOG_LEVEL": "LOUD"},
        {"CROSSPATH_LOG_FORMAT": "xml"},
        {"CROSSPATH_CLOCK_SECONDS": "0"},
    ):
        with pytest.raises(SettingsError, match=next(iter(bad))):
            settings_from(bad)


def test_every_setting_is_documented_in_operations_md() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    for name in SETTINGS:
        assert f"`{name}`" in doc, name


def test_text_log_lines_carry_extras_and_mask_the_secret() -> None:
    import io

    stream = io.StringIO()
    logs.configure("INFO", "text", secret="s3cret", stream=stream)
    logging.getLogger("crosspath.test").warning("leaked s3cret", extra={"guild_id": 5})
    line = stream.getvalue()
    assert "guild_id=5" in line and "s3cret" not in line


def test_no_network_is_a_clear_message(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def offline(self: CrosspathBot, token: str, *, reconnect: bool = True) -> None:
        raise OSError("Name or service not known")

    monkeypatch.setattr(CrosspathBot, "start", offline)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert runner.main([]) == runner.EXIT_NETWORK
    err = capsys.readouterr().err
    assert "cannot reach Discord" in err and "Traceback" not in err


def test_no_privileged_intents_and_no_pings_unless_asked() -> None:
    bot = CrosspathBot(service=None)
    assert bot.intents == discord.Intents(guilds=True)
    assert not (bot.intents.members or bot.intents.presences or bot.intents.message_content)
    assert bot.allowed_mentions is not None
    assert bot.allowed_mentions.to_dict() == {"parse": []}
    with pytest.raises(RuntimeError, match="without a game service"):
        _ = bot.service


def json_lines(err: str) -> list[dict[str, object]]:
    """Every line of ``err`` as JSON: fails on any plain line."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines, "nothing was written"
    return [json.loads(line) for line in lines]


def test_in_json_mode_a_missing_token_is_one_json_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROSSPATH_LOG_FORMAT", "json")
    assert runner.main([]) == runner.EXIT_CONFIG
    (line,) = json_lines(capsys.readouterr().err)
    assert str(line["msg"]).startswith("crosspath run: DISCORD_TOKEN is not set")
    assert line["level"] == "ERROR"


def test_in_json_mode_an_unreachable_discord_writes_only_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def unreachable(self: CrosspathBot, token: str, *, reconnect: bool = True) -> None:
        raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(CrosspathBot, "start", unreachable)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSPATH_LOG_FORMAT", "json")
    assert runner.main([]) == runner.EXIT_NETWORK
    lines = json_lines(capsys.readouterr().err)
    said = [str(line["msg"]) for line in lines]
    assert any(msg.startswith("crosspath run: cannot reach Discord") for msg in said)
    assert "database closed" in said


def test_a_setting_that_fails_to_load_is_json_only_when_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROSSPATH_SHARD_COUNT", "many")
    monkeypatch.setenv("CROSSPATH_LOG_FORMAT", "json")
    assert runner.main([]) == runner.EXIT_CONFIG
    (line,) = json_lines(capsys.readouterr().err)
    assert "CROSSPATH_SHARD_COUNT must be a whole number" in str(line["msg"])
    monkeypatch.setenv("CROSSPATH_LOG_FORMAT", "text")
    assert runner.main([]) == runner.EXIT_CONFIG
    assert capsys.readouterr().err.startswith("crosspath run: CROSSPATH_SHARD_COUNT must be")
