"""Mine Clear Path's starter puzzles (ai/puzzles/clearpath.json.gz), beside bench/mine_puzzles.

    nice -n 19 python -m bench.mine_clearpath --sizes 4 5 6 --most 4=150 --seconds 1800

The self-play miner finds none in Clear Path (docs/puzzles.md): late in a game the clear-path
rule leaves the player ahead many wins, and a single winning move comes earlier, where the
win takes several chains.  Counted in turns (a chain is one move) such positions are puzzles,
and this walker looks where they are cheap to settle:

* **4×4** is solved and its proof ships (ai/solved/clearpath-4.json.gz), so every position on
  the proof's lines is known: the winner to move there wins.  The walk takes those winner
  positions, and for each one *mistake child* (a winner move off the proof, the other side
  to move), in a seeded random order.
* **5×5 and larger**: the positions of seeded self-play games (bench/mine_puzzles's player:
  it wins when it can, blocks when it must, one move in ten at random), from the end
  backwards while few points are empty (``EMPTIES``).  Wholly random positions give none:
  their mover is far ahead and wins in many ways.

Settling every move with the exact solver is the dear part, and nearly every position has two
or more winning moves.  So a position goes to :func:`ai.puzzles.find_puzzle` only if exactly
one first placement wins within :data:`~ai.puzzles.MAX_WINNER_MOVES` turns by the bounded
line search (two such are two winning moves; none is no puzzle within the limit), one search
per seat whose memo carries over from position to position.  Each find is verified again
from its JSON form and its level-3 effort measured, as in bench/mine_puzzles, and puzzles
already in the file are kept.  ``--most 4=150`` caps one size, so the rest comes from the
bigger boards.  The last lines give the yield per CPU-minute and where the time went;
``--no-prefilter`` settles every position instead, and ``--out`` writes elsewhere (both to
profile without touching the shipped file); ``--merge`` adds the finds of runs written
elsewhere, so runs on several boards at once end in one file.  ``kill`` (TERM or INT) stops
a run and still writes its finds and figures.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# bench/'s scripts import each other by plain name (as bench/seat_fairness.py does).
sys.path.insert(1, str(Path(__file__).resolve().parent))

from mine_puzzles import self_play

from ai.endgame import empty_points
from ai.moves import legal_moves, play, swap_offered
from ai.puzzles import MAX_WINNER_MOVES, Puzzle, find_puzzle, verify
from ai.puzzles.difficulty import level3_effort
from ai.puzzles.line import LineSearch, left_after
from ai.puzzles.puzzle import MIN_CHOICES
from ai.puzzles.starter import load_starter, starter_path, write_starter
from ai.solver import SearchLimit, Seat, position_text, seat_of, shipped_proof
from rules import Game, new_game

GAME = "clearpath"
EMPTIES = {5: 18, 6: 20, 7: 22}
"""Self-play positions with at most this many empty points are tried (the line search's
budget passes over the earlier ones it cannot settle)."""
LINE_NODES = 50_000
"""The prefilter's line-search budget per position (past it the position is skipped)."""
MEMO_CAP = 2_000_000
"""A seat's line search starts afresh past this many remembered answers (memory)."""


def proof_positions(rand: random.Random) -> list[tuple[str, ...]]:
    """The move lists of every winner position on the 4×4 proof's lines, and of one mistake
    child of each (a winner move the proof does not play), shuffled."""
    proof = shipped_proof(GAME, 4)
    assert proof is not None, "ai/solved/clearpath-4.json.gz ships"
    seen: set[str] = set()
    found: list[tuple[str, ...]] = []
    game = new_game(GAME, 4)

    def walk() -> None:
        if game.is_over or game.to_move is None:
            return
        text = position_text(game)
        if text in seen:
            return
        seen.add(text)
        if seat_of(game, game.to_move) != proof.winner_seat:
            for move in legal_moves(game):
                play(game, move)
                walk()
                game.pop()
            return
        moves = tuple(record.move for record in game.history)
        found.append(moves)
        best = proof.strategy.get(text)
        if best is None:
            return
        others = [m for m in game.legal_moves() if m != best]
        if others:
            found.append((*moves, others[rand.randrange(len(others))]))
        game.play(best)
        walk()
        game.pop()

    walk()
    rand.shuffle(found)
    return found


def self_play_positions(size: int, rand: random.Random, over: dict[int, int]) -> Iterator[Game]:
    """Seeded self-play games on ``size``, each game's positions from the end backwards
    while at most ``EMPTIES[size]`` points are empty, one game after another.  ``over``
    counts, per size, the positions in a row the prefilter could not settle: at 2 the game
    is left (its earlier positions are harder still), as bench/mine_puzzles does."""
    while True:
        game = self_play(GAME, size, rand)
        over[size] = 0
        while game.history and over[size] < 2:
            game.pop()
            if empty_points(game) > EMPTIES[size]:
                break
            yield game.copy()


def candidates(sizes: list[int], rand: random.Random, over: dict[int, int]) -> Iterator[Game]:
    """Positions to try, the sizes in turn (4×4 from the proof, the others from self-play)."""
    on_proof = iter(proof_positions(rand)) if 4 in sizes else iter(())
    played = {size: self_play_positions(size, rand, over) for size in sizes if size != 4}
    while True:
        for size in sizes:
            if size != 4:
                yield next(played[size])
                continue
            moves = next(on_proof, None)
            if moves is None:
                continue
            game = new_game(GAME, 4)
            for move in moves:
                game.play(move)
            yield game


