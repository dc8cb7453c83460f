"""``crosspath tournament list|show|standings``: a server's tournaments from the command line.

``crosspath tournament list --guild ID [--status S] [--json]`` lists a server's tournaments,
newest first; ``show ID [--json]`` prints one tournament and its pairings; ``standings ID
[--json]`` prints its table (the same text table the bot shows beside the image).  ``--db``
is a SQLite file or a ``postgresql://`` URL (default: ``$CROSSPATH_DATABASE``, the bot's own
setting); a missing SQLite file is never created.  Players are shown by their Discord user
ids: names live in Discord, not in the database.  Bad input ends with one sentence on
standard error and status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from typing import Any

from bot.service import GameService, PairingInfo, ServiceError, StandingRow, TournamentInfo
from bot.store import open_store

from .ratings import EXIT_BAD_INPUT, _db_argument, _target

STATUSES = ("registration", "running", "finished", "cancelled")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="crosspath tournament", description="A server's tournaments and their standings."
    )
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    listing = commands.add_parser("list", help="a server's tournaments, newest first")
    _db_argument(listing)
    listing.add_argument("--guild", required=True, type=int, help="the server (guild) id")
    listing.add_argument("--status", choices=STATUSES, help="only tournaments in this state")
    for name, text in (
        ("show", "one tournament: its settings, players and pairings"),
        ("standings", "one tournament's table"),
    ):
        sub = commands.add_parser(name, help=text)
        _db_argument(sub)
        sub.add_argument("id", type=int, help="the tournament's number")
    for sub in commands.choices.values():
        sub.add_argument("--json", action="store_true", help="print JSON")
    return top


def info_dict(t: TournamentInfo) -> dict[str, Any]:
    return {
        "id": t.id,
        "guild_id": t.guild_id,
        "channel_id": t.channel_id,
        "organiser_id": t.organiser_id,
        "game": t.game,
        "size": t.size,
        "format": t.format,
        "status": t.status,
        "round": t.round,
        "rounds": t.rounds,
        "match_games": t.match_games,
        "time_per_move": t.time_control.per_move,
        "rated": t.rated,
        "min_players": t.min_players,
        "max_players": t.max_players,
        "registration_deadline": _when(t.registration_deadline),
        "players": list(t.player_ids),
        "withdrawn": list(t.withdrawn_ids),
        "created_at": _when(t.created_at),
        "started_at": _when(t.started_at),
        "finished_at": _when(t.finished_at),
    }


def _when(moment: Any) -> str | None:
    return None if moment is None else str(moment.isoformat())


def pairing_dict(p: PairingInfo) -> dict[str, Any]:
    return {
        "round": p.round,
        "division": p.division,
        "table": p.table,
        "game_no": p.game_no,
        "first_id": p.first_id,
        "second_id": p.second_id,
        "game_id": p.game_id,
        "result": p.result,
        "reason": p.reason,
    }


def standing_dict(s: StandingRow) -> dict[str, Any]:
    return {
        "rank": s.rank,
        "user_id": s.user_id,
        "points": s.points,
        "tiebreaks": dict(s.tiebreaks),
        "games": s.games,
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "byes": s.byes,
        "games_left": s.games_left,
        "withdrawn": s.withdrawn,
        "division": s.division,
    }


def summary_line(t: TournamentInfo) -> str:
    rounds = f"round {t.round}/{t.rounds}" if t.rounds else f"round {t.round}"
    return (
        f"#{t.id:<5} {t.game} {t.size}x{t.size} {t.format:<18} {t.status:<12} "
        f"{rounds:<11} {len(t.player_ids)} players"
    )


def show_text(t: TournamentInfo, pairings: Sequence[PairingInfo]) -> str:
    limit = f"{t.min_players}-{t.max_players}" if t.max_players else f"{t.min_players}+"
    lines = [
        summary_line(t),
        f"organiser {t.organiser_id} · channel {t.channel_id} · {t.time_control.describe()} · "
        f"{'rated' if t.rated else 'unrated'} · players {limit}",
        "players: " + (" ".join(str(p) for p in t.player_ids) or "none yet"),
    ]
    if t.withdrawn_ids:
        lines.append("withdrawn: " + " ".join(str(p) for p in t.withdrawn_ids))
    for p in pairings:
        where = f"R{p.round}" + (f" D{p.division}" if p.division > 1 else "") + f" T{p.table}"
        if p.second_id is None:
            lines.append(f"  {where}: {p.first_id} bye")
            continue
        game = f" game #{p.game_id}" if p.game_id is not None else ""
        result = f" {p.result} ({p.reason})" if p.result else ""
        lines.append(f"  {where}: {p.first_id} vs {p.second_id}{result}{game}")
    return "\n".join(lines)


def standings_table(rows: Sequence[StandingRow]) -> str:
    from render.reports.standings import StandingsLine, standings_text  # lazy: Pillow only here

    if not rows:
        return "no standings yet: the tournament has not started"
    keys = list(rows[0].tiebreaks)
    lines = [
        StandingsLine(
            r.rank,
            str(r.user_id),
            r.points,
            tuple(float(r.tiebreaks.get(k, 0.0)) for k in keys),
            r.games_left,
            r.withdrawn,
        )
        for r in rows
    ]
    return standings_text(lines, headings=keys, name_width=20)


async def _run(target: str, args: argparse.Namespace) -> str:
    async with await open_store(target) as store:
        service = GameService(store)
        if args.command == "list":
            found = await service.tournaments.list_tournaments(args.guild, status=args.status)
            if args.json:
                return json.dumps([info_dict(t) for t in found], indent=2)
            return "\n".join(summary_line(t) for t in found) or "no tournaments in that server"
        info = await service.get_tournament(args.id)
        if args.command == "show":
            pairings = await service.tournaments.tournament_pairings(info.id)
            if args.json:
                shown = {**info_dict(info), "pairings": [pairing_dict(p) for p in pairings]}
                return json.dumps(shown, indent=2)
            return show_text(info, pairings)
        rows = await service.tournament_standings(info.id)
        if args.json:
            return json.dumps([standing_dict(s) for s in rows], indent=2)
        return standings_table(rows)


def main(argv: list[str]) -> int:
    top = parser()
    args = top.parse_args(argv)
    if args.command is None:
        top.print_usage(sys.stderr)
        print("crosspath tournament: say what to do: list, show or standings", file=sys.stderr)
        return EXIT_BAD_INPUT
    target = _target(args.db, "tournament")
    if target is None:
        return 1
    try:
        print(asyncio.run(_run(target, args)))
    except ServiceError as exc:
        print(f"crosspath tournament: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0
