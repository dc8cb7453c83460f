"""Computer analysis of a finished game: each position's win chance, each move's mark.

Every position before a ply is judged on its own (so positions can be judged in parallel, and
one seed gives the same figures in any order): a shipped proof (ai/solved/) or the exact
endgame solver within :attr:`Settings.solve_nodes` decides it where it can (win chance 1.0 or
0.0, ``proven`` "win"/"loss"); otherwise one seeded search at :attr:`Settings.playouts`, the
same for every position of the game, estimates it.  The thresholds and the accuracy formula
are explained in docs/analysis.md.

Pure and deterministic given a seed; no I/O.  :func:`analyse` runs sequentially, or maps the
positions over an executor (the process pool of :mod:`ai.pool`, never an event loop).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any, Literal

from rules import Game, new_game, parse_record
from rules.record import parse_header

from . import exact_table
from .endgame import Endgame, Verdict, empty_points
from .moves import move_name
from .pie import pie_search
from .pool import move_seed
from .search import DEFAULT_CONFIG, Budget
from .solver import (
    SEATS,
    SearchLimit,
    losing_side_move,
    proof_move,
    seat_of,
    shipped_proof,
    winner_seat,
)

Proven = Literal["win", "loss"] | None
Mark = Literal["inaccuracy", "mistake", "blunder", "missed_win"] | None

INACCURACY, MISTAKE, BLUNDER = 0.10, 0.20, 0.30
"""Drops in the mover's win chance (0..1) that earn each mark; see docs/analysis.md."""
MARKS = ("inaccuracy", "mistake", "blunder", "missed_win")


@dataclass(frozen=True, slots=True)
class Settings:
    playouts: int = 1000
    """The search budget for every position the solver does not decide."""
    solve_empties: int = 16
    """Ask the exact solver about positions with at most this many empty points."""
    solve_nodes: int = 20_000
    """Solver nodes per side for one position's question."""
    proof_board_nodes: int = 1_000_000
    """Solver nodes per side, whatever the empty points, on a board with a shipped proof.

    There every position is small enough to decide exactly (a position off the proof took at
    most about 310 000 nodes in random 4×4 games), and the issue asks that every move throwing
    a proven win away there be marked; at ``solve_nodes`` a third of those positions stayed
    estimates, so a thrown-away win could read as a mere inaccuracy."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """One position, for the player to move."""

    win_chance: float
    proven: Proven
    best: str
    only_move: bool = False
    """Proven won, and exactly one legal move (``best``) keeps the win: every other move was
    shown by the solver not to (decided only within the solver's range, see
    :func:`only_move`)."""


@dataclass(frozen=True, slots=True)
class PlyAnalysis:
    ply: int
    move: str
    seat: str
    win_chance_before: float
    win_chance_after: float
    proven_before: Proven
    proven_after: Proven
    mark: Mark
    best: str
    only_move: bool = False
    """The position before was won by exactly one move, and this was that move."""


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    seat: str
    moves: int
    inaccuracy: int
    mistake: int
    blunder: int
    missed_win: int
    accuracy: float
    only_move: int = 0
    """How many only moves (the one move keeping a proven win) the player found."""


@dataclass(frozen=True, slots=True)
class Analysis:
    record: str
    moves: tuple[PlyAnalysis, ...]
    players: tuple[PlayerSummary, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "record": self.record,
            "moves": [asdict(m) for m in self.moves],
            "players": {p.seat: asdict(p) for p in self.players},
        }


EXHAUSTIVE_BOARDS = frozenset(
    {
        ("clearpath", 4),
        ("minefield", 4),
        ("clearcut", 4),
        ("nakeddiagonal", 4),
        ("crosscut", 5),
        ("crosscut", 6),
    }
)
"""Boards with a shipped proof where every position, on the proof or off it, is decided
within :attr:`Settings.proof_board_nodes`, so the analysis decides them all exactly.

