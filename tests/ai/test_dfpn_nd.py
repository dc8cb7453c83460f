"""The bitboard df-pn on Naked Diagonal (ai/dfpn_nd.py) against the engine and the exact solver.

Its legal points are the engine's one-point check asked over bare stones, so they are compared
point by point with the engine's ``legal_moves`` on random games (to the end: crowded boards,
and boards where an empty area would be left unfillable); its verdicts with
:class:`ai.solver.Solver` (checked against plain minimax in tests/ai/test_solver.py); and its
4x4 proof with bench/verify_proof.py, which walks the engine.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from exact_verdicts import bits_position, check_verdicts

from ai.connection import stone_masks
from ai.dfpn_bits import BITS_GAMES, BitsDfpn
from ai.dfpn_nd import NakedDiagonalBits
from ai.solver import SOLVED_DIR
from bench import solve_bits_split
from bench.solve_bits_split import orbits
from bench.verify_proof import load, verify
from rules import Game, new_game
from rules.nd_area import area_solver


def random_games(size: int, count: int, seed: int) -> list[Game]:
    """Every position of ``count`` random games, each played to its end."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        game = new_game("nakeddiagonal", size)
        while not game.is_over:
            games.append(game.copy())
            game.play(rng.choice(game.legal_moves()))
    return games


def mover_stones(game: Game) -> tuple[int, int]:
    assert game.to_move is not None
    stones = stone_masks(game)
    mover = game.players.index(game.to_move)
    return stones[mover], stones[1 - mover]


@pytest.mark.parametrize("size", [4, 5, 6, 7])
def test_legal_points_match_the_engine(size: int) -> None:
    bits = NakedDiagonalBits(size)
    names = bits.grid.names
    rng = random.Random(size)
    pockets = 0
    for game in random_games(size, 5, seed=size):
        own, opp = mover_stones(game)
        empty = bits.grid.full & ~(own | opp)
        # A subset first, before the memo knows the position: the threat check's question.
        some = empty & rng.getrandbits(size * size)
        among = bits.legal_among(own, opp, some)
        legal = bits.legal(own, opp)
        assert {names[p] for p in range(size * size) if legal >> p & 1} == set(game.legal_moves())
        assert among == legal & some
        assert bits.legal_among(own, opp, some) == legal & some  # from the memo now
        # Points with no naked diagonal that are still illegal: an area would be left NDE.
        pockets += bin(empty & ~area_solver(size).naked_mask(own) & ~legal).count("1")
    assert pockets, "the games should reach positions where the area check refuses a point"


def test_the_memo_of_legal_masks_is_bounded() -> None:
    bits = NakedDiagonalBits(4, memo_limit=3)
    for game in random_games(4, 1, seed=9)[:8]:
        own, opp = mover_stones(game)
        assert bits.legal(own, opp) == NakedDiagonalBits(4).legal(own, opp)
        assert len(bits.memo) <= 3


def test_the_game_is_registered() -> None:
    rules = BITS_GAMES["nakeddiagonal"](5)
    assert isinstance(rules, NakedDiagonalBits)
    assert rules.name == "nakeddiagonal"
    assert rules.edges[0] == (rules.grid.rows[0], rules.grid.rows[4])  # red: rows 1 and 5


@pytest.mark.parametrize(("size", "plies"), [(4, 4), (4, 7), (5, 13), (5, 16)])
def test_verdicts_match_the_exact_solver(size: int, plies: int) -> None:
    check_verdicts(
        "nakeddiagonal",
        size,
        plies,
        lambda game, seat: BitsDfpn("nakeddiagonal", size, seat).wins(*bits_position(game)),
    )


@pytest.mark.slow
def test_naked_diagonal_4_proof_passes_the_checker() -> None:
    """Naked Diagonal 4x4 from the empty board (55 200 expansions, a few seconds): the second
    seat wins, as the shipped proof says, and the checker accepts the exported strategy with
    no unused entry."""
    solver = BitsDfpn("nakeddiagonal", 4, 1)
    assert solver.wins()
    strategy = solver.strategy()
    assert not BitsDfpn("nakeddiagonal", 4, 0).wins()
    # Red places first, so the proof starts at blue's answers to each red first stone.
    assert "." * 16 + "/x/-" not in strategy
    assert "x" + "." * 15 + "/o/-" in strategy
    document = {"game": "nakeddiagonal", "size": 4, "winner_seat": "second", "strategy": strategy}
    verdict = verify(document)
    assert verdict.unused_entries == 0
    assert verdict.winner_positions == len(strategy)


@pytest.mark.slow
def test_the_shipped_naked_diagonal_5_proof_holds() -> None:
    """ai/solved/nakeddiagonal-5.json.gz, found by this solver split by first move (issue 49),
    walked by the checker with the engine: the first seat wins by opening on c3, every entry
    used (about a minute and a half on a busy machine)."""
    data = load(SOLVED_DIR / "nakeddiagonal-5.json.gz")
    verdict = verify(data)
    assert (verdict.game, verdict.size, verdict.winner_seat) == ("nakeddiagonal", 5, "first")
    assert verdict.unused_entries == 0
    assert verdict.winner_positions == len(data["strategy"])
    assert data["strategy"]["." * 25 + "/x/-"] == "c3"


def test_first_moves_split_into_the_orbits_of_the_symmetries() -> None:
    for size, count in ((4, 4), (5, 9)):
        parts = orbits("nakeddiagonal", size)
        assert len(parts) == count
        assert sorted(p for orbit in parts for p in orbit) == list(range(size * size))
    assert orbits("nakeddiagonal", 5)[0] == [12]  # c3 alone, searched first


@pytest.mark.slow
def test_a_split_solve_merges_into_one_proof(tmp_path: Path) -> None:
    """Naked Diagonal 4x4 one first-move orbit at a time (one process here takes them all),
    then merged: the checker accepts the merged file with no unused entry (about 15 s)."""
    assert solve_bits_split.main(["nakeddiagonal", "4", "--work-dir", str(tmp_path)]) == 0
    assert len(list(tmp_path.glob("orbit-*.json"))) == 4
    assert (
        solve_bits_split.main(["nakeddiagonal", "4", "--work-dir", str(tmp_path), "--merge"]) == 0
    )
    verdict = verify(load(tmp_path / "nakeddiagonal-4.json.gz"))
    assert verdict.winner_seat == "second"
    assert verdict.unused_entries == 0
