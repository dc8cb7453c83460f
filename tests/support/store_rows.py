"""New rows for the store contract tests: a challenge, a game, and reading one back."""

from __future__ import annotations

from dataclasses import replace

from game_fixtures import ALICE, BOB

from bot.store import (
    ClockRow,
    GameRow,
    NewChallenge,
    NewGame,
    Store,
)

GUILD, OTHER_GUILD = 1000, 1001
CHANNEL = 2000
BIG = 2**63 - 1
"""Discord ids are 64-bit: the largest must round-trip everywhere."""


def new_challenge(**changes: object) -> NewChallenge:
    base = NewChallenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
        game="minefield",
        size=5,
        first="me",
        per_move=3600,
        reminders=(1800, 3240),
        created_at=1_000,
        expires_at=9_000,
        options=(("ai_level", "2"),),
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def new_game(**changes: object) -> NewGame:
    base = NewGame(
        guild_id=GUILD,
        channel_id=CHANNEL,
        game="minefield",
        size=5,
        first_id=ALICE,
        second_id=BOB,
        record="minefield 5:",
        to_move="black",
        to_move_id=ALICE,
        per_move=3600,
        reminders=(1800,),
        clock=ClockRow(1_000, 3_601_000, 1_801_000),
        challenge_id=None,
        created_at=1_000,
        options=(("ai_level", "3"), ("a", "b")),
    )
    return replace(base, **changes)  # type: ignore[arg-type]


async def read_game(store: Store, game_id: int) -> GameRow:
    async with store.read() as tx:
        row = await tx.games.game(game_id)
    assert row is not None
    return row


async def inserted(store: Store, **changes: object) -> GameRow:
    async with store.write() as tx:
        row = await tx.games.insert_game(new_game(**changes))
    assert await read_game(store, row.id) == row
    return row
