"""The Clear Path bitboard df-pn (ai/dfpn_clearpath.py) against the engine and the exact solver.

Its position is its own (two stone masks, the colour to move, the pie state), so its rules
are checked against the engine's on random games, placement by placement (legal sets, where
each move leads, which children it settles and how), its verdicts against
:class:`ai.solver.Solver`, and its 4x4 proof by bench/verify_proof.py, which walks the engine
and shares no code with it.
"""

from __future__ import annotations

import json
import random

import pytest
from exact_verdicts import check_verdicts, random_position

from ai.connection import stone_masks
from ai.dfpn_clearpath import FLAGS, OFFERED, SWAP, ClearPathDfpn
from ai.dfpn_step import LOSS, WIN
from ai.solver import flags
from bench import solve_bits
from bench.verify_proof import verify
from rules import Game, new_game


def state(game: Game) -> tuple[int, int, int, int]:
    assert game.to_move is not None
    red, blue = stone_masks(game)
    return red, blue, game.players.index(game.to_move), FLAGS.index(flags(game))


def random_games(size: int, count: int, seed: int) -> list[Game]:
    """Every position of ``count`` random games, swaps included (taken half the time)."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        game = new_game("clearpath", size)
        while not game.is_over:
            games.append(game.copy())
            moves = game.legal_moves()
            game.play("swap" if "swap" in moves and rng.random() < 0.5 else rng.choice(moves))
    return games


@pytest.mark.parametrize("size", [4, 5, 6, 7])
def test_legal_moves_children_and_settled_values_match_the_engine(size: int) -> None:
    solver = ClearPathDfpn(size, 1)
    names = solver.cp.grid.names
    settled = {WIN: 0, LOSS: 0}
    for game in random_games(size, 8, seed=size):
        red, blue, mover, flag = state(game)
        moved, legal, wins, surrounded = solver.turn(red, blue, mover, flag)
        assert moved == mover, "the engine hands the turn on past a skip itself"
        expected = set(game.legal_moves())
        got = {names[p] for p in range(size * size) if legal >> p & 1}
        assert got | ({"swap"} if flag == OFFERED else set()) == expected, game.moves
        children = solver.cp_children(
            red, blue, mover, flag, legal, wins, surrounded, solver.keys_of(red, blue)
        )
        if wins:
            (child,) = children
            game.play(names[child[7]])
            assert game.winner == game.players[mover]
            game.pop()
            continue
        assert len(children) == len(expected)
        for b, w, cmover, cflag, _, value, _, move in children:
            game.play("swap" if move == SWAP else names[move])
            assert not game.is_over
            after = state(game)
            # The child is keyed by the colour due to move before any skip.
            assert (b, w) == after[:2] and cflag == after[3], game.moves
            assert solver.turn(b, w, cmover, cflag)[0] == after[2], game.moves
            if value is not None:
                settled[value] += 1
                # Settled for the colour now to move (the other side's threat left open, or
                # the mover's own chain that can only end in its win): that colour has a
                # winning placement now, or (a chain) has joined its edges diagonally.
                to_move = after[2]
                seat = to_move ^ game.swapped
                assert value == (WIN if seat == solver.attacker else LOSS), game.moves
                if cmover == mover:
                    assert game.to_move == game.players[mover]
                can_win = False
                for reply in game.legal_moves():
                    game.play(reply)
                    can_win |= game.winner == game.players[to_move]
                    game.pop()
                assert can_win or (
                    cmover == mover and solver.cp.odip_joined((b, w)[mover], mover)
                ), game.moves
            game.pop()
    assert settled[WIN] + settled[LOSS] > 0, "the games should reach settled children"


@pytest.mark.parametrize(("size", "plies", "count"), [(4, 5, 6), (4, 7, 6), (5, 12, 4), (5, 14, 4)])
def test_verdicts_match_the_exact_solver(size: int, plies: int, count: int) -> None:
    check_verdicts(
        "clearpath",
        size,
        plies,
        lambda game, seat: ClearPathDfpn(size, seat).wins(*state(game)),
        count=count,
        seeds=200,
        # Odd seeds take the swap whenever it is offered.
        position=lambda seed: random_position("clearpath", size, plies, seed, swap=seed % 2 == 1),
    )


@pytest.mark.slow
def test_clearpath_4_proof_passes_the_checker() -> None:
    """Clear Path 4x4 from the empty board (105 000 expansions a seat, about 7 CPU seconds
    each): the second seat wins, as the shipped proof says, the first does not (there the
    swap is one of the defender's replies), and the checker accepts the exported strategy
    with no unused entry."""
    solver = ClearPathDfpn(4, 1)
    assert solver.wins()
    assert not ClearPathDfpn(4, 0).wins()
    strategy = solver.strategy()
    document = {"game": "clearpath", "size": 4, "winner_seat": "second", "strategy": strategy}
    verdict = verify(document)
    assert verdict.unused_entries == 0
    assert verdict.winner_positions == len(strategy)


def test_solve_bits_dispatches_clear_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert solve_bits.main(["clearpath", "5", "--seat", "second", "--max-nodes", "50"]) == 1
    summary = json.loads(capsys.readouterr().out)
    assert (summary["game"], summary["wins"], summary["expansions"]) == ("clearpath", None, 51)
    assert solve_bits.main(["clearpath", "4", "--first-turns", "--turn-nodes", "200"]) == 1
    rows = json.loads(capsys.readouterr().out)["first_turns"]
    # 16 points in the orbits of the four edge-keeping symmetries: a1 b1 a2 b2 (4 each).
    assert sorted(len(row["red_first"]) for row in rows) == [4, 4, 4, 4]
