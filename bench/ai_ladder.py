"""The level ladder in pairs: each step played from both seats, one rating fit with seat terms.

Why pairs: on the 7×7 boards the seat decides most games, so a step measured with seats merely
alternating mixes "who is stronger" with "who had the good seat".  Each pair here plays one
opening twice, the two players swapping seats, as engine testers do.  An opening is the first
:data:`OPENING_PLIES` placements drawn at random from the pair's seed (the same for both games).

``play`` appends one JSON line per finished game to a results file (safe to stop and resume:
pairs already there are skipped).  ``fit`` reads results files, adds them to the recorded
counts in :data:`LADDER_FILE`, and fits one Bradley–Terry (Elo) model:

    P(first seat wins) = 1 / (1 + 10 ** (-(R[first] - R[second] + S[game, size]) / 400))

with a seat advantage ``S`` per game and board, the distance reference player fixed at 1000.
The older alternating-seat matches of ``bench/ai_ratings.py`` (half their games from each seat)
join the same likelihood as the average of the two seats' chances, so levels 4 and 5, which
have few paired games, keep a rating from everything measured.  One virtual draw per pairing
keeps a clean sweep finite, and a weak prior (a normal with a 400 Elo deviation) keeps a seat
term defined where a board has only alternating-seat games.  95 % intervals come from the
inverse of the observed information (the Hessian of the log-likelihood at the optimum).

    nice -n 19 python bench/ai_ladder.py play --step 1 2 --game minefield --pairs 40 \\
        --size 7 --out bench/results/ladder.jsonl --workers 2
    python bench/ai_ladder.py fit bench/results/ladder.jsonl
    python bench/ai_ladder.py record bench/results/ladder.jsonl   # into LADDER_FILE
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# ai_ratings is a sibling script (its recorded matches join the fit), imported by plain name
# as bench/'s scripts import each other; imported from the tests, bench/ is not on sys.path.
sys.path.insert(1, str(Path(__file__).resolve().parent))

import ai_ratings
from ai_bench import wilson

from ai.levels import LEVELS
from ai.moves import move_name
from ai.pool import think
from ai.reference import distance_move
from ai.search import Budget
from rules import new_game

OPENING_PLIES = 2
"""Random placements before the players take over: enough that pairs differ (the levels'
playout budgets are deterministic for a seed), few enough not to decide the game."""
LADDER_FILE = Path(__file__).resolve().parent / "ladder_results.json"
"""The recorded paired games, as counts per (game, size, first seat's player, second's)."""
ANCHOR = ai_ratings.ANCHOR
ANCHOR_RATING = ai_ratings.ANCHOR_RATING
SEAT_PRIOR_SD = 400.0
ELO = 400 / math.log(10)
Board = tuple[str, int]


# ----- playing ---------------------------------------------------------------------------------
def player_name(level: int) -> str:
    return ANCHOR if level == 0 else f"level {level}"


def budget_for(level: int, game: str, size: int, time_caps: bool) -> Budget:
    """The level's budget on this board: playout cap only (reproducible, load-independent)
    unless ``time_caps``, which keeps its seconds cap as players meet it."""
    own = LEVELS[level].budget_for(game, size)
    return own if time_caps else Budget(playouts=own.playouts)


def opening(game_name: str, size: int, seed: int, plies: int = OPENING_PLIES) -> list[str]:
    """The pair's opening: ``plies`` random placements (never a swap)."""
    rng = random.Random(seed)
    game = new_game(game_name, size)
    moves: list[str] = []
    for _ in range(plies):
        points = game.legal_points()
        if game.is_over or not points:
            break
        move = move_name(game, points[rng.randrange(len(points))])
        game.play(move)
        moves.append(move)
    return moves


@dataclass(frozen=True)
class Task:
    game: str
    size: int
    first: int
    """Level of the first seat's player (0: the distance reference player)."""
    second: int
    pair: int
    seed: int
    time_caps: bool
    opening_plies: int = OPENING_PLIES


