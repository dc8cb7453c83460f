"""Round-robin schedules by the circle method (the rotation behind the Berger tables).

Every player meets every other once per cycle; a double round robin plays the same
schedule again with the seats swapped, so each pair plays once from each seat.  Seats are
as balanced as a round robin allows: in a single cycle every player's first-seat and
second-seat counts differ by at most one (by none when the field is odd, since everyone
then plays an even number of games).  An odd field rests one player a round: that rest is
no game and scores nothing.
"""

from __future__ import annotations

from .model import Pairing


def round_robin_schedule(seeded: list[int], cycles: int = 1) -> tuple[Pairing, ...]:
    """Every game of a round robin between ``seeded`` (strongest first), by round.

    >>> [(p.round, p.first, p.second) for p in round_robin_schedule([10, 20, 30])]
    [(1, 20, 10), (2, 10, 30), (3, 30, 20)]
    """
    odd = len(seeded) % 2
    # In an odd field the empty slot is the fixed position of the circle, so the rest
    # moves round the players and the seats stay balanced.
    slots: list[int | None] = [None, *seeded] if odd else list(seeded)
    size = len(slots)
    rounds_per_cycle = size - 1
    out: list[Pairing] = []
    for cycle in range(cycles):
        ring = list(slots)
        for index in range(rounds_per_cycle):
            table = 0
            for i in range(size // 2):
                a, b = ring[i], ring[size - 1 - i]
                if a is None or b is None:
                    continue
                first_is_a = index % 2 == 0 if i == 0 else i % 2 == 0
                if cycle == 1:
                    first_is_a = not first_is_a
                first, second = (a, b) if first_is_a else (b, a)
                table += 1
                out.append(Pairing(cycle * rounds_per_cycle + index + 1, table, first, second))
            ring = [ring[0], ring[-1], *ring[1:-1]]
    return tuple(out)
