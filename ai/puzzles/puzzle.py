"""Puzzles: positions where the player to move has exactly one winning move.

A position is a puzzle when every legal move of the player to move is decided exactly (the
endgame solver, :class:`ai.endgame.Endgame`, within a node budget; a shipped proof answers on
the solved boards through the same solver tables' verdicts), exactly one of them is a proven
win and every other one a proven loss, and the win completes in at most
:data:`~ai.puzzles.line.MAX_WINNER_MOVES` of the winner's moves.  The solution is the quickest
win with the longest defence (:mod:`ai.puzzles.line`).

A move is a turn, as a player counts moves: one placement in most games, every placement of
a chain in Clear Path.  The solution lists placements, so a chain is its placements one
after another, and ``solution[0]`` is the first placement of the only winning turn.  "Exactly
one winning move" means exactly one winning first placement; the rest of that turn need not
be unique (docs/puzzles.md says why).

Answering, one placement at a time: the first must be the solution's (it is the only win);
later on any placement that still wins in the turns left is right.  When the winner's turn
ends, the bot replies with the longest defence, the defender's whole turn.  A wrong move is
explained by the opponent's reply that the solver proves wins ("after d4, e5 connects").
Pure: rules and ai only, no I/O; the service runs it off the event loop.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field

from rules import Game, IllegalMove, InvalidNotation, new_game

from ..endgame import Endgame, Verdict
from ..moves import Move, legal_moves, move_name, play, swap_offered
from ..solver import SEATS, SearchLimit, Seat, proof_move, seat_of, winner_seat
from ..tactics import wins_at_once
from .line import MAX_WINNER_MOVES, LineSearch, left_after, turn_continues

MIN_CHOICES = 4
"""A position with fewer legal moves is no puzzle: the answer would be a guess among few."""
SOLVE_NODES = 50_000
"""Solver nodes per side for one move's verdict when finding or verifying a puzzle."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle as the starter files and the store keep it (issue 48's format).

    ``moves`` and ``solution`` are placements (and ``swap``) in play order: a Clear Path
    chain, the winner's or the defence's, is its placements one after another, the same
    player's in a row.  ``solution[0]`` is the only winning first placement."""

    id: str
    game: str
    size: int
    moves: tuple[str, ...]
    solution: tuple[str, ...]
    effort: int | None = field(default=None, compare=False)
    """The level-3 search's effort to find ``solution[0]`` (:mod:`ai.puzzles.difficulty`),
    an extra field of the starter files beside issue 48's; None where not measured yet.  Not
    part of equality: it is measured about the puzzle, not part of it."""

    def as_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "id": self.id,
            "game": self.game,
            "size": self.size,
            "moves": list(self.moves),
            "solution": list(self.solution),
        }
        if self.effort is not None:
            data["effort"] = self.effort
        return data

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Puzzle:
        moves, solution, size = data["moves"], data["solution"], data["size"]
        if not isinstance(moves, list) or not isinstance(solution, list) or not solution:
            raise ValueError("a puzzle needs a list of moves and a non-empty solution")
        if not isinstance(size, int):
            raise ValueError("a puzzle's size is a whole number")
        effort = data.get("effort")
        if effort is not None and (isinstance(effort, bool) or not isinstance(effort, int)):
            raise ValueError("a puzzle's effort is a whole number of playouts")
        return cls(
            str(data["id"]),
            str(data["game"]),
            size,
            tuple(str(m) for m in moves),
            tuple(str(m) for m in solution),
            effort,
        )

    @property
    def winner_moves(self) -> int:
        """How many moves the solver of the puzzle makes: the solution's winner turns (a
        Clear Path chain, however many placements, is one)."""
        game = self.position()
        assert game.to_move is not None
        return _winner_turns(game, seat_of(game, game.to_move), self.solution)

    def position(self) -> Game:
        """The puzzle's position: a fresh game with ``moves`` played (the rule sheet's own
        pie choice, as the mining script plays)."""
        return replay(self.game, self.size, self.moves)


def replay(game: str, size: int, moves: tuple[str, ...] | list[str]) -> Game:
    position = new_game(game, size)
    for move in moves:
        position.play(move)
    return position