Minefield 5×5 is solved too, but its proof took 13.7 million expansions: a position off it
(the winner already strayed) stayed undecided after 1,000,000 nodes and about two CPU
minutes.  There the proof is used where it reaches (:func:`proof_move`,
:func:`losing_side_move`), and every other position takes the ordinary path: the solver
near the end, the search before."""


def exhaustive(game: Game) -> bool:
    """Whether every position of ``game``'s board is decided exactly (see
    :data:`EXHAUSTIVE_BOARDS`)."""
    board = (game.variant, game.size)
    return board in EXHAUSTIVE_BOARDS and shipped_proof(*board) is not None


def judge(game: Game, settings: Settings, seed: int | None) -> Judgement:
    """Judge ``game`` (not over) for the player to move; ``game`` is left unchanged."""
    small = exhaustive(game)
    if small and settings.proof_board_nodes >= exact_table.EXACT_NODES:
        return _judge_on_proof_board(game, settings, seed)
    move = proof_move(game)
    if move is not None:
        return Judgement(1.0, "win", move, only_move(game, move, settings))
    loser_move = losing_side_move(game)
    if loser_move is not None:
        return Judgement(0.0, "loss", loser_move)
    verdict: Verdict | None = None
    endgame: Endgame | None = None
    if small or empty_points(game) <= settings.solve_empties:
        endgame = Endgame(game, empty_points(game))
        nodes = settings.proof_board_nodes if small else settings.solve_nodes
        verdict = endgame.verdict(game, nodes, None)
    if verdict is Verdict.MOVER_WINS and endgame is not None:
        best = move_name(game, endgame.winning_move(game))
        return Judgement(1.0, "win", best, only_move(game, best, settings, endgame))
    return _searched(game, settings, seed, verdict)


def _judge_on_proof_board(game: Game, settings: Settings, seed: int | None) -> Judgement:
    """A board with a shipped proof, at a budget that decides all its positions: the proof
    where it reaches, else the exact table of this process (:mod:`ai.exact_table`), shared
    across positions, analyses and games; the winning move and the only-move answer are
    table-independent (see there), so the order positions are judged in changes nothing."""
    asked = empty_points(game) <= settings.solve_empties  # the only-move question's range
    move = proof_move(game)
    if move is not None:
        only = asked and exact_table.winners(game, settings.proof_board_nodes, 2).only
        return Judgement(1.0, "win", move, only)
    loser_move = losing_side_move(game)
    if loser_move is not None:
        return Judgement(0.0, "loss", loser_move)
    verdict = exact_table.verdict(game, settings.proof_board_nodes)
    if verdict is Verdict.MOVER_LOSES:
        # Every move loses: no search is needed to say so, only a move to show.
        return Judgement(0.0, "loss", exact_table.stubborn_move(game))
    if verdict is not Verdict.MOVER_WINS:
        return _searched(game, settings, seed, verdict)
    found = exact_table.winners(game, settings.proof_board_nodes, 2 if asked else 1)
    if found.moves and found.complete:
        best = found.moves[0]
    else:  # a move undecided within the budget (not seen on these boards): the solver's
        best = move_name(game, exact_table.table(game).winning_move(game))
    return Judgement(1.0, "win", best, asked and found.only)


def _searched(
    game: Game, settings: Settings, seed: int | None, verdict: Verdict | None
) -> Judgement:
    """The seeded search's judgement, a proven loss where ``verdict`` says so."""
    result = pie_search(
        game,
        Budget(playouts=settings.playouts),
        seed=move_seed(seed, game.record()),
        config=DEFAULT_CONFIG,
    )
    if verdict is Verdict.MOVER_LOSES or result.proven == -1:
        return Judgement(0.0, "loss", result.move)
    if result.proven == 1:
        return Judgement(1.0, "win", result.move)
    return Judgement(_clamp(result.value), None, result.move)


