"""Worst-case thinking time of a whole turn, per level and game, against the level's seconds cap.

Prints figures; never fails on them.  For every level and every (game, size) listed, the AI
plays whole turns exactly as the bot does (``ai.think`` with the level's full budget, once per
placement, until the turn passes to the other player) from a few positions: the opening and
positions after random play filled part of the board (in Clear Path nearly every such position
lets a chain start).  On Clear Path boards it also finishes chains under way: positions from
random games where a player has made some placements of a chain, from which the AI plays the
rest of the turn with what the cap leaves after them (half of it after one placement, a
quarter after two: :func:`ai.levels.placement_budget`).  Such a turn is counted as that rest
plus everything the earlier placements were allowed, the worst they could have taken.  The
line per level and game gives the slowest turn and its ratio to the cap (the target is at most
cap + 10 %).

    python bench/ai_move_time_bench.py                       # every game, its slowest board
    python bench/ai_move_time_bench.py --board clearpath:7 --levels 1 3 --fills 0.5
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import LEVELS, think
from ai.moves import chain_points, placements_this_turn, prepare, random_point
from rules import Game, new_game

DEFAULT_BOARDS = (
    "nakeddiagonal:13",
    "clearpath:19",
    "minefield:19",
    "crosscut:10",
    "clearcut:19",
)
FILLS = (0.0, 0.25, 0.5)


def position(name: str, size: int, fill: float, rng: random.Random) -> Game | None:
    """A position at the start of a turn after random legal moves covering about ``fill`` of
    the board (None if the game ended first)."""
    game = new_game(name, size)
    prepare(game)  # Naked Diagonal: decide single points, not whole masks, while setting up
    target = int(fill * size * size)
    while (len(game.history) < target or placements_this_turn(game)) and not game.is_over:
        point = random_point(game, rng.random)
        if point is not None:
            game.play_index(point)
        else:
            moves = game.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
    if game.is_over:
        return None
    game.legal_mask()  # as in a real game, the engine knows the legal moves before the AI thinks
    return game


def chain_turn(size: int, rng: random.Random, least: int = 3) -> list[tuple[Game, str]] | None:
    """One Clear Path turn of at least ``least`` placements, from random play that mostly takes
    chain placements: (the position before each placement, the placement made), or None."""
    game = new_game("clearpath", size)
    turn: list[tuple[Game, str]] = []
    while not game.is_over:
        if placements_this_turn(game) == 0:
            turn = []
        before = game.copy()
        chain = [p for p in game.legal_points() if chain_points(game) >> p & 1]
        if chain and rng.random() < 0.9:
            record = game.play_index(rng.choice(chain))
        else:
            record = game.play(rng.choice(game.legal_moves()))
        turn.append((before, record.move))
        if not record.continues and len(turn) >= least and not game.is_over:
            return turn
    return None


def own_turn(game: Game, number: int, seed: int) -> tuple[float, int, str]:
    """The AI's whole turn from ``game`` (left unchanged): (seconds, placements, last reason)."""
    work = game.copy()
    mover = work.to_move
    started = time.perf_counter()
    placements = 0
    reason = ""
    while True:
        result = think(work, LEVELS[number], seed=seed)
        placements += 1
        reason = result.reason
        record = work.play(result.move)
        if work.is_over or not record.continues or work.to_move != mover:
            break
    return time.perf_counter() - started, placements, reason


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", help="game:size (repeatable)")
    parser.add_argument("--levels", type=int, nargs="*", default=sorted(LEVELS))
    parser.add_argument("--fills", type=float, nargs="*", default=list(FILLS))
    parser.add_argument("--chains", type=int, default=2, help="chain turns per Clear Path board")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    boards = args.board or list(DEFAULT_BOARDS)
    rng = random.Random(args.seed)
    openings: list[tuple[str, str, Game]] = []
    chains: list[tuple[str, str, Game]] = []
    for board in boards:
        name, _, size_text = board.partition(":")
        size = int(size_text)
        for fill in args.fills:
            game = position(name, size, fill, rng)
            if game is not None:
                openings.append((name, f"{name} {size}x{size} {len(game.history)} plies", game))
        for _ in range(args.chains if name == "clearpath" else 0):
            turn = chain_turn(size, rng)
            if turn is not None:
                for made in (1, 2):
                    game = turn[made][0]
                    plies = len(game.history)
                    label = f"{name} {size}x{size} {made} placement(s) of a chain, {plies} plies"
                    chains.append((name, label, game))
    for number in args.levels:
        cap = LEVELS[number].budget.seconds or 0.0
        worst: dict[str, tuple[float, str]] = {}
        for name, label, game in openings + chains:
            before = cap - cap * 0.5 ** placements_this_turn(game)  # the earlier placements'
            took, placements, reason = own_turn(game, number, args.seed)
            print(
                f"level {number} {label}: {took:6.2f} s for {placements} placement(s) "
                f"({reason}); the turn {before + took:6.2f} s at most",
                flush=True,
            )
            if name not in worst or before + took > worst[name][0]:
                worst[name] = (before + took, label)
        for name, (longest, label) in worst.items():
            ratio = longest / cap if cap else 0.0
            verdict = "within" if ratio <= 1.1 else "OVER"
            print(
                f"LEVEL {number} {name:13s} cap {cap:4.1f} s: worst turn {longest:6.2f} s = "
                f"{ratio:4.0%} of the cap ({label}); {verdict} cap + 10 %",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
