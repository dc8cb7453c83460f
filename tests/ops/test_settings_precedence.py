"""The deploy kit's settings read together with `.env.example`, as systemd and compose would
hand them to the settings loader: the unit's own values must win, and an empty value in a
copied `.env` must never switch a set one off."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from deploy_kit import DEPLOY, UNITS, load_compose

from bot.config import SETTINGS, Settings, load_settings
from bot.discord.runner import EXIT_CONFIG

ROOT = DEPLOY.parent
EXAMPLE = ROOT / ".env.example"
BOT_UNITS = ("crosspath.service", "crosspath@.service", "crosspath-web.service")


def unit_environment(text: str, instance: str) -> dict[str, str]:
    """The ``Environment=`` lines of a unit, with ``%I`` filled in."""
    env: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("Environment="):
            name, _, value = line.removeprefix("Environment=").partition("=")
            env[name] = value.replace("%I", instance)
    return env


def exec_env_file(text: str) -> str:
    (line,) = [line for line in text.splitlines() if line.startswith("ExecStart=")]
    found = re.search(r"--env-file (\S+)", line)
    assert found, f"{line!r} does not name the settings file"
    return found.group(1)


@pytest.fixture()
def as_systemd(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Run the loader as a unit would: only the unit's environment, and its settings file
    replaced by a copy of ``.env.example`` (the quick start's way of making ``.env``)."""

    def load(unit: str, instance: str = "0") -> Settings:
        text = (UNITS / unit).read_text()
        for name in list(os.environ):
            if name in SETTINGS or name.startswith("CROSSPATH_"):
                monkeypatch.delenv(name)
        for name, value in unit_environment(text, instance).items():
            monkeypatch.setenv(name, value)
        assert exec_env_file(text) == "/srv/crosspath/.env"
        copied = tmp_path / f"{unit}.env"
        shutil.copy(EXAMPLE, copied)
        return load_settings(copied)

    return load


def test_no_unit_lets_a_settings_file_override_its_own_lines() -> None:
    """systemd gives ``EnvironmentFile=`` precedence over ``Environment=``: the units leave
    the file to the loader, which lets the unit's values win."""
    for unit in BOT_UNITS:
        text = (UNITS / unit).read_text()
        assert not re.search(r"^EnvironmentFile=", text, re.MULTILINE), unit


def test_the_sqlite_unit_keeps_its_database_port_and_log_format(as_systemd) -> None:  # type: ignore[no-untyped-def]
    settings = as_systemd("crosspath.service")
    assert settings.database == "/srv/crosspath/data/crosspath.sqlite3"
    text = (UNITS / "crosspath.service").read_text()
    assert "ReadWritePaths=/srv/crosspath/data" in text  # the database is inside it
    assert settings.web_port == 8080
    assert settings.log_format == "json"


def test_every_shard_instance_runs_its_own_shards_on_postgresql(as_systemd) -> None:  # type: ignore[no-untyped-def]
    for instance, ids in (("0", (0,)), ("1", (1,)), ("0,1", (0, 1))):
        settings = as_systemd("crosspath@.service", instance)
        assert settings.is_postgres
        assert settings.shard_count == 2 and settings.shard_ids == ids


def test_the_web_unit_reads_postgresql_on_a_port_of_its_own(as_systemd) -> None:  # type: ignore[no-untyped-def]
    settings = as_systemd("crosspath-web.service")
    assert settings.is_postgres
    web = (UNITS / "crosspath-web.service").read_text()
    bot = (UNITS / "crosspath.service").read_text()
    web_port = re.search(r"--port (\d+)", web)
    assert web_port is not None
    assert f"CROSSPATH_WEB_PORT={web_port.group(1)}" not in bot  # both can run side by side


def test_every_unit_stops_restarting_on_a_configuration_error() -> None:
    for unit in BOT_UNITS:
        text = (UNITS / unit).read_text()
        found = re.search(r"^RestartPreventExitStatus=(.+)$", text, re.MULTILINE)
        assert found, unit
        assert str(EXIT_CONFIG) in found.group(1).split(), unit


def test_the_web_unit_says_it_serves_the_game_pages() -> None:
    text = (UNITS / "crosspath-web.service").read_text()
    (description,) = re.findall(r"^Description=(.+)$", text, re.MULTILINE)
    assert "game pages" in description


def test_an_empty_value_never_overrides_a_set_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    dotenv = tmp_path / ".env"
    dotenv.write_text("CROSSPATH_WEB_PORT=\nCROSSPATH_CLOCK_SECONDS=30\nCROSSPATH_DEV_GUILD=7\n")
    monkeypatch.setenv("CROSSPATH_WEB_PORT", "8100")  # set, and the file's is empty
    monkeypatch.setenv("CROSSPATH_CLOCK_SECONDS", "")  # empty, and the file's is set
    monkeypatch.setenv("CROSSPATH_DEV_GUILD", "9")  # both set: the environment wins
    settings = load_settings(dotenv)
    assert settings.web_port == 8100
    assert settings.clock_seconds == 30.0
    assert settings.dev_guild == 9


def test_compose_lets_no_copied_env_hide_the_shards_metrics() -> None:
    """Whatever ``deploy/.env`` holds, ``environment:`` wins in compose: every shard names
    the address other containers scrape it on, and the header asks only for secrets."""
    services = load_compose()["services"]
    for name in ("shard-0", "shard-1"):
        env = services[name]["environment"]
        assert env["CROSSPATH_WEB_HOST"] == "0.0.0.0" and env["CROSSPATH_WEB_PORT"] == "8080"
    header = (DEPLOY / "compose.yaml").read_text().split("\nname:", 1)[0]
    assert "see .env.example" not in header and "Do not copy" in header
