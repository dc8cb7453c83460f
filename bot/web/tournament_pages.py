"""What the tournament page and the list on ``/`` show of a served tournament.

Plain values for the templates (Jinja2 escapes them): the standings division by division
(rank, player, points, each tiebreak in the order it applies, games left) and the pairings
round by round, each game linked to its own page when the web may show it.  Players are
named as the service names them (the display name they joined with, else ``Player N``).
"""

from __future__ import annotations

from typing import Any

from bot.service import PairingInfo, ServedTournament, TournamentInfo

from .names import isolated

FORMAT_NAMES = {
    "round_robin": "round robin",
    "double_round_robin": "double round robin",
    "swiss": "Swiss",
    "knockout": "knockout",
    "league": "league",
}
TIEBREAK_NAMES = {
    "sonneborn_berger": "Sonneborn-Berger",
    "head_to_head": "Head to head",
    "wins": "Wins",
    "rating": "Rating",
    "buchholz_cut1": "Buchholz cut 1",
    "buchholz": "Buchholz",
    "round_reached": "Round reached",
}
STATUS_NAMES = {
    "registration": "open for registration",
    "running": "in progress",
    "finished": "finished",
    "cancelled": "cancelled",
}
REASON_NAMES = {"time": "on time", "adjudicated": "adjudicated", "forfeit": "forfeit"}


def number(value: float) -> str:
    """Points and tiebreaks as people write them: ``3``, ``2.5``, ``1.75``."""
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def heading(info: TournamentInfo) -> str:
    kind = FORMAT_NAMES.get(info.format, info.format)
    title = f"{info.title} {info.size}×{info.size} {kind}"
    return f"{title}, season {info.season}" if info.format == "league" else title


def progress(info: TournamentInfo) -> str:
    status = STATUS_NAMES.get(info.status, info.status)
    if info.status != "running" or not info.rounds:
        return status
    if info.format in ("swiss", "knockout"):  # paired one round at a time
        return f"{status}, round {info.round} of {info.rounds}"
    return f"{status}, {info.rounds} rounds"


def tournament_line(info: TournamentInfo) -> dict[str, str]:
    """One line of the list on ``/``."""
    return {
        "href": f"/tournaments/{info.web_token}",
        "title": heading(info),
        "players": f"{len(info.player_ids)} players",
        "status": progress(info),
        "created": info.created_at.strftime("%Y-%m-%d"),
    }


def _result(p: PairingInfo) -> str:
    if p.bye:
        return "bye"
    if p.result is None:
        return "playing" if p.game_id is not None else ""
    reason = REASON_NAMES.get(p.reason or "", "")
    return f"{p.result} ({reason})" if reason else p.result


def tournament_page(served: ServedTournament) -> dict[str, Any]:
    """The template's values for ``tournament.html``."""
    info = served.info

    def name(user_id: int | None) -> str:
        if user_id is None:
            return ""
        return isolated(served.names[user_id]) if user_id in served.names else "A player"

    divisions: dict[int, list[dict[str, Any]]] = {}
    tiebreaks: list[str] = []
    for row in served.standings:
        tiebreaks = tiebreaks or list(row.tiebreaks)
        divisions.setdefault(row.division, []).append(
            {
                "rank": row.rank,
                "name": name(row.user_id),
                "points": number(row.points),
                "tiebreaks": [number(row.tiebreaks.get(t, 0.0)) for t in tiebreaks],
                "games_left": row.games_left,
                "withdrawn": row.withdrawn,
            }
        )
    rounds: dict[int, list[dict[str, Any]]] = {}
    for p in served.pairings:
        token = served.game_tokens.get(p.game_id) if p.game_id is not None else None
        rounds.setdefault(p.round, []).append(
            {
                "division": p.division,
                "table": p.table,
                "game_no": p.game_no,
                "first": name(p.first_id),
                "second": name(p.second_id) if not p.bye else "",
                "result": _result(p),
                "href": f"/games/{token}" if token else "",
            }
        )
    unstarted = [name(u) for u in info.player_ids] if not served.standings else []
    return {
        "heading": heading(info),
        "progress": progress(info),
        "time_control": info.time_control.describe(),
        "rated": info.rated,
        "divisions": sorted(divisions.items()),
        "leagued": info.format == "league",
        "tiebreaks": [TIEBREAK_NAMES.get(t, t.replace("_", " ")) for t in tiebreaks],
        "rounds": sorted(rounds.items()),
        "knockout": info.format == "knockout" and info.match_games > 1,
        "registered": unstarted,
    }
