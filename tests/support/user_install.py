"""What a user-installed app may send in a DM or group DM, checked after a test (issues 47, 48).

There the bot may only answer interactions: no post of its own to the conversation, no
thread, pin or edit of a message it did not answer with, at most five follow-ups per
interaction, and every callback and follow-up body as Discord's OpenAPI spec describes it.
``h`` is the harness of ``discord_fakes`` with that check run on everything it sent.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator
from functools import cache
from pathlib import Path
from typing import Any

import discord_fakes as fakes
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC = Path(__file__).resolve().parents[1] / "data" / "discord-api-spec" / "openapi.json"
SPEC_URI = "https://discord.test/openapi.json"


@cache
def spec_validator(schema: str) -> Draft202012Validator:
    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    registry: Registry[Any] = Registry().with_resource(
        SPEC_URI, Resource.from_contents(spec, default_specification=DRAFT202012)
    )
    return Draft202012Validator(
        {"$ref": f"{SPEC_URI}#/components/schemas/{schema}"}, registry=registry
    )


def as_spec_reads(body: Any) -> Any:
    """``body`` with snowflakes as strings: discord.py sends ``allowed_mentions`` ids and
    attachment ids as JSON numbers, which Discord accepts though its spec types every
    snowflake as a string."""
    if isinstance(body, dict):
        return {
            k: [str(v) for v in body[k]]
            if k in ("users", "roles")
            else str(body[k])
            if k == "id" and isinstance(body[k], int)
            else as_spec_reads(body[k])
            for k in body
        }
    if isinstance(body, list):
        return [as_spec_reads(v) for v in body]
    return body


def check_sent(fake: fakes.FakeDiscord) -> None:
    """What a user install allows: no post of the bot's own to a DM or group DM, at most five
    follow-ups per interaction, and every answer as Discord's spec describes it."""
    posted_to_games = [
        s
        for s in fake.sent
        if s.method == "POST"
        and s.path in {f"/channels/{c}/messages" for c in fakes.DM_WHERE.values()}
    ]
    assert posted_to_games == [], [s.content for s in posted_to_games]
    assert not any(s.kind in ("thread", "edit_message") for s in fake.sent)
    assert not any("/pins" in s.path for s in fake.sent)
    followups = Counter(s.path for s in fake.sent if s.kind == "followup")
    assert max(followups.values(), default=0) <= 5, followups
    for s in fake.sent:
        body = as_spec_reads(s.body)
        if s.kind in ("reply", "update", "defer"):
            errors = list(
                spec_validator("CreateMessageInteractionCallbackRequest").iter_errors(body)
            )
            if s.kind == "update":
                errors = list(
                    spec_validator("UpdateMessageInteractionCallbackRequest").iter_errors(body)
                )
            assert not errors, (s.kind, deepest(errors))
        elif s.kind == "followup":
            errors = list(spec_validator("IncomingWebhookRequestPartial").iter_errors(body))
            assert not errors, (s.kind, deepest(errors))


def deepest(errors: list[Any]) -> list[str]:
    """The innermost reasons of a schema failure (an anyOf hides them in its context)."""
    found = []
    for error in errors:
        inner = [e for e in error.context or []]
        if inner:
            found += deepest(inner)
        else:
            found.append(f"{list(error.absolute_path)}: {error.message[:150]}")
    return found[:8]


@pytest.fixture
async def h(db_path: Path, clock: Any) -> AsyncIterator[Any]:
    harness = await fakes.open_harness(db_path, clock)
    try:
        yield harness
    finally:
        check_sent(harness.fake)
        await harness.close()
