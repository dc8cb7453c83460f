"""Where the Discord side feeds :mod:`bot.web.metrics`, and its readiness check.

Every interaction passes :meth:`CrosspathBot.dispatch <bot.discord.app.CrosspathBot.dispatch>`
synchronously, before any handler runs, so :func:`arrived` takes its start time there and
watches for the first answer (a reply, a deferral, autocomplete choices): that is the time
Discord's 3-second limit is about.  Outcomes are counted where they are decided: a handled
command, a button that acted, and the one error path (:func:`bot.discord.replies.handle_error`).
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.web.metrics import Metrics

if TYPE_CHECKING:
    from bot.web.server import Check

WATCH_LIMIT = 3.0
"""Discord's window for an interaction's first response: an interaction still unanswered then
can no longer be answered, so it is recorded as answered that late and the watch ends."""
_FIRST_POLL = 0.001
_LONGEST_POLL = 0.025
"""The watch polls ``response.is_done()`` from 1 ms, growing to 25 ms: most answers come
within a few milliseconds, and a slow one costs few wake-ups."""

_ID_PART = re.compile(r"^[0-9]+$")
_watches: set[asyncio.Task[None]] = set()


def metrics_of(client: Any) -> Metrics | None:
    metrics = getattr(client, "metrics", None)
    return metrics if isinstance(metrics, Metrics) else None


def command_label(interaction: discord.Interaction[Any]) -> str:
    """A bounded label: the command's name, or a button's id up to its first number
    (``cp:chal:accept:12`` -> ``button cp:chal:accept``)."""
    if interaction.command is not None:
        name = interaction.command.qualified_name
        if interaction.type is discord.InteractionType.autocomplete:
            return f"{name} (autocomplete)"
        return name
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if custom_id:
        parts = []
        for part in custom_id.split(":")[:4]:
            if _ID_PART.match(part):
                break
            parts.append(part[:20])
        return "button " + ":".join(parts)
    return interaction.type.name


def count_interaction(interaction: discord.Interaction[Any], outcome: str) -> None:
    """Count one interaction's outcome: ok, refused, database or error."""
    metrics = metrics_of(interaction.client)
    if metrics is not None:
        metrics.interactions.labels(command=command_label(interaction), outcome=outcome).inc()
        if outcome in ("database", "error"):
            metrics.errors.labels(kind="database" if outcome == "database" else "bug").inc()


def count_move(client: Any, game: str) -> None:
    metrics = metrics_of(client)
    if metrics is not None:
        metrics.moves.labels(game=game).inc()


def count_error(client: Any, kind: str) -> None:
    metrics = metrics_of(client)
    if metrics is not None:
        metrics.errors.labels(kind=kind).inc()


def arrived(client: Any, interaction: discord.Interaction[Any]) -> None:
    """Start timing ``interaction``'s first answer (call before any handler runs)."""
    metrics = metrics_of(client)
    if metrics is None:
        return
    task = asyncio.get_running_loop().create_task(
        _first_response(metrics, interaction, time.perf_counter())
    )
    _watches.add(task)
    task.add_done_callback(_watches.discard)


async def _first_response(
    metrics: Metrics, interaction: discord.Interaction[Any], start: float
) -> None:
    pause = _FIRST_POLL
    while not interaction.response.is_done():
        if time.perf_counter() - start > WATCH_LIMIT:
            break
        await asyncio.sleep(pause)
        pause = min(pause * 1.5, _LONGEST_POLL)
    metrics.first_response.labels(kind=interaction.type.name).observe(time.perf_counter() - start)


def shards_check(client: discord.AutoShardedClient) -> Check:
    """Ready when every shard this process runs is connected to the gateway.

    The shards expected are the configured ones (``shard_ids``), else all ``shard_count``
    once Discord has said how many; before login nothing is connected, so it is not ready.
    A shard that lost its connection (discord.py reconnects it) makes the process not ready
    until it is back.
    """

    async def check() -> str | None:
        if client.is_closed():
            return "the Discord client is closed"
        expected: list[int]
        if client.shard_ids is not None:
            expected = list(client.shard_ids)
        elif client.shard_count is not None:
            expected = list(range(client.shard_count))
        else:
            return "not connected to Discord yet"
        shards = client.shards
        down = [shard for shard in expected if shard not in shards or shards[shard].is_closed()]
        if down:
            listed = ", ".join(map(str, down[:20])) + (" …" if len(down) > 20 else "")
            return f"shards not connected to the gateway: {listed}"
        if not client.is_ready():
            return "connected, waiting for Discord to send the servers (READY)"
        return None

    return check
