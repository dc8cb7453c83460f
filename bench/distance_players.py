"""Is a legality-aware distance better knowledge than the plain one?  (prints figures)

The reference player (:mod:`ai.reference`) scores moves by the plain connection distance.  In
Minefield a point that would complete a hard corner or a switch is barred to one side, so a
path through it is no path (:func:`ai.connection.barred_points`).  This plays the reference
player with the legality-aware distance against the plain one, seats alternating, and prints
how often the aware one wins: a cheap test of the knowledge itself before it goes into the
search (issue 14, fifth round; the results are in docs/ai.md).

    python bench/distance_players.py --game minefield --size 7 --games 40 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from ai.reference import distance_move
from rules import InvalidOptions, game_names, new_game


def match(name: str, size: int, games: int, seed: int) -> tuple[int, int, int]:
    """(games the aware player won as first, as second, games the first player won)."""
    rng = random.Random(seed)
    won_first = won_second = first_won = 0
    for number in range(games):
        game = new_game(name, size)
        aware_seat = number % 2
        while not game.is_over:
            seat = game.players.index(str(game.to_move))
            game.play(distance_move(game, rng, legality_aware=seat == aware_seat))
        if game.winner == game.players[0]:
            first_won += 1
        if game.winner == game.players[aware_seat]:
            if aware_seat == 0:
                won_first += 1
            else:
                won_second += 1
    return won_first, won_second, first_won


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="minefield", choices=sorted(game_names()))
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2, so each player has each seat")
    try:
        new_game(args.game, args.size)
    except InvalidOptions as error:
        parser.error(str(error))
    start = time.perf_counter()
    first, second, first_won = match(args.game, args.size, args.games, args.seed)
    seats = args.games // 2
    print(
        f"{args.game} {args.size}x{args.size}: legality-aware distance player won "
        f"{first + second}/{args.games} against the plain one (first {first}/{args.games - seats},"
        f" second {second}/{seats}); first player won {first_won}; "
        f"{time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