def puzzle_id(game: str, size: int, moves: tuple[str, ...] | list[str]) -> str:
    """A stable id from the position alone, so the same position mined twice is one puzzle."""
    text = f"{game}:{size}:{' '.join(moves)}"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def move_verdicts(
    game: Game,
    nodes: int = SOLVE_NODES,
    *,
    stop_at_wins: int | None = None,
    deadline: float | None = None,
) -> dict[Move, bool] | None:
    """For each legal move of the player to move: True if it is a proven win for them, False
    if a proven loss; None if any move is neither (a draw) or not settled within ``nodes``.
    With ``stop_at_wins`` the answer stops (partial) once that many wins are found; past
    ``deadline`` (a ``time.perf_counter()`` time) every unsettled move is None."""
    if game.is_over or game.to_move is None or swap_offered(game):
        return None
    mover = seat_of(game, game.to_move)
    endgame = Endgame(game, game.size * game.size)
    verdicts: dict[Move, bool] = {}
    moves = legal_moves(game)
    # The moves that win at once first: two of them settle "not a puzzle" cheaply.
    quick = [move for move in moves if wins_at_once(game, move)]
    for move in quick:
        verdicts[move] = True
        if stop_at_wins is not None and len(verdicts) >= stop_at_wins:
            return verdicts
    for move in moves:
        if move in verdicts:
            continue
        play(game, move)
        try:
            verdict = _mover_verdict(game, mover, endgame, nodes, deadline)
        finally:
            game.pop()
        if verdict is None:
            return None
        verdicts[move] = verdict
        wins = sum(verdicts.values())
        if stop_at_wins is not None and wins >= stop_at_wins:
            return verdicts
    return verdicts


def _mover_verdict(
    after: Game, mover: Seat, endgame: Endgame, nodes: int, deadline: float | None
) -> bool | None:
    """Did ``mover`` win (True) or lose (False) by force in ``after``, or neither (None)?"""
    if after.is_over:
        won = winner_seat(after)
        return None if won is None else won == mover
    assert after.to_move is not None
    verdict = endgame.verdict(after, nodes, deadline)
    if verdict is None or verdict is Verdict.NEITHER:
        return None
    to_move_wins = verdict is Verdict.MOVER_WINS
    return to_move_wins == (seat_of(after, after.to_move) == mover)


def find_puzzle(
    game: Game,
    nodes: int = SOLVE_NODES,
    line_nodes: int = 200_000,
    seconds: float | None = None,
) -> Puzzle | None:
    """The puzzle in ``game``'s position (which is left as it was), or None if it is not one
    (or the solver could not tell within ``nodes`` per move and ``seconds`` in all)."""
    if len(legal_moves(game)) < MIN_CHOICES:
        return None
    deadline = None if seconds is None else time.perf_counter() + seconds
    verdicts = move_verdicts(game, nodes, stop_at_wins=2, deadline=deadline)
    if verdicts is None:
        return None
    winning = [move for move, won in verdicts.items() if won]
    if len(winning) != 1:
        return None
    assert game.to_move is not None
    search = LineSearch(seat_of(game, game.to_move), line_nodes)
    try:
        needed = search.moves_needed(game, MAX_WINNER_MOVES)
        if needed is None:
            return None
        solution = search.line(game, winning[0], needed)
    except SearchLimit:
        return None
    moves = tuple(record.move for record in game.history)
    return Puzzle(
        puzzle_id(game.name, game.size, moves), game.name, game.size, moves, tuple(solution)
    )


def verify(puzzle: Puzzle, nodes: int = SOLVE_NODES) -> str | None:
    """None if ``puzzle`` holds (its position has exactly one winning move, ``solution[0]``,
    all others proven losses, and the solution is a legal forced win in at most
    :data:`MAX_WINNER_MOVES` winner moves); otherwise why not."""
    try:
        game = puzzle.position()
    except (IllegalMove, InvalidNotation, ValueError) as exc:
        return f"the moves do not replay: {exc}"
    if puzzle.id != puzzle_id(puzzle.game, puzzle.size, puzzle.moves):
        return "the id does not match the position"
    if len(legal_moves(game)) < MIN_CHOICES:
        return f"fewer than {MIN_CHOICES} legal moves"
    verdicts = move_verdicts(game, nodes)
    if verdicts is None:
        return "not every move is proven a win or a loss"
    winning = [move_name(game, move) for move, won in verdicts.items() if won]
    if winning != [puzzle.solution[0]]:
        return f"the winning moves are {winning}, not [{puzzle.solution[0]}]"
    assert game.to_move is not None
    winner = seat_of(game, game.to_move)
    search = LineSearch(winner)
    work = game.copy()
    try:
        for name in puzzle.solution:
            work.play(name)
    except (IllegalMove, InvalidNotation) as exc:
        return f"the solution does not replay: {exc}"
    if winner_seat(work) != winner:
        return "the solution does not end in the winner's win"
    if puzzle.winner_moves > MAX_WINNER_MOVES:
        return "the solution is too long"
    # Each defence in the line must be a longest one: no other reply holds out longer.
    work = game.copy()
    left = puzzle.winner_moves  # the winner's turns left, the one in progress included
    for name in puzzle.solution:
        assert work.to_move is not None
        if seat_of(work, work.to_move) == winner:
            work.play(name)
            left = left_after(work, winner, left)
            continue
        needed_here = _needed_after(search, work, name, left)
        for move in legal_moves(work):
            if _needed_after(search, work, move_name(work, move), left) > needed_here:
                return f"{name} is not the longest defence"
        work.play(name)
    return None


def _needed_after(search: LineSearch, game: Game, name: str, left: int) -> int:
    game.play(name)
    try:
        needed = search.moves_needed(game, left)
    finally:
        game.pop()
    return MAX_WINNER_MOVES + 1 if needed is None else needed