def only_move(game: Game, best: str, settings: Settings, endgame: Endgame | None = None) -> bool:
    """Whether ``best``, a winning move of the player to move in ``game`` (proven won), is
    its only one: every other legal move is shown not to keep the win.

    Asked only in the solver's range (at most :attr:`Settings.solve_empties` empty points),
    one solver question per legal move at :attr:`Settings.solve_nodes` each, so it costs at
    most ``solve_empties × solve_nodes`` nodes; a move the solver cannot decide in that budget
    makes the answer False (never a false "only move")."""
    empties = empty_points(game)
    if empties > settings.solve_empties:
        return False
    assert game.to_move is not None
    endgame = endgame or Endgame(game, empties)
    mover = seat_of(game, game.to_move)
    solver = endgame.solver(mover)
    for move in game.legal_moves():
        if move == best:
            continue
        child = game.copy()
        child.play(move)
        if child.is_over:
            if winner_seat(child) == mover:
                return False
            continue
        solver.max_nodes = solver.nodes + settings.solve_nodes
        solver.deadline = None
        try:
            if solver.wins(child):
                return False
        except SearchLimit:
            return False
    return True


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


def judge_record(record: str, settings: Settings, seed: int | None) -> Judgement:
    """Worker entry point: rebuild the position from its record and judge it."""
    return judge(parse_record(record), settings, seed)


def positions(record: str) -> tuple[Game, list[str]]:
    """The finished game and the record of each position before each ply."""
    game = parse_record(record)
    head = parse_header(record)
    replayed = new_game(head.name, size=head.size, pie=head.pie)
    befores: list[str] = []
    for rec in game.history:
        befores.append(replayed.record())
        replayed.play(rec.move)
    return game, befores


Mapper = Callable[[Callable[[str], Judgement], Iterable[str]], Iterator[Judgement]]


def analyse(
    record: str,
    settings: Settings = Settings(),
    seed: int | None = 0,
    mapper: Mapper | None = None,
    *,
    ended: bool = False,
) -> Analysis:
    """Analyse a finished game's record.  ``mapper`` (e.g. ``pool.map``) spreads the positions
    over processes; None judges them one after another in this process.  ``ended``: the game
    ended off the board (its record does not finish it: resignation, time, a ruling)."""
    game, todo = finished_positions(record, ended=ended)
    work = partial(judge_record, settings=settings, seed=seed)
    return assemble(game, list((mapper or map)(work, todo)))


def finished_positions(record: str, *, ended: bool = False) -> tuple[Game, list[str]]:
    """The finished game and the records of the positions to judge: each position before each
    ply, and, for a game that ended off the board (``ended``: resignation, time, a ruling), its
    final position too, which decides the last move's "after".  ValueError for a game still
    running or one with no move."""
    game, befores = positions(record)
    if not game.is_over:
        if not ended:
            raise ValueError("analysis is only for finished games: this game is still running")
        befores.append(game.record())
    if not game.history:
        raise ValueError("the game ended before any move: there is nothing to analyse")
    return game, befores


def assemble(game: Game, judged: Sequence[Judgement]) -> Analysis:
    """The analysis of finished ``game`` from the judgement of each position
    :func:`finished_positions` lists (in order): for callers that judge the positions
    themselves (the bot, which reports progress as they complete)."""
    extra = 0 if game.is_over else 1
    if len(judged) != len(game.history) + extra:
        raise ValueError(f"{len(judged)} judgements for {len(game.history)} plies")
    plies = [
        _ply(game, i, judged[i], judged[i + 1] if i + 1 < len(judged) else None)
        for i in range(len(game.history))
    ]
    seats = tuple(summarise(seat, [p for p in plies if p.seat == seat]) for seat in SEATS)
    return Analysis(game.record(), tuple(plies), seats)


def analysis_from_json(data: Mapping[str, Any]) -> Analysis:
    """The :class:`Analysis` that :meth:`Analysis.as_json` wrote (a stored analysis)."""
    moves = tuple(PlyAnalysis(**m) for m in data["moves"])
    players = data["players"]
    return Analysis(
        str(data["record"]), moves, tuple(PlayerSummary(**players[seat]) for seat in SEATS)
    )


