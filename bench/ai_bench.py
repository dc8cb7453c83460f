"""Strength and speed of the AI: playouts per second and win rates against reference players.

Prints figures; never fails on them.  Seats alternate game by game (the AI moves first in
odd-numbered games); ``--seat first`` or ``--seat second`` plays only the AI's games from that
seat, the same games an alternating run with the seed plays there.  Examples::

    python bench/ai_bench.py --opponent random --games 100 --playouts 100
    python bench/ai_bench.py --opponent greedy --games 100 --seconds 1
    python bench/ai_bench.py --opponent distance --level 3 --games 100
    python bench/ai_bench.py --level 3 --opponent level --opponent-level 2 --games 100
    python bench/ai_bench.py --playouts 300 --opponent config --opponent-config no-prior
    python bench/ai_bench.py --opponent uct --games 50 --playouts 300   # RAVE vs plain UCT

``--opponent distance`` is the connection-distance reference player (:mod:`ai.reference`);
``--opponent shadow`` is that player answering each enemy stone beside it across the enemy's
way (:func:`ai.reference.shadow_move`, made for Naked Diagonal's second seat).
``--level L`` gives the AI that level's playout cap and settings; its seconds cap is left out
(add ``--time-caps`` to keep it) so results do not depend on the machine's load.
``--opponent level`` plays another level the same way; ``--opponent config`` plays the same
budget with a named configuration from :data:`CONFIGS` (an A/B match: the AI side uses
``--config``, default ``default``), or ``--opponent-playouts`` playouts to try a level's
settings before it gets them.  ``--speed-seconds`` also measures the search without its
game-specific playouts, in the same run, for a before/after figure.

An A/B of a new idea adds a configuration to :data:`CONFIGS`: a new playout is a
:class:`ai.playouts.PlayoutRule` or :class:`ai.playouts.Playout` class (in this file while it is
only being tried), with no new switch in the search.  docs/ai-experiments.md keeps the record.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.connection import BARRED_GAMES
from ai.levels import LEVELS
from ai.opponents import greedy_move, random_move
from ai.playouts import NEAR_LAST, ON_PATHS, UNIFORM, OnPaths, Playout
from ai.reference import distance_move, shadow_move
from ai.search import BASIC_CONFIG, DEFAULT_CONFIG, Budget, SearchConfig, search
from rules import Game, game_names, new_game
from rules.nd_area import area_solver

ALL_GAMES = ("clearpath", "minefield", "crosscut", "clearcut", "nakeddiagonal")
BENCH_SIZE = {"crosscut": 8}

PLAIN_UCT = SearchConfig(rave=False, exploration=0.7)
"""The ``uct`` reference opponent: no RAVE, so more exploration (RAVE's AMAF term already
spreads the visits)."""
CROSSCUT_CONFIG = SearchConfig(
    prior_games=frozenset({"clearpath", "crosscut"}), threat_games=frozenset({"crosscut"})
)
"""Levels 3 to 5 before Minefield's and Naked Diagonal's path playouts."""
_CLEARPATH_LOCAL = ("clearpath", NEAR_LAST)
_JUDGED = Playout(cut_after=6)
_WITH_ND = BARRED_GAMES | {"nakeddiagonal"}
_ND_BARS = Playout(rules=(OnPaths(0.75, _WITH_ND),), cut_after=6, barred=_WITH_ND)
CONFIGS: dict[str, SearchConfig] = {
    "default": DEFAULT_CONFIG,
    "basic": BASIC_CONFIG,
    "plain-uct": PLAIN_UCT,
    "no-win-check": SearchConfig(win_check=False),
    "no-knowledge": SearchConfig(prior_weight=0.0, playouts=()),
    "prior": SearchConfig(prior_games=frozenset(ALL_GAMES), playouts=()),
    "local": SearchConfig(
        prior_weight=0.0, playouts=tuple((name, NEAR_LAST) for name in ALL_GAMES)
    ),
    "crosscut-prior": SearchConfig(prior_games=frozenset({"clearpath", "crosscut"})),
    "crosscut-prior-threats": CROSSCUT_CONFIG,
    "distance-eval": replace(
        CROSSCUT_CONFIG,
        playouts=(
            _CLEARPATH_LOCAL,
            *((n, _JUDGED) for n in ("minefield", "clearcut", "nakeddiagonal")),
        ),
    ),
    "path-playouts": replace(
        CROSSCUT_CONFIG,
        playouts=(
            _CLEARPATH_LOCAL,
            *((n, ON_PATHS) for n in ("minefield", "clearcut", "nakeddiagonal")),
        ),
    ),
    "minefield-paths": replace(
        CROSSCUT_CONFIG, playouts=(_CLEARPATH_LOCAL, ("minefield", ON_PATHS))
    ),
    "nd-bars": replace(
        DEFAULT_CONFIG,
        playouts=(_CLEARPATH_LOCAL, ("minefield", _ND_BARS), ("nakeddiagonal", _ND_BARS)),
    ),
    "rave-100": replace(CROSSCUT_CONFIG, rave_equivalence=100.0),
    "explore-0.1": replace(DEFAULT_CONFIG, exploration=0.1),
    "rave-1500": replace(DEFAULT_CONFIG, rave_equivalence=1500.0),
    "threats": SearchConfig(threat_games=frozenset({"crosscut"})),
    "clearcut-threats": replace(DEFAULT_CONFIG, threat_games=frozenset({"crosscut", "clearcut"})),
    "threats-all": SearchConfig(
        threat_games=frozenset({"clearpath", "minefield", "crosscut", "clearcut"})
    ),
}
"""Named configurations for A/B matches (``--config``, ``--opponent config``); each row of
docs/ai-experiments.md names the one it measured.  Configurations that needed a switch the
search no longer has are gone; the record says what they found."""


@dataclass(frozen=True)
class GameResult:
    ai_won: bool
    draw: bool
    ai_first: bool
    plies: int
    ai_moves: int
    ai_playouts: int
    ai_seconds: float
    opponent_seconds: float
    moves: tuple[str, ...] = ()
    """The game's moves in order, so a lost game can be replayed (``--show-losses``)."""