@dataclass(frozen=True, slots=True)
class Refutation:
    """Why a move is wrong: after ``move`` the opponent's ``reply`` wins by force, at once
    if ``connects``."""

    move: str
    reply: str | None
    connects: bool


@dataclass(frozen=True, slots=True)
class Reply:
    """The outcome of one answer: right (with the bot's defence, or solved) or wrong.

    ``defence`` is the defender's whole turn, every placement of a Clear Path chain in order
    (one placement elsewhere); empty when the answer solved the puzzle, and when it was a
    chain placement after which the solver places again."""

    correct: bool
    defence: tuple[str, ...] = ()
    solved: bool = False
    refutation: Refutation | None = None


def answer(puzzle: Puzzle, played: tuple[str, ...] | list[str], move: str) -> Reply:
    """Judge ``move`` as the next answer after ``played`` (the puzzle's moves so far: the
    solver's answers and the bot's defences).  Raises ``IllegalMove``/``InvalidNotation`` for
    a move that is not a legal point here, before judging anything."""
    start = puzzle.position()
    assert start.to_move is not None
    winner = seat_of(start, start.to_move)
    game = replay(puzzle.game, puzzle.size, [*puzzle.moves, *played])
    # The winner's turns left, the one in progress (a chain under way) included.
    left = puzzle.winner_moves - _winner_turns(start, winner, played)
    name = _checked_name(game, move)
    if not played:
        right = name == puzzle.solution[0]
    else:
        search = LineSearch(winner)
        game.play(name)
        try:
            right = search.wins_within(game, left_after(game, winner, left))
        except SearchLimit:
            right = name == puzzle.solution[len(played)]
        game.pop()
    if not right:
        return Reply(False, refutation=refute(game, name))
    game.play(name)
    if game.is_over or game.to_move is None:
        return Reply(True, solved=True)
    if turn_continues(game, winner):
        return Reply(True)  # the chain goes on: the solver places again, no defence yet
    return Reply(True, defence=_defending_turn(puzzle, game, winner, [*played, name], left - 1))


def _defending_turn(
    puzzle: Puzzle, game: Game, winner: Seat, played: list[str], left: int
) -> tuple[str, ...]:
    """The defender's whole turn from ``game`` (the defender to move, ``played`` the moves
    since the puzzle's position, ``left`` the winner's turns still to come): the solution's
    own placements while the answers followed it, else the longest defence, placement by
    placement through a chain.  ``game`` is left as it was."""
    work = game.copy()
    placed: list[str] = []
    search = LineSearch(winner)
    while not work.is_over and work.to_move is not None and not turn_continues(work, winner):
        line = [*played, *placed]
        if tuple(line) == puzzle.solution[: len(line)] and len(line) < len(puzzle.solution):
            name = puzzle.solution[len(line)]
        else:
            name = move_name(work, search.defence(work, left))
        placed.append(name)
        work.play(name)
    return tuple(placed)


def _winner_turns(start: Game, winner: Seat, played: tuple[str, ...] | list[str]) -> int:
    """How many turns ``winner`` completed in ``played`` from ``start`` (left as it was): a
    chain counts once, when its last placement is made (a win mid-chain ends the turn)."""
    work = start.copy()
    count = 0
    for name in played:
        assert work.to_move is not None
        mover = seat_of(work, work.to_move)
        work.play(name)
        count += mover == winner and not turn_continues(work, winner)
    return count


def _checked_name(game: Game, move: str) -> str:
    """The engine's own name for ``move`` if it is legal here; raises the engine's error."""
    game.play(move)
    name = game.history[-1].move
    game.pop()
    return name


def refute(game: Game, name: str, nodes: int = SOLVE_NODES) -> Refutation:
    """The opponent's winning reply after ``name`` in ``game`` (left as it was).  None when
    the game is over, and when a Clear Path chain goes on after ``name``: the mover places
    again, so no reply is due yet, and the answer says only that the move does not win."""
    game.play(name)
    try:
        if game.is_over or game.to_move is None:
            return Refutation(name, None, False)
        endgame = Endgame(game, game.size * game.size)
        if endgame.verdict(game, nodes, None) is not Verdict.MOVER_WINS:
            return Refutation(name, None, False)
        reply = proof_move(game) or move_name(game, _quickest(game, endgame))
        game.play(reply)
        connects = game.is_over and game.winner == game.history[-1].player
        game.pop()
        return Refutation(name, reply, connects)
    finally:
        game.pop()


def _quickest(game: Game, endgame: Endgame) -> Move:
    """The opponent's winning move, one that wins at once if there is one."""
    for move in legal_moves(game):
        if wins_at_once(game, move):
            return move
    return endgame.winning_move(game)


__all__ = [
    "SEATS",
    "Puzzle",
    "Refutation",
    "Reply",
    "answer",
    "find_puzzle",
    "move_verdicts",
    "puzzle_id",
    "refute",
    "verify",
]
