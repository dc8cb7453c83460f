"""Swiss pairing as a maximum-weight matching (networkx's blossom algorithm).

The players still in are ranked by score, then by seed (rating at the start).  When the
field is odd, the bye goes to the lowest-ranked player who has had none and whose absence
leaves the others pairable without a rematch; it is worth one point.  Nobody gets a second
bye: when withdrawals leave an odd field in which everyone has had one, no further round is
paired and the tournament ends early.  The others are paired
by a maximum-cardinality, maximum-weight matching over the pairs that have not met, so no
pair meets twice while a pairing without rematches exists; only when none exists are
rematches allowed, and then as few as possible.

The weight of a possible game ranks, most important first:

1. seats: two players due the same seat (both have sat first more often, or both second
   more often) are paired only when nothing better exists, which keeps every player's
   first-seat and second-seat counts within one of each other whenever the field allows;
2. score: the squared score difference, so players meet others on their score;
3. within a score group, the top half meets the bottom half (as in the Dutch system),
   so leaders do not meet each other before they have to.

Blossom is cubic, so the graph first holds only the pairs within a band of nearby ranks,
which is where a good pairing lies; the band widens (up to the whole field) only when the
players cannot all be paired inside it.  Fields of more than 64 are first paired in slices
of 64 consecutive ranks, the whole field being matched only when a slice cannot be; so in a
large field seat clashes are avoided within a slice and band, not across the whole field.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

import networkx as nx

from .model import Pairing

BANDS: tuple[int, ...] = (12, 48)
"""Ranks either side a player is first matched within, before the whole field is tried."""

FULL_FIELD = 64
"""Up to this many players, a band pairing with a seat clash is tried again over the whole
field (cheap at this size), so the round has the fewest clashes possible."""

CHUNK = 64
"""Fields larger than this are first matched slice by slice of this many ranks (even)."""

_SEAT = 10**11
_SCORE = 10**5
_BASE = 10**16


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """What pairing needs to know of one player still in the tournament.

    ``seat_balance`` is first-seat games minus second-seat games; ``last_seat`` is 1 if
    their last game was from the first seat, -1 from the second, 0 if none yet.
    """

    player_id: int
    halves: int
    opponents: frozenset[int]
    seat_balance: int
    last_seat: int
    had_bye: bool


def pair_swiss(ranked: Sequence[SwissPlayer], round_number: int) -> tuple[Pairing, ...]:
    """The pairings of ``round_number`` for ``ranked`` (best first), bye last; () when the
    field is odd and everyone in it has had a bye (no round can be paired without a second).

    >>> fresh = [SwissPlayer(i, 0, frozenset(), 0, 0, False) for i in (1, 2, 3)]
    >>> [(p.first, p.second) for p in pair_swiss(fresh, 1)]
    [(1, 2), (3, None)]
    """
    players = list(ranked)
    bye: SwissPlayer | None = None
    matching: list[tuple[int, int]] | None = None
    if len(players) % 2:
        candidates = [p for p in reversed(players) if not p.had_bye]
        if not candidates:
            # Withdrawals can leave an odd field in which everyone has had a bye: the round
            # would need a second one, which the rules forbid, so it cannot be paired.
            return ()
        for candidate in candidates:
            rest = [p for p in players if p is not candidate]
            matching = _match(rest, allow_rematch=False)
            if matching is not None:
                bye = candidate
                break
        if bye is None:
            # No bye leaves a rematch-free pairing: the lowest-ranked player without a bye
            # still gets it, and the others are paired with as few rematches as possible.
            bye = candidates[0]
        players = [p for p in players if p is not bye]
    if matching is None:
        matching = _match(players, allow_rematch=False) or _match(players, allow_rematch=True)
    assert matching is not None
    by_id = {p.player_id: p for p in players}
    rank = {p.player_id: i for i, p in enumerate(players)}
    games = []
    for a, b in matching:
        hi, lo = (a, b) if rank[a] < rank[b] else (b, a)
        games.append(_seated(by_id[hi], by_id[lo], rank[hi]))
    games.sort(key=lambda pair: min(rank[pair[0]], rank[pair[1]]))
    out = [Pairing(round_number, i + 1, f, s) for i, (f, s) in enumerate(games)]
    if bye is not None:
        out.append(Pairing(round_number, len(out) + 1, bye.player_id, None))
    return tuple(out)


def _match(players: list[SwissPlayer], *, allow_rematch: bool) -> list[tuple[int, int]] | None:
    """A perfect matching of ``players`` (ranked), or None if there is none without rematches.

    A large field is matched in consecutive slices of :data:`CHUNK` ranks, each on its own
    (blossom is cubic, so four slices of 64 cost a sixteenth of one field of 256); only if a
    slice cannot be paired inside itself is the whole field matched at once.
    """
    if len(players) > CHUNK:
        pairs: list[tuple[int, int]] = []
        for start in range(0, len(players), CHUNK):
            part = _match_field(players[start : start + CHUNK], allow_rematch, retry=False)
            if part is None:
                break
            pairs += part
        else:
            return pairs
    return _match_field(players, allow_rematch, retry=len(players) <= FULL_FIELD)


def _match_field(
    players: list[SwissPlayer], allow_rematch: bool, *, retry: bool
) -> list[tuple[int, int]] | None:
    if not players:
        return []
    groups: dict[int, list[int]] = {}
    for i, p in enumerate(players):
        groups.setdefault(p.halves, []).append(i)
    place = {}
    for members in groups.values():
        for position, i in enumerate(members):
            place[i] = (position, len(members))
    n = len(players)
    for band in (*BANDS, n):
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        graph.add_weighted_edges_from(_edges(players, place, min(band, n), allow_rematch))
        matched = cast(
            Iterable[tuple[int, int]], nx.max_weight_matching(graph, maxcardinality=True)
        )
        pairs = [(players[a].player_id, players[b].player_id) for a, b in matched]
        clash = any(_clash(players[a], players[b]) for a, b in matched)
        if len(pairs) * 2 == n and not (clash and retry and band < n):
            return pairs
        if band >= n:
            break
    return None


def _edges(
    players: list[SwissPlayer],
    place: dict[int, tuple[int, int]],
    band: int,
    allow_rematch: bool,
) -> Iterable[tuple[int, int, int]]:
    n = len(players)
    for i in range(n):
        a = players[i]
        pos_a, size_a = place[i]
        for j in range(i + 1, min(n, i + band + 1)):
            b = players[j]
            rematch = b.player_id in a.opponents
            if rematch and not allow_rematch:
                continue
            weight = _BASE - (_BASE // 2 if rematch else 0)
            if _clash(a, b):
                weight -= _SEAT * (1 + min(abs(a.seat_balance), abs(b.seat_balance)))
            elif a.seat_balance == b.seat_balance == 0 and a.last_seat * b.last_seat > 0:
                weight -= _SEAT // 10
            gap = a.halves - b.halves
            weight -= _SCORE * gap * gap
            if gap == 0:
                # Ideal opponent of the k-th of a group of g is the (k + g/2)-th.
                pos_b = place[j][0]
                weight -= abs(abs(pos_b - pos_a) - size_a // 2)
            yield i, j, weight


def _clash(a: SwissPlayer, b: SwissPlayer) -> bool:
    """Whether both players are due the same seat, so one of them must sit it once more."""
    return a.seat_balance * b.seat_balance > 0


def _seated(hi: SwissPlayer, lo: SwissPlayer, hi_rank: int) -> tuple[int, int]:
    """(first, second): the player due the first seat gets it; the higher-ranked breaks ties."""
    if hi.seat_balance != lo.seat_balance:
        hi_first = hi.seat_balance < lo.seat_balance
    elif hi.last_seat != lo.last_seat:
        hi_first = hi.last_seat < lo.last_seat
    elif hi.last_seat != 0:
        hi_first = hi.last_seat < 0
    else:
        hi_first = hi_rank % 2 == 0
    return (hi.player_id, lo.player_id) if hi_first else (lo.player_id, hi.player_id)
