"""``crosspath ratings rebuild`` and ``crosspath leaderboard``: ratings from the command line.

``crosspath ratings rebuild --db TARGET [--check]`` recomputes every rating from the games
that changed ratings, in the order they were applied, and stores the result (``--check``
stores nothing and exits 1 if the stored ratings differ).  ``crosspath leaderboard --db
TARGET --guild ID --game GAME [--limit N] [--offset N] [--json]`` prints one page of a
server's leaderboard.  ``--db`` is a SQLite file or a ``postgresql://`` URL (default:
``$CROSSPATH_DATABASE``, the bot's own setting).  Bad input ends with one sentence on standard
error and status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.service import GameService, RebuildReport, ServiceError, Standing
from bot.store import WriteConflict, is_postgres, open_store

from .db import DEFAULT_DB, default_db

EXIT_BAD_INPUT = 2
REBUILD_ATTEMPTS = 3


def _target(given: str | None, command: str) -> str | None:
    """The database to open, or None (after saying why) when a SQLite file is missing: a
    read-only command must not create an empty database by mistake."""
    target = given or default_db()
    if is_postgres(target):
        return target
    path = Path(target)
    if path.is_dir():
        print(f"crosspath {command}: {path} is a folder, not a database", file=sys.stderr)
        return None
    if not path.exists():
        print(f"crosspath {command}: no database at {path} (use --db)", file=sys.stderr)
        return None
    return target


def _db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        default=None,
        help="a SQLite file or a postgresql:// URL (default: $CROSSPATH_DATABASE, the bot's "
        f"setting, or {DEFAULT_DB})",
    )


# ----- ratings rebuild ------------------------------------------------------------------------


def ratings_parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="crosspath ratings", description="Ratings maintenance.")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    rebuild = commands.add_parser(
        "rebuild", help="recompute every rating from the finished games, in order"
    )
    _db_argument(rebuild)
    rebuild.add_argument(
        "--check",
        action="store_true",
        help="store nothing; exit 1 if the stored ratings differ from the recomputed ones",
    )
    return top


async def _check(target: str) -> tuple[int, int]:
    """(players whose stored rating differs from a rebuild, players rebuilt), nothing stored."""
    from bot.service.ratings.apply import rebuilt

    async with await open_store(target) as store, store.read() as tx:
        results = await tx.ratings.rated_results()
        stored = {(r.guild_id, r.game, r.user_id): r for r in await tx.ratings.all_ratings()}
    ratings, _ = await asyncio.to_thread(rebuilt, results)
    fresh = {(r.guild_id, r.game, r.user_id): r for r in ratings}
    differ = sum(1 for key in stored.keys() | fresh.keys() if stored.get(key) != fresh.get(key))
    return differ, len(fresh)


async def _rebuild(target: str) -> RebuildReport:
    async with await open_store(target) as store:
        service = GameService(store)
        for attempt in range(REBUILD_ATTEMPTS):
            try:
                return await service.ratings.rebuild_ratings()
            except WriteConflict:
                if attempt == REBUILD_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")


def ratings_main(argv: list[str]) -> int:
    top = ratings_parser()
    args = top.parse_args(argv)
    if args.command is None:
        top.print_usage(sys.stderr)
        print("crosspath ratings: say what to do, e.g. crosspath ratings rebuild", file=sys.stderr)
        return EXIT_BAD_INPUT
    target = _target(args.db, "ratings")
    if target is None:
        return 1
    if args.check:
        differ, players = asyncio.run(_check(target))
        if differ:
            print(
                f"{differ} of the stored ratings differ from a rebuild; run"
                " `crosspath ratings rebuild` to fix them",
                file=sys.stderr,
            )
            return 1
        print(f"all {players} ratings equal a rebuild from the games")
        return 0
    report = asyncio.run(_rebuild(target))
    print(
        f"rebuilt {report.players} ratings from {report.games} rated games"
        f" ({report.history} history rows); {report.changed} differed from the stored ones"
    )
    return 0


# ----- leaderboard -------------------------------------------------------------------------------


def leaderboard_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crosspath leaderboard", description="A server's leaderboard for one game."
    )
    _db_argument(parser)
    parser.add_argument("--guild", required=True, type=int, help="the server (guild) id")
    parser.add_argument(
        "--game",
        required=True,
        help="the game, e.g. minefield (minefield+pie: its games played with the pie rule)",
    )
    parser.add_argument("--limit", type=int, default=25, help="rows to print (default 25)")
    parser.add_argument("--offset", type=int, default=0, help="rows to skip (default 0)")
    parser.add_argument("--json", action="store_true", help="print a JSON array")
    return parser


def as_json(standings: list[Standing]) -> str:
    return json.dumps(
        [
            {
                "rank": s.rank,
                "user_id": s.user_id,
                "rating": s.rating,
                "uncertainty": s.uncertainty,
                "games": s.games,
                "wins": s.wins,
                "losses": s.losses,
                "draws": s.draws,
                "provisional": s.provisional,
            }
            for s in standings
        ],
        indent=2,
    )


def as_text(standings: list[Standing]) -> str:
    if not standings:
        return "no rated games yet"
    lines = [f"{'#':>4}  {'rating':>11}  {'user':<20} {'games':>5}  W–L–D"]
    for s in standings:
        mark = "?" if s.provisional else " "
        lines.append(
            f"{s.rank:>4}  {round(s.rating):>5}{mark}± {round(s.uncertainty):>3}"
            f"  {s.user_id:<20} {s.games:>5}  {s.record}"
        )
    return "\n".join(lines)


async def _leaderboard(
    target: str, guild: int, game: str, limit: int, offset: int
) -> list[Standing]:
    async with await open_store(target) as store:
        return await GameService(store).leaderboard(guild, game, limit, offset)


def leaderboard_main(argv: list[str]) -> int:
    args = leaderboard_parser().parse_args(argv)
    target = _target(args.db, "leaderboard")
    if target is None:
        return 1
    try:
        standings = asyncio.run(
            _leaderboard(target, args.guild, args.game, args.limit, args.offset)
        )
    except ServiceError as exc:
        print(f"crosspath leaderboard: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(as_json(standings) if args.json else as_text(standings))
    return 0


def main(argv: list[str]) -> int:
    """``crosspath ratings …`` (the registry's entry point)."""
    return ratings_main(argv)
