"""Naked Diagonal through the public engine API: placements, messages, wins, skips, undo."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# The reference lives next to this file (pytest's importlib mode: import it by path).
from test_nakeddiagonal_area import brute_fillable  # type: ignore[import-not-found]

from rules import IllegalMove, InvalidOptions, new_game, parse_record
from rules.base import Game
from rules.errors import RuleViolation
from rules.nakeddiagonal import NakedDiagonal
from rules.nd_area import area_solver, check_witness


def play_all(game: Game, moves: str) -> Game:
    for move in moves.split():
        game.play(move)
    return game


def naked_pairs(game: Game) -> list[tuple[str, str]]:
    """Every naked diagonal on the board, straight from the definition."""
    size, cells, names = game.size, game.cells(), game.grid.names
    found = []
    for row in range(size - 1):
        for col in range(size - 1):
            a, b = row * size + col, row * size + col + 1
            c, d = a + size, b + size
            for x, y, m1, m2 in ((a, d, b, c), (b, c, a, d)):
                colour = cells[x]
                guards = (cells[m1], cells[m2])
                if colour is not None and colour == cells[y] and colour not in guards:
                    found.append((names[x], names[y]))
    return found


def stone_masks(game: Game) -> tuple[int, int]:
    red = sum(1 << i for i, owner in enumerate(game.cells()) if owner == "red")
    blue = sum(1 << i for i, owner in enumerate(game.cells()) if owner == "blue")
    return red, blue


def test_registered_with_sizes_and_players() -> None:
    game = new_game("Naked Diagonal")
    assert isinstance(game, NakedDiagonal)
    assert (game.name, game.title, game.size) == ("nakeddiagonal", "Naked Diagonal", 7)
    assert game.players == ("red", "blue") and game.to_move == "red"
    assert NakedDiagonal.min_size == 4 and NakedDiagonal.max_size >= 9
    assert len(new_game("nakeddiagonal", 4).legal_moves()) == 16
    with pytest.raises(InvalidOptions, match="4×4"):
        new_game("nakeddiagonal", 3)
    with pytest.raises(InvalidOptions):
        new_game("nakeddiagonal", NakedDiagonal.max_size + 1)


def test_naked_diagonal_is_refused_with_reason_and_nothing_changes() -> None:
    game = play_all(new_game("nakeddiagonal", 5), "b2 e5")
    before = game.state_key()
    assert "c3" not in game.legal_moves()
    with pytest.raises(RuleViolation, match=r"^c3 would form a naked diagonal$"):
        game.play("c3")
    assert game.state_key() == before
    assert game.explain("c3") == "c3 would form a naked diagonal"
    # A protected diagonal is fine: red c2 first, then c3 is covered by c2.
    play_all(game, "c2 a5")
    assert "c3" in game.legal_moves()
    game.play("c3")
    assert naked_pairs(game) == []


def test_blue_diagonals_count_too_and_protection_needs_the_same_colour() -> None:
    game = play_all(new_game("nakeddiagonal", 5), "a5 b2 c2 e5")
    # Blue c3 would pair with b2; its common neighbours are b3 (empty) and c2 (red).
    assert game.explain("c3") is None  # red may go there
    game.play("e1")
    assert game.explain("c3") == "c3 would form a naked diagonal"


def test_issue_position_one_red_c1_leaves_an_unfillable_area() -> None:
    # ...R. / ...R. / B.... / R.B.. / B....  (row 5 first), red to move.
    game = play_all(new_game("nakeddiagonal", 5), "d5 a3 d4 c2 a2 a1")
    assert game.to_move == "red"
    assert naked_pairs(game) == []
    message = game.explain("c1")
    assert message is not None
    assert message.startswith("c1 would leave an area that can't be filled without a naked")
    assert "b1" in message and "b2" in message and message.endswith(", ...)")
    assert "c1" not in game.legal_moves()
    with pytest.raises(IllegalMove):
        game.play("c1")


def test_issue_position_two_area_is_fillable_and_play_goes_on() -> None:
    # ...R.. / B..... / B..... / .R.B.. / ....R. / .BR.RB, red to move.
    game = play_all(new_game("nakeddiagonal", 6), "d6 a5 b3 a4 e2 d3 c1 b1 e1 f1")
    assert game.to_move == "red" and naked_pairs(game) == []
    red, blue = stone_masks(game)
    (area,) = area_solver(6).components(area_solver(6).full & ~(red | blue), diagonal=False)
    assert area.bit_count() == 26
    witness = area_solver(6).solve(area, red, blue)
    assert witness is not None and check_witness(6, area, red, blue, witness)
    assert game.legal_moves()


def test_red_wins_with_an_orthogonal_path_between_rows_one_and_n() -> None:
    game = play_all(new_game("nakeddiagonal", 4), "a1 c1 a2 c2 a3 c3")
    assert game.winner is None
    record = game.play("a4")
    assert record.winner == "red" and game.is_over and game.to_move is None
    assert game.winning_path == ("a1", "a2", "a3", "a4")
    assert game.legal_moves() == []
    with pytest.raises(IllegalMove, match="red won"):
        game.play("d4")


def test_blue_wins_between_columns_a_and_last() -> None:
    game = play_all(new_game("nakeddiagonal", 4), "a4 a1 b4 b1 c4 c1 a3")
    assert game.play("d1").winner == "blue"
    assert game.winning_path == ("a1", "b1", "c1", "d1")


def test_pop_restores_everything_including_edge_reach() -> None:
    game = play_all(new_game("nakeddiagonal", 4), "a1 c1 a2 c2 a3 c3")
    before = (game.state_key(), game.legal_moves(), game.record())
    game.play("a4")
    assert game.is_over
    game.pop()
    assert (game.state_key(), game.legal_moves(), game.record()) == before
    assert game.play("a4").winner == "red"


def _refuse_points(monkeypatch: pytest.MonkeyPatch, refused: Callable[[int], bool]) -> None:
    """Take every placement away from the players ``refused`` picks, in the one-point
    verdicts too: the skip rule is settled from them (the whole mask only when they find
    nothing), so faking the mask alone would no longer reach it."""
    real = NakedDiagonal._point_legal

    def fake(self: NakedDiagonal, point: int, player: int, nodes: int | None = None) -> bool | None:
        return False if refused(player) else real(self, point, player, nodes)

    monkeypatch.setattr(NakedDiagonal, "_point_legal", fake)


def test_skip_rule_gives_the_turn_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player with no legal placement is skipped and the record says so.

    Such positions are extremely rare in Naked Diagonal (none turned up in searches of legal
    positions), so red's placements are taken away here by hand, everything else is real.
    """
    game = play_all(new_game("nakeddiagonal", 5), "c3")
    game.legal_mask()  # blue's a1 is checked against the real rules
    real = NakedDiagonal._legal_mask
    monkeypatch.setattr(
        NakedDiagonal, "_legal_mask", lambda self, p: 0 if p == 0 else real(self, p)
    )
    _refuse_points(monkeypatch, lambda player: player == 0)
    before = game.state_key()
    record = game.play("a1")
    assert record.skipped == "red" and not record.draw
    assert game.to_move == "blue" and game.turn_number == 4
    assert game.legal_moves()
    game.pop()
    assert game.state_key() == before