def play_game(task: Task) -> dict[str, object]:
    """Play one game of a pair and describe it as one results line."""
    game = new_game(task.game, task.size)
    for move in opening(task.game, task.size, task.seed, task.opening_plies):
        game.play(move)
    colour_index = {c: i for i, c in enumerate(game.players)}
    levels = (task.first, task.second)
    flip = 0
    rng = random.Random(task.seed)
    seconds = [0.0, 0.0]
    started = time.perf_counter()
    while not game.is_over:
        seat = colour_index[str(game.to_move)] ^ flip
        level = levels[seat]
        clock = time.perf_counter()
        if level == 0:
            move = distance_move(game, rng)
        else:
            budget = budget_for(level, task.game, task.size, task.time_caps)
            move = think(game, level, task.seed * 7 + seat, budget).move
        seconds[seat] += time.perf_counter() - clock
        if game.play(move).swap:
            flip ^= 1
    winner = None if game.winner is None else ("first", "second")[colour_index[game.winner] ^ flip]
    return {
        "game": task.game,
        "size": task.size,
        "first": player_name(task.first),
        "second": player_name(task.second),
        "winner": winner,
        "pair": task.pair,
        "seed": task.seed,
        "time_caps": task.time_caps,
        "opening_plies": task.opening_plies,
        "plies": len(game.history),
        "seconds": [round(s, 2) for s in seconds],
        "wall": round(time.perf_counter() - started, 2),
        "record": game.record(),
    }


def tasks(
    boards: list[Board],
    low: int,
    high: int,
    pairs: int,
    seed: int,
    time_caps: bool,
    opening_plies: int = OPENING_PLIES,
) -> Iterator[Task]:
    """Pairs in order, board by board interleaved, so a run stopped early covers every board.
    A level against itself (self-play, to measure the seats) plays one game per seed."""
    for pair in range(pairs):
        for name, size in boards:
            pair_seed = seed * 1_000_003 + pair * 101 + sorted(ai_ratings.GAMES).index(name)
            pair_seed += 17 * size
            yield Task(name, size, high, low, pair, pair_seed, time_caps, opening_plies)
            if low != high:
                yield Task(name, size, low, high, pair, pair_seed, time_caps, opening_plies)


def done_keys(path: Path) -> set[tuple[str, int, str, str, int]]:
    if not path.is_file():
        return set()
    keys = set()
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            keys.add((row["game"], row["size"], row["first"], row["second"], row["seed"]))
    return keys


def run_play(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    seen = done_keys(out)
    sizes = args.size or [7]
    boards = [
        (name, new_game(name).default_size if size == 0 else size)
        for size in sizes
        for name in args.game
    ]
    boards = list(dict.fromkeys(boards))
    low, high = args.step
    todo = [
        t
        for t in tasks(boards, low, high, args.pairs, args.seed, args.time_caps, args.opening_plies)
        if (t.game, t.size, player_name(t.first), player_name(t.second), t.seed) not in seen
    ]
    print(f"{len(todo)} games to play", flush=True)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(play_game, t) for t in todo]
        for future in as_completed(futures):
            row = future.result()
            with out.open("a") as fh:
                fh.write(json.dumps(row) + "\n")
            print(
                f"{row['game']} {row['size']} {row['first']} v {row['second']} "
                f"pair {row['pair']}: {row['winner']} ({row['wall']} s)",
                flush=True,
            )
    return 0


# ----- the data --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Count:
    """Games between two players on one board with known seats."""

    board: Board
    first: str
    second: str
    games: int
    first_wins: float
    """Draws count half."""


def counts_from_rows(rows: Iterable[dict[str, object]]) -> list[Count]:
    totals: dict[tuple[Board, str, str], tuple[int, float]] = {}
    for row in rows:
        key = ((str(row["game"]), int(str(row["size"]))), str(row["first"]), str(row["second"]))
        n, w = totals.get(key, (0, 0.0))
        won = {"first": 1.0, "second": 0.0, None: 0.5}[row["winner"]]  # type: ignore[index]
        totals[key] = (n + 1, w + won)
    return [Count(b, f, s, n, w) for (b, f, s), (n, w) in totals.items()]


def read_rows(paths: Iterable[Path]) -> list[dict[str, object]]:
    rows = []
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return rows


