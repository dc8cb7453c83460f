"""df-pn answers what the exact depth-first solver answers, and its proofs pass the checker.

The check is against :class:`ai.solver.Solver` (itself checked against plain minimax in
test_solver.py) on positions of random games, from early middle game to late, for both seats.
"""

from __future__ import annotations

import pytest
from exact_verdicts import check_verdicts

from ai.dfpn import DfpnSolver
from ai.solver import SEATS, solve
from bench.verify_proof import verify

DFPN_GAMES = ("minefield", "nakeddiagonal", "clearpath")


@pytest.mark.parametrize("name", DFPN_GAMES)
@pytest.mark.parametrize(("size", "plies"), [(4, 5), (4, 8), (4, 11), (5, 17)])
def test_dfpn_agrees_with_the_exact_solver(name: str, size: int, plies: int) -> None:
    check_verdicts(
        name,
        size,
        plies,
        lambda game, seat: DfpnSolver(name, size, SEATS[seat]).wins(game),
        seeds=60,
    )


@pytest.mark.parametrize("name", ["crosscut", "clearcut"])
def test_dfpn_refuses_games_whose_positions_repeat(name: str) -> None:
    with pytest.raises(ValueError, match="repeat"):
        DfpnSolver(name, 5, "first")


@pytest.mark.slow
def test_dfpn_proof_of_minefield_4_passes_the_checker() -> None:
    """Minefield 4x4 solved from scratch by df-pn (about 55 s on a busy machine):
    bench/verify_proof.py, which shares no code with either search, must accept the proof."""
    solution = solve("minefield", 4, first_moves=False, solver_class=DfpnSolver)
    assert solution.winner_seat == "first"
    verdict = verify(solution.proof_document())
    assert verdict.unused_entries == 0
    assert verdict.winner_positions == len(solution.strategy)
