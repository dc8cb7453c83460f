"""The Clearcut bitboard df-pn (ai/dfpn_clearcut.py) against the engine and the exact solver.

Its rules (ai/clearcut_bits.py) are checked placement by placement against the engine on
random games, its verdicts against :class:`ai.solver.Solver` (itself checked against plain
minimax), its handling of repetitions on a position whose only winning move is made to
repeat, and its proof by bench/verify_proof.py, which walks the engine and shares no code
with it.
"""

from __future__ import annotations

import json
import random

import pytest
from exact_verdicts import bits_position, check_verdicts

from ai.clearcut_bits import ClearcutBits
from ai.connection import stone_masks
from ai.dfpn_clearcut import ClearcutDfpn
from ai.dfpn_step import INF, LOSS
from ai.solver import SOLVED_DIR, Solver
from bench import solve_bits
from bench.verify_proof import load, verify
from rules import Game, new_game


@pytest.mark.parametrize("size", [4, 5, 6, 7])
def test_placements_and_removals_match_the_engine(size: int) -> None:
    """Every position of random games (captures preferred, so that crosscuts, several at
    once, and removals are common): the legal points, and the checkers after every legal
    placement, removals made, and whether it wins."""
    bits = ClearcutBits(size)
    solver = ClearcutDfpn(size, 0)
    names = bits.grid.names
    rng = random.Random(size)
    removals = 0
    for _ in range(6):
        game = new_game("clearcut", size)
        while not game.is_over and len(game.moves) < 3 * size * size:
            black, white, mover = bits_position(game)
            own, opp = (black, white) if mover == 0 else (white, black)
            legal = bits.legal(own, opp)
            moves = game.legal_moves()
            assert {names[p] for p in range(size * size) if legal >> p & 1} == set(moves)
            for move in moves:
                p = names.index(move)
                after = solver.play(black, white, mover, p)
                game.play(move)
                assert stone_masks(game) == after, (game.moves, move)
                assert game.is_over == bits.joins(after[mover], p, mover), game.moves
                removals += after[1 - mover] != (black, white)[1 - mover]
                game.pop()
            captures = game.capture_mask()
            pool = [names[p] for p in range(size * size) if captures >> p & 1]
            game.play(rng.choice(pool if pool and rng.random() < 0.7 else moves))
    assert removals > 5, "the games should remove checkers"


@pytest.mark.parametrize(
    ("enemy", "legal"),
    [
        # b2 forms two crosscuts (with a1 and with c1), sharing the enemy b1: three removed.
        (["a2", "b1", "c2"], True),
        # The same, but the enemy group of a2 (a2 a3 a4) is as large as the new b2 b3 b4.
        (["a2", "b1", "c2", "a3", "a4"], False),
    ],
)
def test_several_crosscuts_at_once(enemy: list[str], legal: bool) -> None:
    """One placement forming two crosscuts: legal only if larger than every enemy group in
    them, and then every enemy checker of every crosscut goes, as in the engine."""
    game = new_game("clearcut", 4)
    first, second = game.players
    game = type(game).from_position(4, {first: ["a1", "c1", "b3", "b4"], second: enemy}, first)
    bits = ClearcutBits(4)
    black, white, mover = bits_position(game)
    b2 = bits.grid.names.index("b2")
    assert bool(bits.legal(black, white) >> b2 & 1) == legal == ("b2" in game.legal_moves())
    if legal:
        after = ClearcutDfpn(4, 0).play(black, white, mover, b2)
        game.play("b2")
        assert stone_masks(game) == after
        assert (white & ~after[1]).bit_count() == 3


@pytest.mark.parametrize(("size", "plies"), [(4, 6), (4, 8), (5, 16), (5, 20)])
def test_verdicts_match_the_exact_solver(size: int, plies: int) -> None:
    shared = [ClearcutDfpn(size, 0), ClearcutDfpn(size, 1)]  # tables reused across positions

    def verdict(game: Game, seat: int) -> bool:
        fresh = ClearcutDfpn(size, seat).wins(*bits_position(game))
        assert shared[seat].wins(*bits_position(game)) == fresh, game.moves
        return fresh

    check_verdicts("clearcut", size, plies, verdict)


