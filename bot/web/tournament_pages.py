"""What the tournament page and the list on ``/`` show of a served tournament.

Plain values for the templates (Jinja2 escapes them): the standings division by division
(rank, player, points, each tiebreak in the order it applies, games left) and the pairings
round by round, each game linked to its own page when the web may show it.  Players are
named as the service names them (the display name they joined with, else ``Player N``).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, Tongue
from bot.service import PairingInfo, ServedTournament, TournamentInfo

from .game_words import A_PLAYER
from .names import isolated

FORMAT_NAMES = {
    "round_robin": N_("Round robin"),
    "double_round_robin": N_("Double round robin"),
    "swiss": N_("Swiss"),
    "knockout": N_("Knockout"),
    "league": N_("League"),
}
"""The formats as the Discord announcements name them (the same messages)."""
TIEBREAK_NAMES = {
    "sonneborn_berger": N_("Sonneborn-Berger"),
    "head_to_head": N_("Head to head"),
    "wins": N_("Wins"),
    "rating": N_("Rating"),
    "buchholz_cut1": N_("Buchholz cut-1"),
    "buchholz": N_("Buchholz"),
    "round_reached": N_("Round reached"),
}
STATUS_NAMES = {
    "registration": N_("Open for registration"),
    "running": N_("In progress"),
    "finished": N_("Finished"),
    "cancelled": N_("Cancelled"),
}
REASON_NAMES = {"time": N_("on time"), "adjudicated": N_("adjudicated"), "forfeit": N_("forfeit")}


def number(value: float) -> str:
    """Points and tiebreaks as people write them: ``3``, ``2.5``, ``1.75``."""
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def _named(table: dict[str, str], key: str, tr: Tongue) -> str:
    return tr.gettext(table[key]) if key in table else key.replace("_", " ")


def heading(info: TournamentInfo, tr: Tongue) -> str:
    """ "Minefield 9×9 Swiss #3", as the Discord announcement titles it."""
    params = {
        "game": info.title,
        "size": info.size,
        "format": _named(FORMAT_NAMES, info.format, tr),
        "id": info.id,
    }
    if info.format == "league":
        return tr.gettext(
            "{game} {size}×{size} {format} season {season} #{id}", season=info.season, **params
        )
    return tr.gettext("{game} {size}×{size} {format} #{id}", **params)


def progress(info: TournamentInfo, tr: Tongue) -> str:
    status = _named(STATUS_NAMES, info.status, tr)
    if info.status != "running" or not info.rounds:
        return status
    if info.format in ("swiss", "knockout"):  # paired one round at a time
        return tr.gettext(
            "{status}, round {round} of {rounds}",
            status=status,
            round=info.round,
            rounds=info.rounds,
        )
    return tr.ngettext("{status}, {n} round", "{status}, {n} rounds", info.rounds, status=status)


def tournament_line(info: TournamentInfo, tr: Tongue) -> dict[str, str]:
    """One line of the list on ``/``."""
    return {
        "href": f"/tournaments/{info.web_token}",
        "title": heading(info, tr),
        "players": tr.ngettext("{n} player", "{n} players", len(info.player_ids)),
        "status": progress(info, tr),
        "created": info.created_at.strftime("%Y-%m-%d"),
    }


def _result(p: PairingInfo, tr: Tongue) -> str:
    """The score from the first seat's side (``1-0``, ``½-½``: the same in every language)
    and, when it was not played out, why."""
    if p.bye:
        return tr.gettext("bye")
    if p.result is None:
        return tr.gettext("playing") if p.game_id is not None else ""
    reason = REASON_NAMES.get(p.reason or "")
    return f"{p.result} ({tr.gettext(reason)})" if reason else p.result


def tournament_page(served: ServedTournament, tr: Tongue) -> dict[str, Any]:
    """The template's values for ``tournament.html``."""
    info = served.info

    def name(user_id: int | None) -> str:
        if user_id is None:
            return ""
        return isolated(served.names[user_id]) if user_id in served.names else tr.gettext(A_PLAYER)

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
                "result": _result(p, tr),
                "href": f"/games/{token}" if token else "",
            }
        )
    unstarted = [name(u) for u in info.player_ids] if not served.standings else []
    return {
        "heading": heading(info, tr),
        "progress": progress(info, tr),
        "time_control": tr.say(info.time_control.wording()),
        "rated": info.rated,
        "divisions": sorted(divisions.items()),
        "leagued": info.format == "league",
        "tiebreaks": [_named(TIEBREAK_NAMES, t, tr) for t in tiebreaks],
        "rounds": sorted(rounds.items()),
        "knockout": info.format == "knockout" and info.match_games > 1,
        "registered": unstarted,
    }
