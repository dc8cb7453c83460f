"""The localised slash-command payloads (``crosspath commands --json``) in every Discord locale
we ship: Discord's limits hold in each language, and each language really is there.

The OpenAPI check of the same payloads, localisations included, is in test_payloads.py.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from bot.discord.payloads import command_payloads
from bot.i18n import DISCORD_LOCALES

COMMAND_LIMIT = 8000
LOCALES = sorted(DISCORD_LOCALES)


@cache
def payloads() -> list[dict[str, Any]]:
    return command_payloads()


def discord_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, in lower case: a
    letter or number by Unicode category, or a Devanagari or Thai code point."""

    def allowed(ch: str) -> bool:
        return (
            ch in "-_"
            or unicodedata.category(ch)[0] in "LN"
            or "\u0900" <= ch <= "\u097f"
            or "\u0e00" <= ch <= "\u0e7f"
        )

    return 1 <= len(name) <= 32 and all(map(allowed, name)) and name == name.lower()


def nodes(payload: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The command, its subcommands, groups and options, and their choices."""
    yield payload
    for option in payload.get("options") or []:
        yield from nodes(option)
    yield from payload.get("choices") or []


def longest(node: dict[str, Any], field: str) -> int:
    texts = [node.get(field) or "", *(node.get(f"{field}_localizations") or {}).values()]
    return max(len(str(t)) for t in texts)


def discord_size(payload: dict[str, Any]) -> int:
    """Characters counted against the 8,000 limit as Discord documents it ("Registering a
    command"): name, description and value of the command, its options and choices, where
    "only the longest localization for each field (including the default value) is counted"."""
    return sum(
        longest(node, "name") + longest(node, "description") + len(str(node.get("value", "")))
        for node in nodes(payload)
    )


def every_locale_size(payload: dict[str, Any]) -> int:
    """The stricter sum: every localisation counted, not only the longest (for comparison)."""
    total = 0
    for node in nodes(payload):
        for field in ("name", "description"):
            total += len(node.get(field) or "")
            total += sum(len(t) for t in (node.get(f"{field}_localizations") or {}).values())
        total += len(str(node.get("value", "")))
    return total


def test_discord_name_pattern_accepts_letters_of_any_script_and_refuses_the_rest() -> None:
    assert discord_name("move") and discord_name("größe") and discord_name("ход")
    assert discord_name("対局") and discord_name("नाम") and discord_name("best_of")
    assert not discord_name("Move") and not discord_name("two words") and not discord_name("")
    assert not discord_name("x" * 33) and not discord_name("x!") and not discord_name("a.b")


def menu_name(name: str) -> bool:
    """A user or message command's name (type 2 or 3): 1 to 32 characters, any case and
    spaces allowed (Discord's pattern applies to slash commands only)."""
    return 1 <= len(name) <= 32


@pytest.mark.parametrize("payload", payloads(), ids=lambda p: p["name"])
def test_every_locale_respects_discords_limits(payload: dict[str, Any]) -> None:
    if payload.get("type", 1) != 1:
        names = [payload["name"], *(payload.get("name_localizations") or {}).values()]
        assert all(map(menu_name, names)), names
        return
    for node in nodes(payload):
        for name in [node["name"], *(node.get("name_localizations") or {}).values()]:
            if "value" not in node:  # a choice's name is display text, not a command name
                assert discord_name(name), name
            assert 1 <= len(name) <= 100, name
        for text in (node.get("description_localizations") or {}).values():
            assert 1 <= len(text) <= 100, text
    assert discord_size(payload) <= COMMAND_LIMIT, discord_size(payload)


def test_size_counts_the_longest_localisation_of_each_field() -> None:
    payload = {
        "name": "go",
        "description": "abc",
        "description_localizations": {"de": "abcdefg", "fr": "ab"},
        "options": [{"name": "x", "description": "y", "choices": [{"name": "n", "value": 7}]}],
    }
    assert discord_size(payload) == 2 + 7 + 1 + 1 + 1 + 1
    assert every_locale_size(payload) == 2 + 3 + 7 + 2 + 1 + 1 + 1 + 1


@pytest.mark.parametrize("payload", payloads(), ids=lambda p: p["name"])
def test_command_names_stay_english_in_every_locale(payload: dict[str, Any]) -> None:
    """Slash-command names are typed and shared in conversation; a context menu's name is
    read from a menu, so it is translated (all 8 languages)."""
    if payload.get("type", 1) != 1:
        assert set(payload["name_localizations"]) == set(DISCORD_LOCALES)
        return
    for node in nodes(payload):
        if "value" not in node:
            assert not node.get("name_localizations"), node["name"]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_description_is_translated_in_every_shipped_locale(locale: str) -> None:
    """Each command's and option's description has this locale's text, different from the
    English (a missing translation would silently show English)."""
    missing = [
        node["name"]
        for payload in payloads()
        for node in nodes(payload)
        if "description" in node and locale not in (node.get("description_localizations") or {})
    ]
    assert not missing, missing


def test_choice_names_are_translated_except_game_titles() -> None:
    from rules import game_class, game_names

    titles = {game_class(n).title for n in game_names()}
    by_name = {p["name"]: p for p in payloads()}
    game, *_ = by_name["challenge"]["options"]
    for choice in game["choices"]:
        assert choice["name"] in titles and not choice.get("name_localizations")
    first = next(o for o in by_name["challenge"]["options"] if o["name"] == "first")
    assert {c["name_localizations"]["de"] for c in first["choices"]} == {
        "ich",
        "mein Gegner",
        "zufällig",
    }


def test_report_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    """Not a check: prints each command's size (``pytest -s``) for the record."""
    with capsys.disabled():
        for payload in sorted(payloads(), key=discord_size, reverse=True)[:3]:
            print(
                f"\n{payload['name']}: {discord_size(payload)} counted as Discord does, "
                f"{every_locale_size(payload)} with every locale summed"
            )
