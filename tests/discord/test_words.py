"""The words of a turn in the embed: every effect a player needs to know about, by name."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.words import describe_turn
from rules import MoveRecord, game_names, new_game

NAMES = {"red": "Ann", "blue": "Ben", "black": "Ann", "white": "Ben"}


def rec(**fields: object) -> MoveRecord:
    base: dict[str, object] = {"ply": 0, "turn": 1, "move": "c3", "player": "red", "point": "c3"}
    base.update(fields)
    return MoveRecord(**base)  # type: ignore[arg-type]


def test_single_placement() -> None:
    assert describe_turn([rec()], NAMES) == "Ann (red) placed on c3."


def test_flips_and_the_perimeter_disc_coming_off() -> None:
    text = describe_turn(
        [rec(point="a3", move="a3", flipped=("b3", "c3"), stays=False)], NAMES, "disc"
    )
    assert "2 discs flipped (b3 and c3)" in text
    assert "perimeter disc on a3 was taken off" in text


def test_removals() -> None:
    text = describe_turn([rec(removed=("d4", "e5"))], NAMES, "checker")
    assert "2 enemy checkers removed (d4 and e5)" in text


def test_chain_in_progress_and_finished() -> None:
    chain = [rec(point="a1", move="a1", continues=True), rec(ply=1, point="b1", move="b1")]
    assert "a chain of 2 stones: a1 and b1" in describe_turn(chain, NAMES)
    assert "must place again" in describe_turn(chain[:1], NAMES)


def test_skip_win_draw_and_swap() -> None:
    assert "Ben (blue) had no legal placement" in describe_turn([rec(skipped="blue")], NAMES)
    assert describe_turn([rec(winner="red")], NAMES).endswith("Ann (red) wins!")
    assert "draw" in describe_turn([rec(draw=True)], NAMES)
    # after the swap Ben holds red: the sentence follows the seats as they are now
    swapped = {"red": "Ben", "blue": "Ann"}
    swap = rec(move="swap", point=None, swap=True, player="blue")
    assert describe_turn([swap], swapped).startswith("Ben (red) swapped: they now play red")
    assert describe_turn([], NAMES) == "No moves yet."


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(sorted(game_names())), seed=st.integers(0, 10_000))
def test_every_turn_of_random_games_names_its_placements(game: str, seed: int) -> None:
    import random

    rng = random.Random(seed)
    g = new_game(game, 6)
    names = dict(zip(g.players, ("Ann", "Ben"), strict=True))
    while not g.is_over:
        g.play(rng.choice(g.legal_moves()))
        turn = g.last_turn()
        text = describe_turn(turn, names, g.stone_word, g.players)
        for record in turn:
            if record.point:
                assert record.point in text
            for point in (*record.flipped, *record.removed):
                assert point in text
        if turn[-1].skipped:
            assert "skipped" in text
    assert ("wins!" in text) or ("draw" in text)
