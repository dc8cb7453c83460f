"""Mine the starter puzzles (ai/puzzles/<game>.json.gz) from seeded self-play.

    nice -n 10 python -m bench.mine_puzzles --game minefield --sizes 5 6 7 --seconds 200

Each game is played by a cheap seeded player that wins when it can and blocks when it must
(one move in ten random, so games differ and mistakes happen, which is where puzzles come
from).
Once few enough points are empty for the exact solver, every position is tried as a puzzle
(:func:`ai.puzzles.find_puzzle`) and each one found is verified again from its JSON form
(:func:`ai.puzzles.verify`) before it is kept.  Puzzles already in the file are kept, so runs
add up; the file is rewritten sorted by id.  A time cap bounds the run.
"""

from __future__ import annotations

import argparse
import random
import time

from ai.endgame import empty_points
from ai.moves import legal_moves, play, swap_offered
from ai.puzzles import Puzzle, find_puzzle, verify
from ai.puzzles.starter import load_starter, starter_path, write_starter
from ai.tactics import safe_moves, winning_moves
from rules import Game, new_game

EMPTIES = {4: 16, 5: 14, 6: 14, 7: 13, 8: 12, 9: 12}
"""Try positions with at most this many empty points (few enough for the solver)."""
POSITION_SECONDS = 3.0
"""The solver's time for one position; a position it cannot settle by then is passed over."""


def window(name: str, size: int) -> int:
    """Crosscut games are short (a run of n-2 wins) and its boards are small: try every
    position past the first few stones."""
    if name == "crosscut":
        return size * size - 3
    return EMPTIES.get(size, 10)


def self_play(name: str, size: int, rand: random.Random) -> Game:
    """A cheap seeded game: win at once when possible, otherwise a random move that does not
    hand the opponent a win at once, and one move in ten wholly random (mistakes make
    puzzles)."""
    game = new_game(name, size)
    while not game.is_over and game.to_move is not None:
        moves = legal_moves(game)
        if not moves:
            break
        if not swap_offered(game) and rand.random() >= 0.1:
            moves = winning_moves(game, moves) or safe_moves(game, moves)
        play(game, moves[rand.randrange(len(moves))])
    return game


def mine_game(name: str, size: int, rand: random.Random) -> list[Puzzle]:
    final = self_play(name, size, rand)
    found: list[Puzzle] = []
    replayed = new_game(name, size)
    for record in final.history:
        if not replayed.is_over and empty_points(replayed) <= window(name, size):
            puzzle = find_puzzle(replayed, seconds=POSITION_SECONDS)
            if puzzle is not None:
                found.append(puzzle)
        replayed.play(record.move)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--sizes", type=int, nargs="+", required=True)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--target", type=int, default=200)
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args()
    rand = random.Random(f"{args.seed}:{args.game}")
    kept = {p.id: p for p in load_starter(args.game)}
    start = time.monotonic()
    games = rejected = 0
    while time.monotonic() - start < args.seconds and len(kept) < args.target:
        size = args.sizes[games % len(args.sizes)]
        games += 1
        for puzzle in mine_game(args.game, size, rand):
            if puzzle.id in kept:
                continue
            problem = verify(Puzzle.from_json(puzzle.as_json()))
            if problem is None:
                kept[puzzle.id] = puzzle
            else:
                rejected += 1
                print(f"rejected {puzzle.id}: {problem}")
        print(f"{time.monotonic() - start:7.1f}s games {games} kept {len(kept)}", flush=True)
    if kept:  # an empty file would ship a game with no puzzles
        write_starter(starter_path(args.game), list(kept.values()))
    sizes: dict[int, int] = {}
    for puzzle in kept.values():
        sizes[puzzle.size] = sizes.get(puzzle.size, 0) + 1
    print(f"{args.game}: {len(kept)} puzzles {dict(sorted(sizes.items()))}, {rejected} rejected")


if __name__ == "__main__":
    main()
