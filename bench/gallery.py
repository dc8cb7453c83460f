"""Draw the images a reader of docs/gallery/ (and of a closing note) should see, in any
shipped language: an analysed game's chart and costliest moves, and a starter puzzle before
and after a wrong answer.  Everything is seeded, so a run draws the same images again.
Example (about a minute of CPU)::

    nice -n 10 python -m bench.gallery --out docs/gallery --lang en de ja ru
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from ai.analysis import Settings, analyse, worst
from ai.opponents import greedy_move
from ai.puzzles.puzzle import answer, replay
from ai.puzzles.starter import load_starter
from bot.discord.analysis.flow import costly_pairs
from bot.discord.play.turns import draw_board
from bot.i18n import Tongue, tongue
from render.reports.analysis_chart import render_analysis_chart
from render.reports.move_pairs import render_move_pairs
from rules import Game, new_game


def played_game(name: str, size: int, seed: int) -> Game:
    """A finished game between two seeded greedy players (they win when they can, block when
    they must, and otherwise play anywhere, so they make the mistakes an analysis marks)."""
    game = new_game(name, size=size)
    rng = random.Random(seed)
    while not game.is_over:
        game.play(greedy_move(game, rng))
    return game


def analysis_images(out: Path, tr: Tongue, record: str, playouts: int) -> list[Path]:
    analysis = analyse(record, Settings(playouts=playouts), seed=0)
    chart = out / f"analysis-chart-{tr.language}.png"
    chart.write_bytes(render_analysis_chart(analysis.moves, tr))
    pairs = out / f"analysis-moves-{tr.language}.png"
    pairs.write_bytes(render_move_pairs(costly_pairs(analysis, tr), tr))
    for ply in worst(analysis):
        print(f"  ply {ply.ply}: {ply.move} ({ply.mark}), better {ply.best}")
    return [chart, pairs]


def puzzle_images(out: Path, tr: Tongue, game: str) -> list[Path]:
    puzzle = load_starter(game)[0]
    start = replay(puzzle.game, puzzle.size, puzzle.moves)
    task = out / f"puzzle-{game}-{tr.language}.png"
    task.write_bytes(draw_board(start, {}, tr).png)
    paths = [task]
    wrong = next(m for m in start.legal_moves() if m != puzzle.solution[0])
    reply = answer(puzzle, (), wrong)
    if reply.refutation is not None and reply.refutation.reply:
        after = start.copy()
        after.play(wrong)
        after.play(reply.refutation.reply)
        end = out / f"puzzle-{game}-wrong-{tr.language}.png"
        end.write_bytes(draw_board(after, {}, tr).png)
        paths.append(end)
        print(f"  puzzle {puzzle.id}: after {wrong}, {reply.refutation.reply} answers")
    return paths


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--lang", nargs="+", default=["en"])
    p.add_argument("--game", default="minefield")
    p.add_argument("--size", type=int, default=7)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--playouts", type=int, default=300)
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    game = played_game(args.game, args.size, args.seed)
    print(f"game: {game.record()}")
    for language in args.lang:
        tr = tongue(language)
        started = time.process_time()
        paths = analysis_images(args.out, tr, game.record(), args.playouts)
        paths += puzzle_images(args.out, tr, args.game)
        spent = time.process_time() - started
        print(f"{language}: {', '.join(p.name for p in paths)} ({spent:.1f} s CPU)")


if __name__ == "__main__":
    main()
