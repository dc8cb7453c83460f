"""One test (at least) for every ruling in docs/rules.md ("Rulings"), in the page's order."""

from __future__ import annotations

import pytest

from rules import (
    GameOver,
    IllegalMove,
    InvalidNotation,
    InvalidOptions,
    OccupiedPoint,
    RuleViolation,
    game_class,
    new_game,
)
from rules.base import Effects, Game

# ----- conventions shared by all five games --------------------------------------------------


def test_points_are_column_letter_then_row_with_a1_bottom_left() -> None:
    g = new_game("minefield", 9)
    g.play("a1")
    assert g.cells()[0] == "black"
    g.play("I9")  # case is ignored
    assert g.cells()[80] == "white"
    assert g.at("  i9 ") == "white"


@pytest.mark.parametrize("bad", ["z99", "c0", "3c", "", "   ", "j1", "a10", "c-3", "cc3"])
def test_unparseable_points_are_rejected_with_a_reason(bad: str) -> None:
    g = new_game("minefield", 9)
    with pytest.raises(InvalidNotation) as exc:
        g.play(bad)
    assert str(exc.value)
    assert g.history == ()


def test_occupied_point_is_rejected() -> None:
    g = new_game("clearcut", 9)
    g.play("d4")
    with pytest.raises(OccupiedPoint, match="d4 is occupied"):
        g.play("d4")


def test_players_and_who_moves_first() -> None:
    assert game_class("minefield").players == ("black", "white")
    for name in ("clearpath", "crosscut", "clearcut"):
        assert game_class(name).players == ("red", "blue")
        assert new_game(name).to_move == "red"
    assert new_game("minefield").to_move == "black"


def test_first_player_owns_top_and_bottom_second_left_and_right() -> None:
    # A full column of black wins for black (rows 1 and N); a full row would not.
    g = new_game("minefield", 4)
    for black, white in (("b1", "d1"), ("b2", "d2"), ("b3", "d3")):
        g.play(black)
        g.play(white)
    g.play("b4")
    assert g.winner == "black"
    assert g.winning_path == ("b1", "b2", "b3", "b4")
    h = new_game("minefield", 4)
    for black, white in (("a4", "a2"), ("c4", "b2"), ("d4", "c2")):
        h.play(black)
        h.play(white)
    h.play("a1")
    h.play("d2")
    assert h.winner == "white"


def test_diagonal_steps_never_count_toward_a_win() -> None:
    g = game_class("clearcut").from_position(4, {"red": ["a1", "b2", "c3"]}, "red")
    g.play("d4")  # a1-b2-c3-d4 joins the red edges only diagonally
    assert not g.is_over


@pytest.mark.parametrize(
    ("name", "low", "high", "default"),
    [
        ("crosscut", 5, 10, 8),
        ("clearpath", 4, 19, 9),
        ("minefield", 4, 19, 9),
        ("clearcut", 4, 19, 9),
    ],
)
def test_sizes(name: str, low: int, high: int, default: int) -> None:
    assert new_game(name).size == default
    assert new_game(name, low).size == low
    assert new_game(name, high).size == high
    for bad in (low - 1, high + 1):
        with pytest.raises(InvalidOptions, match=f"{low}×{low}"):
            new_game(name, bad)
    with pytest.raises(InvalidOptions):
        new_game(name, "9")  # type: ignore[arg-type]


class _Stuck(Game):
    """A test game where nobody can ever place: the engine must end drawn, not loop."""

    name = "stuck"
    title = "Stuck"

    def _legal_mask(self, player: int) -> int:
        # Only the very first placement is allowed; afterwards neither player can place.
        return self.grid.full if not self._history and not self._stones[0] else 0

    def _place(self, point: int, player: int) -> Effects:
        self._stones[player] |= 1 << point
        return Effects()

    def _why_illegal(self, point: int, player: int) -> str:
        return "nothing can be placed"


class _OneSided(Game):
    """Only Red can place: Blue is skipped every turn and the record says so."""

    name = "onesided"
    title = "One-sided"

    def _legal_mask(self, player: int) -> int:
        empty = self.grid.full & ~(self._stones[0] | self._stones[1])
        return empty if player == 0 else 0

    def _place(self, point: int, player: int) -> Effects:
        self._stones[player] |= 1 << point
        return Effects()

    def _why_illegal(self, point: int, player: int) -> str:
        return "blue never places"


