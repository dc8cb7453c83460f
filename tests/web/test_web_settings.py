"""CROSSPATH_WEB_PORT and CROSSPATH_WEB_HOST: read, checked, and named when wrong."""

from __future__ import annotations

import pytest

from bot.config import SettingsError, settings_from


def test_unset_means_no_pages_on_this_machine_only() -> None:
    settings = settings_from({})
    assert (settings.web_port, settings.web_host) == (None, "127.0.0.1")
    assert settings_from({"CROSSPATH_WEB_PORT": " "}).web_port is None


def test_a_port_and_a_host_are_read() -> None:
    settings = settings_from({"CROSSPATH_WEB_PORT": "9100", "CROSSPATH_WEB_HOST": "0.0.0.0"})
    assert (settings.web_port, settings.web_host) == (9100, "0.0.0.0")
    assert "web_port=9100" in repr(settings)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("http", "CROSSPATH_WEB_PORT must be a port number, not 'http'"),
        ("0", "CROSSPATH_WEB_PORT must be a port from 1 to 65535, not 0"),
        ("65536", "CROSSPATH_WEB_PORT must be a port from 1 to 65535, not 65536"),
        ("9" * 300, "CROSSPATH_WEB_PORT must be a port from 1 to 65535, not 999"),
    ],
)
def test_a_bad_port_is_refused_naming_the_setting(raw: str, message: str) -> None:
    with pytest.raises(SettingsError) as refused:
        settings_from({"CROSSPATH_WEB_PORT": raw})
    assert str(refused.value).startswith(message)
    assert len(str(refused.value)) < 200


def test_a_public_url_is_read_without_its_trailing_slash() -> None:
    assert settings_from({}).public_url == ""
    read = settings_from({"CROSSPATH_PUBLIC_URL": " https://games.example.org/ "})
    assert read.public_url == "https://games.example.org"
    assert settings_from({"CROSSPATH_PUBLIC_URL": "http://10.0.0.5:8080/cp"}).public_url == (
        "http://10.0.0.5:8080/cp"
    )


@pytest.mark.parametrize(
    "raw",
    [
        "games.example.org",
        "ftp://x",
        "https://",
        "https://a b",
        "https://x/?q=1",
        "https://x#y",
        "https://" + "x" * 300,
        "javascript:alert(1)",
    ],
)
def test_a_bad_public_url_is_refused_naming_the_setting(raw: str) -> None:
    with pytest.raises(SettingsError) as refused:
        settings_from({"CROSSPATH_PUBLIC_URL": raw})
    assert str(refused.value).startswith("CROSSPATH_PUBLIC_URL must be an http:// or https://")
    assert len(str(refused.value)) < 300
