"""Autocomplete choices for /move, checked against the engine on random positions."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.play.positions import legal_choices, matching_moves, position_of
from bot.service import GameInfo, GameService, Seat, TimeControl
from rules import game_names, new_game, parse_record

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
    choices = matching_moves(parse_record(g.record()), typed)
    prefix = typed.strip().lower()
    matching = [m for m in g.legal_moves() if m.startswith(prefix)]
    assert choices == matching[:25]
    assert len(choices) <= 25 and len(set(choices)) == len(choices)


async def test_positions_come_from_the_service_as_private_copies(
    service: GameService, start_game: Any
) -> None:
    started = await start_game("minefield", 5)  # ALICE (11) moves first in channel 2000
    moved = (await service.play_move(2000, 11, "c3")).game
    first = await position_of(service, moved)
    first.play("a1")  # mutating a copy must not leak into what the service holds
    assert (await position_of(service, moved)).moves == ["c3"]
    assert await legal_choices(service, moved, "c") == ["c1", "c2", "c4", "c5"]
    # a snapshot older than the stored game: exactly its own position, never a newer one
    assert (await position_of(service, started)).moves == []
