"""Whole tournaments through the service, with random endings, and an independent check.

``run`` plays a running tournament to its end through the service's public methods, ending
its games every way a game can end: resignation, a move that connects (random legal moves),
a loss on time (the fake clock moved past one game's deadline, the others moved just before
theirs; the clock sweep records it), the organiser's adjudications (wins and draws) and a
withdrawal (forfeits).  ``recomputed`` rebuilds the table from the stored games alone,
written from docs/tournaments.md and sharing no code with bot/service/tournaments.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from game_fixtures import FakeClock

from bot.service import (
    GameFinished,
    GameInfo,
    GameService,
    PairingInfo,
    StandingRow,
    TournamentInfo,
)

ORGANISER = 900
GAME, SIZE = "minefield", 5
REASON_OF = {
    "connection": "played",
    "resign": "played",
    "draw": "played",
    "time": "time",
    "award": "adjudicated",
    "forfeit": "forfeit",
}


@dataclass
class Log:
    """How the simulated games ended (so a test can require that every way occurred)."""

    endings: Counter[str] = field(default_factory=Counter)
    withdrawn: list[int] = field(default_factory=list)
    withdrawn_in: dict[int, int] = field(default_factory=dict)
    """Each withdrawn player: the last round paired when they withdrew."""


async def play_randomly(service: GameService, info: GameInfo, rng: random.Random) -> None:
    """Random legal moves until the game ends (by a connection, or on time)."""
    while True:
        current = await service.get_game_by_id(info.id)
        if not current.is_active:
            return
        position = await service.position(current.id)
        assert current.to_move_id is not None
        try:
            await service.play_move(
                current.channel_id, current.to_move_id, rng.choice(position.legal_moves())
            )
        except GameFinished:  # OutOfTime included: the loss on time is recorded
            return


async def move_once(service: GameService, info: GameInfo, rng: random.Random) -> None:
    """One random legal move by the player to move."""
    current = await service.get_game_by_id(info.id)
    position = await service.position(current.id)
    assert current.to_move_id is not None
    await service.play_move(
        current.channel_id, current.to_move_id, rng.choice(position.legal_moves())
    )


async def run(
    service: GameService,
    clock: FakeClock,
    tournament_id: int,
    rng: random.Random,
    *,
    withdrawals: int = 1,
    time_losses: bool = True,
) -> Log:
    """Play the tournament to its end (see the module notes)."""
    log = Log()
    steps = 0
    timed = not time_losses
    while True:
        t = await service.get_tournament(tournament_id)
        if t.status != "running":
            for ended in await service.tournament_games(tournament_id):
                assert ended.result is not None
                log.endings[ended.result.reason] += 1
            return log
        active = [g for g in await service.tournament_games(tournament_id) if g.is_active]
        assert active, "a running tournament with no game to play"
        steps += 1
        game = rng.choice(active)
        x = rng.random()
        if withdrawals and steps >= 3:
            stays = [p for p in t.player_ids if p not in t.withdrawn_ids]
            who = rng.choice(stays)
            await service.tournaments.withdraw_from_tournament(tournament_id, who, ORGANISER)
            log.withdrawn.append(who)
            log.withdrawn_in[who] = t.round
            withdrawals -= 1
        elif not timed and steps >= 4:
            # ``game`` runs out of time, alone: every other game moves just before its
            # deadline (restarting their clocks), then the clock sweep records the loss.
            clock.advance(minutes=59)
            for other in active:
                if other.id != game.id:
                    await move_once(service, other, rng)
            clock.advance(minutes=2)
            outcomes = await service.clocks.run_due()
            assert [o.ended.game.id for o in outcomes if o.ended is not None] == [game.id]
            timed = True
        elif x < 0.3:
            winner = rng.choice([game.seats[0].user_id, game.seats[1].user_id, None])
            await service.tournaments.adjudicate_tournament_game(
                game.id, winner_id=winner, by_user_id=ORGANISER
            )
        elif x < 0.4:
            await play_randomly(service, game, rng)
        else:
            with contextlib.suppress(GameFinished):  # on time, if it was late
                await service.resign(game.channel_id, rng.choice(game.seats).user_id)


async def check_results(
    service: GameService, t: TournamentInfo, pairings: list[PairingInfo]
) -> dict[int, GameInfo]:
    """Every pairing's result is its game's (from the first seat's side, with its reason)."""
    games = {g.id: g for g in await service.tournament_games(t.id)}
    assert set(games) == {p.game_id for p in pairings if p.game_id is not None}
    for p in pairings:
        if p.bye:  # a bye is never a game and never has a result
            assert p.game_id is None and p.result is None, p
            continue
        assert p.result is not None and p.game_id is not None, p
        g = games[p.game_id]
        assert g.result is not None and g.status == "finished", p
        assert g.seats[0].user_id == p.first_id or g.seats[1].user_id == p.first_id
        winner = g.result.winner_id
        expected = "½-½" if winner is None else "1-0" if winner == p.first_id else "0-1"
        assert p.result == expected, p
        reason = REASON_OF[g.result.reason]
        if g.result.reason == "draw" and g.result.actor_id is not None:
            reason = "adjudicated"
        assert p.reason == reason, (p, g.result)
    return games


def recomputed(pairings: list[PairingInfo], swiss: bool) -> dict[int, dict[str, float]]:
    """Points, wins, draws, losses, Sonneborn-Berger and Buchholz (cut-1) from the pairings."""
    halves: Counter[int] = Counter()
    # (opponent or None, halves scored, played over the board)
    games: dict[int, list[tuple[int | None, int, bool]]] = defaultdict(list)
    for p in pairings:
        if p.second_id is None:
            if swiss:  # only a Swiss bye scores (a round-robin or knockout bye is a rest)
                halves[p.first_id] += 2
                games[p.first_id].append((None, 2, False))
            continue
        first = {"1-0": 2, "½-½": 1, "0-1": 0}[p.result or ""]
        played = p.reason != "forfeit"
        halves[p.first_id] += first
        halves[p.second_id] += 2 - first
        games[p.first_id].append((p.second_id, first, played))
        games[p.second_id].append((p.first_id, 2 - first, played))
    out = {}
    for pid, mine in games.items():
        sb = sum(h * halves[o] for o, h, played in mine if played and o is not None) / 4
        values = [halves[o] if played and o is not None else halves[pid] for o, _, played in mine]
        out[pid] = {
            "points": halves[pid] / 2,
            "wins": sum(1 for o, h, _ in mine if o is not None and h == 2),
            "draws": sum(1 for o, h, _ in mine if o is not None and h == 1),
            "losses": sum(1 for o, h, _ in mine if o is not None and h == 0),
            "sonneborn_berger": sb,
            "buchholz": sum(values) / 2 if swiss else 0.0,
            "buchholz_cut1": (sum(values) - min(values, default=0)) / 2 if swiss else 0.0,
        }
    return out


def check_table(
    rows: list[StandingRow], pairings: list[PairingInfo], swiss: bool, *, ordered: bool = True
) -> None:
    """The service's table agrees with the recomputation and (unless a bracket, ranked by
    the round reached) is in its tiebreak order."""
    mine = recomputed(pairings, swiss)
    for row in rows:
        expect = mine.get(row.user_id)
        if expect is None:  # never paired (withdrew before the first round of a Swiss)
            assert row.points == 0 and row.games == 0
            continue
        assert row.points == expect["points"], row
        assert (row.wins, row.draws, row.losses) == (
            expect["wins"],
            expect["draws"],
            expect["losses"],
        ), row
        if ordered:
            assert row.tiebreaks["sonneborn_berger"] == expect["sonneborn_berger"], row
        if swiss:
            assert row.tiebreaks["buchholz"] == expect["buchholz"], row
            assert row.tiebreaks["buchholz_cut1"] == expect["buchholz_cut1"], row
    if not ordered:
        return
    by_division: dict[int, list[StandingRow]] = defaultdict(list)
    for row in rows:
        by_division[row.division].append(row)
    for group in by_division.values():
        keys = [(-r.points, *(-v for v in r.tiebreaks.values())) for r in group]
        assert keys == sorted(keys)
        assert group[0].rank == 1
        assert all(b.rank >= a.rank for a, b in itertools.pairwise(group))