def test_drawn_end_is_handled_defensively(monkeypatch: pytest.MonkeyPatch) -> None:
    """If nobody could place, the game must end drawn instead of looping."""
    game = play_all(new_game("nakeddiagonal", 5), "c3")
    game.legal_mask()  # blue's a1 is checked against the real rules
    monkeypatch.setattr(NakedDiagonal, "_legal_mask", lambda self, p: 0)
    _refuse_points(monkeypatch, lambda player: True)
    record = game.play("a1")
    assert record.draw and game.is_over and game.is_draw and game.winner is None
    assert game.legal_moves() == [] and game.to_move is None


def test_record_round_trip() -> None:
    game = play_all(new_game("nakeddiagonal", 5), "c3 a1 c4 e5")
    again = parse_record(game.record())
    assert again.state_key() == game.state_key()


def _check_position(game: Game, rnd: random.Random) -> None:
    """Invariants at one position: no naked diagonal, every area fillable, API agreement."""
    assert naked_pairs(game) == []
    red, blue = stone_masks(game)
    solver = area_solver(game.size)
    for area in solver.components(solver.full & ~(red | blue), diagonal=False):
        if area.bit_count() <= 12:
            assert brute_fillable(game.size, area, red, blue)
        witness = solver.solve(area, red, blue)
        assert witness is not None and check_witness(game.size, area, red, blue, witness)
    if game.is_over:
        return
    legal = set(game.legal_moves())
    empty = [n for n, owner in zip(game.grid.names, game.cells(), strict=True) if owner is None]
    for name in rnd.sample(empty, min(6, len(empty))):
        before = game.state_key()
        if name in legal:
            game.play(name)
            game.pop()
        else:
            with pytest.raises(RuleViolation) as err:
                game.play(name)
            assert "naked diagonal" in str(err.value)
        assert game.state_key() == before


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([4, 5]))
def test_random_playouts_keep_every_invariant(seed: int, size: int) -> None:
    rnd = random.Random(seed)
    game = new_game("nakeddiagonal", size)
    _check_position(game, rnd)
    while not game.is_over:
        game.play(rnd.choice(game.legal_moves()))
        _check_position(game, rnd)
    assert game.winner is not None  # no crosscut can form, so someone connects
    assert game.winning_path


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_illegal_area_verdicts_match_exhaustive_search(seed: int) -> None:
    """Every point refused for an area reason really leaves an NDE area (exhaustive check)."""
    rnd = random.Random(seed)
    game = new_game("nakeddiagonal", 5)
    solver = area_solver(5)
    compared = 0
    while not game.is_over:
        player = 0 if game.to_move == "red" else 1
        red, blue = stone_masks(game)
        legal = set(game.legal_moves())
        for i, name in enumerate(game.grid.names):
            if (red | blue) >> i & 1 or solver.forms_naked(i, (red, blue)[player]):
                continue
            after = [red, blue]
            after[player] |= 1 << i
            empty = solver.full & ~(after[0] | after[1])
            small = [a for a in solver.components(empty, diagonal=False) if a.bit_count() <= 10]
            if len(small) == len(solver.components(empty, diagonal=False)):
                fillable = all(brute_fillable(5, a, after[0], after[1]) for a in small)
                assert (name in legal) == fillable, (game.record(), name)
                compared += 1
        game.play(rnd.choice(sorted(legal)))
    assert compared > 0


