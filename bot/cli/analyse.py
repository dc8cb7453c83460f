"""``crosspath analyse``: the computer's analysis of a finished game (docs/analysis.md).

``crosspath analyse --record "minefield 5: c3 …"`` or ``--db FILE --game N`` (the game's
stored analysis, through ``service.analysis``: computed and stored first if no one has, then
reused by the bot and the web; a running game is refused, since analysis must never help a
game still being played; ``--budget`` applies only when it computes).  ``--json`` prints one
JSON object; ``--chart out.png`` also draws the win-chance chart.  Bad input ends with one
sentence and status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

from ai.analysis import Analysis, Settings, analyse
from bot.i18n import ENGLISH_TONGUE, Tongue, terminal_language, tongue
from rules import InvalidRecord

from .entry import clip

EXIT_BAD_INPUT = 1
PROG = "crosspath analyse"


class Refused(Exception):
    """Input the command cannot analyse; the message is the one sentence to print."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Analyse a finished game.")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--record", help="a finished game's record, e.g. 'minefield 5: c3 …'")
    source.add_argument("--game", type=int, help="a game's id in --db")
    p.add_argument("--db", default=None, help="a SQLite file or postgresql:// URL (with --game)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--seed", type=int, default=0, help="the search's seed (default 0)")
    p.add_argument(
        "--budget",
        type=int,
        default=Settings().playouts,
        help=f"search playouts per position (default {Settings().playouts})",
    )
    p.add_argument("--workers", type=int, default=1, help="processes to use (default 1)")
    p.add_argument("--chart", type=Path, default=None, help="also write the chart PNG here")
    p.add_argument(
        "--lang",
        default=None,
        metavar="LANG",
        help="the language of the text and the chart (not of --json, whose keys are fixed): "
        "de, es, fr, pt_BR, ru, ja, ko, zh_Hans or en (default: from LC_ALL, LC_MESSAGES or LANG)",
    )
    return p


async def _stored_analysis(target: str, game_id: int, settings: Settings, workers: int) -> Analysis:
    """The game's stored analysis, computed and stored first if no one has (the same one the
    bot and the web show: seed 0, claimed so that a running bot never computes it twice)."""
    from concurrent.futures import Executor, ThreadPoolExecutor

    from ai.lifetime import spawn_pool
    from bot.service import GameService, ServiceError
    from bot.store import open_store

    executor: Executor = (
        ThreadPoolExecutor(1) if workers == 1 else spawn_pool(min(workers, os.cpu_count() or 1))
    )
    try:
        async with await open_store(target) as store:
            try:
                stored = await GameService(store).analysis.analyse(
                    game_id,
                    None,
                    claimant=f"console-{os.getpid()}",
                    executor=executor,
                    settings=settings,
                )
            except ServiceError as exc:
                raise Refused(str(exc)) from exc
    finally:
        executor.shutdown(cancel_futures=True)
    return stored.analysis


def _target_of(args: argparse.Namespace) -> str:
    from .ratings import _target

    target = _target(args.db, "analyse")
    if target is None:
        raise Refused("")  # _target has said why
    return target


def run(args: argparse.Namespace) -> Analysis:
    if args.budget < 1:
        raise Refused(f"--budget must be at least 1, not {args.budget}")
    if args.workers < 1:
        raise Refused(f"--workers must be at least 1, not {args.workers}")
    settings = Settings(playouts=args.budget)
    if args.game is not None:
        if args.seed != 0:
            raise Refused("--seed cannot be used with --game: a stored analysis always uses seed 0")
        return asyncio.run(_stored_analysis(_target_of(args), args.game, settings, args.workers))
    record = str(args.record)
    try:
        if args.workers == 1:
            return analyse(record, settings, args.seed)
        from ai.lifetime import spawn_pool

        pool = spawn_pool(min(args.workers, os.cpu_count() or 1))
        try:
            return analyse(record, settings, args.seed, mapper=pool.map)
        finally:
            pool.shutdown()
    except InvalidRecord as exc:
        raise Refused(f"not a valid record: {clip(str(exc), 200)}") from exc
    except ValueError as exc:
        raise Refused(str(exc)) from exc


def as_text(analysis: Analysis, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The analysis in the terminal's language, with the Discord answer's own sentences: the
    record, each seat's accuracy and marks, and the costliest moves."""
    from bot.analysis_words import costliest_lines, player_lines

    seats = [
        tr.gettext("first player") if p.seat == "first" else tr.gettext("second player")
        for p in analysis.players
    ]
    lines = [analysis.record if len(analysis.record) <= 200 else clip(analysis.record, 200)]
    lines += player_lines(analysis, seats, tr)
    lines += costliest_lines(analysis, seats, tr)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        analysis = run(args)
    except Refused as exc:
        if str(exc):
            print(f"{PROG}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    tr = tongue(terminal_language(os.environ, args.lang))
    if args.chart is not None:
        from render.reports.analysis_chart import render_analysis_chart

        args.chart.write_bytes(render_analysis_chart(analysis.moves, tr))
    print(json.dumps(analysis.as_json()) if args.json else as_text(analysis, tr))
    return 0
