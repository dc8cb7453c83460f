"""An exact solver for small boards: an AND/OR depth-first search over the rules engine.

The question asked is always "can this seat force a win?": the seat's nodes need one proven
move, the other seat's nodes need every move proven.  A draw (neither player can place) is not
a win, so a board where neither seat can force a win is drawn under best play, or has no
forced result at all (Crosscut and Clearcut can repeat positions; a line that repeats never
ends, so it is no win either).

Positions are keyed by what decides their future and nothing else: both colours' stones,
the colour to move, and the pie-rule state (swap on offer, swap made, neither).  The
rest of the engine's state is either derived from the stones (Clear Path's edge reach, which
also tells a chain under way apart: the mover has joined their edges diagonally) or does not
change what is legal (turn numbers, history).  Keys are reduced by the board symmetries that
``GAME_SYMMETRIES`` lists per game; tests/ai/test_symmetry.py shows that each one keeps its
game's rules and that each one left out does not.

Proofs are cached for good.  A failure is cached only if no repetition cut the search below
it, because "repeated on this line" depends on the line: the same position reached another
way might still win.  A proof never depends on the line, since it only ever uses moves that
lead to proven positions.
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from rules import Game, new_game

from .connection import edges, stone_masks
from .moves import Move, legal_moves, move_name, play, swap_offered
from .tactics import candidate_moves

Seat = Literal["first", "second"]
SEATS: tuple[Seat, Seat] = ("first", "second")
SWAP = "swap"

Transform = Callable[[int, int, int], tuple[int, int]]
TRANSFORMS: dict[str, Transform] = {
    "identity": lambda c, r, n: (c, r),
    "mirror_rows": lambda c, r, n: (c, n - 1 - r),
    "mirror_cols": lambda c, r, n: (n - 1 - c, r),
    "rotate_180": lambda c, r, n: (n - 1 - c, n - 1 - r),
    "transpose": lambda c, r, n: (r, c),
    "anti_transpose": lambda c, r, n: (n - 1 - r, n - 1 - c),
    "rotate_90": lambda c, r, n: (r, n - 1 - c),
    "rotate_270": lambda c, r, n: (n - 1 - r, c),
}
"""The eight symmetries of a square, as maps of (column, row) on an n×n board."""

EDGE_SYMMETRIES = ("identity", "mirror_rows", "mirror_cols", "rotate_180")
"""The symmetries that keep each player's two goal edges theirs: first player rows 1 and n,
second player columns a and last.  A quarter turn or a diagonal mirror swaps them."""

GAME_SYMMETRIES: dict[str, tuple[str, ...]] = {
    "clearpath": EDGE_SYMMETRIES,
    "minefield": EDGE_SYMMETRIES,
    "clearcut": EDGE_SYMMETRIES,
    "nakeddiagonal": EDGE_SYMMETRIES,
    # Crosscut has no goal edges: a run of n-2 in a row or a column wins either player.
    "crosscut": tuple(TRANSFORMS),
}


@dataclass(frozen=True, slots=True)
class Symmetry:
    """One board symmetry as a point permutation, with row tables to map whole bitboards."""

    name: str
    size: int
    perm: tuple[int, ...]
    inverse: tuple[int, ...]
    rows: tuple[tuple[int, ...], ...]

    def apply(self, mask: int) -> int:
        n = self.size
        row_mask = (1 << n) - 1
        out = 0
        for r, table in enumerate(self.rows):
            out |= table[mask >> (r * n) & row_mask]
        return out

    def move(self, move: Move) -> Move:
        return self.perm[move] if isinstance(move, int) else move

    def unmove(self, move: Move) -> Move:
        return self.inverse[move] if isinstance(move, int) else move


def symmetry(name: str, size: int) -> Symmetry:
    transform = TRANSFORMS[name]
    n = size
    perm = []
    for i in range(n * n):
        c, r = transform(i % n, i // n, n)
        perm.append(r * n + c)
    inverse = [0] * (n * n)
    for i, j in enumerate(perm):
        inverse[j] = i
    rows = tuple(
        tuple(sum(1 << perm[r * n + c] for c in range(n) if v >> c & 1) for v in range(1 << n))
        for r in range(n)
    )
    return Symmetry(name, n, tuple(perm), tuple(inverse), rows)


def game_symmetries(game: str, size: int) -> list[Symmetry]:
    return [symmetry(name, size) for name in GAME_SYMMETRIES[game]]


# ----- positions, seats and the proof-file key ------------------------------------------------
def swapped(game: Game) -> bool:
    return game.swapped


def flags(game: Game) -> str:
    if swapped(game):
        return "w"
    return "s" if swap_offered(game) else "-"


def position_text(game: Game) -> str:
    """``BOARD/TOMOVE/FLAGS`` as the proof files write a position (see docs/solved.md)."""
    first, _ = game.players
    board = "".join("." if c is None else "x" if c == first else "o" for c in game.cells())
    mover = "x" if game.to_move == first else "o"
    return f"{board}/{mover}/{flags(game)}"


def seat_of(game: Game, colour: str) -> Seat:
    """The seat playing ``colour`` now: after a swap the seats keep their players and change
    colours, so the first seat plays the second colour."""
    return SEATS[game.players.index(colour) ^ swapped(game)]


def winner_seat(game: Game) -> Seat | None:
    return None if game.winner is None else seat_of(game, game.winner)


Key = tuple[int, int, int, str]

MONOTONE_PATH_GAMES = frozenset({"clearpath", "minefield", "nakeddiagonal"})
"""Path games whose stones never leave the board nor change colour: once a player's two edges
cannot be joined through their own stones and empty points, that player can never win."""


def cut_off(game: Game, colour: int) -> bool:
    """Can colour index ``colour`` no longer join its edges, whatever happens?  (Only for
    :data:`MONOTONE_PATH_GAMES`.)"""
    g = game.grid
    stones = stone_masks(game)
    open_points = g.full & ~stones[1 - colour]
    edge_a, edge_b = edges(g, colour)
    seed = open_points & edge_a
    return not (seed and g.flood(seed, open_points) & edge_b)


class SearchLimit(Exception):
    """The search used up its node budget before settling the question."""


class Solver:
    """Can ``attacker`` force a win in ``game`` (a fresh game of ``name`` at ``size``)?

    One solver answers for one seat; its tables are kept across calls, so asking about the
    start and then about each first move reuses the work.
    """

    def __init__(
        self,
        name: str,
        size: int,
        attacker: Seat,
        *,
        use_symmetry: bool = True,
        max_nodes: int | None = None,
    ) -> None:
        self.name = name
        self.size = size
        self.attacker = attacker
        self.symmetries = (
            game_symmetries(name, size) if use_symmetry else [symmetry("identity", size)]
        )
        self.max_nodes = max_nodes
        self.deadline: float | None = None
        """A ``time.perf_counter()`` time after which the search gives up (SearchLimit), for
        a caller with a clock to keep (the tree search's endgame solving)."""
        self._monotone = name in MONOTONE_PATH_GAMES
        self.nodes = 0
        self.proven: dict[Key, Move | None] = {}
        """Proven positions: the winning move (in canonical coordinates) where the attacker
        moves, None where the defender moves."""
        self.disproven: set[Key] = set()
        area = size * size
        centre = (size - 1) / 2
        # Move ordering: moves that settled a node before are tried first (a history table per
        # side), central points first among equals.
        self._prior = [-(abs(i % size - centre) + abs(i // size - centre)) for i in range(area)]
        self._history: list[list[float]] = [[0.0] * (area + 1), [0.0] * (area + 1)]
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

    def key(self, game: Game) -> tuple[Key, Symmetry]:
        """The canonical key of the position and the symmetry that maps it there."""
        red, blue = stone_masks(game)
        best: tuple[int, int] | None = None
        chosen = self.symmetries[0]
        for sym in self.symmetries:
            image = (sym.apply(red), sym.apply(blue))
            if best is None or image < best:
                best, chosen = image, sym
        assert best is not None and game.to_move is not None
        return (*best, game.players.index(game.to_move), flags(game)), chosen

    def wins(self, game: Game) -> bool:
        """Can the attacker force a win from ``game``?  (``game`` is left as it was.)"""
        return self._search(game, set(), 0)[0]

    def winning_move(self, game: Game) -> Move:
        """The attacker's move that the proof of ``game`` uses (the attacker must be to move
        and :meth:`wins` must hold)."""
        key, sym = self.key(game)
        if key not in self.proven and not self.wins(game):
            raise ValueError(f"no proven win for the {self.attacker} seat here")
        move = self.proven[key]
        assert move is not None, "the attacker is not to move here"
        return sym.unmove(move)

    def _moves(self, game: Game) -> list[Move]:
        moves: list[Move] = list(game.legal_points())
        if swap_offered(game):
            moves.append(SWAP)
        return moves

    def _count_node(self) -> None:
        """Count one node; raise :class:`SearchLimit` past the node budget or, checked every
        128 nodes, past the deadline."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimit(f"more than {self.max_nodes} nodes")
        if (
            self.deadline is not None
            and not self.nodes & 127
            and time.perf_counter() > self.deadline
        ):
            raise SearchLimit("out of time")

    def _order(self, moves: list[Move], attacking: bool) -> list[Move]:
        history = self._history[0 if attacking else 1]
        area = self.size * self.size
        prior = self._prior

        def score(m: Move) -> tuple[float, float]:
            return (
                history[m if isinstance(m, int) else area],
                prior[m] if isinstance(m, int) else 0,
            )

        return sorted(moves, key=score, reverse=True)

    def _reward(self, move: Move, attacking: bool, depth: int) -> None:
        index = move if isinstance(move, int) else self.size * self.size
        self._history[0 if attacking else 1][index] += 1.0 / (1 + depth)

    def _search(self, game: Game, path: set[Key], depth: int) -> tuple[bool, bool]:
        """(proven, tainted): tainted means a repetition cut the search, so a failure here
        holds for this line only and is not cached."""
        if game.is_over:
            return winner_seat(game) == self.attacker, False
        key, sym = self.key(game)
        if key in self.proven:
            return True, False
        if key in self.disproven:
            return False, False
        if self._monotone and cut_off(game, SEATS.index(self.attacker) ^ swapped(game)):
            return False, False
        if key in path:
            return False, True
        self._count_node()
        assert game.to_move is not None
        attacking = seat_of(game, game.to_move) == self.attacker
        moves = self._order(self._moves(game), attacking)
        path.add(key)
        tainted = False
        try:
            if attacking:
                # A win in one first: it is the shortest proof.
                for move in candidate_moves(game, moves):
                    play(game, move)
                    won = game.is_over and winner_seat(game) == self.attacker
                    game.pop()
                    if won:
                        self.proven[key] = sym.move(move)
                        return True, False
                for move in moves:
                    play(game, move)
                    ok, cut = self._search(game, path, depth + 1)
                    game.pop()
                    if ok:
                        self.proven[key] = sym.move(move)
                        self._reward(move, True, depth)
                        return True, False
                    tainted |= cut
            else:
                for move in moves:
                    play(game, move)
                    ok, cut = self._search(game, path, depth + 1)
                    game.pop()
                    if not ok:
                        self._reward(move, False, depth)
                        tainted = cut
                        break
                else:
                    self.proven[key] = None
                    return True, False
        finally:
            path.discard(key)
        if not tainted:
            self.disproven.add(key)
        return False, tainted

    def strategy(self, game: Game) -> dict[str, str]:
        """Every position the proof reaches where the attacker is to move, with the attacker's
        move there, written out in full (no symmetry reduction), as the proof files hold it."""
        out: dict[str, str] = {}
        seen: set[str] = set()
        for text, move in self._walk(game.copy(), seen):
            out[text] = move
        return out

    def _walk(self, game: Game, seen: set[str]) -> Iterator[tuple[str, str]]:
        if game.is_over:
            if winner_seat(game) != self.attacker:
                raise AssertionError("the proof reaches a position the attacker does not win")
            return
        text = position_text(game)
        if text in seen:
            return
        seen.add(text)
        assert game.to_move is not None
        if seat_of(game, game.to_move) == self.attacker:
            move = self.winning_move(game)
            yield text, move_name(game, move)
            replies = [move]
        else:
            replies = legal_moves(game)
        for move in replies:
            play(game, move)
            yield from self._walk(game, seen)
            game.pop()


@dataclass(frozen=True, slots=True)
class Solution:
    """What solving one board found."""

    game: str
    size: int
    winner_seat: Seat | None
    winning_first_moves: tuple[str, ...]
    strategy: dict[str, str]
    nodes: int
    """Positions searched, over every seat asked."""

    def proof_document(self) -> dict[str, object]:
        if self.winner_seat is None:
            raise ValueError("no seat can force a win, so there is no proof to write")
        return {
            "game": self.game,
            "size": self.size,
            "winner_seat": self.winner_seat,
            "strategy": self.strategy,
        }


def first_move_orbits(game: Game, symmetries: list[Symmetry]) -> list[list[Move]]:
    """The first moves grouped by symmetry (the empty board is kept by every symmetry)."""
    seen: set[Move] = set()
    orbits: list[list[Move]] = []
    for move in legal_moves(game):
        if move in seen:
            continue
        orbit = sorted({sym.move(move) for sym in symmetries}, key=str)
        seen.update(orbit)
        orbits.append(orbit)
    return orbits


def solve(
    name: str,
    size: int,
    *,
    pie: bool | None = None,
    max_nodes: int | None = None,
    use_symmetry: bool = True,
    first_moves: bool = True,
    solver_class: type[Solver] = Solver,
) -> Solution:
    """Solve the start of ``name`` at ``size``: who wins, with which first moves, and how.

    ``pie`` as for :func:`rules.new_game`.  Raises :class:`SearchLimit` when ``max_nodes``
    (per seat) runs out first.  ``solver_class`` picks the search (:class:`ai.dfpn.DfpnSolver`
    for df-pn); the proof is exported the same way whichever finds it.
    """
    game = new_game(name, size, pie=pie)
    # With the pie rule the second seat wins unless best play draws: whatever Red's first
    # turn, Blue either answers it or swaps and takes it over.  So it is asked first there.
    seats = SEATS[::-1] if game.pie else SEATS
    nodes = 0
    for seat in seats:
        solver = solver_class(name, size, seat, use_symmetry=use_symmetry, max_nodes=max_nodes)
        if not solver.wins(game):
            nodes += solver.nodes
            continue
        strategy = solver.strategy(game)
        winning: list[str] = []
        if seat == "first" and first_moves:
            for orbit in first_move_orbits(game, solver.symmetries):
                play(game, orbit[0])
                ok = solver.wins(game)
                game.pop()
                if ok:
                    winning.extend(move_name(game, m) for m in orbit)
        ordered = tuple(m for m in game.legal_moves() if m in winning)
        return Solution(name, size, seat, ordered, strategy, nodes + solver.nodes)
    return Solution(name, size, None, (), {}, nodes)


# ----- playing from the shipped proofs ----------------------------------------------------------
SOLVED_DIR = Path(__file__).resolve().parent / "solved"
PROOF_LEVEL = 3
"""The lowest AI level that plays a shipped proof's move wherever the proof has one."""


@dataclass(frozen=True, slots=True)
class ShippedProof:
    winner_seat: Seat
    strategy: dict[str, str]


@cache
def shipped_proof(variant: str, size: int) -> ShippedProof | None:
    """The proof file for this board from ai/solved/, None if none is shipped.

    Keyed by the variant (:attr:`rules.Game.variant`), not the game: a proof of Minefield
    without the pie rule says nothing about ``minefield+pie`` (none of whose proofs is
    shipped), since the swap changes who wins.  Loaded once per process (Clear Path 4×4, the
    largest, takes about 0.2 s of CPU)."""
    path = SOLVED_DIR / f"{variant}-{size}.json.gz"
    if not path.is_file():
        return None
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    return ShippedProof(data["winner_seat"], data["strategy"])


def proof_move(game: Game) -> str | None:
    """The proven winner's move here, if the player to move is the seat a shipped proof says
    wins and the position is one the proof reaches; None otherwise (the loser's side, or a
    position the winner's proven strategy never leads to)."""
    if game.is_over or game.to_move is None:
        return None
    proof = shipped_proof(game.variant, game.size)
    if proof is None or seat_of(game, game.to_move) != proof.winner_seat:
        return None
    return proof.strategy.get(position_text(game))


# ----- the losing side: make the win as hard to find as possible ------------------------------
def proof_sizes(game: Game, winner: Seat, strategy: dict[str, str]) -> dict[str, int]:
    """The size of the proof below every winner position the strategy reaches from ``game``:
    the number of winner positions on the proof's lines from there, counted once per line (a
    position reached by two move orders counts twice, since the winner must know it on both).

    Additive, so one walk over the proof with a memo computes them all (a distinct count per
    position would cost a set union per node).  ``game`` is left as it was."""
    sizes: dict[str, int] = {}
    work = game.copy()

    def below(g: Game) -> int:
        if g.is_over:
            return 0
        assert g.to_move is not None
        if seat_of(g, g.to_move) != winner:
            total = 0
            for move in legal_moves(g):
                play(g, move)
                total += below(g)
                g.pop()
            return total
        text = position_text(g)
        known = sizes.get(text)
        if known is not None:
            return known
        g.play(strategy[text])
        value = 1 + below(g)
        g.pop()
        sizes[text] = value
        return value

    below(work)
    return sizes


def sizes_path(name: str, size: int) -> Path:
    return SOLVED_DIR / "sizes" / f"{name}-{size}.json.gz"


@cache
def shipped_sizes(name: str, size: int) -> dict[str, int] | None:
    """The per-position proof sizes shipped beside a proof (``bench/proof_sizes.py`` writes
    them), None where none are shipped."""
    path = sizes_path(name, size)
    if not path.is_file():
        return None
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    sizes: dict[str, int] = data["sizes"]
    return sizes


def _reply_size(game: Game, winner: Seat, sizes: dict[str, int]) -> int | None:
    """The proof size the winner faces from ``game`` (just after a loser's move), None if the
    position is not one the shipped proof reaches."""
    if game.is_over:
        return 0 if winner_seat(game) == winner else None
    assert game.to_move is not None
    if seat_of(game, game.to_move) == winner:
        return sizes.get(position_text(game))
    total = 0
    for move in legal_moves(game):  # the loser places again (a Clear Path chain)
        play(game, move)
        part = _reply_size(game, winner, sizes)
        game.pop()
        if part is None:
            return None
        total += part
    return total


def losing_side_move(game: Game) -> str | None:
    """On a solved board where the player to move is the proven loser, the move whose proof is
    largest (the win hardest to find); None if the board is not solved, the player to move is
    the winner, or the position is not one the proof reaches (the winner left its strategy, so
    the verdict there is unknown and the search decides).  Ties go to the first in move order."""
    if game.is_over or game.to_move is None:
        return None
    proof = shipped_proof(game.variant, game.size)
    if proof is None or seat_of(game, game.to_move) == proof.winner_seat:
        return None
    sizes = shipped_sizes(game.variant, game.size)
    if sizes is None:
        return None
    work = game.copy()
    best: tuple[int, Move] | None = None
    for move in legal_moves(work):
        play(work, move)
        size = _reply_size(work, proof.winner_seat, sizes)
        work.pop()
        if size is None:
            return None
        if best is None or size > best[0]:
            best = (size, move)
    return None if best is None else move_name(game, best[1])
