"""Difficulty levels: a name players can type, mapped to a thinking budget.

Each level caps both playouts and seconds, and carries an estimated rating (Elo, the
distance player at 1000), fitted by ``bench/ai_ladder.py`` (one model with a first-seat term
per game and board) to the paired ladder games and the older matches in docs/ai.md;
levels without enough games to rate say so in :meth:`Level.describe`.  The playout cap keeps
the weaker levels weak and reproducible on a fast machine; the seconds cap keeps the bot
responsive on a slow one (or in Naked Diagonal, whose legality checks make playouts slower).
Level 1 also skips the block check, so beginners can win by making a threat it ignores;
level 2 blocks.  Both look only one move deep at the root and use no Crosscut, Minefield or
Naked Diagonal knowledge (:data:`ai.search.BASIC_CONFIG`); levels 3 to 5 also look two moves
deep in Crosscut, where that pays, score new Crosscut nodes with the engine, and in Minefield
and Naked Diagonal play playouts along both sides' shortest paths, cut short after six moves
(:data:`ai.search.DEFAULT_CONFIG`); levels 4 and 5 also solve the endgame exactly
(:data:`ENDGAME_EMPTIES`, :mod:`ai.endgame`).

Why the caps are 10, 80, 1,000, 5,000 and 15,000 playouts: the ladder first asked each level
to beat the one below three times in four in every game, with seats alternating (it now asks
for a rating step measured in seat-swapped pairs; docs/ai.md).  With 30 and 200 playouts, and
level 2 carrying Crosscut's threat check, three steps fell short: level 2 beat level 1 only 25 of 40
times in Clear Path, and level 3 beat level 2 70 % of the time in Clearcut and 66 % in
Crosscut, where the threat check, not the playouts, decided the games.  At 10 and 80
playouts, with the threat check from level 3 up, every bottom step is won 82–100 % of the
time.  The top of the ladder is fixed by the seconds caps instead: 6 s and 12 s never reach
20,000 playouts (about 1,300 playouts/s at best), so the caps of levels 4 and 5 are what their
seconds allow on a quiet machine and a match at the cap says how they play.

The seconds cap is per turn, not per placement: the placements of a Clear Path chain share it
(:func:`placement_budget`), so a chain never makes the player wait longer than one move would.

Level 3 plays Minefield 7×7 with 200 playouts: at 1,000 it won 99 % against the distance
player there and level 4 beat it only 60 % of the time, since a strong second player holds
that board; at 200 it still wins 93 % against the distance player and 85 % against level 2,
and level 4 beats it about three games in four (:meth:`Level.budget_for`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules import Game

from .moves import chain_points, placements_this_turn
from .search import BASIC_CONFIG, DEFAULT_CONFIG, Budget, SearchConfig


@dataclass(frozen=True, slots=True)
class Level:
    number: int
    name: str
    budget: Budget
    config: SearchConfig = DEFAULT_CONFIG
    rating: int | None = None
    """Estimated Elo, with the connection-distance reference player (ai.reference) at 1000,
    from the ladder matches in docs/ai.md; None while the ladder has no measurement."""
    provisional: bool = False
    """The rating rests on a few dozen games only, and players are told so."""
    board_playouts: tuple[tuple[str, int, int], ...] = ()
    """Playout caps for single boards, as (rules game name, board size, playouts), where the
    level's own cap would make it much stronger there than elsewhere; see :meth:`budget_for`."""

    def budget_for(self, game: str, size: int) -> Budget:
        """The budget on ``game``'s ``size`` board: the level's own, with that board's playout
        cap if it has one.  A playout buys different strength on different boards, so one cap
        everywhere would space the ladder unevenly (the module docstring says where and why)."""
        for name, board, playouts in self.board_playouts:
            if (name, board) == (game, size):
                return replace(self.budget, playouts=playouts)
        return self.budget

    @property
    def label(self) -> str:
        return f"{self.number} ({self.name})"

    def describe(self) -> str:
        """The label with the estimated rating, for wherever a player picks a level."""
        if self.rating is None:
            return f"{self.number} ({self.name}, not rated yet)"
        caveat = ", provisional" if self.provisional else ""
        return f"{self.number} ({self.name}, about {self.rating} Elo{caveat})"


def placement_budget(turn: Budget, game: Game) -> Budget:
    """The part of a turn's budget ``turn`` that the search for the placement now to be chosen
    in ``game`` may use: its seconds are shared by every placement of the turn.

    Where a placement could continue the turn (a Clear Path chain), the search may choose such
    a placement only within half of the seconds left (``Budget.chain_seconds``); a placement
    that ends the turn may take them all.  So what is left is known from the position alone:
    every earlier placement of a chain under way took at most half of what was left before
    it, which leaves ``turn.seconds / 2**k`` after ``k`` of them.  The searches of one turn
    never add up to more than its seconds, however long the chain, and no clock is carried
    from one search to the next (they may run in different processes, or after a restart).
    The playout cap is per placement: it sets a level's strength per decision, and only
    seconds make a player wait.
    """
    if turn.seconds is None:
        return turn
    left = turn.seconds * 0.5 ** placements_this_turn(game)
    return replace(turn, seconds=left, chain_seconds=left / 2 if chain_points(game) else None)


ENDGAME_EMPTIES = {4: 14, 5: 16}
"""Empty points at which levels 4 and 5 solve exactly (:mod:`ai.endgame`).  On the shared
2-core machine the solver settled random 7×7 positions with 10 to 14 empty points within
about 2 s (of level 4's 3 s for the root's question, half its 6 s cap) in every game but
Clearcut (two of three at 14), and few of those with 18 within 3 s; level 5 has twice the
seconds, so two points more."""


LEVELS: dict[int, Level] = {
    1: Level(1, "easy", Budget(playouts=10, seconds=1.0), replace(BASIC_CONFIG, block=False), 660),
    2: Level(2, "casual", Budget(playouts=80, seconds=2.0), BASIC_CONFIG, 1110),
    3: Level(
        3,
        "medium",
        Budget(playouts=1000, seconds=3.0),
        rating=1480,
        board_playouts=(("minefield", 7, 200),),
    ),
    4: Level(
        4,
        "hard",
        Budget(playouts=5_000, seconds=6.0),
        replace(DEFAULT_CONFIG, endgame_empties=ENDGAME_EMPTIES[4]),
        rating=1690,
    ),
    5: Level(
        5,
        "expert",
        Budget(playouts=15_000, seconds=12.0),
        replace(DEFAULT_CONFIG, endgame_empties=ENDGAME_EMPTIES[5]),
        rating=1860,
        provisional=True,
    ),
}
DEFAULT_LEVEL = 3


def parse_level(value: int | str | Level | None) -> Level:
    """A level from a number (1–5), its name, or None for the default; ValueError otherwise."""
    if value is None:
        return LEVELS[DEFAULT_LEVEL]
    if isinstance(value, Level):
        return value
    if isinstance(value, bool):
        value = str(value)
    if isinstance(value, int):
        found = LEVELS.get(value)
    else:
        text = value.strip().lower()
        found = LEVELS.get(int(text)) if text.isdigit() else None
        if found is None:
            found = next((lv for lv in LEVELS.values() if lv.name == text), None)
    if found is None:
        choices = ", ".join(lv.label for lv in LEVELS.values())
        raise ValueError(f"unknown AI level {value!r}: choose one of {choices}")
    return found
