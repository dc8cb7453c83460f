"""How each game's pieces and board look, keyed by the rules engine's game name.

Games unknown here (a game added later) get the plain look: stones on cells, owned edges.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

PieceShape = Literal["stone", "disc", "checker"]


@dataclass(frozen=True, slots=True)
class Look:
    shape: PieceShape
    # Connection games colour each player's two edges; Crosscut is won by a run anywhere.
    owned_edges: bool = True
    # Crosscut's perimeter is a zone of its own (discs there are removed at once).
    perimeter_zone: bool = False


STONES = Look("stone")

LOOKS: dict[str, Look] = {
    "clearpath": STONES,
    "minefield": STONES,
    "nakeddiagonal": STONES,
    "crosscut": Look("disc", owned_edges=False, perimeter_zone=True),
    "clearcut": Look("checker"),
}


def look_for(game_name: str) -> Look:
    return LOOKS.get(game_name, STONES)