def play_one(
    game_name: str,
    size: int,
    index: int,
    opponent: str,
    budget: Budget,
    seed: int,
    config: SearchConfig = DEFAULT_CONFIG,
    opponent_budget: Budget | None = None,
    opponent_config: SearchConfig = PLAIN_UCT,
) -> GameResult:
    game = new_game(game_name, size)
    ai_person = 0 if index % 2 == 0 else 1
    game_seed = seed * 100_003 + index
    rng = random.Random(game_seed)
    colour_index = {c: i for i, c in enumerate(game.players)}
    flip = 0
    ai_moves = ai_playouts = 0
    ai_seconds = opp_seconds = 0.0
    while not game.is_over:
        person = colour_index[str(game.to_move)] ^ flip
        started = time.perf_counter()
        if person == ai_person:
            result = search(game, budget, seed=f"{game_seed}:{len(game.history)}", config=config)
            move = result.move
            ai_moves += 1
            ai_playouts += result.playouts
            ai_seconds += time.perf_counter() - started
        else:
            move = _opponent_move(
                game,
                opponent,
                rng,
                opponent_budget or budget,
                f"o{game_seed}:{len(game.history)}",
                opponent_config,
            )
            opp_seconds += time.perf_counter() - started
        if game.play(move).swap:
            flip ^= 1
    winner = None if game.winner is None else colour_index[game.winner] ^ flip
    return GameResult(
        ai_won=winner == ai_person,
        draw=winner is None,
        ai_first=ai_person == 0,
        plies=len(game.history),
        ai_moves=ai_moves,
        ai_playouts=ai_playouts,
        ai_seconds=ai_seconds,
        opponent_seconds=opp_seconds,
        moves=tuple(record.move for record in game.history),
    )


