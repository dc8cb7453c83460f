"""Is a variant of the distance player better than the plain one?  (prints figures)

The reference player (:mod:`ai.reference`) scores moves by the plain connection distance.  In
Minefield a point that would complete a hard corner or a switch is barred to one side, so a
path through it is no path (:func:`ai.connection.barred_points`).  This plays the reference
player with the legality-aware distance against the plain one, seats alternating, and prints
how often the aware one wins: a cheap test of the knowledge itself before it goes into the
search (the results are in docs/ai-experiments.md).  ``--variant shadow`` plays the
shadow player instead (:func:`ai.reference.shadow_move`: the distance player answering each
enemy stone beside it across the enemy's way), which asks how much of Naked Diagonal's
second-seat strength is that one answer.

    python bench/distance_players.py --game minefield --size 7 --games 40 --seed 1
    python bench/distance_players.py --game nakeddiagonal --variant shadow --games 100
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from ai.reference import distance_move, shadow_move
from rules import Game, InvalidOptions, game_names, new_game


def _aware_move(game: Game, rng: random.Random) -> str:
    return distance_move(game, rng, legality_aware=True)


VARIANTS: dict[str, tuple[str, Callable[[Game, random.Random], str]]] = {
    "aware": ("legality-aware distance player", _aware_move),
    "shadow": ("shadow player", shadow_move),
}


def match(
    name: str, size: int, games: int, seed: int, variant: str = "aware"
) -> tuple[int, int, int]:
    """(games the variant won as first, as second, games the first player won)."""
    variant_move = VARIANTS[variant][1]
    rng = random.Random(seed)
    won_first = won_second = first_won = 0
    for number in range(games):
        game = new_game(name, size)
        variant_seat = number % 2
        while not game.is_over:
            seat = game.players.index(str(game.to_move))
            mover = variant_move if seat == variant_seat else distance_move
            game.play(mover(game, rng))
        if game.winner == game.players[0]:
            first_won += 1
        if game.winner == game.players[variant_seat]:
            if variant_seat == 0:
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
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="aware")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2, so each player has each seat")
    try:
        new_game(args.game, args.size)
    except InvalidOptions as error:
        parser.error(str(error))
    start = time.perf_counter()
    first, second, first_won = match(args.game, args.size, args.games, args.seed, args.variant)
    seats = args.games // 2
    print(
        f"{args.game} {args.size}x{args.size}: {VARIANTS[args.variant][0]} won "
        f"{first + second}/{args.games} against the plain one (first {first}/{args.games - seats},"
        f" second {second}/{seats}); first player won {first_won}; "
        f"{time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