def test_skip_when_a_player_has_no_placement() -> None:
    g = _OneSided(4)
    record = g.play("a1")
    assert record.skipped == "blue"
    assert g.to_move == "red"
    assert g.turn_number == 3  # Red's turn, Blue's skipped turn, now Red again
    assert g.record() == "onesided 4: a1 -"


def test_draw_when_neither_player_can_place() -> None:
    g = _Stuck(4)
    record = g.play("a1")
    assert record.draw and record.skipped == "blue"
    assert g.is_over and g.winner is None and g.is_draw and g.to_move is None
    assert g.legal_moves() == []
    with pytest.raises(GameOver, match="draw"):
        g.play("b2")


def test_real_games_register_no_test_games() -> None:
    from rules import game_names

    assert set(game_names()) >= {"clearpath", "minefield", "crosscut", "clearcut"}
    assert "stuck" not in game_names()  # the test classes stay unregistered
    assert "onesided" not in game_names()


# ----- Clear Path ----------------------------------------------------------------------------


def test_clearpath_surrounded_counts_edges_and_stones_of_either_colour() -> None:
    # a1 is a corner: two sides are off the board; one stone next to it makes three.
    g = game_class("clearpath").from_position(5, {"blue": ["b1"]}, "red")
    record = g.play("a1")
    assert record.continues and g.to_move == "red"
    # Two off-board sides alone are not enough.
    h = new_game("clearpath", 5)
    assert not h.play("a1").continues


def test_clearpath_chain_ends_on_the_first_placement_not_surrounded() -> None:
    g = game_class("clearpath").from_position(5, {"blue": ["b1", "b2"]}, "red")
    assert g.play("a1").continues  # corner + b1
    assert g.play("a2").continues  # edge + a1 + b2
    last = g.play("e5")  # corner with two empty sides: the turn ends here
    assert not last.continues and g.to_move == "blue"
    assert [r.move for r in g.last_turn()] == ["a1", "a2", "e5"]


def test_clearpath_rule_forbids_a_diagonal_only_connection() -> None:
    # Red a1 b2 c3 d4 + e5 would join rows 1 and 5 only diagonally (Figure 2's situation).
    stones = {"red": ["a1", "b2", "c3", "d4"], "blue": ["a5", "e1"]}
    g = game_class("clearpath").from_position(5, stones, "red")
    before = g.state_key()
    assert "e5" not in g.legal_moves()
    with pytest.raises(RuleViolation, match="ODIP"):
        g.play("e5")
    assert g.state_key() == before
    assert "d5" not in g.legal_moves()  # d4-d5 touches row 5, joined diagonally to row 1
    assert "e2" in g.legal_moves()


def test_clearpath_diagonal_join_is_fine_together_with_an_orthogonal_one() -> None:
    stones = {"red": ["a1", "a2", "a3", "a4", "b4"], "blue": ["c1", "e2"]}
    g = game_class("clearpath").from_position(5, stones, "red")
    assert g.play("a5").winner == "red"


def test_clearpath_rule_is_judged_on_the_final_placement_only() -> None:
    """Figure 3 of the sheet: a mid-chain block is fine when the turn ends in a win."""
    stones = {"blue": ["a3", "b3", "c3", "e4"], "red": ["d2", "d4"]}
    g = game_class("clearpath").from_position(5, stones, "blue")
    # d3 is surrounded (c3, d2, d4) and joins a3..d3 to e4 diagonally: an ODIP, no OIP yet.
    first = g.play("d3")
    assert first.continues and g.to_move == "blue" and not g.is_over
    # Now only a win may end the turn: an ordinary final placement is refused.
    assert "a1" not in g.legal_moves()
    with pytest.raises(RuleViolation, match="diagonally this turn"):
        g.play("a1")
    assert g.play("e3").winner == "blue"
    assert [r.move for r in g.last_turn()] == ["d3", "e3"]
    # Without the chain (d4 empty), d3 would be a final placement forming the ODIP: illegal.
    h = game_class("clearpath").from_position(5, {"blue": stones["blue"], "red": ["d2"]}, "blue")
    assert "d3" not in h.legal_moves()


