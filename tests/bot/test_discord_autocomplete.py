"""Autocomplete choices for /move, checked against the engine on random positions."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.positions import legal_choices, position_of
from bot.service import GameInfo, Seat, TimeControl
from rules import game_names, new_game

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def info_for(record: str, game: str, size: int, game_id: int = 1) -> GameInfo:
    return GameInfo(
        id=game_id,
        guild_id=1,
        channel_id=2,
        game=game,
        title=game,
        size=size,
        status="active",
        seats=(Seat(11, "red"), Seat(22, "blue")),
        to_move_colour="red",
        to_move_id=11,
        turn_number=1,
        version=0,
        record=record,
        moves=(),
        time_control=TimeControl(),
        turn_started_at=NOW,
        deadline=None,
        takeback=None,
        result=None,
        created_at=NOW,
        updated_at=NOW,
    )


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(sorted(game_names())),
    size=st.integers(5, 10),
    plies=st.integers(0, 30),
    seed=st.integers(0, 10_000),
    typed=st.sampled_from(["", "a", "C", "d1", "e1", " b ", "s", "swap", "z", "1", "j10"]),
)
def test_choices_are_the_first_legal_moves_matching_the_prefix(
    game: str, size: int, plies: int, seed: int, typed: str
) -> None:
    rng = random.Random(seed)
    g = new_game(game, size)
    for _ in range(plies):
        if g.is_over:
            break
        g.play(rng.choice(g.legal_moves()))
    info = info_for(g.record(), game, size)
    choices = legal_choices(info, typed)
    prefix = typed.strip().lower()
    matching = [m for m in g.legal_moves() if m.startswith(prefix)]
    assert choices == matching[:25]
    assert len(choices) <= 25 and len(set(choices)) == len(choices)


def test_positions_are_private_copies_and_keyed_by_record() -> None:
    a = info_for("minefield 5: c3", "minefield", 5, game_id=1)
    first = position_of(a)
    first.play("a1")  # mutating a copy must not leak into the cache
    assert position_of(a).moves == ["c3"]
    # same id and version but another record (another database): never the stale position
    b = info_for("minefield 5: d4", "minefield", 5, game_id=1)
    assert position_of(b).moves == ["d4"]
