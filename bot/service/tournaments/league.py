"""League seasons: divisions by rating, a round robin in each, promotion and relegation.

A league is per game and board size.  Each season splits its members into divisions of at
most ``size`` players (10 unless the organiser chose otherwise), strongest first, as evenly
as possible so no division is left with one or two players.  Each division is a single
round robin with all its games paired at once.  At the end of the season the top two of
each division go up and the bottom two go down (in a division of fewer than four, one each
way, so nobody is sent both ways); the top division has no one above it and the bottom
none below.  The next season carries everyone who did not leave; newcomers join the
highest division whose weakest player they out-rate, or the bottom one.  When leavers and
newcomers change how many divisions the league needs, or overfill one, the league's order
(division, then rating) is cut again into even divisions.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rules.errors import N_

from ..errors import quote
from .model import Entrant, Format, TournamentConfig, TournamentError, TournamentState
from .model import new_tournament as _new_tournament

DEFAULT_DIVISION_SIZE = 10
MIN_DIVISION_SIZE = 4
"""The smallest division size an organiser may set: even cuts then never leave a division
of one (a cut into k divisions of at most s players gives each more than s/2)."""
MAX_DIVISION_SIZE = 64
"""A division is a round robin: past this its season is longer than anyone would wait."""

PROMOTED = 2
"""How many go up (and down) from each division with at least twice as many players."""


@dataclass(frozen=True, slots=True)
class LeagueMember:
    player_id: int
    rating: float


@dataclass(frozen=True, slots=True)
class Division:
    """``level`` 1 is the top division; ``players`` are strongest first (the RR's seeding)."""

    level: int
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeasonMoves:
    """Who goes up and who goes down after a season."""

    promoted: frozenset[int]
    relegated: frozenset[int]


def _check_size(size: int) -> None:
    if not MIN_DIVISION_SIZE <= size <= MAX_DIVISION_SIZE:
        raise TournamentError(
            N_("A division holds {least} to {most} players, not {size}."),
            least=MIN_DIVISION_SIZE,
            most=MAX_DIVISION_SIZE,
            size=quote(size),
        )


def _cut(order: Sequence[int], size: int) -> tuple[Division, ...]:
    count = math.ceil(len(order) / size)
    small, extra = divmod(len(order), count)
    out = []
    start = 0
    for level in range(1, count + 1):
        length = small + (1 if level <= extra else 0)
        out.append(Division(level, tuple(order[start : start + length])))
        start += length
    return tuple(out)


def _by_rating(members: Sequence[LeagueMember]) -> list[int]:
    return [m.player_id for m in sorted(members, key=lambda m: (-m.rating, m.player_id))]


def split_divisions(
    members: Sequence[LeagueMember], size: int = DEFAULT_DIVISION_SIZE
) -> tuple[Division, ...]:
    """The first season's divisions: by rating, as even as possible, at most ``size`` each.

    >>> [len(d.players) for d in split_divisions([LeagueMember(i, i) for i in range(23)])]
    [8, 8, 7]
    """
    _check_size(size)
    if len(members) < 2:
        raise TournamentError(N_("A league needs at least two players."))
    if len({m.player_id for m in members}) != len(members):
        raise TournamentError(N_("A player is registered twice."))
    return _cut(_by_rating(members), size)


def moving(division_size: int) -> int:
    """How many go up and how many go down from a division of this size."""
    return min(PROMOTED, division_size // 2)


def season_moves(finishing: Sequence[Sequence[int]]) -> SeasonMoves:
    """Promotions and relegations from each division's final order (top division first)."""
    up: set[int] = set()
    down: set[int] = set()
    last = len(finishing) - 1
    for level, order in enumerate(finishing):
        k = moving(len(order))
        if level > 0:
            up.update(order[:k])
        if level < last:
            down.update(order[len(order) - k :])
    return SeasonMoves(frozenset(up), frozenset(down))


def next_season(
    finishing: Sequence[Sequence[int]],
    ratings: Mapping[int, float],
    leaving: Collection[int] = (),
    joining: Sequence[LeagueMember] = (),
    size: int = DEFAULT_DIVISION_SIZE,
) -> tuple[Division, ...]:
    """The next season's divisions from this season's final orders (top division first).

    ``ratings`` holds the current rating of every returning player (it orders each
    division's seeding and places newcomers).
    """
    _check_size(size)
    moves = season_moves(finishing)
    levels: list[list[int]] = [[] for _ in finishing]
    for level, order in enumerate(finishing):
        for pid in order:
            if pid in leaving:
                continue
            shift = -1 if pid in moves.promoted else 1 if pid in moves.relegated else 0
            levels[level + shift].append(pid)
    rating = dict(ratings)
    for member in joining:
        if member.player_id in rating:
            raise TournamentError(
                N_("Player {player_id} is already in the league."),
                player_id=quote(member.player_id),
            )
        rating[member.player_id] = member.rating
    for member in sorted(joining, key=lambda m: (-m.rating, m.player_id)):
        target = next(
            (
                level
                for level, members in enumerate(levels)
                if members and member.rating >= min(rating[p] for p in members)
            ),
            len(levels) - 1,
        )
        levels[target].append(member.player_id)
    for members in levels:
        members.sort(key=lambda pid: (-rating[pid], pid))
    levels = [members for members in levels if members]
    total = sum(len(members) for members in levels)
    if total < 2:
        raise TournamentError(N_("A league needs at least two players."))
    if len(levels) != math.ceil(total / size) or any(not 2 <= len(m) <= size for m in levels):
        return _cut([pid for members in levels for pid in members], size)
    return tuple(Division(level, tuple(m)) for level, m in enumerate(levels, start=1))


def division_tournament(
    division: Division, ratings: Mapping[int, float], seed: int = 0
) -> TournamentState:
    """The division's season: a single round robin, seeded by ``ratings``."""
    entrants = [Entrant(pid, ratings[pid]) for pid in division.players]
    return _new_tournament(TournamentConfig(Format.ROUND_ROBIN, seed=seed), entrants)