def test_clearpath_never_strands_a_player_mid_chain() -> None:
    # 4x4 with two empty points, a1 and d4, both surrounded.  Red has no way to connect, so
    # any placement would start a chain that cannot end: Red has no legal placement at all.
    stones = {
        "red": ["a2", "b3", "c1", "d2", "b1", "c4"],
        "blue": ["a3", "a4", "b2", "b4", "c2", "c3", "d1", "d3"],
    }
    g = game_class("clearpath").from_position(4, stones, "red")
    assert g.legal_moves() == []
    for point in ("a1", "d4"):
        with pytest.raises(RuleViolation, match="no way to finish the turn"):
            g.play(point)
    # Blue, by contrast, may fill them: d4 is surrounded, a1 then ends the turn or wins.
    b = game_class("clearpath").from_position(4, stones, "blue")
    assert set(b.legal_moves()) <= {"a1", "d4"}
    for move in b.legal_moves():
        after = b.copy()
        record = after.play(move)
        assert record.winner == "blue" or after.legal_moves()


def test_clearpath_a_win_ends_the_game_at_once_even_mid_chain() -> None:
    stones = {"red": ["b1", "b2", "b3"], "blue": ["a4", "c4"]}
    g = game_class("clearpath").from_position(4, stones, "red")
    record = g.play("b4")  # surrounded (edge, a4, c4, b3) and completes b1-b4
    assert record.winner == "red" and not record.continues and g.is_over


def test_pie_rule_swap_is_offered_once_right_after_reds_first_turn() -> None:
    g = new_game("clearpath", 9)
    assert "swap" not in g.legal_moves()
    with pytest.raises(RuleViolation, match="swap"):
        g.play("swap")
    g.play("e5")
    assert "swap" in g.legal_moves()
    record = g.play("swap")
    assert record.swap and record.player == "blue" and record.point is None
    assert g.at("e5") == "red"  # stones stay where they are
    assert g.to_move == "blue"  # the other player, now Blue, moves next
    assert "swap" not in g.legal_moves()
    g.play("d4")
    with pytest.raises(RuleViolation):
        g.play("swap")
    assert g.record() == "clearpath 9: e5 swap d4"