@pytest.mark.slow
def test_playouts_on_bigger_boards_agree_with_play() -> None:
    rnd = random.Random(5)
    for size in (7, 9):
        game = new_game("nakeddiagonal", size)
        while not game.is_over:
            moves = game.legal_moves()
            assert moves
            for name in rnd.sample(moves, min(3, len(moves))):
                game.play(name)
                game.pop()
            game.play(rnd.choice(moves))
            assert naked_pairs(game) == []
        assert game.winner is not None


def test_copy_is_independent() -> None:
    game = play_all(new_game("nakeddiagonal", 5), "c3 a1")
    clone = game.copy()
    clone.play("c4")
    clone.play("e5")
    assert game.at("c4") is None and clone.at("c4") == "red"
    assert game.record() == "nakeddiagonal 5: c3 a1"
    assert "c4" in game.legal_moves() and "c4" not in clone.legal_moves()
    game.play("c4")
    assert game.state_key() != clone.state_key()


def test_set_up_position_rebuilds_edge_reach_and_checks_areas() -> None:
    stones = {"red": ["d5", "d4", "a2"], "blue": ["a3", "c2", "a1"]}
    game = NakedDiagonal.from_position(5, stones, to_move="red")
    played = play_all(new_game("nakeddiagonal", 5), "d5 a3 d4 c2 a2 a1")
    assert game.legal_moves() == played.legal_moves()
    assert "c1" not in game.legal_moves()
    column = NakedDiagonal.from_position(4, {"red": ["b1", "b2", "b3"], "blue": []}, "red")
    assert column.play("b4").winner == "red"


def test_a_replay_never_computes_a_whole_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 49: replaying a 341-move 19x19 record took 20 s, because every ``play`` computed
    the next player's whole legal mask for the skip rule.  A move is now checked by its own
    verdict and the skip rule stops at the first legal placement, so a replay with no skipped
    turn never asks for a whole mask; asked for afterwards, it is the same as the reference's
    (tests/rules/test_nd_reference_props.py compares them at every size)."""
    records = json.loads((Path(__file__).parents[2] / "bench/nd_replay_records.json").read_text())
    record = records[-1]
    real = NakedDiagonal._legal_mask
    calls: list[int] = []

    def counted(self: NakedDiagonal, player: int) -> int:
        calls.append(player)
        return real(self, player)

    monkeypatch.setattr(NakedDiagonal, "_legal_mask", counted)
    game = parse_record(record)
    assert len(game.history) >= 300 and calls == []
    assert game.record() == record
    moves = game.legal_moves()
    assert len(calls) == 1
    assert all(game.copy().is_legal(m) for m in moves[:20])
