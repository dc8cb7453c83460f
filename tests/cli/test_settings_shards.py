"""Settings for several processes: the database as a path or a URL (its password never shown),
the shard settings checked with clear messages, ``crosspath run`` sharded or refusing SQLite
across processes, and ``.env.example`` documenting every setting."""

from __future__ import annotations

import json
import re
from pathlib import Path

import discord
import pytest

from bot.cli import db as db_cli
from bot.config import SETTINGS, Settings, SettingsError, settings_from, shown_database
from bot.discord import runner
from bot.discord.app import CrosspathBot
from bot.service import ShardFilter

TOKEN = "MTIzNDU2Nzg5.secret-token-value"
PASSWORD = "pg-pass-w0rd"
URL = f"postgresql://crosspath:{PASSWORD}@127.0.0.1:1/crosspath"
REPO = Path(__file__).resolve().parents[2]


pytestmark = pytest.mark.usefixtures("clean_env")


def test_the_database_is_a_path_or_a_url_under_either_name() -> None:
    assert settings_from({}).database == "crosspath.sqlite3"
    assert settings_from({"CROSSPATH_DB": "old.db"}).database == "old.db"
    assert settings_from({"CROSSPATH_DATABASE": URL}).database == URL
    both = {"CROSSPATH_DATABASE": "new.db", "CROSSPATH_DB": "old.db"}
    assert settings_from(both).database == "new.db"
    assert settings_from({"CROSSPATH_DATABASE": URL}).is_postgres
    assert not settings_from({"CROSSPATH_DATABASE": "data/bot.sqlite3"}).is_postgres
    with pytest.raises(SettingsError, match="SQLite file path or a postgresql:// URL"):
        settings_from({"CROSSPATH_DATABASE": "mysql://bot:pw@db/crosspath"})


def test_the_password_is_never_shown() -> None:
    settings = settings_from({"CROSSPATH_DATABASE": URL, "DISCORD_TOKEN": TOKEN})
    assert PASSWORD not in repr(settings) and TOKEN not in repr(settings)
    assert settings.shown_database == "postgresql://crosspath:***@127.0.0.1:1/crosspath"
    query = f"postgresql://bot@/crosspath?host=/run/postgresql&password={PASSWORD}"
    assert PASSWORD not in shown_database(query)
    assert shown_database("data/bot.sqlite3") == "data/bot.sqlite3"


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"CROSSPATH_SHARD_IDS": "0,1"}, "CROSSPATH_SHARD_IDS needs CROSSPATH_SHARD_COUNT"),
        ({"CROSSPATH_SHARD_COUNT": "four"}, "whole number, not 'four'"),
        ({"CROSSPATH_SHARD_COUNT": "0"}, "from 1 to"),
        ({"CROSSPATH_SHARD_COUNT": "-2"}, "from 1 to"),
        ({"CROSSPATH_SHARD_COUNT": "4", "CROSSPATH_SHARD_IDS": "0,4"}, "shard 4 does not exist"),
        ({"CROSSPATH_SHARD_COUNT": "4", "CROSSPATH_SHARD_IDS": "-1"}, "shard -1 does not exist"),
        ({"CROSSPATH_SHARD_COUNT": "4", "CROSSPATH_SHARD_IDS": "1,1"}, "names shard 1 twice"),
        ({"CROSSPATH_SHARD_COUNT": "4", "CROSSPATH_SHARD_IDS": "0;1"}, "separated by commas"),
        ({"CROSSPATH_SHARD_COUNT": "4", "CROSSPATH_SHARD_IDS": "0,,1"}, "separated by commas"),
    ],
)
def test_bad_shard_settings_are_named(env: dict[str, str], says: str) -> None:
    with pytest.raises(SettingsError, match=re.escape(says)) as caught:
        settings_from(env)
    assert len(str(caught.value)) < 300


def test_shard_settings() -> None:
    every = settings_from({})
    assert (every.shard_count, every.shard_ids, every.runs_every_shard) == (None, None, True)
    some = settings_from({"CROSSPATH_SHARD_COUNT": "4", "CROSSPATH_SHARD_IDS": " 2, 0 "})
    assert (some.shard_count, some.shard_ids, some.runs_every_shard) == (4, (2, 0), False)
    counted = settings_from({"CROSSPATH_SHARD_COUNT": "3"})
    assert (counted.shard_count, counted.shard_ids, counted.runs_every_shard) == (3, None, True)
    whole = settings_from({"CROSSPATH_SHARD_COUNT": "2", "CROSSPATH_SHARD_IDS": "1,0"})
    assert whole.runs_every_shard


