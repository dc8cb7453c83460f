"""Check a proof file (ai/solved/<game>-<size>.json.gz) by walking it with the rules engine.

    python -m bench.verify_proof ai/solved/minefield-4.json.gz

From the start position the walk tries every legal move of the losing seat and the file's
move of the winning seat, and accepts only if every line ends in the winning seat's win: a
position of the winner missing from the file, an illegal move, a draw, a loss or a line that
repeats a position (it would never end) rejects the proof.  It shares no code with the solver
(ai/solver.py), only the engine, so a solver bug cannot hide behind itself; the position key
is written out here again from docs/solved.md for the same reason.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules import Game, IllegalMove, game_names, new_game

SEATS = ("first", "second")


class ProofError(Exception):
    """The proof file is malformed or does not prove what it claims."""


@dataclass(frozen=True, slots=True)
class Verdict:
    game: str
    size: int
    winner_seat: str
    winner_positions: int
    """Positions reached where the winner is to move (each one a file entry)."""
    loser_positions: int
    unused_entries: int
    """File entries the walk never reached (harmless, but counted)."""


def _swapped(game: Game) -> bool:
    return bool(getattr(game, "swapped", False))


def position_key(game: Game) -> str:
    """``BOARD/TOMOVE/FLAGS``: row 1 first, columns a onward; x for the first colour."""
    first = game.players[0]
    board = "".join("." if c is None else "x" if c == first else "o" for c in game.cells())
    mover = "x" if game.to_move == first else "o"
    moves = game.legal_moves()
    flag = "w" if _swapped(game) else "s" if "swap" in moves else "-"
    return f"{board}/{mover}/{flag}"


def seat_of(game: Game, colour: str) -> str:
    return SEATS[game.players.index(colour) ^ _swapped(game)]


def load(path: Path) -> dict[str, Any]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProofError(f"{path.name} is not a gzipped JSON proof: {exc}") from exc
    if not isinstance(data, dict):
        raise ProofError("a proof file holds one JSON object")
    return data


def verify(data: dict[str, Any]) -> Verdict:
    """Walk the proof; return what it covered, or raise :class:`ProofError` saying where it
    fails (the line of moves that leads there)."""
    name, size, seat, strategy = (data.get(k) for k in ("game", "size", "winner_seat", "strategy"))
    if name not in game_names():
        raise ProofError(f"unknown game {str(name)[:100]!r}")
    if isinstance(size, bool) or not isinstance(size, int):
        raise ProofError(f"size must be a whole number, not {str(size)[:100]!r}")
    if seat not in SEATS:
        raise ProofError(f"winner_seat must be 'first' or 'second', not {str(seat)[:100]!r}")
    if not isinstance(strategy, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in strategy.items()
    ):
        raise ProofError("strategy must map position text to move text")
    game = new_game(name, size)
    done: set[str] = set()  # positions whose whole subtree is already checked
    used: set[str] = set()
    losers = 0
    line: list[str] = []
    on_line: set[str] = set()

    def fail(why: str) -> ProofError:
        shown = " ".join(line[-40:])
        return ProofError(f"{why} (after: {shown or 'the start'})")

    def walk() -> None:
        nonlocal losers
        if game.is_over:
            if game.winner is None:
                raise fail("a line ends drawn")
            if seat_of(game, game.winner) != seat:
                raise fail(f"a line ends with the {seat_of(game, game.winner)} seat winning")
            return
        key = position_key(game)
        if key in done:
            return
        if key in on_line:
            raise fail(f"the line repeats position {key}, so it never ends")
        assert game.to_move is not None
        if seat_of(game, game.to_move) == seat:
            move = strategy.get(key)
            if move is None:
                raise fail(f"no move for the winner in position {key}")
            used.add(key)
            replies = [move]
        else:
            losers += 1
            replies = game.legal_moves()
        on_line.add(key)
        for move in replies:
            try:
                game.play(move)
            except IllegalMove as exc:
                raise fail(f"{move[:20]!r} is illegal in position {key}: {exc}") from exc
            line.append(move)
            walk()
            line.pop()
            game.pop()
        on_line.discard(key)
        done.add(key)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        walk()
    finally:
        sys.setrecursionlimit(limit)
    return Verdict(name, size, seat, len(used), losers, len(strategy) - len(used))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("proofs", nargs="+", type=Path)
    args = parser.parse_args(argv)
    failed = 0
    for path in args.proofs:
        started = time.perf_counter()
        try:
            verdict = verify(load(path))
        except ProofError as exc:
            print(f"{path}: REJECTED: {exc}")
            failed += 1
            continue
        seconds = time.perf_counter() - started
        print(
            f"{path}: proved, {verdict.game} {verdict.size}x{verdict.size} won by the "
            f"{verdict.winner_seat} seat; {verdict.winner_positions} winner positions, "
            f"{verdict.loser_positions} loser positions, {verdict.unused_entries} unused "
            f"entries, {seconds:.1f} s"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