def complete_pairs(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """The games whose pair partner (same board and opening, seats swapped) was played too, and
    self-play games; a run stopped mid-pair leaves one game out, so seats stay balanced."""
    played = {(r["game"], r["size"], r["first"], r["second"], r["seed"]) for r in rows}
    return [
        r
        for r in rows
        if r["first"] == r["second"]
        or (r["game"], r["size"], r["second"], r["first"], r["seed"]) in played
    ]


def load_recorded(path: Path = LADDER_FILE) -> list[Count]:
    if not path.is_file():
        return []
    data = json.loads(path.read_text())
    return [
        Count((c["game"], c["size"]), c["first"], c["second"], c["games"], c["first_wins"])
        for c in data["counts"]
    ]


def merge(counts: Iterable[Count]) -> list[Count]:
    totals: dict[tuple[Board, str, str], tuple[int, float]] = {}
    for c in counts:
        n, w = totals.get((c.board, c.first, c.second), (0, 0.0))
        totals[(c.board, c.first, c.second)] = (n + c.games, w + c.first_wins)
    return [Count(b, f, s, n, w) for (b, f, s), (n, w) in sorted(totals.items())]


def alternating_rows() -> list[tuple[str, str, Board, int, float]]:
    """The older playout-capped matches (seats alternating), with their boards."""
    return [
        (a, b, (game, 8 if game == ai_ratings.CC else 7), n, w)
        for a, b, game, n, w in ai_ratings.RESULTS
    ]


# ----- the model -------------------------------------------------------------------------------
def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


@dataclass
class Fit:
    players: list[str]
    boards: list[Board]
    rating: dict[str, float]
    seat: dict[Board, float]
    covariance: list[list[float]]
    """Over the free parameters: the players other than the anchor, then the boards (Elo²)."""

    def _index(self, name: str) -> int | None:
        return None if name == ANCHOR else self.players.index(name)

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """R[a] − R[b] and its standard error."""
        ia, ib = self._index(a), self._index(b)
        cov = self.covariance

        def c(i: int | None, j: int | None) -> float:
            return 0.0 if i is None or j is None else cov[i][j]

        var = c(ia, ia) + c(ib, ib) - 2 * c(ia, ib)
        return self.rating[a] - self.rating[b], math.sqrt(max(var, 0.0))

    def seat_error(self, board: Board) -> float:
        i = len(self.players) + self.boards.index(board)
        return math.sqrt(max(self.covariance[i][i], 0.0))


def fit_model(
    paired: list[Count],
    alternating: list[tuple[str, str, Board, int, float]] | None = None,
    iterations: int = 60,
) -> Fit:
    """The maximum-likelihood ratings and seat terms (Newton's method, in natural units)."""
    alternating = alternating if alternating is not None else alternating_rows()
    names = {c.first for c in paired} | {c.second for c in paired}
    names |= {a for a, *_ in alternating} | {b for _, b, *_ in alternating}
    players = sorted(names - {ANCHOR})
    boards = sorted({c.board for c in paired} | {r[2] for r in alternating})
    index = {p: i for i, p in enumerate(players)}
    nparams = len(players) + len(boards)
    bindex = {b: len(players) + i for i, b in enumerate(boards)}
    # Observations: (i first-or-A, j, board, games, wins of A, alternating?), natural units.
    obs: list[tuple[int | None, int | None, int, float, float, bool]] = []
    virtual: dict[frozenset[str], tuple[str, str, Board, bool]] = {}
    for c in paired:
        obs.append(
            (index.get(c.first), index.get(c.second), bindex[c.board], c.games, c.first_wins, False)
        )
        virtual.setdefault(frozenset((c.first, c.second)), (c.first, c.second, c.board, False))
    for a, b, board, n, w in alternating:
        obs.append((index.get(a), index.get(b), bindex[board], n, w, True))
        virtual.setdefault(frozenset((a, b)), (a, b, board, True))
    for a, b, board, alt in virtual.values():  # one virtual draw per pairing
        if alt:
            obs.append((index.get(a), index.get(b), bindex[board], 1.0, 0.5, True))
        else:
            obs.append((index.get(a), index.get(b), bindex[board], 0.5, 0.25, False))
            obs.append((index.get(b), index.get(a), bindex[board], 0.5, 0.25, False))
    theta = [0.0] * nparams
    prior = (ELO / SEAT_PRIOR_SD) ** 2

    def terms(
        t: list[float],
    ) -> tuple[float, list[float], list[list[float]]]:
        ll = 0.0
        grad = [0.0] * nparams
        hess = [[0.0] * nparams for _ in range(nparams)]
        for i, j, s, n, w, alt in obs:
            d = (t[i] if i is not None else 0.0) - (t[j] if j is not None else 0.0)
            # Each seat: x = d ± s, with its share of the games (all, or half each).
            parts = [(1.0, 1.0)] if not alt else [(0.5, 1.0), (0.5, -1.0)]
            for share, sign in parts:
                # Alternating: A is first in half (d + s) and second in half (d − s).
                x = d + sign * t[s]
                p = _logistic(x)
                nn, ww = n * share, w * share
                ll += ww * math.log(max(p, 1e-300)) + (nn - ww) * math.log(max(1 - p, 1e-300))
                g = ww - nn * p
                h = nn * p * (1 - p)
                coords = [(i, 1.0), (j, -1.0), (s, sign)]
                for ci, vi in coords:
                    if ci is None:
                        continue
                    grad[ci] += g * vi
                    for cj, vj in coords:
                        if cj is not None:
                            hess[ci][cj] -= h * vi * vj
        for b in bindex.values():
            ll -= 0.5 * prior * t[b] ** 2
            grad[b] -= prior * t[b]
            hess[b][b] -= prior
        return ll, grad, hess

    for _ in range(iterations):
        _, grad, hess = terms(theta)
        step = _solve([[-v for v in row] for row in hess], grad)
        theta = [t + s for t, s in zip(theta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-10:
            break
    _, _, hess = terms(theta)
    cov = _inverse([[-v * 1.0 for v in row] for row in hess])
    cov = [[v * ELO * ELO for v in row] for row in cov]
    rating = {ANCHOR: ANCHOR_RATING} | {p: ANCHOR_RATING + ELO * theta[index[p]] for p in players}
    seat = {b: ELO * theta[bindex[b]] for b in boards}
    return Fit(players, boards, rating, seat, cov)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    inv = _inverse(a)
    return [sum(r * x for r, x in zip(row, b, strict=True)) for row in inv]


def _inverse(a: list[list[float]]) -> list[list[float]]:
    """Gauss–Jordan with partial pivoting (the matrices here are a dozen rows)."""
    n = len(a)
    m = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            raise ValueError("the model is not identified: some player has no games")
        m[col], m[pivot] = m[pivot], m[col]
        p = m[col][col]
        m[col] = [v / p for v in m[col]]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col]
                m[r] = [v - f * w for v, w in zip(m[r], m[col], strict=True)]
    return [row[n:] for row in m]


# ----- the report ------------------------------------------------------------------------------
def share(wins: float, n: int) -> str:
    if n == 0:
        return "–"
    lo, hi = wilson(wins, n)
    return f"{wins:g}/{n} ({wins / n:.0%}, {lo:.0%}–{hi:.0%})"


def step_rows(paired: list[Count], fit: Fit, steps: list[tuple[str, str]]) -> list[str]:
    """The ladder as Markdown: per step and board, the stronger side's wins from each seat and
    pooled (Wilson 95 % intervals), then the fitted difference with its 95 % interval."""
    lines = [
        "| Step | Board | pairs | upper level first | upper level second | pooled |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for high, low in steps:
        boards = sorted({c.board for c in paired if {c.first, c.second} == {high, low}})
        for board in boards:
            as_first = [
                c for c in paired if c.board == board and (c.first, c.second) == (high, low)
            ]
            as_second = [
                c for c in paired if c.board == board and (c.first, c.second) == (low, high)
            ]
            n1 = sum(c.games for c in as_first)
            w1 = sum(c.first_wins for c in as_first)
            n2 = sum(c.games for c in as_second)
            w2 = sum(c.games - c.first_wins for c in as_second)
            pairs = min(n1, n2)
            lines.append(
                f"| {short(high)} over {short(low)} | {board[0]} {board[1]}×{board[1]} | {pairs} "
                f"| {share(w1, n1)} | {share(w2, n2)} | {share(w1 + w2, n1 + n2)} |"
            )
    lines.append("")
    lines.append("| Step | fitted Elo difference | 95 % interval | target met |")
    lines.append("| --- | --- | --- | --- |")
    for high, low in steps:
        if high not in fit.rating or low not in fit.rating:
            continue
        diff, se = fit.difference(high, low)
        lo, hi = diff - 1.96 * se, diff + 1.96 * se
        lines.append(
            f"| {short(high)} over {short(low)} | {diff:+.0f} | {lo:+.0f} to {hi:+.0f} "
            f"| {verdict(high, diff, lo)} |"
        )
    return lines


def verdict(high: str, diff: float, low_bound: float) -> str:
    """Levels 2 and 3 (and level 1 over the distance player, which has no target): above the
    level below with 95 % confidence and by at least 100 Elo; levels 4 and 5: the point estimate
    above the level below."""
    if high in ("level 2", "level 3"):
        return "yes" if low_bound > 0 and diff >= 100 else "no"
    if high in ("level 4", "level 5"):
        return "yes (point estimate)" if diff > 0 else "no"
    return "no target"


def short(name: str) -> str:
    return "dist." if name == ANCHOR else name.replace("level ", "L")


STEPS = [
    ("level 1", ANCHOR),
    ("level 2", "level 1"),
    ("level 3", "level 2"),
    ("level 4", "level 3"),
    ("level 5", "level 4"),
]


def seat_rows(fit: Fit) -> list[str]:
    lines = ["| Board | fitted first-seat advantage (Elo) | 95 % interval |", "| --- | --- | --- |"]
    for board in fit.boards:
        s, se = fit.seat[board], fit.seat_error(board)
        lines.append(
            f"| {board[0]} {board[1]}×{board[1]} | {s:+.0f} | {s - 1.96 * se:+.0f} to "
            f"{s + 1.96 * se:+.0f} |"
        )
    return lines


def seat_table(rows: list[dict[str, object]]) -> list[str]:
    """Self-play games (a level against itself, from the empty board): the first seat's wins
    per board and level, with Wilson 95 % intervals, as Markdown for docs/rules.md."""
    totals: dict[tuple[str, int, str, bool], tuple[int, float]] = {}
    for row in rows:
        if row["first"] != row["second"]:
            continue
        key = (str(row["game"]), int(str(row["size"])), str(row["first"]), bool(row["time_caps"]))
        n, w = totals.get(key, (0, 0.0))
        won = {"first": 1.0, "second": 0.0, None: 0.5}[row["winner"]]  # type: ignore[index]
        totals[key] = (n + 1, w + won)
    lines = [
        "| Game | Board | Players | Games | First seat won | 95 % interval |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for (game, size, level, capped), (n, w) in sorted(totals.items()):
        lo, hi = wilson(w, n)
        caps = "time caps" if capped else "playout caps"
        lines.append(
            f"| {game} | {size}×{size} | {level} v {level} ({caps}) | {n} | {w:g} ({w / n:.0%}) "
            f"| {lo:.0%}–{hi:.0%} |"
        )
    return lines


def run_seats(args: argparse.Namespace) -> int:
    print("\n".join(seat_table(read_rows(map(Path, args.results)))))
    return 0


def fitted(paired: list[Count] | None = None) -> Fit:
    """The fit of the recorded games (what ai/levels.py shows)."""
    return fit_model(load_recorded() if paired is None else paired)


def run_fit(args: argparse.Namespace) -> int:
    paired = merge(
        load_recorded() + counts_from_rows(complete_pairs(read_rows(map(Path, args.results))))
    )
    fit = fit_model(paired, [] if args.paired_only else None)
    for name, value in sorted(fit.rating.items(), key=lambda item: item[1]):
        print(f"{name:10s} {value:7.0f}")
    print()
    print("\n".join(step_rows(paired, fit, STEPS)))
    print()
    print("\n".join(seat_rows(fit)))
    return 0


def run_record(args: argparse.Namespace) -> int:
    """Add results files' games to :data:`LADDER_FILE` (each file once: it notes their seeds)."""
    paired = merge(
        load_recorded() + counts_from_rows(complete_pairs(read_rows(map(Path, args.results))))
    )
    data = {
        "note": "paired ladder games (bench/ai_ladder.py); first_wins counts draws as half",
        "counts": [
            {
                "game": c.board[0],
                "size": c.board[1],
                "first": c.first,
                "second": c.second,
                "games": c.games,
                "first_wins": c.first_wins,
            }
            for c in paired
        ],
    }
    LADDER_FILE.write_text(json.dumps(data, indent=1) + "\n")
    print(f"{sum(c.games for c in paired)} games recorded in {LADDER_FILE}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play pairs of one step, appending to a results file")
    play.add_argument(
        "--step",
        nargs=2,
        type=int,
        metavar=("LOW", "HIGH"),
        required=True,
        help="the two levels (0: the distance reference player)",
    )
    play.add_argument("--game", nargs="+", default=list(ai_ratings.GAMES))
    play.add_argument("--size", type=int, nargs="+", help="board sizes (0: the game's default)")
    play.add_argument("--opening-plies", type=int, default=OPENING_PLIES)
    play.add_argument("--pairs", type=int, default=40)
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--time-caps", action="store_true")
    play.add_argument("--workers", type=int, default=1)
    play.add_argument("--out", required=True)
    for name in ("fit", "record", "seats"):
        p = sub.add_parser(name)
        p.add_argument("results", nargs="*")
        if name == "fit":
            p.add_argument(
                "--paired-only",
                action="store_true",
                help="leave the older alternating-seat matches out of the fit",
            )
    args = parser.parse_args(argv)
    if args.command == "play":
        if not 1 <= args.workers <= 2:
            parser.error("--workers must be 1 or 2: the machine's cores are shared")
        return run_play(args)
    if args.command == "fit":
        return run_fit(args)
    if args.command == "seats":
        return run_seats(args)
    return run_record(args)


if __name__ == "__main__":
    raise SystemExit(main())
