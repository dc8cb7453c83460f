"""One analysis request as Discord shows it: progress by editing one message, then the chart,
a short summary and the three worst moves.

The service decides everything that matters (a finished game only, who may see it, the queue,
computing once); this module only words and draws the answer.  Progress edits are spaced out
(:data:`EDIT_EVERY`), since Discord limits how often one message may be edited.
"""

from __future__ import annotations

import asyncio
import io
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

import discord

from ai.analysis import Analysis, Settings, positions, worst
from bot.analysis_words import costliest_lines, player_lines
from bot.i18n import Tongue
from bot.service import GameInfo, StoredAnalysis, Viewer
from render.reports.analysis_chart import render_analysis_chart
from render.reports.move_pairs import Pair, render_move_pairs
from rules import parse_record

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

Interaction = discord.Interaction[Any]
Show = Callable[[str], Awaitable[None]]

EDIT_EVERY = 2.0
"""Seconds between two progress edits of one message."""


class Analyst:
    """What the adapter hands the service for each request: where positions are judged and at
    what budget (None: the service's defaults, the computer's process pool), and who asks."""

    def __init__(self, executor: Executor | None = None, settings: Settings | None = None) -> None:
        self.executor = executor
        self.settings = settings
        self.claimant = f"discord:{os.getpid()}"


async def run_analysis(
    bot: CrosspathBot,
    analyst: Analyst,
    info: GameInfo,
    user_id: int,
    show: Show,
    tr: Tongue,
) -> StoredAnalysis:
    """Ask the service for ``info``'s analysis, showing progress through ``show``."""
    last = 0.0

    async def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last < EDIT_EVERY and done < total:
            return
        last = now
        text = tr.gettext(
            "Analysing game #{id}: move {done} of {total}…",
            id=info.id,
            done=tr.number(done),
            total=tr.number(total),
        )
        await show(text)

    viewer = Viewer(user_id=user_id, guild_id=info.guild_id, sees_channel=True)
    return await bot.service.analysis.analyse(
        info.id,
        viewer,
        claimant=analyst.claimant,
        executor=analyst.executor,
        progress=progress,
        settings=analyst.settings,
    )


def seat_ids(info: GameInfo, analysis: Analysis) -> tuple[int, int]:
    """The players in seat order (first, second): the colours' order, unless a pie swap gave
    the first player the second colour."""
    first, second = info.player_ids
    swapped = any(ply.move == "swap" for ply in analysis.moves)
    return (second, first) if swapped else (first, second)


def summary_text(info: GameInfo, names: list[str], analysis: Analysis, tr: Tongue) -> str:
    """The analysis in words: each player's accuracy and marks, then the three worst moves
    with the better move.  The same words serve as the chart's alt text."""
    lines = [tr.gettext("Computer analysis of game #{id}, {game}", id=info.id, game=info.title)]
    lines += player_lines(analysis, names, tr)
    lines += costliest_lines(analysis, names, tr)
    return "\n".join(lines)


def costly_pairs(analysis: Analysis, tr: Tongue) -> list[Pair]:
    """For each of the costliest moves: the position after it, and after the better move."""
    _, befores = positions(analysis.record)
    pairs: list[Pair] = []
    for ply in worst(analysis):
        before = parse_record(befores[ply.ply - 1])
        played, better = before.copy(), before.copy()
        played.play(ply.move)
        better.play(ply.best)
        pairs.append(
            (
                played,
                tr.gettext("Move {ply}: {move} (played)", ply=tr.number(ply.ply), move=ply.move),
                better,
                tr.gettext("Better: {move}", move=ply.best),
            )
        )
    return pairs


async def pairs_file(info: GameInfo, analysis: Analysis, tr: Tongue) -> discord.File | None:
    """The costliest moves drawn (played beside better), None in a game without any."""
    pairs = costly_pairs(analysis, tr)
    if not pairs:
        return None
    data = await asyncio.to_thread(render_move_pairs, pairs, tr)
    alt = "; ".join(f"{a}, {b}" for _, a, _, b in pairs)
    return discord.File(
        io.BytesIO(data), filename=f"crosspath-moves-{info.id}.png", description=alt[:1000]
    )


async def chart_file(info: GameInfo, analysis: Analysis, alt: str, tr: Tongue) -> discord.File:
    """The chart as a file (drawn on a thread: Pillow takes tens of milliseconds)."""
    data = await asyncio.to_thread(render_analysis_chart, analysis.moves, tr)
    return discord.File(
        io.BytesIO(data), filename=f"crosspath-analysis-{info.id}.png", description=alt[:1000]
    )