def _ply(game: Game, index: int, before: Judgement, after: Judgement | None) -> PlyAnalysis:
    rec = game.history[index]
    # ``player`` is a colour; the seat keeps its player across a pie swap.
    seat = _seat(game, index)
    if after is None:  # the last ply ended the game
        won = rec.winner == rec.player
        lost = rec.winner is not None and not won
        chance_after = 1.0 if won else 0.0 if lost else 0.5
        proven_after: Proven = "win" if won else "loss" if lost else None
    else:
        if index + 1 < len(game.history):
            same_mover = _seat(game, index + 1) == seat
        else:  # the final position of a game ended off the board: no swap can follow
            same_mover = game.to_move == rec.player
        if same_mover:
            chance_after, proven_after = after.win_chance, after.proven
        else:
            chance_after, proven_after = 1.0 - after.win_chance, _flip(after.proven)
    return PlyAnalysis(
        ply=index + 1,
        move=rec.move,
        seat=seat,
        win_chance_before=round(before.win_chance, 4),
        win_chance_after=round(chance_after, 4),
        proven_before=before.proven,
        proven_after=proven_after,
        mark=mark(before.win_chance, chance_after, before.proven, proven_after),
        best=before.best,
        only_move=before.only_move and proven_after == "win",
    )


def _seat(game: Game, index: int) -> str:
    """The seat (first/second) of the player who made ply ``index``: seats are fixed to people,
    colours change with a pie swap, so count swaps up to that ply."""
    history = game.history
    colour = history[index].player
    swaps = sum(1 for rec in history[:index] if rec.swap)
    base = SEATS[game.players.index(colour)]
    return SEATS[SEATS.index(base) ^ (swaps % 2)]


def _flip(proven: Proven) -> Proven:
    return "loss" if proven == "win" else "win" if proven == "loss" else None


def mark(before: float, after: float, proven_before: Proven, proven_after: Proven) -> Mark:
    """The mark of one move from the mover's win chance before and after it."""
    if proven_before == "win":
        if proven_after == "win":
            return None  # a proven win kept is never a mistake, however slow
        return "blunder" if proven_after == "loss" else "missed_win"
    if proven_before == "loss":
        return None  # nothing to lose: every move loses against best play
    drop = round(before - after, 6)  # 0.6 - 0.5 is 0.0999… in floats
    if drop >= BLUNDER:
        return "blunder"
    if drop >= MISTAKE:
        return "mistake"
    if drop >= INACCURACY:
        return "inaccuracy"
    return None


def move_accuracy(before: float, after: float) -> float:
    """Lichess's per-move accuracy from the win-chance drop in percent points, 0..100."""
    drop = max(0.0, before - after) * 100.0
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


def summarise(seat: str, plies: Sequence[PlyAnalysis]) -> PlayerSummary:
    counts = {name: sum(1 for p in plies if p.mark == name) for name in MARKS}
    scores = [move_accuracy(p.win_chance_before, p.win_chance_after) for p in plies]
    accuracy = round(sum(scores) / len(scores), 1) if scores else 100.0
    found = sum(1 for p in plies if p.only_move)
    return PlayerSummary(seat, len(plies), **counts, accuracy=accuracy, only_move=found)


def worst(analysis: Analysis, count: int = 3) -> list[PlyAnalysis]:
    """The ``count`` moves that lost the most win chance (marked proven losses first)."""
    order = {"blunder": 0, "missed_win": 0, "mistake": 1, "inaccuracy": 2, None: 3}
    ranked = sorted(
        analysis.moves,
        key=lambda p: (order[p.mark], -(p.win_chance_before - p.win_chance_after), p.ply),
    )
    return [p for p in ranked[:count] if p.win_chance_before > p.win_chance_after]