def test_the_bot_runs_the_configured_shards() -> None:
    some = CrosspathBot(None, Settings(shard_count=4, shard_ids=(0, 1)))
    assert isinstance(some, discord.AutoShardedClient)
    assert (some.shard_count, some.shard_ids) == (4, [0, 1])
    assert some.held_shards == ShardFilter(4, (0, 1))
    every = CrosspathBot(None, Settings())
    assert (every.shard_count, every.shard_ids) == (None, None)  # Discord's recommendation
    assert every.held_shards is None
    counted = CrosspathBot(None, Settings(shard_count=3))
    assert (counted.shard_count, counted.shard_ids, counted.held_shards) == (3, None, None)


def never_connect(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot fails the test if it tries to log in: the refusal must come before."""

    async def must_not_start(self: CrosspathBot, token: str, *, reconnect: bool = True) -> None:
        raise AssertionError("connected to Discord")

    monkeypatch.setattr(CrosspathBot, "start", must_not_start)


def test_sqlite_across_processes_is_refused_before_connecting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    never_connect(monkeypatch)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSPATH_DATABASE", str(tmp_path / "bot.db"))
    monkeypatch.setenv("CROSSPATH_SHARD_COUNT", "4")
    monkeypatch.setenv("CROSSPATH_SHARD_IDS", "0,1")
    assert runner.main([]) == runner.EXIT_CONFIG
    err = capsys.readouterr().err
    assert "a SQLite database serves one process only" in err and "postgresql://" in err
    assert "Traceback" not in err
    assert not (tmp_path / "bot.db").exists()  # not even opened


def test_sqlite_with_every_shard_in_one_process_runs_sharded(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: list[tuple[int | None, list[int] | None]] = []

    async def record(self: CrosspathBot, token: str, *, reconnect: bool = True) -> None:
        seen.append((self.shard_count, self.shard_ids))

    monkeypatch.setattr(CrosspathBot, "start", record)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSPATH_DATABASE", str(tmp_path / "bot.db"))
    monkeypatch.setenv("CROSSPATH_SHARD_COUNT", "2")
    monkeypatch.setenv("CROSSPATH_SHARD_IDS", "0,1")
    assert runner.main([]) == 0
    assert seen == [(2, [0, 1])]


def test_an_unreachable_postgresql_is_one_line_without_the_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("asyncpg")
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSPATH_DATABASE", URL)
    monkeypatch.setenv("CROSSPATH_SHARD_COUNT", "4")
    monkeypatch.setenv("CROSSPATH_SHARD_IDS", "0,1")
    assert runner.main([]) == runner.EXIT_DATABASE
    err = capsys.readouterr().err
    assert PASSWORD not in err and "Traceback" not in err
    assert "crosspath run: cannot open the database postgresql://crosspath:***@" in err
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    start = next(line for line in lines if line["msg"] == "starting")
    assert start["shard_count"] == 4 and start["shard_ids"] == [0, 1]


def test_db_commands_read_either_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("CROSSPATH_DATABASE", URL)
    assert db_cli.main(["backup", str(tmp_path / "b.sqlite3")]) == 1
    err = capsys.readouterr().err
    assert "pg_dump" in err and PASSWORD not in err
    monkeypatch.delenv("CROSSPATH_DATABASE")
    monkeypatch.setenv("CROSSPATH_DB", str(tmp_path / "missing.db"))
    assert db_cli.main(["backup", str(tmp_path / "b.sqlite3")]) == 1
    assert "no database at" in capsys.readouterr().err and "missing.db" in db_cli.default_db()


def test_env_example_and_operations_document_every_setting() -> None:
    example = (REPO / ".env.example").read_text()
    operations = (REPO / "docs" / "operations.md").read_text()
    for name in SETTINGS:
        assert re.search(rf"^#?\s*{name}=", example, re.MULTILINE), name
        assert f"`{name}`" in operations, name


def test_the_shard_ids_are_echoed_as_they_are_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CROSSPATH_DATABASE", str(tmp_path / "bot.db"))
    monkeypatch.setenv("CROSSPATH_SHARD_COUNT", "2")
    monkeypatch.setenv("CROSSPATH_SHARD_IDS", "0")
    assert runner.main([]) == runner.EXIT_CONFIG
    err = capsys.readouterr().err
    assert "CROSSPATH_SHARD_IDS=0 runs only some of the 2 shards" in err
    assert "(0,)" not in err


def test_a_database_in_a_missing_folder_is_named_as_such(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    never_connect(monkeypatch)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    database = tmp_path / "no-such-folder" / "bot.db"
    monkeypatch.setenv("CROSSPATH_DATABASE", str(database))
    monkeypatch.setenv("CROSSPATH_LOG_FORMAT", "text")  # the sentence itself, not its JSON
    assert runner.main([]) == runner.EXIT_CONFIG
    err = capsys.readouterr().err
    assert err.strip() == (
        f"crosspath run: CROSSPATH_DATABASE={database}: the folder {database.parent} does not "
        "exist; create it, or give a database path in a folder that exists"
    )
    assert "in use" not in err and "write access" not in err
    assert not database.parent.exists()