class Prefilter:
    """Does exactly one first placement win within the turn limit?  One line search per
    board and seat, kept across positions (its memo is keyed by position)."""

    def __init__(self) -> None:
        self._searches: dict[tuple[int, Seat], LineSearch] = {}

    def single_quick_win(self, game: Game) -> bool | None:
        """True if exactly one move wins within the limit, False if not, None if the search
        ran past its budget."""
        assert game.to_move is not None
        mover = seat_of(game, game.to_move)
        key = (game.size, mover)
        search = self._searches.get(key)
        if search is None or search.remembered > MEMO_CAP:
            search = self._searches[key] = LineSearch(mover, LINE_NODES)
        search.nodes = 0  # the budget is per position; the memo is shared
        wins = 0
        try:
            for move in legal_moves(game):
                play(game, move)
                try:
                    wins += search.wins_within(game, left_after(game, mover, MAX_WINNER_MOVES))
                finally:
                    game.pop()
                if wins > 1:
                    return False
        except SearchLimit:
            return None
        return wins == 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--target", type=int, default=200)
    parser.add_argument("--most", nargs="*", default=[], help="SIZE=N: keep at most N there")
    parser.add_argument("--save", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--out", type=Path, default=starter_path(GAME))
    parser.add_argument(
        "--merge",
        type=Path,
        nargs="*",
        default=[],
        help="files of other runs (--out) whose puzzles join this one's, verified as they were",
    )
    parser.add_argument(
        "--no-prefilter",
        action="store_true",
        help="settle every position with the solver, as bench/mine_puzzles does (to profile)",
    )
    args = parser.parse_args()
    most = {int(k): int(v) for k, v in (item.split("=") for item in args.most)}
    rand = random.Random(f"{args.seed}:{GAME}")
    kept = {p.id: p for p in load_starter(GAME)} if args.out == starter_path(GAME) else {}
    for path in args.merge:
        document = json.loads(gzip.decompress(path.read_bytes()))
        for entry in document["puzzles"]:
            kept.setdefault(entry["id"], Puzzle.from_json(entry))
    start, cpu = time.monotonic(), time.process_time()
    saved = start
    stats: Counter[str] = Counter()
    spent: dict[str, float] = {}
    prefilter = Prefilter()
    rejected = new = 0

    def timed(stage: str, began: float) -> None:
        spent[stage] = spent.get(stage, 0.0) + time.process_time() - began

    def room(size: int) -> bool:
        cap: int = most.get(size, args.target)
        return sum(p.size == size for p in kept.values()) < cap

    over: dict[int, int] = {}
    # A background job starts with SIGINT ignored: stop on INT or TERM alike, writing first.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        for game in candidates(args.sizes, rand, over):
            if time.monotonic() - start > args.seconds or len(kept) >= args.target:
                break
            if not [s for s in args.sizes if room(s)]:
                break
            if not room(game.size):
                continue
            if time.monotonic() - saved > args.save:
                if kept:  # an empty file would ship a game with no puzzles
                    write_starter(args.out, list(kept.values()))
                saved = time.monotonic()
                print(f"{saved - start:7.1f}s tried {dict(sorted(stats.items()))}", flush=True)
            stats[f"{game.size} positions"] += 1
            if game.is_over or game.to_move is None or swap_offered(game):
                continue
            if len(legal_moves(game)) < MIN_CHOICES:
                continue
            began = time.process_time()
            single = args.no_prefilter or prefilter.single_quick_win(game)
            timed("prefilter", began)
            over[game.size] = over.get(game.size, 0) + 1 if single is None else 0
            if not single:
                stats[f"{game.size} {'over budget' if single is None else 'filtered'}"] += 1
                continue
            began = time.process_time()
            puzzle = find_puzzle(game)
            timed("find", began)
            if puzzle is None or puzzle.id in kept:
                continue
            began = time.process_time()
            problem = verify(Puzzle.from_json(puzzle.as_json()))
            timed("verify", began)
            if problem is not None:
                rejected += 1
                print(f"rejected {puzzle.id}: {problem}", flush=True)
                continue
            began = time.process_time()
            kept[puzzle.id] = replace(puzzle, effort=level3_effort(puzzle))
            timed("effort", began)
            new += 1
            stats[f"{game.size} puzzles"] += 1
            print(f"{time.monotonic() - start:7.1f}s kept {len(kept)} ({puzzle.size})", flush=True)
    except KeyboardInterrupt:  # kill: stop, and still write what was found
        print("interrupted", flush=True)
    if kept:
        write_starter(args.out, list(kept.values()))
    sizes = Counter(puzzle.size for puzzle in kept.values())
    minutes = (time.process_time() - cpu) / 60
    print(f"{GAME}: {len(kept)} puzzles {dict(sorted(sizes.items()))}, {rejected} rejected")
    print(
        f"{new} new, {minutes:.1f} CPU-minutes ({new / max(minutes, 1e-9):.1f} per CPU-minute); "
        f"tried {dict(sorted(stats.items()))}"
    )
    print("CPU seconds by stage:", {k: round(v, 1) for k, v in sorted(spent.items())})


if __name__ == "__main__":
    main()
