"""The bitboard df-pn (ai/dfpn_bits.py) against the rules engine and the exact solver.

Its position is its own (three ints), so its rules are checked point by point against the
engine's on random games (legal points, winning points, the skip rule, the cut-off), its
verdicts against :class:`ai.solver.Solver` (itself checked against plain minimax), and its
proof by bench/verify_proof.py, which walks the engine and shares no code with it.
"""

from __future__ import annotations

import json
import random

import pytest
from exact_verdicts import bits_position, check_verdicts, random_position

from ai.connection import stone_masks
from ai.dfpn_bits import BitsDfpn, MinefieldBits
from ai.solver import SEATS, SOLVED_DIR, Solver
from bench import solve_bits
from bench.verify_proof import load, verify
from rules import Game, new_game


def random_games(size: int, count: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        game = new_game("minefield", size)
        while not game.is_over:
            games.append(game.copy())
            game.play(rng.choice(game.legal_moves()))
    return games


@pytest.mark.parametrize("size", [4, 5, 6, pytest.param(9, marks=pytest.mark.slow)])
def test_legal_and_winning_points_match_the_engine(size: int) -> None:
    bits = MinefieldBits(size)
    names = bits.grid.names
    for game in random_games(size, 12, seed=size):
        assert game.to_move is not None
        mover = game.players.index(game.to_move)
        stones = stone_masks(game)
        own, opp = stones[mover], stones[1 - mover]
        legal = bits.legal(own, opp)
        assert {names[p] for p in range(size * size) if legal >> p & 1} == set(game.legal_moves())
        assert legal, "the engine skips a player with nothing to place"
        empty = bits.grid.full & ~(own | opp)
        winning = bits.winning_points(own, mover, empty) & legal
        for p in range(size * size):
            if legal >> p & 1:
                game.play(names[p])
                assert (p in {q for q in range(size * size) if winning >> q & 1}) == (
                    game.winner == game.players[mover]
                ), (game.moves, names[p])
                game.pop()
        for colour in (0, 1):
            cut = bits.cut_off(stones[1 - colour], colour)
            edge_a, edge_b = bits.edges[1 - colour]
            theirs = stones[1 - colour]
            crossing = bits.grid.flood(theirs & edge_a, theirs, True) & edge_b
            assert cut == bool(crossing), "the square grid's duality: a cut is a crossing"


def skip_positions(count: int) -> list[Game]:
    """Positions of random 4x4 games two placements before a player is skipped."""
    rng = random.Random(1)
    found: list[Game] = []
    while len(found) < count:
        game = new_game("minefield", 4)
        while not game.is_over:
            mover = game.to_move
            game.play(rng.choice(game.legal_moves()))
            if game.to_move == mover:  # the other player had nothing to place
                game.pop()
                game.pop()
                found.append(game)
                break
    return found


def test_the_skip_rule() -> None:
    """The engine skips a player with nothing to place; the verdicts follow it through."""
    for game in skip_positions(3):
        for index, seat in enumerate(SEATS):
            expected = Solver("minefield", 4, seat).wins(game)
            got = BitsDfpn("minefield", 4, index).wins(*bits_position(game))
            assert got == expected, (game.moves, seat)


@pytest.mark.parametrize(("size", "plies"), [(4, 5), (4, 7), (4, 9), (5, 14), (5, 17)])
def test_verdicts_match_the_exact_solver(size: int, plies: int) -> None:
    check_verdicts(
        "minefield",
        size,
        plies,
        lambda game, seat: BitsDfpn("minefield", size, seat).wins(*bits_position(game)),
        count=6,
    )


@pytest.mark.slow
def test_minefield_4_proof_passes_the_checker() -> None:
    """Minefield 4x4 from the empty board (67 000 expansions, about 5-10 s on a busy
    machine): the first seat wins, as the shipped proof says, and the checker accepts the
    exported strategy with no unused entry."""
    solver = BitsDfpn("minefield", 4, 0)
    assert solver.wins()
    assert not BitsDfpn("minefield", 4, 1).wins()
    strategy = solver.strategy()
    document = {"game": "minefield", "size": 4, "winner_seat": "first", "strategy": strategy}
    verdict = verify(document)
    assert verdict.unused_entries == 0
    assert verdict.winner_positions == len(strategy)


def proof_lines(game: Game, attacker: int, solver: BitsDfpn, strategy: dict[str, str]) -> int:
    """The lines of the strategy from ``game``, walked with the engine, each checked to end
    in the attacker's win (a missing position raises KeyError, an illegal move the engine's
    error)."""
    if game.is_over:
        assert game.winner == game.players[attacker]
        return 1
    assert game.to_move is not None
    if game.players.index(game.to_move) == attacker:
        moves = [strategy[solver.text(*bits_position(game))]]
    else:
        moves = game.legal_moves()
    lines = 0
    for move in moves:
        game.play(move)
        lines += proof_lines(game, attacker, solver, strategy)
        game.pop()
    return lines


def test_a_proof_of_a_late_position_is_complete() -> None:
    """The exported strategy answers every defender reply: walked here with the engine from a
    5x5 position the solver proves, every attacker position on the way has its move, every
    move is legal and every line ends in the attacker's win."""
    for seed in range(80):
        game = random_position("minefield", 5, 15, seed)
        if game is None:
            continue
        assert game.to_move is not None
        attacker = game.players.index(game.to_move)
        solver = BitsDfpn("minefield", 5, attacker)
        if not solver.wins(*bits_position(game)):
            continue
        strategy = solver.strategy(*bits_position(game))
        assert strategy
        assert proof_lines(game.copy(), attacker, solver, strategy)
        return
    raise AssertionError("no proven late position among the random games")


def test_solve_bits_stops_at_its_budget_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert solve_bits.main(["minefield", "5", "--max-nodes", "50"]) == 1
    summary = json.loads(capsys.readouterr().out)
    assert summary["wins"] is None
    assert summary["expansions"] == 51
    assert solve_bits.main(["minefield", "12"]) == 2
    assert "sizes 4 to 8" in capsys.readouterr().err


@pytest.mark.parametrize("heuristic", ["distance", "lines"])
def test_first_guesses_change_the_effort_not_the_verdict(heuristic: str) -> None:
    """The optional df-pn+ starting numbers (left off by default, docs/solved.md says why)."""
    checked = 0
    verdicts: set[bool] = set()
    for seed in range(40):
        game = random_position("minefield", 4, 6, seed)
        if game is None:
            continue
        for index in (0, 1):
            plain = BitsDfpn("minefield", 4, index).wins(*bits_position(game))
            verdicts.add(plain)
            guided = BitsDfpn("minefield", 4, index, heuristic=heuristic)
            assert guided.wins(*bits_position(game)) == plain, (game.moves, index)
        checked += 1
        if checked == 4:
            break
    assert checked == 4
    assert verdicts == {True, False}


@pytest.mark.slow
def test_the_shipped_minefield_5_proof_holds() -> None:
    """ai/solved/minefield-5.json.gz, found by this solver (issue 49), walked by the checker
    with the engine: a first-seat win, every entry used (about 45 s on a busy machine)."""
    data = load(SOLVED_DIR / "minefield-5.json.gz")
    verdict = verify(data)
    assert (verdict.game, verdict.size, verdict.winner_seat) == ("minefield", 5, "first")
    assert verdict.unused_entries == 0
    assert data["strategy"]["." * 25 + "/x/-"] == "c2"
