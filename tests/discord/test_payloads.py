"""The slash-command payloads a sync would send, checked offline against Discord's API spec.

Two independent checks: the OpenAPI description of ApplicationCommandCreateRequest (with its
$refs resolved through a referencing registry), and the limits Discord documents, which the
spec does not express (name pattern, lower case, description length, 25-item caps).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from bot.discord import payloads
from bot.discord.payloads import command_payloads

SPEC = Path(__file__).resolve().parents[1] / "data" / "discord-api-spec" / "openapi.json"
SPEC_URI = "https://discord.test/openapi.json"
NAME_EXTRA = set("-_'")


@cache
def validator() -> Draft202012Validator:
    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    registry: Registry[Any] = Registry().with_resource(
        SPEC_URI, Resource.from_contents(spec, default_specification=DRAFT202012)
    )
    schema = {"$ref": f"{SPEC_URI}#/components/schemas/ApplicationCommandCreateRequest"}
    return Draft202012Validator(schema, registry=registry)


@cache
def all_payloads() -> list[dict[str, Any]]:
    return command_payloads()


def valid_name(name: str) -> bool:
    """^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$ in lower case, approximated per char."""
    return (
        1 <= len(name) <= 32
        and all(ch.isalnum() or ch in NAME_EXTRA for ch in name)
        and name == name.lower()
    )


def walk_options(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for option in options:
        found.append(option)
        found.extend(walk_options(option.get("options") or []))
    return found


def test_the_command_set_is_the_one_players_are_promised() -> None:
    assert {(p["name"], p["type"]) for p in all_payloads() if p["type"] != 1} == {
        ("Challenge to a game", 2)  # the user context menu
    }
    names = {p["name"] for p in all_payloads() if p["type"] == 1}
    assert names == {
        "challenge", "move", "swap", "resign", "takeback", "board", "history", "replay",
        "games", "rules", "help", "admin", "leaderboard", "profile", "tournament",
        "vacation", "claim", "notify", "challenges", "abort", "hint", "analyse", "puzzle",
    }  # fmt: skip


@pytest.mark.parametrize("payload", all_payloads(), ids=lambda p: p["name"])
def test_payload_matches_the_openapi_schema(payload: dict[str, Any]) -> None:
    errors = sorted(validator().iter_errors(payload), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


def test_the_schema_check_really_rejects_bad_payloads() -> None:
    good = all_payloads()[0]
    assert validator().is_valid(good)
    assert not validator().is_valid({**good, "name": "x" * 33})
    assert not validator().is_valid({**good, "options": [{"type": 3}]})
    assert not validator().is_valid({**good, "description": "d" * 101})


@pytest.mark.parametrize("payload", all_payloads(), ids=lambda p: p["name"])
def test_payload_respects_documented_limits(payload: dict[str, Any]) -> None:
    if payload["type"] == 2:  # a user command: a display name, no description or options
        assert 1 <= len(payload["name"]) <= 32 and "description" not in payload
        return
    assert valid_name(payload["name"]), payload["name"]
    assert 1 <= len(payload["description"]) <= 100
    assert len(payload["options"]) <= 25
    for option in walk_options(payload["options"]):
        assert valid_name(option["name"]), option["name"]
        assert 1 <= len(option["description"]) <= 100, option["name"]
        assert len(option.get("options") or []) <= 25
        choices = option.get("choices") or []
        assert len(choices) <= 25
        for choice in choices:
            assert 1 <= len(choice["name"]) <= 100
        if option.get("autocomplete"):
            assert not choices, "autocomplete options may not also have choices"


SERVER_COMMANDS = {"admin", "tournament", "leaderboard"}
"""About a server and its members: only where a server installed Crosspath."""


@pytest.mark.parametrize("payload", all_payloads(), ids=lambda p: p["name"])
def test_player_commands_are_offered_to_user_installs_everywhere(payload: dict[str, Any]) -> None:
    """Integration types 0 (server install) and 1 (user install); contexts 0 (server),
    1 (the bot's DM or a DM through a user install) and 2 (a group DM)."""
    if payload["name"] in SERVER_COMMANDS:
        assert (payload["integration_types"], payload["contexts"]) == ([0], [0])
        assert payload["dm_permission"] is False
    else:
        assert (payload["integration_types"], payload["contexts"]) == ([0, 1], [0, 1, 2])


def test_the_spec_knows_integration_types_and_contexts() -> None:
    """The offline schema check covers the two fields: a wrong value fails it."""
    good = next(p for p in all_payloads() if p["name"] == "move")
    assert validator().is_valid(good)
    assert not validator().is_valid({**good, "integration_types": [7]})
    assert not validator().is_valid({**good, "contexts": ["dm"]})


def test_admin_group_defaults_to_manage_server_and_others_are_open() -> None:
    manage_guild = 1 << 5
    by_name = {p["name"]: p for p in all_payloads()}
    assert by_name["admin"]["default_member_permissions"] == manage_guild
    subcommands = {o["name"] for o in by_name["admin"]["options"]}
    assert {"settings", "abort", "award", "forfeit", "active"} <= subcommands
    for name, payload in by_name.items():
        if name != "admin":
            assert payload["default_member_permissions"] is None, name


def test_move_point_is_autocompleted_and_challenge_offers_every_playable_game() -> None:
    from rules import game_names

    by_name = {p["name"]: p for p in all_payloads()}
    point = by_name["move"]["options"][0]
    assert point["name"] == "point" and point["autocomplete"] is True and point["required"]
    game = by_name["challenge"]["options"][0]
    assert {c["value"] for c in game["choices"]} == set(game_names())


def test_name_check_accepts_and_rejects_like_the_documented_pattern() -> None:
    assert valid_name("takeback") and valid_name("d'or") and valid_name("größe")
    assert not valid_name("Move") and not valid_name("two words") and not valid_name("")
    assert not valid_name("a" * 33) and not valid_name("x!")


def test_cli_prints_exactly_the_payloads(capsys: pytest.CaptureFixture[str]) -> None:
    assert payloads.main(["--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(all_payloads()))


def test_settings_set_names_every_setting_it_changes() -> None:
    (admin,) = [p for p in all_payloads() if p["name"] == "admin"]
    (settings,) = [o for o in admin["options"] if o["name"] == "settings"]
    (set_,) = [o for o in settings["options"] if o["name"] == "set"]
    words = {
        "threads": "threads",
        "time": "clock",
        "expiry_hours": "expiry",
        "ratings": "ratings",
        "vacation_days": "vacation",
        "soft_time_days": "soft time",
        "web": "web",
    }
    assert sorted(option["name"] for option in set_["options"]) == sorted(words)
    for word in words.values():
        assert word in set_["description"]


def test_tournament_offers_every_subcommand_and_autocompletes_the_tournament() -> None:
    from bot.discord.tournaments.cog import FORMAT_CHOICES
    from bot.service.tournaments.types import FORMATS

    (tournament,) = [p for p in all_payloads() if p["name"] == "tournament"]
    subcommands = {o["name"]: o for o in tournament["options"]}
    assert set(subcommands) == {
        "create", "join", "leave", "list", "info", "standings", "pairings",
        "start", "cancel", "withdraw", "adjudicate", "announce", "creators",
    }  # fmt: skip
    assert tournament["default_member_permissions"] is None  # players use it too
    create = {o["name"]: o for o in subcommands["create"]["options"]}
    assert [c["value"] for c in create["format"]["choices"]] == list(FORMATS)
    assert len(FORMAT_CHOICES) == len(FORMATS)
    assert create["game"]["required"] and create["format"]["required"]
    assert not any(o.get("required") for n, o in create.items() if n not in ("game", "format"))
    for name, sub in subcommands.items():
        for option in sub.get("options") or []:
            if option["name"] == "tournament":
                assert option["autocomplete"] and option["type"] == 4 and option["required"], name
    withdraw = {o["name"]: o for o in subcommands["withdraw"]["options"]}
    assert withdraw["player"]["type"] == 6  # a member
