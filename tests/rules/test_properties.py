"""Property tests: invariants that must hold in every position random play can reach."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import minefield_glyphs
from rules_helpers import FOUR_GAMES, random_playout

from rules import IllegalMove, new_game, parse_record
from rules.clearcut import Clearcut
from rules.geometry import bits_list

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
games = st.sampled_from(FOUR_GAMES)
seeds = st.integers(min_value=0, max_value=2**32)


def _size(name: str, rnd: random.Random) -> int:
    return rnd.choice([5, 6, 8]) if name == "crosscut" else rnd.choice([4, 5, 7, 9])


@pytest.mark.slow
@SETTINGS
@given(seed=seeds)
def test_no_glyph_ever_stands_in_minefield(seed: int) -> None:
    rnd = random.Random(seed)
    game = new_game("minefield", rnd.choice([4, 6, 9]))
    for g in random_playout(game, rnd):
        n = g.size
        board = {(i % n, i // n): g.players.index(o) for i, o in enumerate(g.cells()) if o}
        assert minefield_glyphs(board, n) == []


@SETTINGS
@given(seed=seeds)
def test_crosscut_perimeter_is_empty_after_every_turn(seed: int) -> None:
    rnd = random.Random(seed)
    game = new_game("crosscut", rnd.choice([5, 6, 8, 10]))
    for g in random_playout(game, rnd):
        assert not (g._stones[0] | g._stones[1]) & g.grid.perimeter
        last = g.last_move
        assert last is not None
        if not last.stays:
            assert last.flipped  # a perimeter disc is only ever placed to flip


@SETTINGS
@given(name=games, seed=seeds)
def test_an_illegal_move_changes_nothing(name: str, seed: int) -> None:
    rnd = random.Random(seed)
    game = new_game(name, _size(name, rnd))
    for _ in random_playout(game, rnd, max_plies=rnd.randrange(1, 60)):
        pass
    key, history = game.state_key(), game.history
    legal = set(game.legal_moves())
    candidates = [*game.grid.names, "swap", "z99", "", "c0", "3c", "a1a"]
    for move in rnd.sample(candidates, 12):
        if move in legal:
            continue
        try:
            game.play(move)
        except IllegalMove as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{move} was accepted but not listed as legal")
        assert game.state_key() == key and game.history == history


@SETTINGS
@given(name=games, seed=seeds)
def test_record_round_trip_and_replay_give_the_same_state(name: str, seed: int) -> None:
    rnd = random.Random(seed)
    game = new_game(name, _size(name, rnd))
    for _ in random_playout(game, rnd):
        pass
    text = game.record()
    again = parse_record(text)
    assert again.record() == text
    assert again.state_key() == game.state_key()
    assert again.history == game.history
    # Records without skip marks replay to the same game too.
    bare = text.replace(" -", "")
    assert parse_record(bare).state_key() == game.state_key()


@SETTINGS
@given(name=games, seed=seeds)
def test_legal_moves_agrees_with_play_for_every_point(name: str, seed: int) -> None:
    rnd = random.Random(seed)
    game = new_game(name, _size(name, rnd))
    for g in random_playout(game, rnd, max_plies=rnd.randrange(0, 80)):
        if rnd.random() > 0.3:
            continue
        legal = set(g.legal_moves())
        for point in [*g.grid.names, "swap"]:
            trial = g.copy()
            try:
                trial.play(point)
                accepted = True
            except IllegalMove:
                accepted = False
            assert accepted == (point in legal), (point, g.history)


@SETTINGS
@given(name=games, seed=seeds)
def test_pop_restores_and_copies_are_independent(name: str, seed: int) -> None:
    rnd = random.Random(seed)
    game = new_game(name, _size(name, rnd))
    keys = [game.state_key()]
    for g in random_playout(game, rnd):
        keys.append(g.state_key())
    snapshot = game.copy()
    while game.history:
        keys.pop()
        game.pop()
        assert game.state_key() == keys[-1]
    assert snapshot.state_key() != game.state_key() or not snapshot.history
    assert parse_record(snapshot.record()).state_key() == snapshot.state_key()


@SETTINGS
@given(name=games, seed=seeds)
def test_to_move_always_names_a_player_who_can_move(name: str, seed: int) -> None:
    rnd = random.Random(seed)
    game = new_game(name, _size(name, rnd))
    for g in random_playout(game, rnd):
        if g.is_over:
            assert g.to_move is None and g.legal_moves() == []
        else:
            assert g.to_move in g.players and g.legal_moves()


def test_a_copy_and_its_original_never_share_state_after_pops() -> None:
    for name in FOUR_GAMES:
        game = new_game(name, 6)
        rnd = random.Random(name)
        for _ in random_playout(game, rnd, max_plies=12):
            pass
        clone = game.copy()
        game.pop()
        clone.pop()
        key = clone.state_key()
        move = game.legal_moves()[0]
        game.play(move)
        assert clone.state_key() == key, name


@SETTINGS
@given(seed=seeds)
def test_clearcut_capture_mask_is_every_legal_placement_that_removes_checkers(seed: int) -> None:
    """The search's playouts trust ``capture_mask``; here each point is played on a copy."""
    rnd = random.Random(seed)
    game = new_game("clearcut", rnd.choice([4, 5, 7]))
    for g in random_playout(game, rnd):
        mask = g.capture_mask()
        for p in g.legal_points():
            assert bool(mask >> p & 1) == bool(g.copy().play_index(p).removed)
        assert not mask & ~g.legal_mask()
    assert game.capture_mask() == 0  # the game is over


def test_clearcut_capture_mask_holds_only_crosscuts_the_rule_allows() -> None:
    """b2 captures for Red only while Red's new group would outgrow Blue's crosscut groups."""
    stones = {"red": ["a1", "c2"], "blue": ["b1", "a2"]}
    game = Clearcut.from_position(5, stones, to_move="red")
    names = game.grid.names
    assert [names[p] for p in range(game.grid.area) if game.capture_mask() >> p & 1] == ["b2"]
    stones["blue"].append("a3")  # Blue's a2 group grows to 2, as big as Red's b2-c2
    game = Clearcut.from_position(5, stones, to_move="red")
    assert game.capture_mask() == 0
    assert not game.legal_mask() >> names.index("b2") & 1


def test_bits_list_lists_the_set_bits_lowest_first_at_every_width() -> None:
    """The byte-table bits_list against the plain definition, on masks of every width up to
    past 19×19 (the tables grow with the widest mask)."""
    rng = random.Random(49)
    for width in [0, 1, 7, 8, 9, 63, 64, 65, 81, 169, 361, 400, 700]:
        for density in (0.05, 0.5, 0.95):
            mask = sum(1 << i for i in range(width) if rng.random() < density)
            assert bits_list(mask) == [i for i in range(width) if mask >> i & 1]
    assert bits_list(0) == []
