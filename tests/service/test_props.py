"""Property: any sequence of player actions keeps the database consistent with its move list.

Hypothesis draws sequences of moves (legal or not), resigns, takeback requests and answers by
either player; after each sequence the stored record replays from the moves table, a cold
engine agrees with the cached one, and a refused action never changed a table.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pg_server import create_database, drop_database, table_rows

from bot.service import GameService, ServiceError, TimeControl
from bot.store import open_store
from rules import parse_record

GUILD, CHANNEL = 1000, 2000

actions = st.lists(
    st.tuples(
        st.sampled_from(["move", "move", "move", "bad", "resign", "ask", "yes", "no"]),
        st.sampled_from([ALICE, BOB]),
        st.integers(0, 10_000),
    ),
    max_size=40,
)


def rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {n: sorted(conn.execute(f"SELECT * FROM {n}").fetchall(), key=repr) for n in names}
    finally:
        conn.close()


async def run(
    game: str,
    steps: list[tuple[str, int, int]],
    db: Path | str,
    rows: Callable[[Any], dict[str, list[tuple[Any, ...]]]] = rows,
) -> None:
    async with await open_store(db) as store:
        service = GameService(store, rng=random.Random(0))
        challenge = await service.create_challenge(
            GUILD, CHANNEL, ALICE, BOB, game, 5, "random", TimeControl()
        )
        game_id = (await service.accept_challenge(challenge.id, BOB)).game.id
        for kind, user, pick in steps:
            before = rows(db)
            try:
                if kind in ("move", "bad"):
                    position = await service.position(game_id)
                    legal = position.legal_moves() or ["a1"]
                    move = legal[pick % len(legal)] if kind == "move" else f"z{pick}"
                    await service.play_move(CHANNEL, user, move)
                elif kind == "resign":
                    await service.resign(CHANNEL, user)
                elif kind == "ask":
                    await service.play.request_takeback(CHANNEL, user)
                else:
                    await service.play.answer_takeback(CHANNEL, user, kind == "yes")
            except ServiceError:
                assert rows(db) == before
        warm = await service.get_game_by_id(game_id)
        service.core.forget_engines()
        cold = await service.get_game_by_id(game_id)
        assert warm == cold
        record = await service.games.game_record(game_id)
    assert parse_record(record.text).moves == [m.move for m in record.moves]
    assert record.game.version >= len(record.moves)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@pytest.mark.slow
@given(game=st.sampled_from(["minefield", "clearpath", "crosscut"]), steps=actions)
def test_random_action_sequences_keep_the_store_consistent(
    engine: str, request: pytest.FixtureRequest, game: str, steps: list[tuple[str, int, int]]
) -> None:
    if engine == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(run(game, steps, Path(folder) / "p.db"))
        return
    server = request.getfixturevalue("pg_server")  # session-wide; each example gets a database

    async def on_postgres() -> None:
        name = server.next_name("props")
        url = await create_database(server, name)
        try:
            await run(game, steps, url, table_rows)
        finally:
            await drop_database(server, name)

    asyncio.run(on_postgres())
