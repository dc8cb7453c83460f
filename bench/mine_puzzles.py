"""Mine the starter puzzles (ai/puzzles/<game>.json.gz) from seeded self-play.

    nice -n 19 python -m bench.mine_puzzles --game minefield --sizes 5 6 7 --seconds 600

Each game is played by a cheap seeded player that wins when it can and blocks when it must
(one move in ten random, so games differ and mistakes happen, which is where puzzles come
from).
Once few enough points are empty for the exact solver, every position is tried as a puzzle
(:func:`ai.puzzles.find_puzzle`), from the end of the game backwards, and so are a few of its
*mistake children*: the positions after a move the solver proves loses (``--children``, the
moves drawn at random).  A
position right after a blunder is where a single refutation is most often the only win, and
the self-play rarely blunders into it itself: in a profile on a shared machine, Minefield
5-7 gave 8 puzzles from 75 game positions and 65 from their 289 losing children, in the same
solver time (docs/puzzles.md).  Each find is verified again from its JSON form
(:func:`ai.puzzles.verify`) and its level-3 effort measured (:mod:`ai.puzzles.difficulty`)
before it is kept.  Puzzles already in the file are kept (an old one without an effort gets
one), so runs add up; the file is rewritten sorted by id, also every ``--save`` seconds so
a stopped run keeps what it found.  A time cap and ``--target`` bound the run; the last line
gives the yield per CPU-minute.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import replace

from ai.endgame import empty_points
from ai.moves import legal_moves, play, swap_offered
from ai.puzzles import Puzzle, find_puzzle, verify
from ai.puzzles.difficulty import level3_effort
from ai.puzzles.puzzle import MIN_CHOICES, SOLVE_NODES, move_verdicts
from ai.puzzles.starter import load_starter, starter_path, write_starter
from ai.tactics import safe_moves, winning_moves
from rules import Game, new_game

EMPTIES = {4: 16, 5: 14, 6: 14, 7: 13, 8: 12, 9: 12}
"""Try positions with at most this many empty points (few enough for the solver)."""
POSITION_SECONDS = 10.0
"""The solver's wall-clock time for one position (the node budget is the real bound; the
clock only passes over positions the solver is slow on, and a shared machine's clock runs
several times faster than this process's CPU time)."""


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


def mine_game(
    name: str, size: int, rand: random.Random, children: int, stats: Counter[str]
) -> list[Puzzle]:
    """The puzzles of one self-play game, its positions taken from the end backwards: the
    solver settles late positions quickly, and once two positions in a row are beyond it the
    earlier ones are skipped (in Crosscut, whose window is the whole game, that was most of
    the time spent)."""
    game = self_play(name, size, rand)
    found: list[Puzzle] = []

    def attempt(position: Game, kind: str) -> None:
        stats[kind] += 1
        if position.is_over or len(legal_moves(position)) < MIN_CHOICES:
            return
        puzzle = find_puzzle(position, seconds=POSITION_SECONDS)
        if puzzle is not None:
            stats[f"{kind} puzzles"] += 1
            found.append(puzzle)

    unsettled = 0
    while game.history and unsettled < 2:
        game.pop()
        if empty_points(game) > window(name, size):
            break
        if swap_offered(game) or len(legal_moves(game)) < MIN_CHOICES:
            continue
        stats["positions"] += 1
        deadline = time.perf_counter() + POSITION_SECONDS
        verdicts = move_verdicts(game, SOLVE_NODES, deadline=deadline)
        if verdicts is None:
            unsettled += 1
            stats["positions unsettled"] += 1
            continue
        unsettled = 0
        if sum(verdicts.values()) == 1:
            attempt(game, "one-win positions")
        lost = [move for move, won in verdicts.items() if not won]
        for move in rand.sample(lost, min(children, len(lost))):
            play(game, move)
            try:
                attempt(game, "children")
            finally:
                game.pop()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--sizes", type=int, nargs="+", required=True)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--target", type=int, default=200)
    parser.add_argument("--children", type=int, default=4)
    parser.add_argument("--save", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args()
    rand = random.Random(f"{args.seed}:{args.game}")
    kept = {p.id: p for p in load_starter(args.game)}
    for key, puzzle in kept.items():
        if puzzle.effort is None:
            kept[key] = replace(puzzle, effort=level3_effort(puzzle))
    start, cpu = time.monotonic(), time.process_time()
    saved = start
    stats: Counter[str] = Counter()
    games = rejected = new = 0
    while time.monotonic() - start < args.seconds and len(kept) < args.target:
        size = args.sizes[games % len(args.sizes)]
        games += 1
        for puzzle in mine_game(args.game, size, rand, args.children, stats):
            if puzzle.id in kept:
                continue
            problem = verify(Puzzle.from_json(puzzle.as_json()))
            if problem is None:
                kept[puzzle.id] = replace(puzzle, effort=level3_effort(puzzle))
                new += 1
            else:
                rejected += 1
                print(f"rejected {puzzle.id}: {problem}")
        print(f"{time.monotonic() - start:7.1f}s games {games} kept {len(kept)}", flush=True)
        if kept and time.monotonic() - saved > args.save:
            write_starter(starter_path(args.game), list(kept.values()))
            saved = time.monotonic()
    if kept:  # an empty file would ship a game with no puzzles
        write_starter(starter_path(args.game), list(kept.values()))
    sizes = Counter(puzzle.size for puzzle in kept.values())
    minutes = (time.process_time() - cpu) / 60
    print(f"{args.game}: {len(kept)} puzzles {dict(sorted(sizes.items()))}, {rejected} rejected")
    print(
        f"{new} new in {games} games, {minutes:.1f} CPU-minutes "
        f"({new / max(minutes, 1e-9):.1f} per CPU-minute); tried {dict(stats)}"
    )


if __name__ == "__main__":
    main()
