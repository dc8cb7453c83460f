"""Single elimination: a seeded bracket, matches of one game or best of N.

The bracket has the next power of two slots, filled in the standard seeding order (seed 1
meets the lowest seed, and seeds 1 and 2 can meet only in the final).  The empty slots fall
to the opponents of the top seeds, which is how the top seeds get the byes.

A one-game match has its seats drawn by lot.  In a best of N, game 1's seats are drawn by
lot and then alternate; the match ends as soon as one player has more than N/2 points.
When it is level after N games (draws), deciding games follow one at a time, seats by lot,
until one is won.  Every lot comes from the tournament's seed, so the same state always
gives the same pairings.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .model import Pairing, TournamentState
from .scoring import WIN, halves_for


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket slot order, for a power-of-two ``size``.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_round_slots(seeded: Sequence[int]) -> list[tuple[int, int | None]]:
    """The first-round matches (seed order in, player ids out); byes have ``None``."""
    size = 1
    while size < len(seeded):
        size *= 2
    order = bracket_order(size)
    out: list[tuple[int, int | None]] = []
    for k in range(0, size, 2):
        a, b = order[k], order[k + 1]
        out.append((seeded[a - 1], seeded[b - 1] if b <= len(seeded) else None))
    return out


@dataclass(frozen=True, slots=True)
class Match:
    """One knockout match so far: its games in order and, once decided, its winner."""

    round: int
    table: int
    a: int
    b: int | None
    games: tuple[Pairing, ...]
    points: tuple[int, int]
    winner: int | None
    pending: bool


def matches(state: TournamentState) -> list[Match]:
    """Every match paired so far, in round then table order."""
    results = state.result_map()
    withdrawn = state.withdrawn()
    need = state.config.best_of * WIN // 2 + 1
    grouped: dict[tuple[int, int], list[Pairing]] = {}
    for pairing in state.pairings:
        grouped.setdefault((pairing.round, pairing.table), []).append(pairing)
    out = []
    for (rnd, table), games in sorted(grouped.items()):
        games.sort(key=lambda p: p.game)
        first = games[0]
        if first.second is None:
            out.append(
                Match(rnd, table, first.first, None, tuple(games), (0, 0), first.first, False)
            )
            continue
        a, b = sorted((first.first, first.second))
        points = {a: 0, b: 0}
        regular = {a: 0, b: 0}
        pending = False
        decider_win: int | None = None
        for game in games:
            result = results.get(game.id)
            if result is None:
                pending = True
                continue
            assert game.second is not None
            first_halves = halves_for(result, True)
            points[game.first] += first_halves
            points[game.second] += WIN - first_halves
            if game.game <= state.config.best_of:
                regular[game.first] += first_halves
                regular[game.second] += WIN - first_halves
            elif first_halves != WIN // 2 and decider_win is None:
                decider_win = game.first if first_halves == WIN else game.second
        winner: int | None = None
        if regular[a] >= need:
            winner = a
        elif regular[b] >= need:
            winner = b
        elif decider_win is not None:
            winner = decider_win
        elif a in withdrawn or b in withdrawn:
            # A withdrawal concedes a match still undecided (one already won stands).  If
            # both withdrew, one goes through and concedes the next, so the bracket keeps
            # its shape.
            winner = b if a in withdrawn and b not in withdrawn else a
        out.append(Match(rnd, table, a, b, tuple(games), (points[a], points[b]), winner, pending))
    return out


def next_knockout_pairings(state: TournamentState, seeded: Sequence[int]) -> tuple[Pairing, ...]:
    """The games to add now: round 1, the next game of each undecided match, or next round."""
    played = matches(state)
    if not played:
        slots = first_round_slots(seeded)
        return tuple(
            _game(state, 1, table, a, b, 1, None) if b is not None else Pairing(1, table, a, None)
            for table, (a, b) in enumerate(slots, start=1)
        )
    current = max(m.round for m in played)
    this_round = [m for m in played if m.round == current]
    out = []
    for match in this_round:
        if match.winner is not None or match.pending:
            continue
        assert match.b is not None
        last = match.games[-1]
        out.append(_game(state, match.round, match.table, match.a, match.b, last.game + 1, last))
    if out or any(m.winner is None for m in this_round):
        return tuple(out)
    winners = [m.winner for m in this_round if m.winner is not None]
    if len(winners) < 2:
        return ()
    nxt = current + 1
    withdrawn = state.withdrawn()
    out = []
    for k in range(0, len(winners), 2):
        a, b = winners[k], winners[k + 1]
        if a in withdrawn or b in withdrawn:
            # Nobody plays a player who has left: the other goes through, as with a bye.
            through = b if a in withdrawn and b not in withdrawn else a
            out.append(Pairing(nxt, k // 2 + 1, through, None))
        else:
            out.append(_game(state, nxt, k // 2 + 1, a, b, 1, None))
    return tuple(out)


def _game(
    state: TournamentState, rnd: int, table: int, a: int, b: int, game: int, last: Pairing | None
) -> Pairing:
    best_of = state.config.best_of
    if last is not None and game <= best_of:
        first, second = last.second, last.first
        assert second is not None and first is not None
        return Pairing(rnd, table, first, second, game)
    lot = random.Random(f"{state.config.seed}:{rnd}:{table}:{game}")
    first, second = (a, b) if lot.random() < 0.5 else (b, a)
    return Pairing(rnd, table, first, second, game)


def is_finished(state: TournamentState) -> bool:
    played = matches(state)
    if not played:
        return False
    last = max(m.round for m in played)
    final = [m for m in played if m.round == last]
    return len(final) == 1 and final[0].winner is not None
