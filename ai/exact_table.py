"""Exact verdicts shared by every position one process analyses on a board with a shipped proof.

Analysing a 4×4 game asks the exact solver about every position off the proof's line, at up
to :attr:`ai.analysis.Settings.proof_board_nodes` nodes, and asks again about every legal move
of each won position (the only-move question).  With a fresh solver per question, each of
those questions re-proved the same subtrees: one random 4×4 game cost one to two CPU minutes.
One :class:`ai.endgame.Endgame` per board and process keeps the solver's tables (proven and
disproven positions, up to symmetry) across the positions of one analysis, across analyses,
and across the games of a benchmark, so a subtree is proved once.

What the table answers must not depend on what it has seen, or an analysis would change with
the order its positions were judged in (a process pool judges them in any order):

* a verdict is exact whenever it is decided, and on these boards every position is decided
  well within the budget (at most about 310 000 nodes in random 4×4 games, against 1 000 000);
* in a lost position the move shown comes from the rules (:func:`stubborn_move`), not from a
  search, which at the default 1 000 playouts was the dearest part of such a position;
* the winning move reported is not the solver's (which depends on its history heuristic and
  tables) but the first winning move in the position's legal-move order, found by deciding
  each legal move in turn; the same pass answers the only-move question.

The tables grow with what they prove, so a table past :data:`MAX_ENTRIES` positions is
dropped and started afresh (it changes only the speed).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import Game

from .endgame import Endgame, Verdict
from .solver import SEATS, seat_of, winner_seat

EXACT_NODES = 1_000_000
"""The least per-question budget at which the analysis uses the table: at this budget every
position of these boards was decided in random games (at most about 310 000 nodes on 4×4),
so sharing cannot turn an undecided position into a decided one depending on what the table
saw first.  Smaller budgets (tests, experiments) keep a fresh solver per question, where
"undecided at N nodes" has a fixed meaning."""
MAX_ENTRIES = 3_000_000
"""Proven plus disproven positions kept per board before the table starts afresh (a few
hundred megabytes at most)."""

_TABLES: dict[tuple[str, int], Endgame] = {}


def table(game: Game) -> Endgame:
    """This process's shared solver for ``game``'s board (variant and size)."""
    key = (game.variant, game.size)
    found = _TABLES.get(key)
    if found is None or _entries(found) > MAX_ENTRIES:
        found = _TABLES[key] = Endgame(game, game.size * game.size)
    return found


def _entries(endgame: Endgame) -> int:
    return sum(len(s.proven) + len(s.disproven) for s in (endgame.solver(seat) for seat in SEATS))


def verdict(game: Game, nodes: int) -> Verdict | None:
    """The exact verdict of ``game`` (not over) for the player to move, from the shared
    table within ``nodes`` new solver nodes per side; None if not decided."""
    return table(game).verdict(game, nodes, None)


@dataclass(frozen=True, slots=True)
class Winners:
    """The legal moves of a won position that keep the win, in legal-move order."""

    moves: tuple[str, ...]
    complete: bool
    """Every legal move up to where the search stopped was decided, so ``moves[0]`` is the
    first winning move in legal-move order whatever the table had seen."""
    stopped: bool
    """The search stopped at ``enough`` winners, before the last legal move."""

    @property
    def only(self) -> bool:
        """Exactly one legal move keeps the win (all were decided)."""
        return self.complete and not self.stopped and len(self.moves) == 1


def winners(game: Game, nodes: int, enough: int) -> Winners:
    """Decide the legal moves of ``game`` (the player to move wins) in order, for the mover,
    each within ``nodes`` solver nodes per side, until ``enough`` keep the win; ``game`` is
    left unchanged."""
    assert game.to_move is not None
    mover = seat_of(game, game.to_move)
    found: list[str] = []
    complete = True
    for move in game.legal_moves():
        if len(found) >= enough:
            return Winners(tuple(found), complete, True)
        child = game.copy()
        child.play(move)
        if child.is_over:
            if winner_seat(child) == mover:
                found.append(move)
            continue
        assert child.to_move is not None
        answer = verdict(child, nodes)
        if answer is None:
            complete = False
            continue
        keeps = (
            Verdict.MOVER_WINS if seat_of(child, child.to_move) == mover else Verdict.MOVER_LOSES
        )
        if answer is keeps:
            found.append(move)
    return Winners(tuple(found), complete, False)


def stubborn_move(game: Game) -> str:
    """A move to show in a proven-lost position (``game``, not over): the first legal move
    after which the opponent cannot win at once, else the first legal move.  It comes from
    the rules alone, so it is the same whatever the table has seen, and costs no search."""
    assert game.to_move is not None
    mover = seat_of(game, game.to_move)
    moves = game.legal_moves()
    for move in moves:
        child = game.copy()
        child.play(move)
        if child.is_over:
            continue
        assert child.to_move is not None
        if seat_of(child, child.to_move) == mover or not _wins_at_once(child):
            return move
    return moves[0]


def _wins_at_once(game: Game) -> bool:
    """Whether the player to move in ``game`` has a move that wins on the spot."""
    assert game.to_move is not None
    mover = seat_of(game, game.to_move)
    for move in game.legal_moves():
        child = game.copy()
        child.play(move)
        if child.is_over and winner_seat(child) == mover:
            return True
    return False
