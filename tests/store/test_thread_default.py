"""Game threads by default for new servers, while servers that already played keep theirs.

A server with no saved settings gets threads on; the migration that made this the default
gives every server the database already knew (it played or challenged) a row with threads
off, and leaves servers that saved settings exactly as they were.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from game_fixtures import ALICE, BOB

from bot.service import GameService, TimeControl
from bot.service.clocks.types import DEFAULT_BANK
from bot.store import MIGRATIONS, SCHEMA_VERSION, open_store

KNOWN, CHALLENGED, SAVED, NEW = 1000, 1001, 1002, 1003
THREADS = next(
    i
    for i, step in enumerate(MIGRATIONS)
    if any("NOT IN (SELECT guild_id FROM guild_settings)" in s for s in step)
)
"""The index of the migration that pins known servers to channels (later ones may follow)."""


async def test_existing_servers_keep_playing_in_channels_and_new_ones_get_threads(
    tmp_path: Path,
) -> None:
    path = tmp_path / "before.db"
    conn = sqlite3.connect(path)
    try:
        for statement in (s for step in MIGRATIONS[:THREADS] for s in step):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {THREADS}")
        conn.execute(
            "INSERT INTO games (guild_id, channel_id, game, size, first_id, second_id, record,"
            " to_move, turn_started_at, created_at, updated_at)"
            " VALUES (?, 2000, 'minefield', 5, ?, ?, 'minefield 5:', 'black', 5, 5, 5)",
            (KNOWN, ALICE, BOB),
        )
        for guild in (CHALLENGED, SAVED):
            conn.execute(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, game, size, first,"
                " created_at, expires_at) VALUES (?, 2100, ?, 'minefield', 5, 'me', 7, 99)",
                (guild, ALICE),
            )
        conn.execute(
            "INSERT INTO guild_settings (guild_id, use_threads, challenge_expiry, updated_at)"
            " VALUES (?, 1, 3600, 3)",
            (SAVED,),
        )
        conn.commit()
    finally:
        conn.close()

    async with await open_store(path) as store:
        assert await store.schema_version() == SCHEMA_VERSION
        service = GameService(store)
        known = await service.moderation.get_settings(KNOWN)
        challenged = await service.moderation.get_settings(CHALLENGED)
        saved = await service.moderation.get_settings(SAVED)
        new = await service.moderation.get_settings(NEW)
    assert not known.use_threads and not challenged.use_threads
    # the rest of a pinned row is what a server without settings had before: no clock (a
    # new server starts with the time bank; one that already played keeps playing untimed)
    assert known.default_time_control == challenged.default_time_control == TimeControl()
    assert new.default_time_control == DEFAULT_BANK
    assert known.challenge_expiry == new.challenge_expiry and known.ratings_enabled
    assert saved.use_threads and saved.challenge_expiry == 3600
    assert new.use_threads
    conn = sqlite3.connect(path)
    try:
        stamps = dict(conn.execute("SELECT guild_id, updated_at FROM guild_settings").fetchall())
    finally:
        conn.close()
    assert stamps == {KNOWN: 5, CHALLENGED: 7, SAVED: 3}