def test_swap_is_not_offered_later_or_in_other_games() -> None:
    g = new_game("clearpath", 9)
    g.play("e5")
    g.play("d5")
    assert "swap" not in g.legal_moves()
    for name in ("minefield", "crosscut", "clearcut"):
        h = new_game(name)
        h.play(h.legal_moves()[len(h.legal_moves()) // 2])
        assert "swap" not in h.legal_moves()
        with pytest.raises(IllegalMove):
            h.play("swap")


# ----- Minefield -----------------------------------------------------------------------------


def test_minefield_edges_are_not_stones() -> None:
    # Black a2, white b1: at a1 a "hard corner" would need a point off the board.  Legal.
    g = game_class("minefield").from_position(5, {"black": ["b2"], "white": ["a2"]}, "black")
    assert "a1" not in g.legal_moves()  # b2 + a1 diagonal, a2 white, b1 empty: hard corner
    h = game_class("minefield").from_position(5, {"white": ["a2"]}, "black")
    assert "a1" in h.legal_moves()


def test_minefield_hard_corner_both_ways() -> None:
    g = game_class("minefield").from_position(5, {"black": ["b2"], "white": ["c2"]}, "black")
    with pytest.raises(RuleViolation, match="c3 would form a hard corner"):
        g.play("c3")  # b2-c3 pair, c2 white, b3 empty
    h = game_class("minefield").from_position(5, {"white": ["b3", "c2"]}, "black")
    with pytest.raises(RuleViolation, match="hard corner"):
        h.play("b2")  # lone black b2 with the white pair b3-c2 and c3 empty


def test_minefield_switch_in_both_sizes_and_orientations() -> None:
    cls = game_class("minefield")
    cases = [
        ({"black": ["a1"], "white": ["c1", "a2"]}, "c2"),  # 2x3 wide
        ({"black": ["a1"], "white": ["d1", "a2"]}, "d2"),  # 2x4 wide
        ({"black": ["a1"], "white": ["b1", "a3"]}, "b3"),  # 3x2 tall
        ({"black": ["a1"], "white": ["b1", "a4"]}, "b4"),  # 4x2 tall
    ]
    for stones, point in cases:
        g = cls.from_position(6, stones, "black")
        assert g.explain(point) == f"{point} would form a switch"
        # Any stone inside the rectangle breaks the switch.
        blocked = cls.from_position(6, {**stones, "black": [*stones["black"], "b2"]}, "black")
        assert "switch" not in (blocked.explain(point) or "")


def test_minefield_winning_does_not_excuse_a_glyph() -> None:
    # c2 would join b1-b2 to c3-c4 (a win), but c2-d1 black with c1 white and d2 empty is a
    # hard corner.
    stones = {"black": ["b1", "b2", "c3", "c4", "d1"], "white": ["c1"]}
    g = game_class("minefield").from_position(4, stones, "black")
    before = g.state_key()
    with pytest.raises(RuleViolation, match="c2 would form a hard corner"):
        g.play("c2")
    assert g.state_key() == before and not g.is_over
    # The same placement without d1 is a plain win, so the glyph alone made it illegal.
    h = game_class("minefield").from_position(
        4, {"black": ["b1", "b2", "c3", "c4"], "white": ["c1"]}, "black"
    )
    assert h.play("c2").winner == "black"


# ----- Crosscut ------------------------------------------------------------------------------


def test_crosscut_no_chain_flips() -> None:
    # Red c4 flanks d4 against e4; the flipped d4 must not go on to flank d5 against d6.
    stones = {"red": ["e4", "d6"], "blue": ["d4", "d5"]}
    g = game_class("crosscut").from_position(8, stones, "red")
    record = g.play("c4")
    assert record.flipped == ("d4",)
    assert g.at("d5") == "blue"


def test_crosscut_all_segments_flip_or_none() -> None:
    # c4 flanks d4 (to e4) and c3 (to c2); both flip together.
    stones = {"red": ["e4", "c2"], "blue": ["d4", "c3"]}
    g = game_class("crosscut").from_position(8, stones, "red")
    assert sorted(g.play("c4").flipped) == ["c3", "d4"]
    # If the cut outweighs the creation, neither flips.
    stones = {"red": ["e4", "c2"], "blue": ["d4", "c3", "d3", "e3", "f3", "b3"]}
    h = game_class("crosscut").from_position(8, stones, "red")
    record = h.play("c4")
    assert record.flipped == () and h.at("c4") == "red"


def test_crosscut_interior_placements_are_always_legal() -> None:
    g = new_game("crosscut", 8)
    assert set(g.legal_moves()) == {g.grid.names[i] for i in range(64) if g.grid.interior >> i & 1}


def test_crosscut_perimeter_placement_must_flip_and_is_removed() -> None:
    g = new_game("crosscut", 8)
    with pytest.raises(RuleViolation, match="a4 is on the perimeter and flips nothing"):
        g.play("a4")
    stones = {"red": ["c4"], "blue": ["b4"]}
    h = game_class("crosscut").from_position(8, stones, "red")
    record = h.play("a4")
    assert record.flipped == ("b4",) and record.stays is False
    assert h.at("a4") is None and h.at("b4") == "red"


def test_crosscut_wins_with_a_run_of_size_minus_two() -> None:
    stones = {"red": ["b2", "c2", "d2", "e2"], "blue": ["b5"]}
    g = game_class("crosscut").from_position(7, stones, "red")
    record = g.play("f2")
    assert record.winner == "red"
    assert g.winning_path == ("b2", "c2", "d2", "e2", "f2")


# ----- Clearcut ------------------------------------------------------------------------------


def test_clearcut_removal_takes_exactly_the_two_checkers() -> None:
    # c3 forms the crosscut c3/d4 against d3/c4; its new group (a3 b3 c2 c3) is 4 > 2.
    stones = {"red": ["a3", "b3", "c2", "d4"], "blue": ["d3", "d2", "c4", "b4"]}
    g = game_class("clearcut").from_position(5, stones, "red")
    record = g.play("c3")
    assert sorted(record.removed) == ["c4", "d3"]
    assert g.at("d2") == "blue" and g.at("b4") == "blue"  # never whole groups
    assert g.at("c4") is None and g.at("d3") is None


def test_clearcut_win_is_checked_after_removal() -> None:
    stones = {"red": ["c1", "c2", "b3", "b4", "b5", "d4"], "blue": ["d3", "d2", "c4", "e4"]}
    g = game_class("clearcut").from_position(5, stones, "red")
    record = g.play("c3")
    assert sorted(record.removed) == ["c4", "d3"]
    assert record.winner == "red" and g.is_over
    assert g.winning_path[0] == "c1" and g.winning_path[-1] == "b5"


def test_clearcut_multiple_crosscuts_must_each_satisfy_the_rule() -> None:
    # c3 forms two crosscuts: left one against b3/c2 (groups 1, 1), right one against d3/c4.
    stones = {"red": ["b2", "d4", "c1"], "blue": ["b3", "c2", "d3", "c4", "c5"]}
    g = game_class("clearcut").from_position(5, stones, "red")
    reason = g.explain("c3")
    assert reason is not None and "crosscuts" in reason