LINE = ("c4", "b3", "b2", "a2", "c1")
"""A 4x4 line after which the first seat (attacker) wins with the second to move; after the
reply c3 its one winning placement that is not a win in one is d3 (found by the exact solver
over every placement, once: it takes half a minute)."""


class StoresEveryDisproof(ClearcutDfpn):
    """The mistake the tainted table prevents: a disproof that used a repetition stored as
    if it held on every line."""

    def _disproved(self, key, children, values, attacking):  # type: ignore[no-untyped-def]
        super()._disproved(key, children, values, attacking)
        self.table[key] = LOSS


@pytest.mark.parametrize("solver_class", [ClearcutDfpn, StoresEveryDisproof])
def test_a_disproof_through_a_repetition_holds_only_on_its_line(
    solver_class: type[ClearcutDfpn],
) -> None:
    """After the defender's reply, with the attacker's only winning move leading to a
    position on the path (as if the line came from there), the attacker cannot win; off
    that line it can, so the position before the reply is a win. The search keeps the first
    verdict apart with the path key it relied on and reads it back only on such a line;
    storing it for good (the subclass) turns the win into a wrong non-win."""
    game = new_game("clearcut", 4)
    for move in LINE:
        game.play(move)
    assert Solver("clearcut", 4, "first").wins(game)
    reply, point = "c3", game.grid.names.index("d3")
    black, white, defender = bits_position(game)
    attacker = defender ^ 1
    solver = solver_class(4, attacker)
    game.play(reply)
    after = bits_position(game)
    game.pop()
    child = solver.play(*after, point)
    repeated = solver.key(*child, defender)
    solver.path.add(repeated)
    assert solver._mid(*after, solver.keys_of(*after[:2]), INF, INF) == LOSS
    assert solver.tainted[solver.key(*after)] == {repeated}
    solver.path.discard(repeated)
    if solver_class is StoresEveryDisproof:
        assert not solver.wins(black, white, defender), "the stored disproof is reused: wrong"
        return
    assert solver.key(*after) not in solver.table
    assert solver.wins(black, white, defender)


def test_clearcut_4_is_won_by_the_first_seat_and_its_proof_passes_the_checker() -> None:
    """The whole 4x4 board (about 30 000 expansions, a few seconds): the first seat wins, as
    the shipped proof of the exact solver says, and the checker accepts the exported
    strategy, every entry used and no line repeating."""
    solver = ClearcutDfpn(4, 0)
    assert solver.wins()
    strategy = solver.strategy()
    document = {"game": "clearcut", "size": 4, "winner_seat": "first", "strategy": strategy}
    verdict = verify(document)
    assert verdict.unused_entries == 0
    assert verdict.winner_positions == len(strategy)
    assert strategy["." * 16 + "/x/-"] in {"a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3"}


def test_solve_bits_dispatches_clearcut(capsys: pytest.CaptureFixture[str]) -> None:
    assert solve_bits.main(["clearcut", "5", "--max-nodes", "50"]) == 1
    summary = json.loads(capsys.readouterr().out)
    assert (summary["game"], summary["wins"], summary["expansions"]) == ("clearcut", None, 51)


@pytest.mark.slow
def test_the_shipped_clearcut_5_proof_holds() -> None:
    """ai/solved/clearcut-5.json.gz, found by this solver (issue 49), walked by the checker
    with the engine: a first-seat win, every entry used, no line repeating (a few minutes on
    a busy machine)."""
    data = load(SOLVED_DIR / "clearcut-5.json.gz")
    verdict = verify(data)
    assert (verdict.game, verdict.size, verdict.winner_seat) == ("clearcut", 5, "first")
    assert verdict.unused_entries == 0
    assert data["strategy"]["." * 25 + "/x/-"] == "b3"
