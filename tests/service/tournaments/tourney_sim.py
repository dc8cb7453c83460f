"""Simulated tournaments with seeded random results, and standings recomputed from scratch.

The recomputation is deliberately naive (loops over the pairings, written from the rules in
docs/tournaments.md, sharing no code with bot/service/tournaments/standings.py) so a slip in
either shows up as a mismatch.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.service.tournaments import (
    Format,
    Outcome,
    Pairing,
    Reason,
    Result,
    TournamentState,
    forfeits_for,
    is_finished,
    next_pairings,
)

REASONS = (Reason.PLAYED, Reason.PLAYED, Reason.TIME, Reason.ADJUDICATED)


@dataclass
class Played:
    """A finished simulation: the final state and each batch of pairings with the state it
    was made from."""

    state: TournamentState
    batches: list[tuple[TournamentState, tuple[Pairing, ...]]] = field(default_factory=list)


def random_result(pairing: Pairing, rng: random.Random, draws: float = 0.1) -> Result:
    x = rng.random()
    if x < draws:
        outcome = Outcome.DRAW
    else:
        outcome = Outcome.FIRST_WINS if x < (1 + draws) / 2 else Outcome.SECOND_WINS
    return Result(pairing.id, outcome, rng.choice(REASONS))


def play_out(
    state: TournamentState,
    rng: random.Random,
    *,
    withdraw_chance: float = 0.0,
    draws: float = 0.1,
    limit: int = 10_000,
) -> Played:
    """Pair, play every game with a random result, sometimes withdraw someone; until done."""
    played = Played(state)
    for _ in range(limit):
        pairings = next_pairings(state)
        if pairings:
            played.batches.append((state, pairings))
            state = state.with_pairings(pairings)
        open_games = state.open_pairings()
        if not open_games:
            if is_finished(state) or not pairings:
                break
            continue
        rng.shuffle(open_games)
        # Round robins are paired whole: play them a slice at a time so withdrawals land
        # part-way through, as they do in a real season.
        for pairing in open_games[: max(1, len(open_games) // 3)]:
            state = state.with_result(random_result(pairing, rng, draws))
        active = [e.player_id for e in state.entrants if e.player_id not in state.withdrawn()]
        if len(active) > 2 and rng.random() < withdraw_chance:
            state = state.with_withdrawal(rng.choice(active))
            for forfeit in forfeits_for(state):
                state = state.with_result(forfeit)
    else:
        raise AssertionError("the tournament never finished")
    played.state = state
    return played


@dataclass
class Line:
    player: int
    points: float = 0.0
    wins: int = 0
    sb: float = 0.0
    buchholz: float = 0.0
    cut1: float = 0.0
    h2h: float = 0.0
    rating: float = 0.0


def expected_order(state: TournamentState) -> list[Line]:
    """The standings recomputed by the book (see the module docstring)."""
    results = {r.pairing_id: r for r in state.results}
    swiss = state.config.format is Format.SWISS
    lines = {e.player_id: Line(e.player_id, rating=e.rating) for e in state.entrants}
    # (player, opponent or None, points scored, played over the board)
    games: list[tuple[int, int | None, float, bool]] = []
    for p in state.pairings:
        if p.second is None:
            if swiss:
                games.append((p.first, None, 1.0, False))
            continue
        r = results.get(p.id)
        if r is None:
            continue
        if r.outcome == Outcome.DRAW:
            a, b = 0.5, 0.5
        elif r.outcome == Outcome.FIRST_WINS:
            a, b = 1.0, 0.0
        else:
            a, b = 0.0, 1.0
        over_board = r.reason != Reason.FORFEIT
        games.append((p.first, p.second, a, over_board))
        games.append((p.second, p.first, b, over_board))
    for player, _, pts, _ in games:
        lines[player].points += pts
        if pts == 1.0:
            lines[player].wins += 1
    for player, opp, _, _ in games:
        if swiss and opp is None:
            lines[player].wins -= 1  # a bye is not a win
    for player in lines:
        values = []
        for who, opp, pts, over_board in games:
            if who != player:
                continue
            if opp is not None and over_board:
                values.append(lines[opp].points)
                lines[player].sb += pts * lines[opp].points
            else:
                values.append(lines[player].points)
        lines[player].buchholz = sum(values)
        lines[player].cut1 = sum(values) - (min(values) if values else 0)

    def before(line: Line) -> tuple[float, ...]:
        if swiss:
            return (line.points, line.cut1, line.buchholz, line.sb)
        return (line.points, line.sb)

    for line in lines.values():
        level = {o.player for o in lines.values() if before(o) == before(line)}
        if len(level) > 1:
            line.h2h = sum(pts for who, opp, pts, _ in games if who == line.player and opp in level)

    def key(line: Line) -> tuple[float, ...]:
        if swiss:
            return (*before(line), line.h2h, line.rating, -line.player)
        return (*before(line), line.h2h, line.wins, line.rating, -line.player)

    return sorted(lines.values(), key=key, reverse=True)