def _opponent_move(
    game: Game,
    opponent: str,
    rng: random.Random,
    budget: Budget,
    seed: str,
    config: SearchConfig,
) -> str:
    if opponent == "random":
        return random_move(game, rng)
    if opponent == "greedy":
        return greedy_move(game, rng)
    if opponent == "distance":
        return distance_move(game, rng)
    if opponent == "shadow":
        return shadow_move(game, rng)
    return search(game, budget, seed=seed, config=config).move


def speed(game_name: str, size: int, seconds: float) -> tuple[float, float, float | None]:
    """(random playouts/s through the engine alone, search playouts/s from a mid-opening
    position including the root tactics, and the same search with uniform playouts where
    the default's are game-specific, else None)."""
    rng = random.Random(0)
    started = time.perf_counter()
    count = 0
    while time.perf_counter() - started < seconds:
        game = new_game(game_name, size)
        while not game.is_over:
            points = game.legal_points()
            if points:
                game.play_index(points[rng.randrange(len(points))])
            else:
                moves = game.legal_moves()
                game.play(moves[rng.randrange(len(moves))])
        count += 1
    raw = count / (time.perf_counter() - started)
    game = new_game(game_name, size)
    for _ in range(4):
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    # Each search starts from an empty Naked Diagonal memo, so neither inherits the other's.
    uniform = None
    if DEFAULT_CONFIG.playout_for(game_name) != UNIFORM:
        plain = replace(DEFAULT_CONFIG, playouts=((game_name, UNIFORM),))
        forget(size)
        uniform = search(game, Budget(seconds=seconds), seed=0, config=plain).playouts_per_second
    forget(size)
    result = search(game, Budget(seconds=seconds), seed=0)
    return raw, result.playouts_per_second, uniform


def forget(size: int) -> None:
    """Empty the Naked Diagonal area solver's memo for ``size`` (a cold start)."""
    area_solver(size).forget()


def elo_difference(wins: float, n: int) -> float:
    """The Elo difference a win rate implies; a clean sweep is counted as n − ½ wins out of n
    (so it stays finite, and says "at least this much")."""
    if n == 0:
        return 0.0
    p = min(max(wins, 0.5), n - 0.5) / n
    return 400 * math.log10(p / (1 - p))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval for a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def level_budget(
    number: int, time_caps: bool, playouts: int | None = None, game: str = "", size: int = 0
) -> tuple[Budget, SearchConfig]:
    """A level's budget on ``game``'s ``size`` board (playouts only unless ``time_caps``) and
    settings; ``playouts``, when given, replaces the level's playout cap and keeps the rest."""
    level = LEVELS[number]
    own = level.budget_for(game, size)
    seconds = own.seconds if time_caps else None
    cap = own.playouts if playouts is None else playouts
    return Budget(playouts=cap, seconds=seconds), level.config


def game_indices(games: int, seat: str) -> range:
    """The indices of the games to play: the AI moves first in games with an even index, so one
    seat alone is every other index, and ``--seat first`` with a seed plays exactly the games the
    alternating run with that seed played from the first seat (reproducible without time caps)."""
    if seat == "both":
        return range(games)
    start = 0 if seat == "first" else 1
    return range(start, start + 2 * games, 2)


def ai_label(args: argparse.Namespace) -> str:
    """The AI side's search: with ``--level`` the level's budget, and its own configuration
    unless ``--config`` names one (an A/B of a change at a level's real caps)."""
    if args.level is not None:
        if args.config is None:
            return f"level {args.level} (its own config)"
        return f"level {args.level} with config {args.config}"
    return f"config {args.config or 'default'}"


def ai_settings(args: argparse.Namespace) -> tuple[Budget, SearchConfig]:
    """The AI side's budget and search settings: ``--level``'s budget (and its own settings
    unless ``--config`` is given), else ``--playouts``/``--seconds`` with ``--config``."""
    config = CONFIGS[args.config or "default"]
    if args.level is None:
        return Budget(playouts=args.playouts, seconds=args.seconds), config
    budget, own = level_budget(args.level, args.time_caps, args.playouts)
    return budget, own if args.config is None else config


def opponent_label(args: argparse.Namespace) -> str:
    if args.opponent == "level":
        if args.opponent_playouts is not None:
            return f"level {args.opponent_level} at {args.opponent_playouts} playouts"
        return f"level {args.opponent_level}"
    if args.opponent == "config":
        if args.opponent_playouts is not None:
            return f"config {args.opponent_config} at {args.opponent_playouts} playouts"
        return f"config {args.opponent_config}"
    return str(args.opponent)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game name (repeatable; default all)")
    parser.add_argument("--games", type=int, default=100, help="games per game type")
    parser.add_argument(
        "--opponent",
        choices=("random", "greedy", "distance", "shadow", "uct", "level", "config"),
        default="random",
    )
    parser.add_argument("--level", type=int, choices=sorted(LEVELS), help="AI plays this level")
    parser.add_argument("--opponent-level", type=int, choices=sorted(LEVELS), default=None)
    parser.add_argument(
        "--config",
        choices=sorted(CONFIGS),
        default=None,
        help="AI config (default: 'default', or with --level the level's own)",
    )
    parser.add_argument("--opponent-config", choices=sorted(CONFIGS), default="default")
    parser.add_argument(
        "--opponent-playouts",
        type=int,
        default=None,
        help="playouts per move for --opponent config (default: the AI's budget) or "
        "--opponent level (default: the level's cap)",
    )
    parser.add_argument(
        "--time-caps", action="store_true", help="keep the levels' seconds caps (load-dependent)"
    )
    parser.add_argument("--seconds", type=float, default=None, help="AI seconds per move")
    parser.add_argument(
        "--playouts",
        type=int,
        default=None,
        help="AI playouts per move (with --level: instead of its cap)",
    )
    parser.add_argument("--size", type=int, default=None, help="board size (default 7, Crosscut 8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--seat",
        choices=("both", "first", "second"),
        default="both",
        help="the AI's seat: alternating (default), or only first or only second; a match "
        "in the seat a game favours says little about a step decided by the seats",
    )
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument(
        "--no-win-check", action="store_true", help="AI without the win check at expansion"
    )
    parser.add_argument("--no-rave", action="store_true", help="AI without RAVE (plain UCT)")
    parser.add_argument("--quiet", action="store_true", help="no per-game lines")
    parser.add_argument(
        "--show-losses",
        action="store_true",
        help="after each game the AI lost, print its moves (to replay it; time-capped games "
        "cannot be reproduced from their seed)",
    )
    parser.add_argument(
        "--speed-seconds", type=float, default=3.0, help="seconds per speed measurement (0: none)"
    )
    args = parser.parse_args(argv)
    if args.opponent == "level" and args.opponent_level is None:
        parser.error("--opponent level needs --opponent-level")
    if args.seconds is None and args.playouts is None and args.level is None:
        args.seconds = 1.0
    budget, config = ai_settings(args)
    if args.no_win_check:
        config = replace(config, win_check=False)
    if args.no_rave:
        config = replace(config, rave=False, exploration=PLAIN_UCT.exploration)
    opponent_budget: Budget | None = None
    opponent_config = PLAIN_UCT
    if args.opponent == "level":
        opponent_budget, opponent_config = level_budget(
            args.opponent_level, args.time_caps, args.opponent_playouts
        )
    elif args.opponent == "config":
        opponent_config = CONFIGS[args.opponent_config]
        if args.opponent_playouts is not None:
            opponent_budget = Budget(playouts=args.opponent_playouts)
    known = set(game_names())
    names = args.game or list(ALL_GAMES)
    print(
        f"AI (UCT, RAVE {not args.no_rave}, solver, root tactics, "
        f"win check {not args.no_win_check}; "
        f"exploration {config.exploration}) vs "
        f"{opponent_label(args)}; AI {ai_label(args)}; budget {budget}; "
        f"{args.games} games per game type, "
        + ("seats alternate" if args.seat == "both" else f"AI always {args.seat}")
    )
    summary: list[str] = []
    pool = (
        ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn"))
        if args.jobs > 1
        else None
    )
    for name in names:
        if name not in known:
            print(f"{name}: not available in rules/ yet, skipped")
            continue
        size = args.size or BENCH_SIZE.get(name, 7)
        if args.speed_seconds > 0:
            raw, searched, uniform = speed(name, size, args.speed_seconds)
            plain = "" if uniform is None else f", {uniform:.0f} with uniform playouts"
            print(
                f"{name} {size}x{size} speed: {raw:.0f} random playouts/s (engine only), "
                f"{searched:.0f} search playouts/s (tree + root tactics){plain}",
                flush=True,
            )
        if args.games <= 0:
            continue
        started = time.perf_counter()
        game_budget, game_opponent_budget = budget, opponent_budget
        if args.level is not None:
            game_budget = level_budget(args.level, args.time_caps, args.playouts, name, size)[0]
        if args.opponent == "level":
            game_opponent_budget = level_budget(
                args.opponent_level, args.time_caps, args.opponent_playouts, name, size
            )[0]
        if (game_budget, game_opponent_budget) != (budget, opponent_budget):
            print(f"{name}: budget {game_budget} vs {game_opponent_budget} (the levels' own)")
        indices = game_indices(args.games, args.seat)
        jobs = [
            (
                name,
                size,
                i,
                args.opponent,
                game_budget,
                args.seed,
                config,
                game_opponent_budget,
                opponent_config,
            )
            for i in indices
        ]
        results: Iterator[GameResult]
        if pool is None:
            results = (play_one(*job) for job in jobs)
        else:
            results = pool.map(play_one, *zip(*jobs, strict=True))
        done: list[GameResult] = []
        for i, r in zip(indices, results, strict=True):
            done.append(r)
            if not args.quiet:
                rate = r.ai_playouts / r.ai_seconds if r.ai_seconds else 0.0
                seat = "first " if r.ai_first else "second"
                outcome = "WON " if r.ai_won else ("draw" if r.draw else "lost")
                print(
                    f"{name} {size}x{size} game {i + 1:3d}: "
                    f"AI {seat} {outcome} in {r.plies:3d} plies; "
                    f"{rate:7.0f} playouts/s, {r.ai_seconds / max(r.ai_moves, 1):5.2f} s/move "
                    f"(opponent {r.opponent_seconds / max(r.plies - r.ai_moves, 1):5.2f} s/move)",
                    flush=True,
                )
                if args.show_losses and not r.ai_won:
                    print(f"  moves: {' '.join(r.moves)}", flush=True)
        wins = sum(r.ai_won for r in done) + 0.5 * sum(r.draw for r in done)
        n = len(done)
        low, high = wilson(wins, n)
        first = [r for r in done if r.ai_first]
        second = [r for r in done if not r.ai_first]
        playouts = sum(r.ai_playouts for r in done)
        seconds = sum(r.ai_seconds for r in done)
        line = (
            f"{name:13s} {size}x{size}  AI won {wins:5.1f}/{n} = {wins / n:6.1%} "
            f"(95% CI {low:.0%}-{high:.0%}; first {sum(r.ai_won for r in first)}/{len(first)}, "
            f"second {sum(r.ai_won for r in second)}/{len(second)})  "
            f"Elo {elo_difference(wins, n):+5.0f}  "
            f"{playouts / seconds if seconds else 0:6.0f} playouts/s  "
            f"{seconds / max(sum(r.ai_moves for r in done), 1):5.2f} s/AI move  "
            f"wall {time.perf_counter() - started:6.0f} s"
        )
        print(line, flush=True)
        summary.append(line)
    if pool is not None:
        pool.shutdown()
    print(f"\nSummary vs {opponent_label(args)}, budget {budget}:")
    for line in summary:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
